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
//
// The floor is probed right before each hot row's samples, not once per run:
// a launch rate follows the state of the host and the GPU (H100, driver 580:
// one probe at the run's first OpenCL row read 4.9 us a launch, where the
// floor kernel's own row, later in the same run, took 3.7 us).
#pragma once
#include <string>

namespace gpucmp {

constexpr double kLaunchBoundMargin = 0.05;
constexpr int kFloorBatch = 1000;  // launches in one timed batch (the rows' most)
constexpr int kFloorBatches = 3;   // timed batches after a warm-up one; the floor: their median

// Seconds per launch of the floor kernel on `api`'s current device, measured
// now. Negative when the API registered no `launch` runner or a probe of it
// failed (said once on stderr; the API is not probed again): rows then carry
// no launch-bound counters.
double launch_floor_s(const std::string& api);

struct LaunchBound {
  double ratio = 0;  // time per launch / (commands x floor)
  bool bound = false;
};
// `seconds_per_launch` of a row whose launch enqueues `commands` commands,
// against `floor_s` (> 0).
LaunchBound launch_bound(double seconds_per_launch, int commands, double floor_s);

}  // namespace gpucmp
