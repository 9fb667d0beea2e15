// The OpenCL side as the driver sees it.
#pragma once
#include <memory>

#include "api.h"

namespace gpucmp::opencl {

std::unique_ptr<Api> make_api();

}  // namespace gpucmp::opencl
