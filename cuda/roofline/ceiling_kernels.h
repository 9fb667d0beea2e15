// The launcher of ceiling.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "workloads/roofline/ceiling.h"

namespace gpucmp::cuda {

// One launch of ceiling variant `variant` (one of ceiling::variants()) over
// `blocks` blocks of ceiling::kBlock (ceiling::grid_blocks): one result per
// thread in `out`; `words` is l2's buffer (ceiling::kL2Words).
void launch_ceiling(const std::string& variant, unsigned* out, const void* words, int blocks,
                    cudaStream_t stream);

}  // namespace gpucmp::cuda
