// gpucmp's local-size tuner (issue 15): a budgeted search guided by a model.
// The model ranks every legal shape by the fraction of the device it expects
// the launch to use. What it cannot rank is the group size itself: fewer,
// larger groups cost less to schedule but balance worse, and the balance of
// the two depends on the kernel. So the shortlist is stratified by size: the
// model's best shape of each group size, the sizes in the model's order; the
// tuner measures the first `budget` of them (at most a tenth of the
// candidates, at least one) and keeps the fastest. With a budget of one it
// measures nothing: the model's first choice is the answer.
//
// The model multiplies four losses, each in (0, 1]:
//   lanes      threads / (warps x 32): a partial warp idles its other lanes;
//   occupancy  resident threads per SM / the SM's maximum, from the block
//              count limit and the thread limit (registers and shared memory
//              are not known here), counted as a loss below one half only;
//   coalescing a warp of a 2-D group spans ceil(32 / x) rows when x < 32, so
//              one float load touches that many 32-byte sectors per 128 bytes
//              instead of four;
//   balance    work per SM / the work of the busiest SM (ceil(blocks / SMs)
//              blocks), the tail effect of the last wave.
#pragma once
#include <vector>

#include "device_info.h"
#include "launch_shape.h"

namespace gpucmp {

// Resident limits of one SM for the occupancy term: threads and blocks.
// From the compute capability (Hopper and Ampere A100: 2048 and 32); other
// devices get the same numbers.
struct SmLimits {
  int max_threads = 2048;
  int max_blocks = 32;
};
SmLimits sm_limits(const DeviceInfo& dev);

// The model's expected fraction of the device a shape uses (1: no loss).
double model_score(const LocalShape& s, const GlobalSize& global, const DeviceInfo& dev);

// Shapes the tuner may measure out of `candidates`: max(1, candidates / 10).
int tuner_budget(int candidates);

// Up to `budget` shapes, one per group size (each size's best-ranked shape),
// best first (ties: the larger group, then the wider x).
std::vector<LocalShape> tuner_shortlist(const std::vector<LocalShape>& candidates,
                                        const GlobalSize& global, const DeviceInfo& dev,
                                        int budget);

}  // namespace gpucmp
