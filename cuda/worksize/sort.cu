// One pass of the bitonic sorting network, one compare-exchange per thread,
// global memory only (harness/workloads/worksize/sort.h). The grid covers the
// n/2 pairs exactly: the block size divides n/2, so no bounds test. Both
// elements are written whether swapped or not, so every pass moves 8n bytes.
// Pairs with opencl/worksize/sort.cl, line for line.
#include "sort_kernels.h"

namespace gpucmp::cuda {

namespace {
__global__ void bitonic_pass(float* a, unsigned k, unsigned j) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned i = 2 * t - (t & (j - 1));  // t with a 0 bit inserted at j's position
  const unsigned l = i + j;
  const float x = a[i], y = a[l];
  const bool up = (i & k) == 0;
  const bool swap = up ? x > y : x < y;
  a[i] = swap ? y : x;
  a[l] = swap ? x : y;
}
}  // namespace

void launch_bitonic_pass(float* a, unsigned k, unsigned j, dim3 grid, dim3 block,
                         cudaStream_t stream) {
  bitonic_pass<<<grid, block, 0, stream>>>(a, k, j);
}

cudaError_t bitonic_pass_occupancy_block_size(int* block) {
  int min_grid = 0;
  return cudaOccupancyMaxPotentialBlockSize(&min_grid, block, bitonic_pass, 0, 0);
}

cudaError_t bitonic_pass_attributes(cudaFuncAttributes* attributes) {
  return cudaFuncGetAttributes(attributes, bitonic_pass);
}

}  // namespace gpucmp::cuda
