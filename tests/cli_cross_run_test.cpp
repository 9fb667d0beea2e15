// The cross-run rows (cuda/cross_runners.h) are listed by gpucmp-bench and,
// without a GPU, skipped like every CUDA row; on a GPU with NVIDIA's OpenCL
// they run validated, and -opencl-ptx rows skip (not fail) where OpenCL gives
// no PTX.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "bench_process.h"

namespace gpucmp::test {
namespace {

#ifdef GPUCMP_HAVE_CUDA

const ProcessResult& listing() {
  static const ProcessResult r = run_bench("--size quick --benchmark_list_tests");
  return r;
}

bool listed(const std::string& name) {
  return listing().output.find(name + "/iterations:1/manual_time") != std::string::npos;
}

TEST(CrossRun, MatrixMulRowsAreListed) {
  ASSERT_EQ(listing().exit_code, 0) << listing().output;
  for (const char* tile : {"tile16", "tile32"})
    for (const char* kind : {"-opencl-ptx", "-ptx-jit"})
      for (const char* n : {"256", "512"}) {
        const std::string name = std::string("matrixMul/cuda/") + tile + kind + "/n:" + n;
        EXPECT_TRUE(listed(name)) << "missing " << name;
      }
}

// LavaMD's cross-run rows take every layout, as its own rows do.
TEST(CrossRun, LavaMdRowsAreListedPerLayout) {
  ASSERT_EQ(listing().exit_code, 0) << listing().output;
  for (const char* kind : {"-opencl-ptx", "-ptx-jit"})
    for (const char* layout : {"aos", "soa", "aosoa"}) {
      const std::string name =
          std::string("lavamd/cuda/base") + kind + "/boxes1d:4/layout:" + layout;
      EXPECT_TRUE(listed(name)) << "missing " << name;
    }
}

// MRI's cross-run rows: the as-written kernels' and the by-value form's, in
// both math modes, at every size the workload's own rows take.
TEST(CrossRun, MriRowsAreListedForEachForm) {
  ASSERT_EQ(listing().exit_code, 0) << listing().output;
  for (const char* workload : {"mriq", "mrifhd"})
    for (const char* variant : {"precise-opencl-ptx", "fast-opencl-ptx", "precise-ptx-jit",
                                "precise-byvalue-opencl-ptx", "fast-byvalue-opencl-ptx"}) {
      const std::string name = std::string(workload) + "/cuda/" + variant + "/numK:512/numX:4096";
      EXPECT_TRUE(listed(name)) << "missing " << name;
    }
}

TEST(CrossRun, OnlyCudaHasCrossRows) {
  std::istringstream lines(listing().output);
  for (std::string line; std::getline(lines, line);) {
    const bool cross = line.find("-opencl-ptx/") != std::string::npos ||
                       line.find("-ptx-jit/") != std::string::npos;
    if (cross) {
      EXPECT_NE(line.find("/cuda/"), std::string::npos) << line;
    }
  }
}

// Without a GPU: skipped with the CUDA side's one message, exit code 0.
TEST(CrossRun, SkippedWithoutGpu) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is usable here";
  const ProcessResult r = run_bench(
      "--size quick --samples 3 --mm-n 64 --startup off "
      "--benchmark_filter='matrixMul/cuda/tile16-(opencl-ptx|ptx-jit)'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* name :
       {"matrixMul/cuda/tile16-opencl-ptx/n:64", "matrixMul/cuda/tile16-ptx-jit/n:64"}) {
    const auto at = r.output.find(std::string(name) + "/iterations:1");  // the result line
    ASSERT_NE(at, std::string::npos) << name << "\n" << r.output;
    const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
    EXPECT_NE(line.find("skipped: no CUDA device"), std::string::npos) << line;
  }
}

// On a GPU: validated rows, or (OpenCL not NVIDIA's) a skip that says why.
TEST(CrossRun, RunValidatedOnGpu) {
  if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device here";
  const ProcessResult r = run_bench(
      "--size quick --samples 3 --mm-n 256 --startup off "
      "--benchmark_filter='matrixMul/cuda/tile(16|32)-(opencl-ptx|ptx-jit)|lavamd/cuda/base-"
      "|mri(q|fhd)/cuda/(precise|fast)-byvalue-opencl-ptx'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("FAILED"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tile16-ptx-jit/n:256"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lavamd/cuda/base-ptx-jit/boxes1d:4/layout:aosoa"), std::string::npos)
      << r.output;
  for (const char* row :
       {"mriq/cuda/precise-byvalue-opencl-ptx/", "mrifhd/cuda/fast-byvalue-opencl-ptx/"})
    EXPECT_NE(r.output.find(row), std::string::npos) << row << "\n" << r.output;
}

#else

TEST(CrossRun, NeedsTheCudaSide) { GTEST_SKIP() << "this build has no CUDA side"; }

#endif

}  // namespace
}  // namespace gpucmp::test
