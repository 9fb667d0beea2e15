// Bilinear image scaling, one output pixel per thread, no shared memory
// (harness/workloads/worksize/bilinear.h). scale_x, scale_y are in / out,
// computed on the host so that both APIs get the same float (OpenCL's divide
// may be 2.5 ulp off). The grid covers the output, or a split row's block of
// it from (x_first, y_first), exactly: no bounds test.
// Pairs with opencl/worksize/bilinear.cl, line for line.
#include "bilinear_kernels.h"

namespace gpucmp::cuda {

namespace {
__global__ void bilinear(float* out, const float* in, int in_w, int in_h, int out_w, float scale_x,
                         float scale_y, int x_first, int y_first) {
  const int x = x_first + blockIdx.x * blockDim.x + threadIdx.x;
  const int y = y_first + blockIdx.y * blockDim.y + threadIdx.y;
  const float sx = fminf(fmaxf((x + 0.5f) * scale_x - 0.5f, 0.0f), (float)(in_w - 1));
  const float sy = fminf(fmaxf((y + 0.5f) * scale_y - 0.5f, 0.0f), (float)(in_h - 1));
  const int x0 = (int)floorf(sx);
  const int y0 = (int)floorf(sy);
  const int x1 = min(x0 + 1, in_w - 1);
  const int y1 = min(y0 + 1, in_h - 1);
  const float fx = sx - x0;
  const float fy = sy - y0;
  const float top = (1.0f - fx) * in[y0 * in_w + x0] + fx * in[y0 * in_w + x1];
  const float bottom = (1.0f - fx) * in[y1 * in_w + x0] + fx * in[y1 * in_w + x1];
  out[y * out_w + x] = (1.0f - fy) * top + fy * bottom;
}
}  // namespace

void launch_bilinear(float* out, const float* in, int in_w, int in_h, int out_w, float scale_x,
                     float scale_y, int x_first, int y_first, dim3 grid, dim3 block,
                     cudaStream_t stream) {
  bilinear<<<grid, block, 0, stream>>>(out, in, in_w, in_h, out_w, scale_x, scale_y, x_first,
                                       y_first);
}

cudaError_t bilinear_occupancy_block_size(int* block) {
  int min_grid = 0;
  return cudaOccupancyMaxPotentialBlockSize(&min_grid, block, bilinear, 0, 0);
}

cudaError_t bilinear_attributes(cudaFuncAttributes* attributes) {
  return cudaFuncGetAttributes(attributes, bilinear);
}

}  // namespace gpucmp::cuda
