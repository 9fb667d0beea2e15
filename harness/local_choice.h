// gpucmp's local-size tuner: a budgeted search guided by a model.
//
// The model scores every legal shape by the fraction of the device it expects
// a launch to use, the product of five factors in (0, 1]:
//   lanes      threads / (warps x 32): a partial warp idles its other lanes;
//   occupancy  resident threads per SM / the SM's maximum, from the block
//              count and thread limits and, where the kernel's own API says
//              them (kernel_resources.h), its registers (allocated 256 a
//              warp) and shared memory (128-byte units plus 1 KB a block),
//              counted as a loss below one half only; a shape the kernel
//              cannot launch (over its own largest block, or not one block
//              of it fits an SM) scores 0;
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
// until the budget is spent or every neighbour is timed. On a 1-D range the
// second timing is the whole-warp group farthest (in doublings) from the
// first choice, the larger on a tie (32 from 1024: the model's block cost
// ranks large groups first where the range has blocks enough, while
// trapezoid on NVIDIA's OpenCL is fastest at 32, for a reason not measured;
// none where no other whole-warp group is legal); the climb goes on
// from the faster of the two, and a step that helped is tried at twice its
// reach, a miss halving it (a line search that brackets, then bisects); then
// the two fastest
// are timed twice more each, alternately, and the lower median of three
// wins (single timings of a 5 us kernel do not separate shapes a few percent
// apart: H200 bilinear, 2026-11-23). The budget is a
// tenth of the legal shapes and at least three (66 on a 1024 x 1024 range:
// 6; the 1-D ranges of 11 shapes: 3), all of them where there are fewer;
// with a budget of one nothing is timed and the model's first choice is the
// answer. The climb's design was chosen on the H200 sweep of
// 2026-11-23 (results/nvidia-h200/2026-11-23-worksize): in-sample there; the
// 1-D line search and its bracket on the H200 re-timings of 2026-11-29
// (trapezoid): in-sample too; scripts/experiments/tuner_replay replays the
// 1-D decisions on every stored full sweep of either GPU.
// Counting registers by quarters of the SM (from the same day) changes the
// occupancy term of kernels over 64 registers on both APIs.
#pragma once
#include <functional>
#include <vector>

#include "device_info.h"
#include "kernel_resources.h"
#include "launch_shape.h"

namespace gpucmp {

// Resident limits of one SM for the occupancy term: threads, blocks, 32-bit
// registers and shared memory (bytes; 0: not known, not applied). From the
// compute capability (Hopper: 2048, 32, 65536, 228 KB); other devices get
// Hopper's threads, blocks and registers and no shared-memory limit.
struct SmLimits {
  int max_threads = 2048;
  int max_blocks = 32;
  int registers = 65536;
  long long shared = 0;
};
SmLimits sm_limits(const DeviceInfo& dev);

// Blocks of `threads` threads of a kernel needing `k` resident on one SM
// (0: not one fits).
long long blocks_per_sm(long long threads, const SmLimits& sm, const KernelResources& k);

// The largest block of whole warps, at most `device_max` threads, whose
// `registers` a thread fit one SM's register file (allocated 256 a warp, each
// warp's from one of the file's four quarters): the bound at which NVIDIA's
// drivers refuse a launch (OpenCL: CL_OUT_OF_RESOURCES at enqueue;
// scripts/experiments/group_size). 0 when `registers` or `device_max` is 0
// or not one warp fits.
int register_limited_block(int registers, const SmLimits& sm, int device_max);

// The model's expected fraction of the device a shape uses (1: no loss; 0:
// the kernel cannot launch with it).
double model_score(const LocalShape& s, const GlobalSize& global, const DeviceInfo& dev,
                   const KernelResources& kernel = {});

// Shapes the tuner may measure out of `candidates`: a tenth, at least 3, at
// most all of them.
int tuner_budget(int candidates);

// The legal shapes in the model's order, best first (ties: the larger group,
// then the x nearest above 32).
std::vector<LocalShape> model_ranking(const std::vector<LocalShape>& candidates,
                                      const GlobalSize& global, const DeviceInfo& dev,
                                      const KernelResources& kernel = {});

// Seconds one launch of a shape takes (the tuner's only measurement).
using ShapeTimer = std::function<double(const LocalShape&)>;

struct TunerResult {
  LocalShape shape;
  int candidates = 0;
  int measured = 0;
};

// The search above over `candidates` (legal shapes) with `budget` timings,
// the model fed with the kernel's own resources.
TunerResult tune_local(const std::vector<LocalShape>& candidates, const GlobalSize& global,
                       const DeviceInfo& dev, int budget, const ShapeTimer& time,
                       const KernelResources& kernel = {});

}  // namespace gpucmp
