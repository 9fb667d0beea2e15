#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "workloads/layout/layouts.h"

namespace gpucmp::cuda {

// One frame's launch of heartwall (harness/workloads/heartwall/heartwall.h),
// the template kernel for frame 0, the tracking kernel after: one block of
// heartwall::kThreads per point over `points` points whose
// state (records.json's hwpoint) is in `layout`. `frame` is frame `frame_no`
// (kHeight x kWidth floats); `start` the points' frame-0 positions; `corr`
// and `tables` the per-point scratch (kCorrElems floats, 2 x kTableElems
// ints); `track` receives (row, col) of every point at [(frame_no * points +
// point) * 2].
void launch_heartwall(layout::Layout layout, const float* frame, int frame_no, const int* start,
                      float* state, int points, float* corr, int* tables, int* track,
                      cudaStream_t stream);

}  // namespace gpucmp::cuda
