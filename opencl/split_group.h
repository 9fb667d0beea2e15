// The OpenCL devices of the split rows (harness/device_group.h): one Session
// (context, queue, programs) per listed device, made current on its worker
// thread (use_session_on_this_thread), so the runners are unchanged.
#pragma once
#include <memory>
#include <vector>

#include "device_group.h"
#include "split_options.h"

namespace gpucmp::opencl {

// `listed` (empty: every device of `default_platform`); UsageError naming
// --cl-split-devices for a platform or device that does not exist.
std::unique_ptr<DeviceGroup> make_split_group(const std::vector<ClDeviceIndex>& listed,
                                              int default_platform, const std::string& kernel_dir);

}  // namespace gpucmp::opencl
