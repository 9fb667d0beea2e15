// The launcher of trapezoid.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

// Integrates 4 / (1 + x^2) with steps of width h, one sub-interval per
// thread, each block's total to partials[its first global id], on `stream`;
// grid x block covers the items exactly, block.x <= trapezoid::kMaxLocal.
void launch_trapezoid(float* partials, float h, unsigned first_item, dim3 grid, dim3 block,
                      cudaStream_t stream);

// The occupancy API's block size for the kernel (0 bytes of dynamic shared
// memory; its 4 KiB static array counted): what the "driver" rows turn into
// a size.
cudaError_t trapezoid_occupancy_block_size(int* block);
// The kernel's registers, static shared memory and largest block
// (cudaFuncGetAttributes): what the tuner's model is fed.
cudaError_t trapezoid_attributes(cudaFuncAttributes* attributes);

}  // namespace gpucmp::cuda
