// Bad values of Google Benchmark's own flags, which Google Benchmark alone
// would find too late or report as success: a --benchmark_filter that is not
// a regular expression (it printed "Could not compile benchmark re" and
// exited 0) and a --benchmark_out that cannot be written (it said "invalid
// file name" and exited 1 after setting every device up). Both: exit code 2
// before anything runs, one error line naming the value and why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

std::vector<std::string> error_lines(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.find("error") != std::string::npos) lines.push_back(line);
  return lines;
}

// Exit code 2, exactly one error line, holding every one of `needles`, and
// no benchmark ran.
void expect_refused(const std::string& args, const std::vector<std::string>& needles) {
  const ProcessResult r = run_bench("--size quick --samples 1 " + args);
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
  const auto lines = error_lines(r.output);
  ASSERT_EQ(lines.size(), 1u) << r.output;
  for (const auto& needle : needles)
    EXPECT_NE(lines[0].find(needle), std::string::npos) << "want '" << needle << "' in\n"
                                                        << lines[0];
  EXPECT_EQ(r.output.find("/iterations:"), std::string::npos) << "a benchmark ran:\n" << r.output;
}

TEST(GbenchFlags, FilterThatIsNotARegex) {
  expect_refused("--benchmark_filter='['",
                 {"--benchmark_filter='['", "not a valid regular expression"});
}

// A nested quantifier takes a backtracking engine (std::regex) exponential
// time on every name it does not match: the run never started. Google
// Benchmark and gpucmp both match with POSIX regexec (harness/name_filter.h);
// the test's time limit fails it when either backtracks.
TEST(GbenchFlags, NestedQuantifierFilterEndsAtOnce) {
  expect_refused("--benchmark_filter='(.*)*zz_no_such_row'", {"matches no benchmark"});
  const ProcessResult r =
      run_bench("--size quick --samples 1 --benchmark_filter='^triad/opencl/|(.*)*zz_no_such_row'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("triad/opencl/"), std::string::npos) << r.output;
}

TEST(GbenchFlags, NegatedFilterThatIsNotARegex) {
  expect_refused("--benchmark_filter='-matrixMul/(opencl'",
                 {"--benchmark_filter='-matrixMul/(opencl'", "not a valid regular expression"});
}

TEST(GbenchFlags, OutFileInAFolderThatCannotHoldIt) {
  expect_refused("--benchmark_filter=matrixMul/opencl/tile16/ --benchmark_out=/proc/nope.json",
                 {"--benchmark_out=/proc/nope.json", "cannot write the report there",
                  "No such file or directory"});
}

TEST(GbenchFlags, OutFileThatIsAFolder) {
  const std::string dir = temp_dir("out-is-a-folder");
  expect_refused("--benchmark_filter=matrixMul/opencl/tile16/ --benchmark_out=" + dir,
                 {"--benchmark_out=" + dir, "Is a directory"});
}

TEST(GbenchFlags, OutFileFromTheEnvironment) {
  // Google Benchmark reads BENCHMARK_OUT when the flag is absent; so does the check.
  const ProcessResult r =
      run_bench("--size quick --samples 1 --benchmark_filter=matrixMul/opencl/tile16/",
                "BENCHMARK_OUT=/proc/nope.json");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/proc/nope.json: cannot write the report there"), std::string::npos)
      << r.output;
}

// ---- Google Benchmark's flags with values it would misread ----
// Each was lost or misreported by Google Benchmark: -3 repetitions ended in
// "vector::reserve" (exit 1), 0 ran nothing, xml printed the usage and
// exited 0, an unparsable value left two lines, the second one wrong.

struct BadFlag {
  std::string arg;
  std::string needle;
};

// CTest's test list shows the flag, not the struct's bytes.
void PrintTo(const BadFlag& f, std::ostream* os) { *os << f.arg; }

class GbenchBadFlag : public ::testing::TestWithParam<BadFlag> {};

TEST_P(GbenchBadFlag, RefusedInOneLine) {
  expect_refused("--benchmark_filter=matrixMul/opencl/tile16/ " + GetParam().arg,
                 {GetParam().needle});
}

INSTANTIATE_TEST_SUITE_P(
    Values, GbenchBadFlag,
    ::testing::Values(
        BadFlag{"--benchmark_repetitions=-3", "--benchmark_repetitions=-3: must be a whole number"},
        BadFlag{"--benchmark_repetitions=0", "--benchmark_repetitions=0: must be a whole number"},
        BadFlag{"--benchmark_repetitions=abc", "--benchmark_repetitions=abc: must be"},
        BadFlag{"--benchmark_repetitions=99999999999", "--benchmark_repetitions=99999999999: must"},
        BadFlag{"--benchmark_format=xml", "--benchmark_format=xml: must be one of console, json"},
        BadFlag{"--benchmark_out_format=xml", "--benchmark_out_format=xml: must be one of json"},
        BadFlag{"--benchmark_time_unit=years", "--benchmark_time_unit=years: must be one of ns"},
        BadFlag{"--benchmark_min_time=abc", "--benchmark_min_time=abc: must be a number"},
        BadFlag{"--benchmark_min_time=-1s", "--benchmark_min_time=-1s: must be a number"},
        BadFlag{"--v=abc", "--v=abc: must be a whole number"},
        BadFlag{"--benchmark_context=novalue", "--benchmark_context=novalue: must be KEY=VALUE"},
        BadFlag{"--benchmark_color=maybe", "--benchmark_color=maybe: must be"},
        BadFlag{"--benchmark_min_warmup_time=-5", "--benchmark_min_warmup_time=-5: must be"},
        BadFlag{"--benchmark_list_tests=perhaps", "--benchmark_list_tests=perhaps: must be"},
        BadFlag{"--benchmark_out=", "--benchmark_out=: empty path"},
        BadFlag{"--benchmark_repetitons=3", "--benchmark_repetitons: not a Google Benchmark"},
        BadFlag{"--benchmark_format", "--benchmark_format: needs a value"},
        // A valid value of a flag that changes nothing here: refused as such.
        BadFlag{"--benchmark_min_time=2", "--benchmark_min_time=2: no effect in gpucmp-bench"},
        // A warm-up would rerun each benchmark whole thousands of times (it hung).
        BadFlag{"--benchmark_min_warmup_time=0.1", "--benchmark_min_warmup_time=0.1: only 0"},
        // Listed in --help (Google Benchmark's usage), not supported: said so.
        BadFlag{"--benchmark_dry_run", "--benchmark_dry_run=true: not supported"},
        BadFlag{"--benchmark_dry_run=false", "--benchmark_dry_run=false: not supported"},
        // After "--" Google Benchmark read its flags unchecked (two lines, one its own).
        BadFlag{"-- --benchmark_repetitions=NaN", "--: gpucmp-bench takes no arguments after"}),
    [](const ::testing::TestParamInfo<BadFlag>& info) {
      return "Case" + std::to_string(info.index);
    });

TEST(GbenchFlags, OutFormatFromTheEnvironment) {
  const ProcessResult r = run_bench("--size quick --samples 1", "BENCHMARK_OUT_FORMAT=xml");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(error_lines(r.output).size(), 1u) << r.output;
  EXPECT_NE(r.output.find("BENCHMARK_OUT_FORMAT=xml (environment): must be one of"),
            std::string::npos)
      << r.output;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A filter that selects nothing: Google Benchmark said "Failed to match any
// benchmarks", exited 0 and left the --benchmark_out file empty.
TEST(GbenchFlags, FilterThatMatchesNothingKeepsTheOldReport) {
  const std::string out = temp_dir("filter-nothing") + "/out.json";
  std::ofstream(out) << "{\"old\": true}\n";
  expect_refused("--benchmark_filter=^nothing_matches --benchmark_out=" + out,
                 {"--benchmark_filter=^nothing_matches: matches no benchmark"});
  EXPECT_EQ(file_text(out), "{\"old\": true}\n");
}

// A report that cannot be written is a lost report: exit code 2 and one
// line, not exit 0 (/dev/full takes the open and fails the write).
TEST(GbenchFlags, OutFileOnAFullDevice) {
  const ProcessResult r = run_bench(
      "--size quick --mm-n 64 --samples 1 --startup off --progress off "
      "--benchmark_filter=^matrixMul/opencl/tile16/ --benchmark_out=/dev/full");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const auto lines = error_lines(r.output);
  ASSERT_EQ(lines.size(), 1u) << r.output;
  EXPECT_NE(lines[0].find("gpucmp-bench: error: --benchmark_out=/dev/full: cannot write: No space "
                          "left on device"),
            std::string::npos)
      << lines[0];
}

// /proc/version is a regular file no report can replace: refused before the run.
TEST(GbenchFlags, OutFileThatCannotBeReplaced) {
  expect_refused("--benchmark_filter=matrixMul/opencl/tile16/ --benchmark_out=/proc/version",
                 {"--benchmark_out=/proc/version: cannot write the report there"});
}

// The JSON report on stdout, stdout being /dev/full: exit 2 and one line on stderr.
TEST(GbenchFlags, JsonOnAFullStdout) {
  const ProcessResult r = run_command(
      std::string("(") + GPUCMP_BENCH_PATH +
      " --size quick --mm-n 64 --samples 1 --startup off --progress off --benchmark_format=json "
      "--benchmark_filter=^matrixMul/opencl/tile16/ 2>&1 >/dev/full)");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const auto lines = error_lines(r.output);
  ASSERT_EQ(lines.size(), 1u) << r.output;
  EXPECT_NE(lines[0].find("gpucmp-bench: error: stdout: cannot write"), std::string::npos)
      << lines[0];
}

// A --benchmark_out that is a symbolic link: the report goes to its target,
// the link stays a link.
TEST(GbenchFlags, OutFileThroughASymlink) {
  const std::string dir = temp_dir("out-symlink");
  std::ofstream(dir + "/real.json") << "old\n";
  std::filesystem::create_symlink("real.json", dir + "/link.json");
  const ProcessResult r = run_bench(
      "--size quick --mm-n 64 --samples 1 --startup off --progress off "
      "--benchmark_filter=^matrixMul/opencl/tile16/ --benchmark_out=" +
      dir + "/link.json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "/link.json"));
  EXPECT_NE(file_text(dir + "/real.json").find("matrixMul/opencl/tile16/n:64"), std::string::npos);
}

// Whatever --benchmark_out_format says, a benchmark skipped for want of a
// device (CUDA without a GPU, a PTX variant off NVIDIA's OpenCL) is not an
// error row; the console says "skipped: <why>" on the benchmark's line.
// (JSON: QuickRun.NoRowIsAnErrorOrASkip.)
TEST(GbenchFlags, SkippedBenchmarksAreNoErrorRowsInAnyFormat) {
  const std::string dir = temp_dir("skips-in-formats");
  for (const std::string format : {"console", "csv"}) {
    const std::string out = dir + "/out." + format;
    const ProcessResult r = run_bench(
        "--size quick --mm-n 64 --samples 2 --startup off "
        "--benchmark_filter='^matrixMul/(cuda|opencl)/tile16(-ptx-O0)?/' "
        "--benchmark_out=" +
        out + " --benchmark_out_format=" + format);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(out);
    const std::string report((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    EXPECT_NE(report.find("matrixMul/opencl/tile16/n:64"), std::string::npos) << report;
    EXPECT_EQ(report.find("ERROR OCCURRED"), std::string::npos) << report;
    if (format == "csv") {  // no row says "skipped:" (the context lines above the table may)
      std::istringstream lines(report);
      for (std::string line; std::getline(lines, line);)
        if (line.rfind('"', 0) == 0) {
          EXPECT_EQ(line.find("skipped"), std::string::npos) << line;
        }
    }
    EXPECT_EQ(r.output.find("ERROR OCCURRED"), std::string::npos) << r.output;
    if (!cuda_device_present()) {
      EXPECT_NE(r.output.find("skipped: PTX variants need NVIDIA"), std::string::npos) << r.output;
    }
  }
}

// Google Benchmark's CSV reporter takes its columns from the first row and
// aborts (debug builds, the GPU machines' 1.8.3) on a later row with a counter
// it has not seen: a bandwidth row (no build_ms, no GFLOP/s) before an OpenCL
// matrixMul row (both) must give one header with every counter and both rows.
TEST(GbenchFlags, CsvHeaderHoldsTheCountersOfEveryRow) {
  const std::string out = temp_dir("csv-counters") + "/out.csv";
  const ProcessResult r = run_bench(
      "--size quick --mm-n 64 --samples 2 --startup off "
      "--benchmark_filter='^(bandwidth/opencl/d2d/bytes:1024|matrixMul/opencl/tile16/n:64)/' "
      "--benchmark_out=" +
      out + " --benchmark_out_format=csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  std::string line, header;
  std::vector<std::string> rows;
  while (std::getline(in, line)) {
    if (line.rfind("name,", 0) == 0)
      header = line;
    else if (line.rfind('"', 0) == 0)
      rows.push_back(line);
  }
  EXPECT_NE(header.find("\"build_ms\""), std::string::npos) << header;
  EXPECT_NE(header.find("\"GFLOP/s\""), std::string::npos) << header;
  EXPECT_NE(header.find("\"GB/s\""), std::string::npos) << header;
  ASSERT_EQ(rows.size(), 2u) << r.output;
  EXPECT_NE(rows[0].find("bandwidth/opencl/d2d"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find("matrixMul/opencl/tile16/n:64"), std::string::npos) << rows[1];
}

}  // namespace
}  // namespace gpucmp::test
