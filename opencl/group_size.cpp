#include "group_size.h"

#include "check.h"
#include "session.h"

namespace gpucmp::opencl {

int kernel_group_size(cl_kernel kernel, const std::string& what) {
  std::size_t size = 0, multiple = 0;
  check(clGetKernelWorkGroupInfo(kernel, session().device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof size,
                                 &size, nullptr),
        "clGetKernelWorkGroupInfo", what + " CL_KERNEL_WORK_GROUP_SIZE");
  check(clGetKernelWorkGroupInfo(kernel, session().device(),
                                 CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                 &multiple, nullptr),
        "clGetKernelWorkGroupInfo", what + " CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
  if (multiple > 0 && size >= multiple) size -= size % multiple;
  return int(size);
}

}  // namespace gpucmp::opencl
