// The launch-rate floor of an API on a device, and the launch-bound mark.
//
// The floor is the device time per launch of the smallest kernel there is,
// ceiling's `launch` (one block of 256 threads, one word each), launched back
// to back in batches timed exactly as every row is (the runner's
// time_batch: the batch's two ends, nothing between). On NVIDIA's driver
// OpenCL's floor is a real runtime cost, higher than CUDA's, and belongs in
// the report as such. A row whose time per command is within
// kLaunchBoundMargin of its API's floor is launch-bound: it measures how
// fast the API launches, not how fast its kernel runs (counters
// launch_floor_us, launch_floor_ratio, launch_bound; a mark in the paired
// summary and the report).
#pragma once
#include <string>

#include "device_info.h"

namespace gpucmp {

constexpr double kLaunchBoundMargin = 0.05;
constexpr int kFloorBatch = 200;  // launches in one timed batch of the probe
constexpr int kFloorBatches = 5;  // batches; the floor is their median

// Seconds per launch of the floor kernel on `api`'s selected device `dev`,
// measured on the first call for that (api, device) and kept for the run.
// Negative when the API registered no `launch` runner or the probe failed
// (said once on stderr); rows then carry no launch-bound counters.
double launch_floor_s(const std::string& api, const DeviceInfo& dev);

struct LaunchBound {
  double ratio = 0;  // time per launch / (commands x floor)
  bool bound = false;
};
// `seconds_per_launch` of a row whose launch enqueues `commands` commands,
// against `floor_s` (> 0).
LaunchBound launch_bound(double seconds_per_launch, int commands, double floor_s);

}  // namespace gpucmp
