// --launch-floor: on (the default), each hot row carries its API's launch
// floor; off, no probe runs (a profiler's first launches are then the row's
// own kernels), no row carries the floor or the mark, and the JSON context
// says so; any other value is bad input. On the default OpenCL device (PoCL
// without a GPU).
#include <gtest/gtest.h>

#include <string>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

const std::string kTriad =
    " --size quick --startup off --samples 2 --progress off --benchmark_format=json "
    "--benchmark_filter=^triad/opencl/ ";

TEST(LaunchFloor, OnByDefaultEachHotRowCarriesTheFloor) {
  const ProcessResult on = run_bench(kTriad);
  ASSERT_EQ(on.exit_code, 0) << on.output;
  EXPECT_NE(on.output.find("\"launch_floor_us\""), std::string::npos) << on.output;
  EXPECT_NE(on.output.find("\"launch_bound\""), std::string::npos) << on.output;
}

TEST(LaunchFloor, OffProbesNothingAndMarksNoRow) {
  const ProcessResult off = run_bench("--launch-floor off" + kTriad);
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_NE(off.output.find("\"triad/opencl/base/"), std::string::npos) << off.output;
  EXPECT_EQ(off.output.find("\"launch_floor_us\""), std::string::npos) << off.output;
  EXPECT_EQ(off.output.find("\"launch_bound\""), std::string::npos) << off.output;
  EXPECT_NE(off.output.find("no launch floor probed (--launch-floor off)"), std::string::npos)
      << off.output;
}

TEST(LaunchFloor, AnotherValueIsOneLineAndExit2) {
  expect_one_error_line(run_bench("--launch-floor maybe" + kTriad), "--launch-floor", "maybe");
}

}  // namespace
}  // namespace gpucmp::test
