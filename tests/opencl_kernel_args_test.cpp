// set_args (opencl/kernel_args.h) on the first OpenCL device (PoCL without a
// GPU): an unchanged argument is not set again (counted by
// kernel_arg_sets), a changed one is and the launch sees it, the "every"
// mode and set_args_every_time set all of them, a released buffer's records
// and a released kernel's record are dropped (kernel_args_recorded), and the
// kernel made again has its arguments set afresh.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "opencl/kernel_args.h"
#include "opencl/programs.h"
#include "opencl/session.h"

namespace gpucmp::opencl {
namespace {

class KernelArgs : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto found = platforms();
    if (found.empty() || devices(found.front()).empty()) GTEST_SKIP() << "no OpenCL device";
    set_session(std::make_unique<Session>(found.front(), devices(found.front()).front(), ""));
    set_kernel_args_mode(KernelArgsMode::changed);
  }
  void TearDown() override {
    set_kernel_args_mode(KernelArgsMode::changed);
    set_session(nullptr);
  }
  // triad: a[i] = b[i] + s c[i] over n floats, as opencl/stream runs it.
  static void launch_triad(cl_kernel k, std::size_t n) {
    const std::size_t global = n;
    check(clEnqueueNDRangeKernel(session().queue(), k, 1, nullptr, &global, nullptr, 0, nullptr,
                                 nullptr),
          "clEnqueueNDRangeKernel", "triad");
  }
};

TEST_F(KernelArgs, AnUnchangedArgumentIsNotSetAgain) {
  const ProgramSpec& spec = program_spec("triad", "base");
  Kernel k = make_kernel(session().program(spec), "triad");
  const std::size_t n = 256;
  std::vector<float> b(n, 1.0f), c(n, 2.0f), a(n, 0.0f);
  Buffer da = make_buffer(CL_MEM_READ_WRITE, n * sizeof(float), "a");
  Buffer db = make_buffer(CL_MEM_READ_WRITE, n * sizeof(float), "b");
  Buffer dc = make_buffer(CL_MEM_READ_WRITE, n * sizeof(float), "c");
  cl_command_queue q = session().queue();
  check(clEnqueueWriteBuffer(q, db, CL_TRUE, 0, n * sizeof(float), b.data(), 0, nullptr, nullptr),
        "write", "b");
  check(clEnqueueWriteBuffer(q, dc, CL_TRUE, 0, n * sizeof(float), c.data(), 0, nullptr, nullptr),
        "write", "c");
  const auto run = [&](float scalar) {
    const std::uint64_t before = kernel_arg_sets();
    set_args(k, "triad", da, db, dc, scalar);
    const std::uint64_t sets = kernel_arg_sets() - before;
    launch_triad(k, n);
    check(clEnqueueReadBuffer(q, da, CL_TRUE, 0, n * sizeof(float), a.data(), 0, nullptr, nullptr),
          "read", "a");
    return sets;
  };
  EXPECT_EQ(run(3.0f), 4u) << "the first launch sets every argument";
  EXPECT_FLOAT_EQ(a[7], 7.0f);
  EXPECT_EQ(run(3.0f), 0u) << "nothing changed";
  EXPECT_EQ(run(0.5f), 1u) << "the scalar alone";
  EXPECT_FLOAT_EQ(a[7], 2.0f) << "the launch saw the new scalar";
  set_kernel_args_mode(KernelArgsMode::every);
  EXPECT_EQ(run(0.5f), 4u) << "mode every: all of them, every launch";
  set_kernel_args_mode(KernelArgsMode::changed);
  EXPECT_EQ(run(0.5f), 0u);
  const std::uint64_t before = kernel_arg_sets();
  set_args_every_time(k, "triad", da, db, dc, 0.5f);
  EXPECT_EQ(kernel_arg_sets() - before, 4u);

  // A buffer released drops its records: the kernel holds 4, then 3.
  EXPECT_EQ(kernel_args_recorded(k.get()), 4u);
  Buffer spare = make_buffer(CL_MEM_READ_WRITE, n * sizeof(float), "spare");
  set_args(k, "triad", spare, db, dc, 0.5f);
  spare.reset();
  EXPECT_EQ(kernel_args_recorded(k.get()), 3u) << "the released buffer's record is gone";
  EXPECT_EQ(run(0.5f), 1u) << "a set afresh";
  EXPECT_EQ(kernel_args_recorded(k.get()), 4u);

  // Released and made again (perhaps at the same address): set afresh.
  const cl_kernel old = k.get();
  k.reset();
  EXPECT_EQ(kernel_args_recorded(old), 0u) << "the release dropped the kernel's record";
  k = make_kernel(session().program(spec), "triad");
  EXPECT_EQ(run(3.0f), 4u);
  EXPECT_FLOAT_EQ(a[7], 7.0f);
}

}  // namespace
}  // namespace gpucmp::opencl
