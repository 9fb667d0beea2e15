// Bad layouts for the data-layout study: a clear one-line error naming the
// layout, exit code 2, before anything runs; a size one layout cannot hold
// is a skipped row of that layout.
#include <gtest/gtest.h>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

TEST(LayoutBadInput, UnknownLayout) {
  expect_quick_usage_error("--lavamd-layout aos,aosa --benchmark_filter=^lavamd/",
                           "--lavamd-layout aosa: not a layout (aos, soa, aosoa)");
}

// A layout that cannot hold a size is no bad input: at an odd box count the
// AoSoA rows are skipped with the reason and the other layouts run.
TEST(LayoutBadInput, AosoaAtAnOddBoxCountIsASkippedRow) {
  const ProcessResult r = run_bench(
      "--lavamd-boxes 3 --samples 2 --startup off --progress off "
      "--benchmark_filter=^lavamd/opencl/base/ --benchmark_format=json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"lavamd/opencl/base/boxes1d:3/layout:aos/"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\"lavamd/opencl/base/boxes1d:3/layout:soa/"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("\"lavamd/opencl/base/boxes1d:3/layout:aosoa/"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("layout aosoa at boxes1d 3: the AoSoA tile of 32 records does not "
                          "divide the 2700 records (an even boxes1d runs)"),
            std::string::npos)
      << r.output;
}

TEST(LayoutBadInput, BoxesOutOfRange) {
  expect_quick_usage_error("--lavamd-boxes 0 --benchmark_filter=^lavamd/", "--lavamd-boxes 0");
}

}  // namespace
}  // namespace gpucmp::test
