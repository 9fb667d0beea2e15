#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "workloads/agpu/reduce.h"

namespace gpucmp::cuda {

// One launch of reduce (harness/workloads/agpu/reduce.h) of `algorithm`
// ("tree", "cascading", "pipeline") over n words of `type` at `in`, the sum
// written to `out` (one word). `a` and `b` are scratch arrays of at least
// max(n / kBlock + 1, blocks) words; `blocks` is the cascading/pipeline grid.
void launch_reduce(const std::string& algorithm, reduce::Type type, const void* in, void* a,
                   void* b, void* out, std::size_t n, int blocks, cudaStream_t stream);

// CUB's DeviceReduce::Sum of n words of `type`: the temporary storage it needs
// (bytes), and one launch with it.
std::size_t cub_reduce_temp_bytes(reduce::Type type, std::size_t n);
void launch_cub_reduce(reduce::Type type, const void* in, void* out, std::size_t n, void* temp,
                       std::size_t temp_bytes, cudaStream_t stream);

}  // namespace gpucmp::cuda
