// --cl-build-options: options a compiler refuses are bad input (exit 2, one
// line naming them); accepted ones reach every OpenCL build (a -D that turns
// triad's floats into ints fails its validation) and the JSON context says
// them. On the default OpenCL device (PoCL without a GPU).
#include <gtest/gtest.h>

#include <string>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

const std::string kTriad =
    " --size quick --startup off --samples 2 --progress off --benchmark_filter=^triad/opencl/ ";

TEST(BuildOptions, OptionsTheCompilerRefusesAreOneLineAndExit2) {
  expect_one_error_line(run_bench("--cl-build-options=-cl-std=CL9.9" + kTriad),
                        "--cl-build-options '-cl-std=CL9.9'", "-cl-std=CL9.9");
}

TEST(BuildOptions, BlankOptionsAreRefused) {
  expect_one_error_line(run_bench("--cl-build-options ' '" + kTriad), "--cl-build-options: empty",
                        "blank");
}

TEST(BuildOptions, TheContextSaysThemAndEveryBuildGetsThem) {
  const ProcessResult ok =
      run_bench("--cl-build-options=-cl-mad-enable --benchmark_format=json" + kTriad);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("\"opencl.user_build_options\": \"-cl-mad-enable\""), std::string::npos)
      << ok.output;
  const ProcessResult plain = run_bench("--benchmark_format=json" + kTriad);
  EXPECT_EQ(plain.output.find("opencl.user_build_options"), std::string::npos) << plain.output;
  // The row's own program gets them: its floats become ints, and it fails.
  const ProcessResult ints = run_bench("--cl-build-options=-Dfloat=int" + kTriad);
  EXPECT_NE(ints.exit_code, 0) << ints.output;
  EXPECT_NE(ints.output.find("FAILED: triad/opencl/base/"), std::string::npos) << ints.output;
}

}  // namespace
}  // namespace gpucmp::test
