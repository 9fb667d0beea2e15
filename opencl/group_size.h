// What OpenCL says of a kernel's launch, for the rows whose launch geometry
// is a parameter (harness/local_rows.h): the work-group size it suggests
// (rule "query") and the resources the tuner's model is fed.
#pragma once
#include <string>

#include "cl.h"
#include "kernel_resources.h"
#include "programs.h"

namespace gpucmp::opencl {

// The kernel's CL_KERNEL_WORK_GROUP_SIZE on the session's device, rounded down
// to its CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (the warp on NVIDIA).
// Throws ApiError naming `what` when the query fails.
int kernel_group_size(cl_kernel kernel, const std::string& what);

// The kernel `name` of `spec`'s program: CL_KERNEL_LOCAL_MEM_SIZE,
// CL_KERNEL_WORK_GROUP_SIZE and, on NVIDIA's driver, its registers as that
// driver's JIT reports them for the same program built again with
// -cl-nv-verbose (the build the runner times has no log of them); no
// registers elsewhere. The verbose build is made once per program. On
// NVIDIA, whose CL_KERNEL_WORK_GROUP_SIZE is 256 whatever the kernel, the
// largest block is the register file's bound (register_limited_block, the
// sizes that driver launches) and the driver's value is kept beside it.
KernelResources kernel_resources(cl_kernel kernel, const ProgramSpec& spec,
                                 const std::string& name);

// The registers ptxas reports for entry function `name` in a -cl-nv-verbose
// build log ("Compiling entry function 'name'" ... "Used N registers"); 0
// where the log does not say.
int ptxas_registers(const std::string& log, const std::string& name);

// Builds `spec`'s program with -cl-nv-verbose for kernel_resources' register
// counts ahead of time, on NVIDIA's driver (nothing elsewhere); throws as a
// build does.
void build_register_report(const ProgramSpec& spec);

}  // namespace gpucmp::opencl
