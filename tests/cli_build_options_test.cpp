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

// --cl-kernel-args: a mode other than changed or every is bad input; the
// JSON context says the mode a run used, "changed" when not given, and rows
// run and validate in both.
TEST(KernelArgsMode, AnUnknownModeIsOneLineAndExit2) {
  expect_one_error_line(run_bench("--cl-kernel-args sometimes" + kTriad),
                        "--cl-kernel-args sometimes: not a mode (changed, every)", "sometimes");
}

TEST(KernelArgsMode, TheContextSaysTheMode) {
  for (const std::string mode : {"", "changed", "every"}) {
    SCOPED_TRACE(mode);
    const std::string given = mode.empty() ? "" : " --cl-kernel-args " + mode;
    const ProcessResult r = run_bench("--benchmark_format=json" + given + kTriad);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const std::string said = mode.empty() ? "changed" : mode;
    EXPECT_NE(r.output.find("\"opencl.kernel_args\": \"" + said + "\""), std::string::npos)
        << r.output;
  }
}

}  // namespace
}  // namespace gpucmp::test
