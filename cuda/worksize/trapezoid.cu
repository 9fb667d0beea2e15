// Trapezoid-rule integration of 4 / (1 + x^2) over [0, 1], kSteps steps per
// thread, the block's partial sums added in shared memory by a tree that is
// correct for any block size (beyond the array's 1024 folded in first), thread
// 0 writing the block's total to partials[the block's first global id]
// (harness/workloads/worksize/trapezoid.h). The grid covers the items
// exactly: the block size divides them, so no bounds test.
// Pairs with opencl/worksize/trapezoid.cl, line for line.
#include "trapezoid_kernels.h"
#include "workloads/worksize/trapezoid.h"

namespace gpucmp::cuda {

namespace {
constexpr unsigned kSteps = trapezoid::kSteps;
constexpr unsigned kMaxLocal = trapezoid::kMaxLocal;

__device__ float integrand(float x) { return 4.0f / (1.0f + x * x); }

__global__ void trapezoid_sum(float* partials, float h, unsigned first_item) {
  __shared__ float sums[kMaxLocal];
  const unsigned lid = threadIdx.x;
  const unsigned size = blockDim.x;
  const unsigned g = first_item + blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned first = g * kSteps;
  float sum = 0.5f * (integrand((float)first * h) + integrand((float)(first + kSteps) * h));
  for (unsigned s = 1; s < kSteps; ++s) sum += integrand((float)(first + s) * h);
  const float mine = sum * h;
  if (lid < kMaxLocal) sums[lid] = mine;
  __syncthreads();
  // A block over kMaxLocal (never on NVIDIA, whose blocks hold 1024 threads at
  // most; kept to pair with the .cl) folds its threads beyond kMaxLocal in.
  for (unsigned base = kMaxLocal; base < size; base += kMaxLocal) {
    if (lid >= base && lid < base + kMaxLocal) sums[lid - base] += mine;
    __syncthreads();
  }
  const unsigned live = min(size, kMaxLocal);
  unsigned stride = 1;
  while (2 * stride < live) stride *= 2;  // the least power of two >= live / 2
  for (; stride > 0; stride >>= 1) {
    if (lid < stride && lid + stride < live) sums[lid] += sums[lid + stride];
    __syncthreads();
  }
  if (lid == 0) partials[first_item + blockIdx.x * blockDim.x] = sums[0];
}
}  // namespace

void launch_trapezoid(float* partials, float h, unsigned first_item, dim3 grid, dim3 block,
                      cudaStream_t stream) {
  trapezoid_sum<<<grid, block, 0, stream>>>(partials, h, first_item);
}

cudaError_t trapezoid_occupancy_block_size(int* block) {
  int min_grid = 0;
  return cudaOccupancyMaxPotentialBlockSize(&min_grid, block, trapezoid_sum, 0, 0);
}

cudaError_t trapezoid_attributes(cudaFuncAttributes* attributes) {
  return cudaFuncGetAttributes(attributes, trapezoid_sum);
}

}  // namespace gpucmp::cuda
