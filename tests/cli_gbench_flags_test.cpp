// Bad values of Google Benchmark's own flags, which Google Benchmark alone
// would find too late or report as success: a --benchmark_filter that is not
// a regular expression (it printed "Could not compile benchmark re" and
// exited 0) and a --benchmark_out that cannot be written (it said "invalid
// file name" and exited 1 after setting every device up). Both: exit code 2
// before anything runs, one error line naming the value and why.
#include <gtest/gtest.h>

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
    if (format == "csv") {
      EXPECT_EQ(report.find("skipped:"), std::string::npos) << report;
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
