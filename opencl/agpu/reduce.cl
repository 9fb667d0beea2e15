// The AGPU model's reductions (harness/workloads/agpu/reduce.h): tree,
// cascading and pipeline; T and T4 come as -D options (reduce_runner.cpp:
// uint, uint4 for int32, summed modulo 2^32; float, float4; with -DAFFINE16,
// uint words combined by the affine16 product). Pairs with
// cuda/agpu/reduce.cu, line for line.
#define BLOCK 256       // reduce::kBlock
#define TILE_WORDS 33   // reduce::kTileWords
#include "agpu_ops.clh"

// The group's tree over the work-items' values: neighbours first, so it keeps
// the words' order; the total for every work-item.
T block_tree(__local T* sums, T mine) {
  const int tx = get_local_id(0);
  sums[tx] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    const int i = 2 * stride * tx;
    if (i < BLOCK) sums[i] = combine(sums[i], sums[i + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return sums[0];
}

__kernel void reduce_tree(__global const T* in, __global T* partials, ulong n) {
  __local T sums[BLOCK];
  const size_t i = get_global_id(0);
  const T total = block_tree(sums, i < n ? in[i] : IDENTITY);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = total;
}

__kernel void reduce_cascading(__global const T* in, __global T* partials, ulong n) {
  __local T sums[BLOCK];
  __global const T4* in4 = (__global const T4*)in;
  const size_t vectors = n / 4, threads = get_global_size(0);
  T x = IDENTITY, y = IDENTITY, z = IDENTITY, w = IDENTITY;
  for (size_t v = get_global_id(0); v < vectors; v += threads) {
    const T4 q = in4[v];
    x = combine(x, q.x);
    y = combine(y, q.y);
    z = combine(z, q.z);
    w = combine(w, q.w);
  }
  // The last n % 4 words (no whole vector): one each to the first work-items.
  const size_t tail = vectors * 4 + get_global_id(0);
  if (tail < n) x = combine(x, in[tail]);
  const T total = block_tree(sums, combine(combine(x, y), combine(z, w)));
  if (get_local_id(0) == 0) partials[get_group_id(0)] = total;
}

__kernel void reduce_strided_block(__global const T* in, __global T* out, ulong n) {
  __local T sums[BLOCK];
  T mine = IDENTITY;
  for (size_t i = get_local_id(0); i < n; i += BLOCK) mine = combine(mine, in[i]);
  const T total = block_tree(sums, mine);
  if (get_local_id(0) == 0) out[0] = total;
}

__kernel void reduce_pipeline(__global const T* in, __global T* partials, ulong n,
                              ulong segment) {
  __local T tile[BLOCK * TILE_WORDS];
  __local T sums[BLOCK];
  const int tx = get_local_id(0);
  const size_t first = get_group_id(0) * segment;
  const size_t last = min((size_t)n, first + (size_t)segment);
  T running = IDENTITY;
  for (size_t base = first; base < last; base += BLOCK * TILE_WORDS) {
    for (int k = 0; k < TILE_WORDS; ++k) {
      const size_t i = base + (size_t)k * BLOCK + tx;
      tile[k * BLOCK + tx] = i < last ? in[i] : IDENTITY;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T mine = IDENTITY;
    for (int k = 0; k < TILE_WORDS; ++k) mine = combine(mine, tile[tx * TILE_WORDS + k]);
    const T total = block_tree(sums, mine);
    if (tx == 0) running = combine(running, total);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tx == 0) partials[get_group_id(0)] = running;
}
