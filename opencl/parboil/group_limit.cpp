#include "group_limit.h"

#include "group_size.h"
#include "workloads/parboil/local_size.h"

namespace gpucmp::opencl {

void check_group_limit(cl_kernel kernel, const ProgramSpec& spec, const std::string& name,
                       const LocalShape& local, int dims) {
  const KernelResources r = kernel_resources(kernel, spec, name);
  const std::string source =
      r.reported_max_threads > 0
          ? "its " + std::to_string(r.registers) +
                " registers on this driver, whose CL_KERNEL_WORK_GROUP_SIZE says " +
                std::to_string(r.reported_max_threads)
          : std::string("CL_KERNEL_WORK_GROUP_SIZE");
  parboil::check_kernel_limit(local, dims, r.max_threads, source);
}

}  // namespace gpucmp::opencl
