// A Parboil row's work-group against its kernel's own limit on the session's
// device (CL_KERNEL_WORK_GROUP_SIZE: what its registers allow), checked when
// a runner of a non-default work-group is made: over it the row is skipped
// (parboil::check_kernel_limit), never enqueued to fail.
#pragma once
#include <string>

#include "cl.h"
#include "launch_shape.h"

namespace gpucmp::opencl {

// Throws ApiError naming `what` when the query fails.
void check_group_limit(cl_kernel kernel, const LocalShape& local, int dims,
                       const std::string& what);

}  // namespace gpucmp::opencl
