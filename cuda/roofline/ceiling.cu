// The roofline's ceilings (harness/workloads/roofline/ceiling.h): FP32 FMA,
// shared memory and L2 bandwidth, and the latency of one launch. Pairs with
// opencl/roofline/ceiling.cl, line for line.
#include "ceiling_kernels.h"

namespace gpucmp::cuda {

namespace {
constexpr int kBlock = ceiling::kBlock;

__global__ void ceiling_fma(unsigned* out, float scale, float add) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  float a[ceiling::kChains];
#pragma unroll
  for (int j = 0; j < ceiling::kChains; ++j)
    a[j] = float(i % 1024) * 0.0009765625f + float(j) * 0.125f;  // ceiling::chain_start
#pragma unroll 16
  for (int s = 0; s < ceiling::kFmaSteps; ++s)
#pragma unroll
    for (int j = 0; j < ceiling::kChains; ++j) a[j] = fmaf(a[j], scale, add);
  float sum = 0;
#pragma unroll
  for (int j = 0; j < ceiling::kChains; ++j) sum += a[j];
  out[i] = __float_as_uint(sum);
}

__device__ __forceinline__ unsigned add4(unsigned sum, uint4 v) {
  return sum + v.x + v.y + v.z + v.w;
}

__global__ void ceiling_shared(unsigned* out) {
  constexpr int kVectors = ceiling::kSharedWords / 4;
  __shared__ uint4 tile[kVectors];
  const int tx = threadIdx.x;
  for (int q = tx; q < kVectors; q += kBlock) {
    const unsigned k = 4U * q;  // ceiling::shared_word(k) = k x 2654435761
    tile[q] = make_uint4(k * 2654435761U, (k + 1) * 2654435761U, (k + 2) * 2654435761U,
                         (k + 3) * 2654435761U);
  }
  __syncthreads();
  unsigned sum = 0;
#pragma unroll 16
  for (int r = 0; r < ceiling::kSharedSteps; ++r)
    sum = add4(sum, tile[(tx + r * kBlock) % kVectors]);
  out[blockIdx.x * kBlock + tx] = sum;
}

__global__ void ceiling_l2(unsigned* out, const uint4* words, int threads) {
  constexpr int kVectors = ceiling::kL2Words / 4;
  const int t = blockIdx.x * kBlock + threadIdx.x;
  unsigned sum = 0;
  for (int pass = 0; pass < ceiling::kL2Passes; ++pass)
#pragma unroll 4
    for (int q = t; q < kVectors; q += threads)
      sum = add4(sum, words[(q + pass * kBlock) % kVectors]);
  out[t] = sum;
}
// One block, each thread its own word (ceiling::shared_word(t)): the launch alone.
__global__ void ceiling_launch(unsigned* out) { out[threadIdx.x] = threadIdx.x * 2654435761U; }

// launch's kernel over the full grid, each thread its global index's word.
__global__ void ceiling_launch_grid(unsigned* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = t * 2654435761U;
}

// launch's one block with layoutconv's arguments; `from` is 0, so `words` is
// never read, and each thread writes launch's word plus n + count + to.
__global__ void ceiling_launch_args(unsigned* out, const unsigned* words, unsigned long long n,
                                    int count, int from, int to) {
  const unsigned t = threadIdx.x;
  out[t] = from != 0 && t < n ? words[t] : t * 2654435761U + unsigned(n) + unsigned(count + to);
}

// One block, each thread one dependent FMA chain of `steps` steps from
// ceiling::chain_start(t, 0), its float bits written: a kernel as long as steps.
__global__ void ceiling_launch_spin(unsigned* out, float scale, float add, int steps) {
  const int t = threadIdx.x;
  float a = float(t % 1024) * 0.0009765625f;  // ceiling::chain_start(t, 0)
#pragma unroll 4
  for (int s = 0; s < steps; ++s) a = fmaf(a, scale, add);
  out[t] = __float_as_uint(a);
}

}  // namespace

void launch_ceiling(const std::string& variant, unsigned* out, const void* words, int blocks,
                    cudaStream_t stream) {
  if (variant == "fma")
    ceiling_fma<<<blocks, kBlock, 0, stream>>>(out, ceiling::kFmaScale, ceiling::kFmaAdd);
  else if (variant == "shared")
    ceiling_shared<<<blocks, kBlock, 0, stream>>>(out);
  else if (variant == "launch")
    ceiling_launch<<<blocks, kBlock, 0, stream>>>(out);  // blocks: 1 (ceiling::grid_blocks)
  else if (variant == "launch-grid")
    ceiling_launch_grid<<<blocks, kBlock, 0, stream>>>(out);
  else if (const int steps = ceiling::spin_steps(std::string_view(variant)); steps > 0)
    ceiling_launch_spin<<<blocks, kBlock, 0, stream>>>(out, ceiling::kFmaScale, ceiling::kFmaAdd,
                                                       steps);  // blocks: 1
  else if (variant == "launch-args")
    ceiling_launch_args<<<blocks, kBlock, 0, stream>>>(out, static_cast<const unsigned*>(words),
                                                       ceiling::kArgsN, ceiling::kArgsCount,
                                                       ceiling::kArgsFrom, ceiling::kArgsTo);
  else
    ceiling_l2<<<blocks, kBlock, 0, stream>>>(out, static_cast<const uint4*>(words),
                                              blocks * kBlock);
}

}  // namespace gpucmp::cuda
