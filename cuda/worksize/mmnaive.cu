// The naive matrix product, one output element per thread, no tiling and no
// shared memory (harness/workloads/worksize/mmnaive.h). The grid covers (n, n),
// or a split row's block of it from (x0, y0), exactly: the block shape
// divides both extents, so no bounds test.
// Pairs with opencl/worksize/mmnaive.cl, line for line.
#include "mmnaive_kernels.h"

namespace gpucmp::cuda {

namespace {
__global__ void mmnaive(float* c, const float* a, const float* b, int n, int x0, int y0) {
  const int j = x0 + blockIdx.x * blockDim.x + threadIdx.x;
  const int i = y0 + blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
  c[i * n + j] = sum;
}
}  // namespace

void launch_mmnaive(float* c, const float* a, const float* b, int n, int x0, int y0, dim3 grid,
                    dim3 block, cudaStream_t stream) {
  mmnaive<<<grid, block, 0, stream>>>(c, a, b, n, x0, y0);
}

cudaError_t mmnaive_occupancy_block_size(int* block) {
  int min_grid = 0;
  return cudaOccupancyMaxPotentialBlockSize(&min_grid, block, mmnaive, 0, 0);
}

cudaError_t mmnaive_attributes(cudaFuncAttributes* attributes) {
  return cudaFuncGetAttributes(attributes, mmnaive);
}

}  // namespace gpucmp::cuda
