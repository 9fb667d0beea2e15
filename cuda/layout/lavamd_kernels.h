#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "workloads/layout/layouts.h"

namespace gpucmp::cuda {

// One launch of lavamd (harness/workloads/layout/lavamd.h) with rv and fv in
// `layout` (AoSoA tiles of lavamd::kTile): one block of lavamd::kThreads per box;
// `aligned`: the shared arrays aligned to 16 bytes (variant "aligned").
void launch_lavamd(layout::Layout layout, bool aligned, float* fv, const float* rv, const float* qv,
                   const int* neighbours, const int* counts, std::size_t boxes,
                   cudaStream_t stream);

}  // namespace gpucmp::cuda
