// The OpenCL side as the driver sees it.
#pragma once
#include <memory>

#include "api.h"

namespace gpucmp::opencl {

std::unique_ptr<Api> make_api();
// Adds the OpenCL runners to every workload (one line per workload).
void register_runners();

}  // namespace gpucmp::opencl
