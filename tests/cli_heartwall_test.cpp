// heartwall runs validated against the CPU reference: both state layouts
// through OpenCL on the default device (PoCL without a GPU) over a few
// frames; with a CUDA device, CUDA's rows and OpenCL's over 12 frames (the
// template update at frame 10 included), paired. A row that did not validate
// fails the run (exit 1, a FAILED line).
#include <gtest/gtest.h>

#include <string>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

void expect_rows(const ProcessResult& r, const std::string& api, int frames) {
  for (const char* layout : {"aos", "soa"}) {
    const std::string row =
        "\"heartwall/" + api + "/base/frames:" + std::to_string(frames) + "/layout:" + layout + "/";
    EXPECT_NE(r.output.find(row), std::string::npos) << row << " missing in\n" << r.output;
  }
  EXPECT_EQ(r.output.find("FAILED"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("aosoa"), std::string::npos) << r.output;
}

TEST(HeartWall, BothLayoutsValidateOnOpenCL) {
  const ProcessResult r = run_bench(
      "--heartwall-frames 3 --samples 1 --startup off --progress off "
      "--benchmark_filter=^heartwall/opencl/ --benchmark_format=json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_rows(r, "opencl", 3);
}

TEST(HeartWall, GpuBothApisValidateThroughAnUpdate) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device";
  const ProcessResult r = run_bench(
      "--heartwall-frames 12 --samples 2 --startup off --progress off "
      "--benchmark_filter=^heartwall/ --benchmark_format=json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  expect_rows(r, "cuda", 12);
  expect_rows(r, "opencl", 12);
}

}  // namespace
}  // namespace gpucmp::test
