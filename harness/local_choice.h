// gpucmp's local-size tuner: a budgeted search guided by a model.
//
// The model scores every legal shape by the fraction of the device it expects
// a launch to use, the product of five factors in (0, 1]:
//   lanes      threads / (warps x 32): a partial warp idles its other lanes;
//   occupancy  resident threads per SM / the SM's maximum, from the block
//              count and thread limits (registers and shared memory are not
//              known here), counted as a loss below one half only;
//   coalescing a warp of a 2-D group spans ceil(32 / x) rows when x < 32, so
//              one float load touches that many 32-byte sectors per 128
//              bytes instead of four (no loss while each row fills whole
//              sectors, x >= 8);
//   balance    work per SM / the work of the busiest SM (ceil(blocks / SMs)
//              blocks), the tail of the last wave;
//   block cost threads / (threads + 32): each block costs about one warp's
//              worth of scheduling, so many small blocks lose.
// What the model cannot see is the kernel: which operand a group shares
// between its rows (reuse), how long a thread runs. So the tuner measures: it
// starts from the model's first choice and climbs: each step times one
// neighbour of the fastest shape so far (x or y halved or doubled, or both in
// opposite directions at the same size), the step that helped last first,
// then the neighbours in the model's order, moving whenever one is faster,
// until the budget is spent or every neighbour is timed; then the two fastest
// are timed twice more each, alternately, and the lower median of three
// wins (single timings of a 5 us kernel do not separate shapes a few percent
// apart: H200 bilinear, 2026-11-23). The budget is a
// tenth of the legal shapes (66 on a 1024 x 1024 range: 6); with a budget of
// one (1-D ranges of 11 shapes) nothing is timed and the model's first choice
// is the answer. The climb's design was chosen on the H200 sweep of
// 2026-11-23 (results/nvidia-h200/2026-11-23-worksize): in-sample there.
#pragma once
#include <functional>
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

// The legal shapes in the model's order, best first (ties: the larger group,
// then the x nearest above 32).
std::vector<LocalShape> model_ranking(const std::vector<LocalShape>& candidates,
                                      const GlobalSize& global, const DeviceInfo& dev);

// Seconds one launch of a shape takes (the tuner's only measurement).
using ShapeTimer = std::function<double(const LocalShape&)>;

struct TunerResult {
  LocalShape shape;
  int candidates = 0;
  int measured = 0;
};

// The search above over `candidates` (legal shapes) with `budget` timings.
TunerResult tune_local(const std::vector<LocalShape>& candidates, const GlobalSize& global,
                       const DeviceInfo& dev, int budget, const ShapeTimer& time);

}  // namespace gpucmp
