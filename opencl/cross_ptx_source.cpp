#include "cross_ptx_source.h"

#include "errors.h"
#include "programs.h"
#include "ptx_dump.h"
#include "session.h"

namespace gpucmp::opencl {

std::string program_ptx(const std::string& workload, const std::string& variant) {
  Session& s = session();  // Unavailable without an OpenCL device
  const std::string what = workload + "/" + variant;
  if (!s.is_nvidia())
    throw Unavailable("OpenCL's PTX of " + what + " needs NVIDIA's OpenCL (the OpenCL device is '" +
                      s.info().name + "')");
  std::string ptx = program_binary(s.program(program_spec(workload, variant)).program);
  if (!looks_like_ptx(ptx))
    throw Unavailable("OpenCL's PTX of " + what + ": the binary of '" + s.info().name +
                      "' is not PTX");
  return ptx;
}

}  // namespace gpucmp::opencl
