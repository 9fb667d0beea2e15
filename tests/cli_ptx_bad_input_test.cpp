// gpucmp-ptx given bad input: each subcommand that reads PTX, SASS or a
// compute-cache folder answers exit code 2 and one error line naming the
// problem, and writes no output file.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = GPUCMP_TEST_FIXTURES;
const std::string kPtx = kFixtures + "/ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl/mriq-fast.ptx";
const std::string kSass =
    kFixtures + "/ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl/mriq-fast.sass";
const std::string kCache = kFixtures + "/jit_cache/gpu/h200-driver580.159.04";

void expect_ptx_error(const std::string& args, const std::string& needle) {
  expect_one_error_line(run_command(std::string(GPUCMP_PTX_PATH) + " " + args), needle,
                        "gpucmp-ptx " + args);
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string kGarbage = std::string(
    "\x7f"
    "ELF\x02\x01\x00\x00\xde\xad\xbe\xef",
    12);

// ---- PTX inputs (stats, normalize, opt, diff) ----

// Used to print an empty table and exit 0.
TEST(PtxBadInput, StatsOfAnEmptyFile) {
  const std::string path = write_file(temp_dir("ptx-empty"), "empty.ptx", "");
  expect_ptx_error("stats " + path, "empty.ptx: empty file, not PTX");
}

TEST(PtxBadInput, StatsOfCommentsWithoutDirectives) {
  const std::string path = write_file(temp_dir("ptx-comments"), "c.ptx", "// only a comment\n\n");
  expect_ptx_error("stats " + path, "c.ptx: not PTX (no .version directive)");
}

TEST(PtxBadInput, StatsOfBinaryGarbage) {
  const std::string path = write_file(temp_dir("ptx-garbage"), "g.ptx", kGarbage);
  expect_ptx_error("stats " + path, "g.ptx: binary data (byte 0x7f at offset 0), not PTX");
}

TEST(PtxBadInput, StatsOfPlainText) {
  const std::string path = write_file(temp_dir("ptx-text"), "t.ptx", "hello world\n");
  expect_ptx_error("stats " + path, "malformed PTX: ");
}

TEST(PtxBadInput, StatsOfTruncatedPtx) {
  const std::string text = read_file(kPtx);
  ASSERT_GT(text.size(), 2000u);
  const std::string path = write_file(temp_dir("ptx-cut"), "cut.ptx", text.substr(0, 2000));
  expect_ptx_error("stats " + path, "malformed PTX: " + path + ":");
}

TEST(PtxBadInput, StatsOfADirectory) {
  const std::string dir = temp_dir("ptx-dir");
  expect_ptx_error("stats " + dir, dir + ": cannot read: is a directory");
}

TEST(PtxBadInput, StatsOfAMissingFile) {
  expect_ptx_error("stats /nonexistent/x.ptx", "/nonexistent/x.ptx: cannot read: No such file");
}

TEST(PtxBadInput, StatsOfADevice) {
  expect_ptx_error("stats /dev/zero", "/dev/zero: cannot read: not a regular file");
}

TEST(PtxBadInput, StatsOfAnUnreadableFile) {
  if (running_as_root()) GTEST_SKIP() << "root reads a file of mode 000";
  const std::string path = write_file(temp_dir("ptx-unreadable"), "u.ptx", read_file(kPtx));
  ::chmod(path.c_str(), 0);
  expect_ptx_error("stats " + path, "Permission denied");
}

// A bad second file: one error line, not the first file's table and then the error.
TEST(PtxBadInput, StatsPrintsNothingBeforeABadFile) {
  const std::string path = write_file(temp_dir("ptx-second"), "empty.ptx", "");
  expect_ptx_error("stats " + kPtx + " " + path, "empty.ptx: empty file, not PTX");
}

TEST(PtxBadInput, NormalizeOfAnEmptyFileWritesNoOutput) {
  const std::string dir = temp_dir("ptx-normalize");
  const std::string path = write_file(dir, "empty.ptx", "");
  expect_ptx_error("normalize " + path + " -o " + dir + "/out.ptx", "empty file, not PTX");
  expect_no_file(dir + "/out.ptx");
}

TEST(PtxBadInput, NormalizeIntoADirectory) {
  const std::string dir = temp_dir("ptx-normalize-dir");
  expect_ptx_error("normalize " + kPtx + " -o " + dir, dir + ": cannot write: is a directory");
  expect_empty_dir(dir);
}

// ---- where -o writes: a device or a FIFO in place, a link's
// target through the link; the tool wrote <target>.partial-PID and renamed
// it over the target, replacing the device (as root: /dev/full) or the link.

TEST(PtxOutput, NormalizeIntoAFifoWritesThroughIt) {
  const std::string dir = temp_dir("ptx-out-fifo");
  const std::string fifo = dir + "/fifo", copy = dir + "/copy.ptx";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const ProcessResult r =
      run_command("timeout 20 cat " + fifo + " >" + copy + " & " + GPUCMP_PTX_PATH + " normalize " +
                  kPtx + " -o " + fifo + "; code=$?; wait; exit $code");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::is_fifo(fifo)) << fifo << " was replaced";
  EXPECT_NE(read_file(copy).find(".version"), std::string::npos) << read_file(copy);
}

TEST(PtxOutput, NormalizeThroughASymlinkKeepsTheLink) {
  const std::string dir = temp_dir("ptx-out-link");
  write_file(dir, "real.ptx", "old\n");
  fs::create_symlink("real.ptx", dir + "/link.ptx");
  const ProcessResult r =
      run_command(std::string(GPUCMP_PTX_PATH) + " normalize " + kPtx + " -o " + dir + "/link.ptx");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(dir + "/link.ptx")) << "the link was replaced";
  EXPECT_NE(read_file(dir + "/real.ptx").find(".version"), std::string::npos);
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2) << "a temporary file was left behind";
}

// A write that fails (a full device): exit 2 and one line; the device stays one.
TEST(PtxOutput, NormalizeIntoAFullDevice) {
  ASSERT_TRUE(fs::is_character_file("/dev/full"));
  expect_ptx_error("normalize " + kPtx + " -o /dev/full",
                   "/dev/full: cannot write: No space left on device");
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
}

TEST(PtxOutput, NormalizeToAFullStdout) {
  expect_one_error_line(
      run_command(std::string("(") + GPUCMP_PTX_PATH + " normalize " + kPtx + " 2>&1 >/dev/full)"),
      "gpucmp-ptx: error: stdout: cannot write", "normalize >/dev/full");
}

TEST(PtxBadInput, OptWithAnEmptyPassList) {
  expect_ptx_error("opt --passes '' " + kPtx, "--passes '': an empty pass name");
}

TEST(PtxBadInput, OptWithAnEmptyPassInTheList) {
  expect_ptx_error("opt --passes cse,,mad " + kPtx, "--passes 'cse,,mad': an empty pass name");
}

// CLI11 answered "A subcommand is required".
TEST(PtxBadInput, UnknownCommand) {
  expect_ptx_error("bogus " + kPtx, "bogus: not a command (one of dump, normalize");
}

// An empty -o used to mean "stdout": a given empty path is refused.
TEST(PtxBadInput, NormalizeToAnEmptyPath) {
  expect_ptx_error("normalize " + kPtx + " -o ''", "--out: empty path");
}

TEST(PtxBadInput, OptOfGarbageWritesNoOutput) {
  const std::string dir = temp_dir("ptx-opt");
  const std::string path = write_file(dir, "g.ptx", kGarbage);
  expect_ptx_error("opt --passes cse " + path + " -o " + dir + "/out.ptx", "binary data");
  expect_no_file(dir + "/out.ptx");
}

// A step of cleanup is a pass of its own; a name the registry lacks is refused
// before any pass runs, naming the known ones.
TEST(PtxBadInput, OptUnknownPassAfterAKnownOneWritesNoOutput) {
  const std::string dir = temp_dir("ptx-opt-pass");
  expect_ptx_error("opt --passes inline,frobnicate " + kPtx + " -o " + dir + "/out.ptx",
                   "unknown PTX pass 'frobnicate' (known: cleanup, unroll");
  expect_no_file(dir + "/out.ptx");
  const ProcessResult ok =
      run_command(std::string(GPUCMP_PTX_PATH) + " opt --passes inline,promote-slots " + kPtx);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("// promote-slots: 0 changed"), std::string::npos) << ok.output;
}

// `gpucmp-ptx passes`: the registry, one line per pass (name, scope, description).
TEST(PtxPasses, ListsTheRegistry) {
  const ProcessResult r = run_command(std::string(GPUCMP_PTX_PATH) + " passes");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto lines = nonempty_lines(r.output);
  std::vector<std::string> names;
  for (const std::string& line : lines) {
    names.push_back(line.substr(0, line.find(' ')));
    const bool scoped =
        line.find(" function ") != std::string::npos || line.find(" module ") != std::string::npos;
    EXPECT_TRUE(scoped) << line;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"inline", "promote-slots", "copy-prop", "cleanup",
                                             "unroll", "cse", "mad", "licm", "align", "ftz",
                                             "shared32", "cpasync", "cpasync-nobar"}))
      << r.output;
}

TEST(PtxBadInput, DiffWithADirectory) {
  const std::string dir = temp_dir("ptx-diff-dir");
  expect_ptx_error("diff " + dir + " " + kPtx, dir + ": cannot read: is a directory");
}

TEST(PtxBadInput, DiffOfEmptyFiles) {
  const std::string path = write_file(temp_dir("ptx-diff-empty"), "empty.ptx", "");
  expect_ptx_error("diff " + path + " " + path, "empty file, not PTX");
}

// ---- SASS inputs (stats --sass, diff of two .sass) ----

TEST(PtxBadInput, StatsSassEmpty) {
  const std::string path = write_file(temp_dir("sass-empty"), "e.sass", "");
  expect_ptx_error("stats " + kPtx + " --sass " + path, "e.sass: empty file, not SASS");
}

TEST(PtxBadInput, StatsSassWithoutInstructions) {
  const std::string path = write_file(temp_dir("sass-none"), "n.sass", "// SASS: label only\n");
  expect_ptx_error("stats " + kPtx + " --sass " + path, "n.sass: not SASS (no instruction lines");
}

TEST(PtxBadInput, DiffSassGarbage) {
  const std::string path = write_file(temp_dir("sass-garbage"), "g.sass", kGarbage);
  expect_ptx_error("diff " + kSass + " " + path, "g.sass: binary data");
}

// ---- compute-cache folders (cache-sass) ----

TEST(PtxBadInput, CacheSassOfAFile) {
  expect_ptx_error("cache-sass --cache " + kPtx + " --out /tmp/unused --label x", "not a folder");
}

TEST(PtxBadInput, CacheSassOfAnEmptyFolderWritesNothing) {
  const std::string dir = temp_dir("cache-empty");
  fs::create_directories(dir + "/cache");
  expect_ptx_error("cache-sass --cache " + dir + "/cache --out " + dir + "/out --label x",
                   "holds no cubin");
  expect_no_file(dir + "/out");
}

TEST(PtxBadInput, CacheSassOfGarbageFiles) {
  const std::string dir = temp_dir("cache-garbage");
  fs::create_directories(dir + "/cache/9");
  write_file(dir + "/cache/9", "entry", kGarbage + std::string(4000, '\xab'));
  expect_ptx_error("cache-sass --cache " + dir + "/cache --out " + dir + "/out --label x",
                   "holds no cubin");
  expect_no_file(dir + "/out");
}

TEST(PtxBadInput, CacheSassOfATruncatedCubin) {
  const std::string dir = temp_dir("cache-cut");
  fs::copy(kCache, dir + "/cache", fs::copy_options::recursive);
  std::string entry;
  for (const auto& e : fs::recursive_directory_iterator(dir + "/cache"))
    if (e.is_regular_file() && e.path().filename() != "index") entry = e.path();
  ASSERT_FALSE(entry.empty());
  const std::string text = read_file(entry);
  write_file(fs::path(entry).parent_path(), fs::path(entry).filename(),
             text.substr(0, text.size() / 2));
  expect_ptx_error("cache-sass --cache " + dir + "/cache --out " + dir + "/out --label x",
                   "truncated");
  expect_no_file(dir + "/out");
}

TEST(PtxBadInput, CacheSassOutIsAFile) {
  const std::string path = write_file(temp_dir("cache-out-file"), "out", "x");
  expect_ptx_error("cache-sass --cache " + kCache + " --out " + path + " --label x",
                   "--out " + path + ": not a directory");
}

// ---- dump options ----

TEST(PtxBadInput, DumpPlatformNegative) {
  expect_ptx_error("dump --api opencl --cl-platform=-1 --out /tmp/unused",
                   "--cl-platform -1: must be >= 0");
}

TEST(PtxBadInput, DumpDeviceNotANumber) {
  expect_ptx_error("dump --api opencl --cl-device first --out /tmp/unused",
                   "--cl-device first: not a whole number");
}

TEST(PtxBadInput, DumpJitCacheEmptyPath) {
  expect_ptx_error("dump --api opencl --out /tmp/unused --jit-cache ''", "--jit-cache: empty path");
}

// --api cuda copies the build's dump: an OpenCL-only option is refused by
// name, not dropped.
TEST(PtxBadInput, DumpCudaRefusesOpenclOnlyOptions) {
  for (const std::string option :
       {"--cl-build-options=-DX", "--jit-cache /tmp/unused-cache", "--cl-platform 0",
        "--cl-device 0", "--shard 1/2", "--no-sass", "--no-ptxas-sass"}) {
    const std::string name = option.substr(0, option.find_first_of("= "));
    expect_ptx_error("dump --api cuda --out /tmp/unused " + option,
                     "dump --api cuda: " + name + " applies to --api opencl only");
  }
}

TEST(PtxBadInput, DumpBuildOptionsBlank) {
  expect_ptx_error("dump --api opencl --out /tmp/unused --cl-build-options ' '",
                   "--cl-build-options: empty");
}

// Options the OpenCL compiler refuses are named before anything is built or
// written, as gpucmp-bench's --cl-build-options.
TEST(PtxBadInput, DumpBuildOptionsTheCompilerRefuses) {
  const std::string dir = temp_dir("dump-refused-options");
  expect_ptx_error("dump --api opencl --cl-build-options=-cl-std=CL9.9 --out " + dir + "/out",
                   "--cl-build-options '-cl-std=CL9.9'");
  expect_empty_dir(dir);
}

// Platform 0 gives no PTX on PoCL (as in the CTest ptx_dump_needs_ptx_binaries):
// the refused dump leaves neither its --out nor its --jit-cache folder.
TEST(PtxBadInput, DumpWithoutPtxBinariesLeavesNoFolders) {
  const std::string dir = temp_dir("dump-no-ptx");
  expect_ptx_error(
      "dump --api opencl --cl-platform 0 --out " + dir + "/out --jit-cache " + dir + "/cache",
      "returns binaries that are not PTX");
  expect_empty_dir(dir);
}

// Nor the missing parents of --out it created on the way.
TEST(PtxBadInput, DumpWithoutPtxBinariesLeavesNoParentFolders) {
  const std::string dir = temp_dir("dump-no-ptx-parents");
  expect_ptx_error("dump --api opencl --cl-platform 0 --out " + dir + "/new/deeper",
                   "returns binaries that are not PTX");
  expect_empty_dir(dir);
}

TEST(PtxBadInput, DumpOutIsAFile) {
  const std::string path = write_file(temp_dir("dump-out-file"), "out", "x");
  expect_ptx_error("dump --api opencl --out " + path, "--out " + path + ": not a directory");
}

}  // namespace
}  // namespace gpucmp::test
