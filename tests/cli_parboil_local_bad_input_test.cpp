// Bad local sizes for the Parboil kernels (--cp-local, --mriq-local,
// --mrifhd-local): a clear one-line error naming the option, the
// value and the rule or the device limit, exit code 2, before anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

// Quick cp: a 128 x 128 lattice.
TEST(ParboilLocalBadInput, CpShapeNotDividingTheLattice) {
  expect_quick_usage_error(
      "--cp-local 48x8 --benchmark_filter=^cp/opencl/base/",
      "--cp-local 48x8: cp base runs one thread per point: 48 does not divide the "
      "grid's 128 points along x");
}

// unrollx8: 8 points per thread, blockDim.x apart: 8 x 32 covers 256 > 128.
TEST(ParboilLocalBadInput, CpShapeBreakingTheUnrolling) {
  expect_quick_usage_error("--cp-local 32x8 --benchmark_filter=^cp/opencl/unrollx8/",
                           "--cp-local 32x8: cp unrollx8 runs 8 points per thread");
}

TEST(ParboilLocalBadInput, CpOneDimensionalSize) {
  expect_quick_usage_error("--cp-local 256 --benchmark_filter=^cp/opencl/base/",
                           "--cp-local 256: cp's kernels are 2-D");
}

TEST(ParboilLocalBadInput, MriTwoDimensionalShape) {
  expect_quick_usage_error("--mriq-local 16x16 --benchmark_filter=^mriq/opencl/precise/",
                           "--mriq-local 16x16: the kernel is 1-D");
}

TEST(ParboilLocalBadInput, WorkSizeRuleNotOffered) {
  expect_quick_usage_error("--mrifhd-local tuner --benchmark_filter=^mrifhd/opencl/precise/",
                           "--mrifhd-local tuner: mrifhd takes N or sweep");
}

TEST(ParboilLocalBadInput, ZeroSize) {
  expect_quick_usage_error("--mriq-local 0 --benchmark_filter=^mriq/opencl/precise/",
                           "--mriq-local 0");
}

// Above every device's work-group limit (NVIDIA 1024, PoCL 4096).
TEST(ParboilLocalBadInput, SizeOverTheDeviceLimit) {
  // The first API whose device has a limit names it: CUDA where a GPU is
  // present (checked when the rows are registered, whatever the filter),
  // else OpenCL.
  expect_quick_usage_error("--mrifhd-local 8192 --benchmark_filter=^mrifhd/opencl/precise/",
                           "local size 8192 exceeds the device limit of");
}

}  // namespace
}  // namespace gpucmp::test
