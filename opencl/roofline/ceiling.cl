// The roofline's ceilings (harness/workloads/roofline/ceiling.h): FP32 FMA,
// shared (local) memory and L2 bandwidth, and the latency of one launch. Pairs with cuda/roofline/ceiling.cu,
// line for line.
#define BLOCK 256          // ceiling::kBlock
#define CHAINS 8           // ceiling::kChains
#define FMA_STEPS 4096     // ceiling::kFmaSteps
#define SHARED_WORDS 4096  // ceiling::kSharedWords
#define SHARED_STEPS 4096  // ceiling::kSharedSteps
#define L2_WORDS 4194304   // ceiling::kL2Words
#define L2_PASSES 64       // ceiling::kL2Passes

__kernel void ceiling_fma(__global uint* out, float scale, float add) {
  const int i = get_group_id(0) * BLOCK + get_local_id(0);
  float a[CHAINS];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) a[j] = (float)(i % 1024) * 0.0009765625f + (float)j * 0.125f;
#pragma unroll 16
  for (int s = 0; s < FMA_STEPS; ++s)
#pragma unroll
    for (int j = 0; j < CHAINS; ++j) a[j] = fma(a[j], scale, add);
  float sum = 0;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) sum += a[j];
  out[i] = as_uint(sum);
}

uint add4(uint sum, uint4 v) { return sum + v.x + v.y + v.z + v.w; }

__kernel void ceiling_shared(__global uint* out) {
  __local uint4 tile[SHARED_WORDS / 4];
  const int tx = get_local_id(0);
  for (int q = tx; q < SHARED_WORDS / 4; q += BLOCK) {
    const uint k = 4u * q;
    tile[q] = (uint4)(k * 2654435761u, (k + 1) * 2654435761u, (k + 2) * 2654435761u,
                      (k + 3) * 2654435761u);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint sum = 0;
#pragma unroll 16
  for (int r = 0; r < SHARED_STEPS; ++r) sum = add4(sum, tile[(tx + r * BLOCK) % (SHARED_WORDS / 4)]);
  out[get_group_id(0) * BLOCK + tx] = sum;
}

__kernel void ceiling_l2(__global uint* out, __global const uint4* words, int threads) {
  const int t = get_group_id(0) * BLOCK + get_local_id(0);
  uint sum = 0;
  for (int pass = 0; pass < L2_PASSES; ++pass)
#pragma unroll 4
    for (int q = t; q < L2_WORDS / 4; q += threads) sum = add4(sum, words[(q + pass * BLOCK) % (L2_WORDS / 4)]);
  out[t] = sum;
}

// One work-group, each work-item its own word (ceiling::shared_word(t)): the launch alone.
__kernel void ceiling_launch(__global uint* out) {
  out[get_local_id(0)] = get_local_id(0) * 2654435761u;
}

// launch's kernel over the full grid, each work-item its global index's word.
__kernel void ceiling_launch_grid(__global uint* out) {
  const uint t = get_global_id(0);
  out[t] = t * 2654435761u;
}

// launch's one block with layoutconv's arguments; `from` is 0, so `words` is
// never read, and each work-item writes launch's word plus n + count + to.
__kernel void ceiling_launch_args(__global uint* out, __global const uint* words, ulong n,
                                  int count, int from, int to) {
  const uint t = get_local_id(0);
  out[t] = from != 0 && t < n ? words[t] : t * 2654435761u + (uint)n + (uint)(count + to);
}

// One work-group, each work-item one dependent FMA chain of `steps` steps from
// ceiling::chain_start(t, 0), its float bits written: a kernel as long as steps.
__kernel void ceiling_launch_spin(__global uint* out, float scale, float add, int steps) {
  const int t = get_local_id(0);
  float a = (float)(t % 1024) * 0.0009765625f;
#pragma unroll 4
  for (int s = 0; s < steps; ++s) a = fma(a, scale, add);
  out[t] = as_uint(a);
}
