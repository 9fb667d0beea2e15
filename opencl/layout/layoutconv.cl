// The layout conversion (harness/workloads/layout/layoutconv.h): one
// work-item per destination word, through the generated index and its
// inverse. Pairs with cuda/layout/layoutconv.cu, line for line.
#include "gpucmp_layouts.h"

#define TILE 32  // layoutconv::kTile

__kernel void layoutconv(__global float* dst, __global const float* src, ulong n, int words,
                         int from, int to) {
  const size_t d = (size_t)get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (d >= n * (size_t)words) return;
  const size_t i = GPUCMP_LAYOUT_RECORD(to, TILE, n, words, d);
  const size_t w = GPUCMP_LAYOUT_WORD(to, TILE, n, words, d);
  dst[d] = src[GPUCMP_LAYOUT_INDEX(from, TILE, n, words, i, w)];
}
