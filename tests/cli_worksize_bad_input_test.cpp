// Bad local sizes for the work-size study's kernels: a clear
// one-line error naming the rule or the device limit, exit code 2, before
// anything runs.
#include <gtest/gtest.h>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

TEST(WorksizeBadInput, ShapeNotDividingTheGlobalSize) {
  expect_quick_usage_error("--mmnaive-local 48x1 --benchmark_filter=^mmnaive/opencl/",
                           "does not divide the global size 256 along x");
}

TEST(WorksizeBadInput, OneDimensionalSizeForATwoDimensionalKernel) {
  expect_quick_usage_error("--bilinear-local 256 --benchmark_filter=^bilinear/opencl/",
                           "--bilinear-local 256: the kernel is 2-D");
}

TEST(WorksizeBadInput, TwoDimensionalShapeForAOneDimensionalKernel) {
  expect_quick_usage_error("--sort-local 16x16 --benchmark_filter=^sort/opencl/",
                           "--sort-local 16x16: the kernel is 1-D");
}

TEST(WorksizeBadInput, UnknownRule) {
  expect_quick_usage_error("--trapezoid-local fastest --benchmark_filter=^trapezoid/opencl/",
                           "--trapezoid-local fastest");
}

TEST(WorksizeBadInput, ZeroExtent) {
  expect_quick_usage_error("--mmnaive-local 0x16 --benchmark_filter=^mmnaive/opencl/",
                           "--mmnaive-local 0x16");
}

// 128 x 128 divides 256 x 256 but is 16384 work-items: above every device's
// work-group limit (NVIDIA 1024, PoCL 4096), named in the error.
TEST(WorksizeBadInput, ShapeOverTheDeviceLimit) {
  expect_quick_usage_error("--mmnaive-local 128x128 --benchmark_filter=^mmnaive/opencl/",
                           "exceeds the device limit of");
}

}  // namespace
}  // namespace gpucmp::test
