#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "workloads/layout/layouts.h"

namespace gpucmp::cuda {

// One launch of bodies (harness/workloads/layout/bodies.h) with the bodies in `layout`.
void launch_bodies(layout::Layout layout, float* r2, const float* bodies, std::size_t n,
                   cudaStream_t stream);

}  // namespace gpucmp::cuda
