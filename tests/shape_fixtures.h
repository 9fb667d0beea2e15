// What the launch-geometry unit tests share: an H200 as the model sees it
// (132 SMs, compute capability 9.0, groups up to 1024) and a 2-D and a 1-D
// global range.
#pragma once
#include "device_info.h"
#include "launch_shape.h"

namespace gpucmp::test {

inline const GlobalSize k2d{2, 1024, 1024};
inline const GlobalSize k1d{1, 1 << 17, 1};

inline DeviceInfo h200() {
  DeviceInfo d;
  d.compute_units = 132;
  d.cc_major = 9;
  d.lanes_per_cu = 128;
  d.max_group_size = 1024;
  d.max_group_x = 1024;
  d.max_group_y = 1024;
  return d;
}

}  // namespace gpucmp::test
