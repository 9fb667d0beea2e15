#include "group_limit.h"

#include "check.h"
#include "session.h"
#include "workloads/parboil/local_size.h"

namespace gpucmp::opencl {

void check_group_limit(cl_kernel kernel, const LocalShape& local, int dims,
                       const std::string& what) {
  std::size_t size = 0;
  check(clGetKernelWorkGroupInfo(kernel, session().device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof size,
                                 &size, nullptr),
        "clGetKernelWorkGroupInfo", what + " CL_KERNEL_WORK_GROUP_SIZE");
  parboil::check_kernel_limit(local, dims, static_cast<long long>(size),
                              "CL_KERNEL_WORK_GROUP_SIZE");
}

}  // namespace gpucmp::opencl
