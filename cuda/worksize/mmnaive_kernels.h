// The launcher of mmnaive.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

// C = A x B for n x n row-major floats on `stream`; grid x block covers (n, n)
// exactly (x: columns, y: rows).
void launch_mmnaive(float* c, const float* a, const float* b, int n, int x0, int y0, dim3 grid,
                    dim3 block, cudaStream_t stream);

// The occupancy API's block size for the kernel (0 bytes of dynamic shared
// memory): what the "driver" rows turn into a shape.
cudaError_t mmnaive_occupancy_block_size(int* block);
// The kernel's registers, static shared memory and largest block
// (cudaFuncGetAttributes): what the tuner's model is fed.
cudaError_t mmnaive_attributes(cudaFuncAttributes* attributes);

}  // namespace gpucmp::cuda
