// --launch-floor: on (the default), each hot row carries its API's launch
// floor; off, no probe runs (a profiler's first launches are then the row's
// own kernels), no row carries the floor or the mark, and the JSON context
// says so; any other value is bad input; the ceiling's launch variants (the
// floor's kernel and its cross-runs) run validated. On the default OpenCL
// device (PoCL without a GPU).
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

// The ceiling's launch variants: launch-args-once is OpenCL's own (unpaired),
// the others run on every built API; each OpenCL row runs validated.
TEST(LaunchFloor, CeilingLaunchVariantsRunValidated) {
  const ProcessResult r = run_bench(
      "--size quick --startup off --samples 2 --progress off "
      "'--benchmark_filter=^ceiling/(cuda|opencl)/launch'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* v : {"launch", "launch-grid", "launch-args", "launch-args-once"})
    EXPECT_NE(r.output.find(std::string("ceiling/opencl/") + v + "/iterations:1/manual_time"),
              std::string::npos)
        << v << "\n"
        << r.output;
  EXPECT_EQ(r.output.find("ceiling/cuda/launch-args-once/"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("FAILED"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("ERROR"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gpucmp::test
