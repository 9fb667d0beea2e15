// The layout conversion (harness/workloads/layout/layoutconv.h): one thread
// per destination word, through the generated index and its inverse. Pairs
// with opencl/layout/layoutconv.cl, line for line.
#include <gpucmp_layouts.h>

#include "layoutconv_kernels.h"
#include "workloads/layout/layoutconv.h"

namespace gpucmp::cuda {

namespace {
__global__ void layoutconv(float* dst, const float* src, size_t n, int words, int from, int to) {
  const size_t d = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (d >= n * (size_t)words) return;
  const size_t i = GPUCMP_LAYOUT_RECORD(to, layoutconv::kTile, n, words, d);
  const size_t w = GPUCMP_LAYOUT_WORD(to, layoutconv::kTile, n, words, d);
  dst[d] = src[GPUCMP_LAYOUT_INDEX(from, layoutconv::kTile, n, words, i, w)];
}
}  // namespace

void launch_layoutconv(float* dst, const float* src, std::size_t n, int words, layout::Layout from,
                       layout::Layout to, cudaStream_t stream) {
  const std::size_t total = n * std::size_t(words);
  const auto blocks = unsigned((total + layoutconv::kBlock - 1) / layoutconv::kBlock);
  layoutconv<<<blocks, layoutconv::kBlock, 0, stream>>>(dst, src, n, words, int(from), int(to));
}

}  // namespace gpucmp::cuda
