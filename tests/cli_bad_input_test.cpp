// Bad input: each a clear one-line error on stderr and exit code 2.
#include <gtest/gtest.h>

#include <fstream>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

// Runs with `args`, expects exit code 2 and an "error:" line containing `needle`.
void expect_usage_error(const std::string& args, const std::string& needle,
                        const std::string& env = "") {
  const ProcessResult r = run_bench(args, env);
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
  EXPECT_NE(r.output.find("error"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(needle), std::string::npos) << "want '" << needle << "' in\n"
                                                       << r.output;
}

// Options that make a bad-input run stop quickly if it did get through.
const std::string kFast = " --size quick --benchmark_filter=matrixMul/opencl/tile16/ --samples 1 ";

TEST(BadInput, UnknownCudaDevice) {
  expect_usage_error("--cuda-device 7" + kFast, "unknown CUDA device 7");
}

TEST(BadInput, UnknownOpenClPlatform) {
  expect_usage_error("--cl-platform 9" + kFast, "unknown OpenCL platform 9");
}

TEST(BadInput, UnknownOpenClDevice) {
  expect_usage_error("--cl-platform 0 --cl-device 9" + kFast, "unknown OpenCL device 9");
}

TEST(BadInput, MatrixSizeZero) { expect_usage_error("--mm-n 0" + kFast, "--mm-n 0"); }

TEST(BadInput, MatrixSizeNegative) { expect_usage_error("--mm-n=-64" + kFast, "--mm-n -64"); }

TEST(BadInput, MatrixSizeNotMultipleOfTile) {
  expect_usage_error("--mm-n 48" + kFast, "not a multiple of the tile 32");
}

TEST(BadInput, MatrixSizeNotANumber) { expect_usage_error("--mm-n big" + kFast, "--mm-n"); }

TEST(BadInput, UnknownSizePreset) { expect_usage_error("--size huge" + kFast, "huge"); }

TEST(BadInput, TransferSizeNotMultipleOf4) {
  expect_usage_error("--bw-bytes 1022" + kFast, "not a multiple of 4");
}

TEST(BadInput, TransferSizeUnknownUnit) {
  expect_usage_error("--bw-bytes 4T" + kFast, "unknown unit");
}

TEST(BadInput, UnknownOption) { expect_usage_error("--frobnicate" + kFast, "frobnicate"); }

TEST(BadInput, MissingIcdAndNoCuda) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is usable here";
  expect_usage_error(kFast, "no OpenCL platform found", "OCL_ICD_VENDORS=/nonexistent");
}

TEST(BadInput, OpenClKernelThatFailsToBuildShowsItsLog) {
  const std::string dir = temp_dir("broken-kernels");
  std::ofstream(dir + "/matrixmul.cl")
      << "__kernel void matrixMul(__global float* C) { C[0] = undeclared_name; }\n";
  const ProcessResult r = run_bench("--cl-kernel-dir " + dir + kFast + " --mm-n 64");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("OpenCL build of matrixmul.cl"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--- build log ---"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("undeclared_name"), std::string::npos) << "log not shown:\n"
                                                                 << r.output;
}

}  // namespace
}  // namespace gpucmp::test

namespace gpucmp::test {
namespace {

// A kernel that builds and runs but gets one entry wrong: the benchmark must be
// an error naming that entry, and the process must exit 1.
TEST(Validation, WrongResultIsAnErrorNotANumber) {
  const std::string dir = temp_dir("wrong-kernel");
  std::ofstream(dir + "/matrixmul.cl") << R"(
__kernel void matrixMul(__global float* C, __global const float* A,
                        __global const float* B, int n) {
  const int col = get_global_id(0), row = get_global_id(1);
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = (row == 3 && col == 5) ? s + 0.25f : s;
})";
  const ProcessResult r = run_bench("--cl-kernel-dir " + dir +
                                    " --benchmark_filter=matrixMul/opencl/tile16 --samples 1 "
                                    "--mm-n 64");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("validation failed before timing"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("c[3,5]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FAILED: matrixMul/opencl/tile16/n:64"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace gpucmp::test
