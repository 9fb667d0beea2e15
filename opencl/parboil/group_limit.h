// A Parboil row's work-group against its kernel's own limit on the session's
// device, checked when a runner of a non-default work-group is made: over it
// the row is skipped (parboil::check_kernel_limit), never enqueued to fail.
// The limit is the tuner's (kernel_resources, group_size.h): on NVIDIA's
// driver, whose CL_KERNEL_WORK_GROUP_SIZE is 256 for every kernel, the
// largest group the kernel's registers allow; elsewhere that query.
#pragma once
#include <string>

#include "cl.h"
#include "launch_shape.h"
#include "programs.h"

namespace gpucmp::opencl {

// `kernel` is entry `name` of `spec`'s program. Throws ApiError naming it
// when a query fails.
void check_group_limit(cl_kernel kernel, const ProgramSpec& spec, const std::string& name,
                       const LocalShape& local, int dims);

}  // namespace gpucmp::opencl
