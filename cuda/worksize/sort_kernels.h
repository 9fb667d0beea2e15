// The launcher of sort.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

// One pass (stage k, distance j) of the bitonic network over a[0, n) on
// `stream`; grid x block covers the n/2 compare-exchange pairs exactly.
void launch_bitonic_pass(float* a, unsigned k, unsigned j, dim3 grid, dim3 block,
                         cudaStream_t stream);

// The occupancy API's block size for the kernel (0 bytes of dynamic shared
// memory): what the "driver" rows turn into a size.
cudaError_t bitonic_pass_occupancy_block_size(int* block);
// The kernel's registers, static shared memory and largest block
// (cudaFuncGetAttributes): what the tuner's model is fed.
cudaError_t bitonic_pass_attributes(cudaFuncAttributes* attributes);

}  // namespace gpucmp::cuda
