// The CUDA side as the driver sees it.
#pragma once
#include <memory>

#include "api.h"

namespace gpucmp::cuda {

std::unique_ptr<Api> make_api();
// The facts of CUDA device `device` (properties, peaks, limits).
DeviceInfo describe_device(int device);

}  // namespace gpucmp::cuda
