// Bad input: each a clear one-line error on stderr and exit code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bad_input_checks.h"
#include "bench_process.h"

namespace gpucmp::test {
namespace {

// Runs with `args`: exit code 2 and one line, an error containing `needle`.
void expect_usage_error(const std::string& args, const std::string& needle,
                        const std::string& env = "") {
  expect_one_error_line(run_bench(args, env), needle, args);
}

// Options that make a bad-input run stop quickly if it did get through.
const std::string kQuick = " --size quick --benchmark_filter=matrixMul/opencl/tile16/ ";
const std::string kFast = kQuick + " --samples 1 ";

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

// A size one variant's tile does not divide is no bad input: that variant's
// rows are skipped with the reason, the others run (on a machine without
// CUDA too, where CUDA's tile32 would never have run).
TEST(BadInput, MatrixSizeNotMultipleOfOneTileSkipsThatVariant) {
  const ProcessResult r = run_bench(
      "--mm-n 48 --samples 2 --startup off --progress off "
      "'--benchmark_filter=^matrixMul/opencl/tile(16|32)/' --benchmark_format=json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"matrixMul/opencl/tile16/n:48/"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("\"matrixMul/opencl/tile32/n:48/"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("n 48 is not a multiple of tile32's tile of 32"), std::string::npos)
      << r.output;
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
  EXPECT_NE(r.output.find("undeclared_name"), std::string::npos) << "log not shown:\n" << r.output;
}

// ---- every numeric option: 0, negative, not a number, overflow ----
// Each message names the option, the text and the rule in words (once,
// CLI11's own range checks printed 1.797...e308 as the missing upper bound).

TEST(BadInput, CudaDeviceNegative) {
  expect_usage_error("--cuda-device -1" + kFast, "--cuda-device -1: must be >= 0");
}

TEST(BadInput, CudaDeviceNotANumber) {
  expect_usage_error("--cuda-device first" + kFast, "--cuda-device first: not a whole number");
}

TEST(BadInput, CudaDeviceOverflow) {
  expect_usage_error("--cuda-device 99999999999999999999" + kFast, "too large");
}

TEST(BadInput, OpenClPlatformNegative) {
  expect_usage_error("--cl-platform=-3" + kFast, "--cl-platform -3: must be >= 0");
}

TEST(BadInput, OpenClDeviceNotANumber) {
  expect_usage_error("--cl-device gpu" + kFast, "--cl-device gpu: not a whole number");
}

TEST(BadInput, BatchMsZero) {
  expect_usage_error("--batch-ms 0" + kFast, "--batch-ms 0: must be > 0");
}

TEST(BadInput, BatchMsNegative) {
  expect_usage_error("--batch-ms=-5" + kFast, "--batch-ms -5: must be > 0");
}

TEST(BadInput, BatchMsNaN) {
  expect_usage_error("--batch-ms nan" + kFast, "--batch-ms nan: not a number");
}

TEST(BadInput, BatchMsOverflow) {
  expect_usage_error("--batch-ms 1e999" + kFast, "--batch-ms 1e999: must be > 0 and <= 60000");
}

TEST(BadInput, SamplesZero) {
  expect_usage_error("--samples 0" + kQuick, "--samples 0: must be in 1..100000");
}

TEST(BadInput, SamplesNegative) {
  expect_usage_error("--samples=-2" + kQuick, "--samples -2: must be in 1..100000");
}

TEST(BadInput, SamplesNotANumber) {
  expect_usage_error("--samples many" + kQuick, "--samples many: not a whole number");
}

TEST(BadInput, SamplesOverflow) {
  expect_usage_error("--samples 99999999999999999999" + kQuick,
                     "--samples 99999999999999999999: must be in 1..100000");
}

TEST(BadInput, MinSamplesBelowTwo) {
  expect_usage_error("--min-samples 1" + kFast, "--min-samples 1: must be in 2..10000");
}

TEST(BadInput, MaxNoiseZero) {
  expect_usage_error("--max-noise 0" + kFast, "--max-noise 0: must be in 0.001..100");
}

TEST(BadInput, MaxNoiseNotANumber) {
  expect_usage_error("--max-noise 1%" + kFast, "--max-noise 1%: not a number");
}

TEST(BadInput, TimeLimitNegative) {
  expect_usage_error("--time-limit=-1" + kFast, "--time-limit -1: must be in 0.001..3600");
}

TEST(BadInput, StartupSamplesZero) {
  expect_usage_error("--startup-samples 0" + kFast, "--startup-samples 0: must be in 1..1000");
}

// --cp-grid 0 used to mean "not given" and ran the preset's grid.
TEST(BadInput, CpGridZero) {
  expect_usage_error("--cp-grid 0" + kFast, "--cp-grid 0: must be a multiple of 128 in 128..16384");
}

TEST(BadInput, CpGridNotAMultipleOf128) {
  expect_usage_error("--cp-grid 100" + kFast, "--cp-grid 100: must be a multiple of 128");
}

TEST(BadInput, CpGridOverflow) {
  expect_usage_error("--cp-grid 99999999999999999999" + kFast,
                     "--cp-grid 99999999999999999999: must be a multiple of 128 in 128..16384");
}

TEST(BadInput, CpAtomsZero) {
  expect_usage_error("--cp-atoms 0" + kFast, "--cp-atoms 0: must be in 1..10000000");
}

TEST(BadInput, CpAtomsNotANumber) {
  expect_usage_error("--cp-atoms 4e4" + kFast, "--cp-atoms 4e4: not a whole number");
}

TEST(BadInput, MatrixSizeOverflow) {
  expect_usage_error("--mm-n 99999999999999999999" + kFast,
                     "--mm-n 99999999999999999999: must be in 1..65536");
}

TEST(BadInput, MatrixSizeBadListItem) {
  expect_usage_error("--mm-n 64,x128" + kFast, "--mm-n x128: not a whole number");
}

TEST(BadInput, TransferSizeZero) { expect_usage_error("--bw-bytes 0" + kFast, "must be positive"); }

TEST(BadInput, TransferSizeOverflow) {
  expect_usage_error("--bw-bytes 99999999999999999999" + kFast, "too large");
}

TEST(BadInput, TransferSizeBeyondHostMemory) {
  expect_usage_error("--bw-bytes 4K,1000G" + kFast, "'1000G': at most 16G");
}

// ---- folders given to options ----

TEST(BadInput, KernelDirMissing) {
  expect_usage_error("--cl-kernel-dir /nonexistent/kernels" + kFast,
                     "--cl-kernel-dir /nonexistent/kernels: no such file or directory");
}

TEST(BadInput, KernelDirIsAFile) {
  const std::string dir = temp_dir("kernel-dir-file");
  std::ofstream(dir + "/file") << "x";
  expect_usage_error("--cl-kernel-dir " + dir + "/file" + kFast, "file: not a directory");
}

TEST(BadInput, KernelDirEmptyPath) {
  expect_usage_error("--cl-kernel-dir ''" + kFast, "--cl-kernel-dir: empty path");
}

// A kernel file that is a folder opened as an empty stream: the build then
// failed with CL_INVALID_KERNEL_NAME (exit 1); a missing file was exit 2.
// Both end the benchmark that reads the file: exit 2, its FAILED line saying why.
TEST(BadInput, KernelFileThatIsAFolder) {
  const std::string dir = temp_dir("kernel-file-folder");
  std::filesystem::create_directory(dir + "/triad.cl");
  const ProcessResult r = run_bench("--cl-kernel-dir " + dir +
                                    " --size quick --samples 1 --benchmark_filter=^triad/opencl/");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("FAILED: triad/opencl/base/n:1048576: --cl-kernel-dir: cannot read " +
                          dir + "/triad.cl: is a directory"),
            std::string::npos)
      << r.output;
}

// ---- list options: no empty item, no item twice ----
// CLI11 dropped empty items without a word; an item given twice made two
// rows of one name, which compare.py then counted as two repetitions.

TEST(BadInput, ListWithAnEmptyItemInside) {
  expect_usage_error("--scan-n 256,,512" + kFast, "--scan-n '256,,512': an empty item");
}

TEST(BadInput, ListWithATrailingComma) {
  expect_usage_error("--reduce-n 256," + kFast, "--reduce-n '256,': an empty item");
}

TEST(BadInput, ByteListWithAnEmptyItem) {
  expect_usage_error("--bw-bytes 4K,,8K" + kFast, "--bw-bytes '4K,,8K': an empty item");
}

TEST(BadInput, GridListWithATrailingComma) {
  expect_usage_error("--advection-grid 64x64," + kFast, "--advection-grid '64x64,': an empty item");
}

TEST(BadInput, ListThatIsEmpty) {
  expect_usage_error("--mm-n ''" + kFast, "--mm-n '': an empty item");
}

TEST(BadInput, TypeGivenTwice) {
  expect_usage_error("--reduce-type int32,int32" + kFast, "--reduce-type int32: given twice");
}

TEST(BadInput, GridGivenTwice) {
  expect_usage_error("--advection-grid 64x64,64x64" + kFast, "--advection-grid 64x64: given twice");
}

TEST(BadInput, PollGivenTwice) {
  expect_usage_error("--scan-poll spin,wait,spin" + kFast, "--scan-poll spin: given twice");
}

TEST(BadInput, SizeGivenTwiceAcrossOccurrences) {
  expect_usage_error("--mm-n 64 --mm-n 64" + kFast, "--mm-n 64: given twice");
}

TEST(BadInput, OpenClSplitDeviceWithThreeParts) {
  expect_usage_error("--split equal --cl-split-devices 0:0:0" + kFast,
                     "--cl-split-devices 0:0:0: not PLATFORM:DEVICE, two indices in 0..65536");
}

TEST(BadInput, OpenClSplitDeviceNegative) {
  expect_usage_error("--split equal --cl-split-devices=-1:0" + kFast,
                     "--cl-split-devices -1:0: not PLATFORM:DEVICE, two indices in 0..65536");
}

// ---- options that would have no effect: refused, as --cuda-device 3 is ----

TEST(BadInput, MaxNoiseWithFixedSamples) {
  expect_usage_error("--samples 5 --max-noise 5" + kQuick,
                     "--max-noise: no effect with --samples 5");
}

TEST(BadInput, TimeLimitWithFixedSamples) {
  expect_usage_error("--samples 2 --time-limit 1" + kQuick,
                     "--time-limit: no effect with --samples 2");
}

TEST(BadInput, StartupSamplesWithStartupOff) {
  expect_usage_error("--startup off --startup-samples 3" + kFast,
                     "--startup-samples: no effect with --startup off");
}

TEST(BadInput, CudaSplitDeviceWithoutCuda) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is usable here";
  expect_usage_error("--split equal --cuda-split-devices 5" + kFast,
                     "--cuda-split-devices 5: unknown CUDA device");
}

// One process started without mpirun is MPI's only rank: its split rows had
// one device and were labelled over:mpi.
TEST(BadInput, SplitOverMpiWithoutMpirun) {
  expect_usage_error("--split equal --split-over mpi" + kFast, "--split-over mpi: ");
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
  EXPECT_NE(r.output.find("FAILED: matrixMul/opencl/tile16/n:64"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gpucmp::test
