#include "cross_ptx.h"

#include "errors.h"

namespace gpucmp::cross_ptx {

namespace {
OpenclPtxSource& installed() {
  static OpenclPtxSource source;
  return source;
}
}  // namespace

void set_opencl_source(OpenclPtxSource source) { installed() = std::move(source); }

std::string opencl_ptx(const std::string& workload, const std::string& variant) {
  if (!installed())
    throw Unavailable("OpenCL's PTX of " + workload + "/" + variant +
                      " needs the OpenCL side, which this program does not have");
  return installed()(workload, variant);
}

}  // namespace gpucmp::cross_ptx
