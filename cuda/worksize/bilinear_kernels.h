// The launcher of bilinear.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

// Scales the in_w x in_h image `in` into `out` (out_w wide) on `stream`;
// grid x block covers the output exactly (x: columns, y: rows).
void launch_bilinear(float* out, const float* in, int in_w, int in_h, int out_w, float scale_x,
                     float scale_y, int x_first, int y_first, dim3 grid, dim3 block,
                     cudaStream_t stream);

// The occupancy API's block size for the kernel (0 bytes of dynamic shared
// memory): what the "driver" rows turn into a shape.
cudaError_t bilinear_occupancy_block_size(int* block);
// The kernel's registers, static shared memory and largest block
// (cudaFuncGetAttributes): what the tuner's model is fed.
cudaError_t bilinear_attributes(cudaFuncAttributes* attributes);

}  // namespace gpucmp::cuda
