// The CUDA devices of the split rows (harness/device_group.h).
#pragma once
#include <memory>
#include <vector>

#include "device_group.h"

namespace gpucmp::cuda {

// `ordinals` (empty: every device) among `count` devices; UsageError naming
// --cuda-split-devices for an index beyond them.
std::unique_ptr<DeviceGroup> make_split_group(const std::vector<int>& ordinals, int count);

}  // namespace gpucmp::cuda
