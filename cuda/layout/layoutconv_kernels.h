#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "workloads/layout/layouts.h"

namespace gpucmp::cuda {

// One launch of layoutconv (harness/workloads/layout/layoutconv.h): n
// records of `words` words from `from` in src to `to` in dst.
void launch_layoutconv(float* dst, const float* src, std::size_t n, int words, layout::Layout from,
                       layout::Layout to, cudaStream_t stream);

}  // namespace gpucmp::cuda
