// The work-group size OpenCL suggests for a kernel, for the rows whose launch
// geometry is a parameter (harness/local_rows.h, rule "query").
#pragma once
#include <string>

#include "cl.h"

namespace gpucmp::opencl {

// The kernel's CL_KERNEL_WORK_GROUP_SIZE on the session's device, rounded down
// to its CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (the warp on NVIDIA).
// Throws ApiError naming `what` when the query fails.
int kernel_group_size(cl_kernel kernel, const std::string& what);

}  // namespace gpucmp::opencl
