// --mriq-input / --mriq-output: Parboil's files in, Parboil's layout out.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "bad_input_checks.h"
#include "bench_process.h"
#include "workloads/parboil/mri.h"

namespace gpucmp::test {
namespace {

TEST(ParboilFiles, InputFileIsUsedAndOutputMatchesTheReference) {
  const std::string dir = temp_dir("mriq-files");
  const mri::Dataset d = mri::generate(mri::Kind::q, 64, 8);  // 512 voxels
  mri::write_parboil_input(dir + "/in.bin", d, mri::Kind::q);
  const ProcessResult r = run_bench("--mriq-input " + dir + "/in.bin --mriq-output " + dir +
                                    "/out.bin --samples 1 "
                                    "--benchmark_filter=mriq/opencl/precise");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mriq/opencl/precise/numK:64/numX:512"), std::string::npos) << r.output;
  const auto [re, im] = mri::read_parboil_output(dir + "/out.bin");
  ASSERT_EQ(re.size(), 512u);
  // Voxel 0 against a direct double-precision sum.
  double want_re = 0, want_im = 0;
  for (int k = 0; k < d.numK; ++k) {
    const double arg =
        2 * M_PI * (double(d.kx[k]) * d.x[0] + double(d.ky[k]) * d.y[0] + double(d.kz[k]) * d.z[0]);
    const double mag = double(d.phiR[k]) * d.phiR[k] + double(d.phiI[k]) * d.phiI[k];
    want_re += mag * std::cos(arg);
    want_im += mag * std::sin(arg);
  }
  EXPECT_NEAR(re[0], want_re, 1e-3 * std::fabs(want_re) + 1e-3);
  EXPECT_NEAR(im[0], want_im, 1e-3 * std::fabs(want_im) + 1e-3);
}

TEST(ParboilFiles, TruncatedInputIsAUsageErrorNamingFileAndField) {
  const std::string dir = temp_dir("mriq-truncated");
  const mri::Dataset d = mri::generate(mri::Kind::fhd, 16, 4);
  mri::write_parboil_input(dir + "/in.bin", d, mri::Kind::fhd);
  // An FHD file read as MRI-Q has 2 x numK floats too many.
  const ProcessResult r = run_bench("--mriq-input " + dir + "/in.bin --samples 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir + "/in.bin: oversized"), std::string::npos) << r.output;
  // And an MRI-Q file read as FHD ends inside dR.
  mri::write_parboil_input(dir + "/q.bin", mri::generate(mri::Kind::q, 16, 4), mri::Kind::q);
  const ProcessResult t = run_bench("--mrifhd-input " + dir + "/q.bin --samples 1");
  EXPECT_EQ(t.exit_code, 2) << t.output;
  EXPECT_NE(t.output.find("truncated in field 'dR'"), std::string::npos) << t.output;
}

// ---- every bad file a Parboil reader or writer can be given ----
// Each is refused when the options are parsed: exit 2, one line, nothing run
// and nothing written.

const std::string kFast = " --size quick --benchmark_filter=mriq/opencl/precise --samples 1 ";

void expect_usage_error(const std::string& args, const std::string& needle) {
  expect_one_error_line(run_bench(args), needle, args);
}

// A file of raw int32 counts then float values, as Parboil's reader sees it.
std::string write_raw(const std::string& dir, const std::string& name,
                      const std::vector<std::int32_t>& counts, const std::vector<float>& floats) {
  std::string path = dir + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(counts.data()), std::streamsize(4 * counts.size()));
  out.write(reinterpret_cast<const char*>(floats.data()), std::streamsize(4 * floats.size()));
  return path;
}

// mriq holds numK x 5 + numX x 3 floats after its two counts.
std::vector<float> mriq_floats(int numK, int numX) {
  // (Not "return {n, 0.25f}": that would be the initializer-list constructor.)
  std::vector<float> floats(std::size_t(5 * numK + 3 * numX), 0.25f);
  return floats;
}

// Used to read a directory as a file that "ends at byte 9223372036854775807".
TEST(ParboilFiles, InputIsADirectory) {
  const std::string dir = temp_dir("mriq-dir");
  expect_usage_error("--mriq-input " + dir + kFast, "--mriq-input " + dir + ": is a directory");
}

TEST(ParboilFiles, FhdInputIsADirectory) {
  const std::string dir = temp_dir("mrifhd-dir");
  expect_usage_error("--mrifhd-input " + dir + kFast, "--mrifhd-input " + dir + ": is a directory");
}

TEST(ParboilFiles, InputMissing) {
  expect_usage_error("--mriq-input /nonexistent/in.bin" + kFast, "no such file or directory");
}

TEST(ParboilFiles, InputEmptyPath) {
  expect_usage_error("--mriq-input ''" + kFast, "--mriq-input: empty path");
}

TEST(ParboilFiles, InputEmptyFile) {
  const std::string path = write_raw(temp_dir("mriq-empty"), "in.bin", {}, {});
  expect_usage_error("--mriq-input " + path + kFast, path + ": empty file");
}

// /dev/zero never ends and a FIFO would block: not regular files, refused.
TEST(ParboilFiles, InputIsADevice) {
  expect_usage_error("--mriq-input /dev/zero" + kFast, "/dev/zero: not a regular file");
}

TEST(ParboilFiles, InputUnreadable) {
  if (running_as_root()) GTEST_SKIP() << "root reads a file of mode 000";
  const std::string path =
      write_raw(temp_dir("mriq-unreadable"), "in.bin", {4, 8}, mriq_floats(4, 8));
  ::chmod(path.c_str(), 0);
  expect_usage_error("--mriq-input " + path + kFast, "Permission denied");
}

TEST(ParboilFiles, InputBinaryGarbage) {
  const std::string path = temp_dir("mriq-garbage") + "/in.bin";
  // All 15 bytes, the NUL included (a plain const char* would end at it).
  const std::string garbage("\xde\xad\xbe\xef\x00\x01garbage\xff\xfe", 15);
  std::ofstream(path, std::ios::binary) << garbage;
  expect_usage_error("--mriq-input " + path + kFast, "field 'numK' = ");
}

TEST(ParboilFiles, InputTruncatedInTheCounts) {
  const std::string path = temp_dir("mriq-short") + "/in.bin";
  std::ofstream(path, std::ios::binary).write("\x10\x00\x00\x00\x08\x00", 6);
  expect_usage_error("--mriq-input " + path + kFast, "truncated in field 'numX'");
}

TEST(ParboilFiles, InputTruncatedInAnArray) {
  std::vector<float> floats = mriq_floats(16, 64);
  floats.resize(20);  // kx complete, ky cut after 4 values
  const std::string path = write_raw(temp_dir("mriq-cut"), "in.bin", {16, 64}, floats);
  expect_usage_error("--mriq-input " + path + kFast, "truncated in field 'ky'");
}

TEST(ParboilFiles, InputCountTooLarge) {
  const std::string path = write_raw(temp_dir("mriq-huge"), "in.bin", {1 << 29, 8}, {});
  expect_usage_error("--mriq-input " + path + kFast, "field 'numK' = 536870912: must be in 1..");
}

TEST(ParboilFiles, InputCountZero) {
  const std::string path = write_raw(temp_dir("mriq-zero"), "in.bin", {0, 8}, {});
  expect_usage_error("--mriq-input " + path + kFast, "field 'numK' = 0: must be in 1..");
}

// Counts that do not match the data: more bytes than numK and numX call for.
TEST(ParboilFiles, InputCountsInconsistentWithSize) {
  const std::string path =
      write_raw(temp_dir("mriq-inconsistent"), "in.bin", {4, 8}, mriq_floats(16, 64));
  expect_usage_error("--mriq-input " + path + kFast, "oversized");
}

TEST(ParboilFiles, InputNotFinite) {
  std::vector<float> floats = mriq_floats(4, 8);
  floats[2] = std::numeric_limits<float>::quiet_NaN();
  const std::string path = write_raw(temp_dir("mriq-nan"), "in.bin", {4, 8}, floats);
  expect_usage_error("--mriq-input " + path + kFast, "field 'kx'[2] is not a finite number");
}

TEST(ParboilFiles, OutputIsADirectory) {
  const std::string dir = temp_dir("mriq-out-dir");
  expect_usage_error("--mriq-output " + dir + kFast, "--mriq-output " + dir + ": is a directory");
  expect_empty_dir(dir);
}

TEST(ParboilFiles, OutputInAMissingFolder) {
  const std::string dir = temp_dir("mriq-out-missing");
  expect_usage_error("--mriq-output " + dir + "/no/out.bin" + kFast, "no such directory");
  expect_empty_dir(dir);
}

TEST(ParboilFiles, SaveInputsFolderMissing) {
  expect_usage_error("--mriq-save-inputs /nonexistent/save" + kFast,
                     "--mriq-save-inputs /nonexistent/save: no such file or directory");
}

TEST(ParboilFiles, SaveInputsIsAFile) {
  const std::string path = write_raw(temp_dir("mriq-save-file"), "file", {1}, {});
  expect_usage_error("--mriq-save-inputs " + path + kFast, "file: not a directory");
}

TEST(ParboilFiles, SaveInputsFolderUnwritable) {
  if (running_as_root()) GTEST_SKIP() << "root writes into a folder of mode 555";
  const std::string dir = temp_dir("mriq-save-ro");
  ::chmod(dir.c_str(), 0555);
  expect_usage_error("--mriq-save-inputs " + dir + kFast, "Permission denied");
  expect_empty_dir(dir);
}

// A bad input of one workload stops the run before another saves its datasets.
TEST(ParboilFiles, BadInputLeavesNoSavedInputs) {
  const std::string dir = temp_dir("mriq-save-then-bad");
  const std::string save = dir + "/save";
  std::filesystem::create_directories(save);
  const std::string bad = write_raw(dir, "bad.bin", {}, {});
  expect_usage_error("--mriq-save-inputs " + save + " --mrifhd-input " + bad + kFast, "empty file");
  expect_empty_dir(save);
}

// Datasets are saved as their rows run: a run that selects none (here a
// refused filter) writes nothing.
TEST(ParboilFiles, SaveInputsWritesOnlyTheDatasetsOfRowsThatRun) {
  const std::string save = temp_dir("mriq-save-nothing-runs");
  expect_usage_error("--mriq-save-inputs " + save + " --benchmark_filter=^nothing_matches",
                     "matches no benchmark");
  expect_empty_dir(save);
  const ProcessResult r = run_bench(
      "--size quick --samples 2 --startup off --progress off "
      "--benchmark_filter=^mriq/opencl/precise/ --mriq-save-inputs " +
      save);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(save + "/mriq-numK512-numX4096.bin")) << r.output;
}

}  // namespace
}  // namespace gpucmp::test
