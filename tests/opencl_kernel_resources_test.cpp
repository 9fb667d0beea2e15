// What the tuner's model is fed of an OpenCL kernel (opencl/group_size.h):
// its registers as NVIDIA's JIT reports them in a -cl-nv-verbose build log
// (the log below is the H200 driver 580's for cp.cl, as
// tests/fixtures/ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl/cp-unrollx8.log
// has it), and on the first OpenCL device (PoCL without a GPU) the work-size
// kernels' local memory and largest group through their runners' path.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "local_choice.h"
#include "opencl/group_size.h"
#include "opencl/programs.h"
#include "opencl/session.h"

namespace gpucmp::opencl {
namespace {

const char* const kCpLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'cp_unrollx8' for 'sm_90a'\n"
    "ptxas info    : Function properties for cp_unrollx8\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 17.441 ms\n"
    "ptxas info    : Compiling entry function 'cp_base' for 'sm_90a'\n"
    "ptxas info    : Function properties for cp_base\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 28 registers, used 0 barriers\n";

TEST(KernelResources, RegistersOfEachEntryFromTheVerboseLog) {
  EXPECT_EQ(ptxas_registers(kCpLog, "cp_unrollx8"), 32);
  EXPECT_EQ(ptxas_registers(kCpLog, "cp_base"), 28);
  EXPECT_EQ(ptxas_registers(kCpLog, "cp"), 0) << "a name is an entry's whole name";
  EXPECT_EQ(ptxas_registers("", "cp_base"), 0);
  // An entry whose report has no register line does not take the next one's.
  EXPECT_EQ(ptxas_registers("Compiling entry function 'a' for 'sm_90'\n"
                            "Compiling entry function 'b' for 'sm_90'\nUsed 9 registers\n",
                            "a"),
            0);
}

TEST(KernelResources, WorkSizeKernelsOnTheFirstDevice) {
  const auto found = platforms();
  if (found.empty() || devices(found.front()).empty()) GTEST_SKIP() << "no OpenCL device";
  set_session(std::make_unique<Session>(found.front(), devices(found.front()).front(), ""));
  for (const auto& [workload, kernel] :
       {std::pair<std::string, std::string>{"trapezoid", "trapezoid_sum"},
        {"bilinear", "bilinear"}}) {
    SCOPED_TRACE(workload);
    const ProgramSpec& spec = program_spec(workload, "base");
    const Kernel k = make_kernel(session().program(spec), kernel.c_str());
    const KernelResources r = kernel_resources(k.get(), spec, kernel);
    EXPECT_GT(r.max_threads, 0);
    if (!session().is_nvidia()) {
      EXPECT_EQ(r.registers, 0) << "only NVIDIA's JIT reports registers";
      EXPECT_EQ(r.reported_max_threads, 0) << "elsewhere the driver's own value is the limit";
    } else {
      EXPECT_GT(r.registers, 0);
      // The register file's bound, not the driver's CL_KERNEL_WORK_GROUP_SIZE
      // (256 on driver 580 for every kernel), which is kept beside it where
      // it differs; whole warps, at most the device's largest group.
      const DeviceInfo& dev = session().info();
      EXPECT_EQ(r.max_threads,
                register_limited_block(r.registers, sm_limits(dev), dev.max_group_size));
      EXPECT_EQ(r.max_threads % 32, 0);
      EXPECT_LE(r.max_threads, dev.max_group_size);
      if (r.reported_max_threads > 0) {
        EXPECT_NE(r.reported_max_threads, r.max_threads);
      }
    }
    if (workload == "trapezoid") {
      EXPECT_GT(r.shared, 0) << "its partial sums in __local memory";
    }
  }
  set_session(nullptr);
}

}  // namespace
}  // namespace gpucmp::opencl
