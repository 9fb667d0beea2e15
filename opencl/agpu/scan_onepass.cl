// scan's onepass (harness/workloads/agpu/scan.h), as cuda/agpu/scan_onepass.cu:
// a work-group of BLOCK work-items scans one tile of ALPHA x BLOCK words
// (-DALPHA: 4, 8, 16 or 32), work-item t owning words t x ALPHA .. + ALPHA - 1
// in private memory, loaded and stored as 16-byte vectors through local
// memory (chunk c at c ^ (c / 8 % 8), as the CUDA kernel's). T, AS_T and
// -DAFFINE16 as scan.cl's. OpenCL has no shuffles we can rely on (NVIDIA's
// has no sub-group functions), so the parts CUDA does by warp go through
// local memory: the block's scan in segments of 16 (two barriers), and the
// look-back's rounds of 32 status words, read by work-items 0..31, each
// spinning until its own is published, then combined by work-item 0 in order
// (the serial form of scan.cl's lookback: a local-memory tree would cost 5
// barriers a round). Only the last tile checks its accesses against n (a
// branch uniform over the work-group), as the CUDA kernel's. OpenCL C has no
// sleep: with -DNV_NANOSLEEP (the runner's, on NVIDIA's driver only) the
// pollers sleep as the CUDA kernel's warp does, by PTX nanosleep through
// NVIDIA's inline asm; otherwise they spin. No evict-first hints.
#include "agpu_ops.clh"
#ifndef ALPHA  // the runner always passes -DALPHA; gpucmp-ptx dump builds alpha 16
#define ALPHA 16
#endif
#define BLOCK 256     // scan::kBlock
#define WARP 32       // the striped loads' unit, as the CUDA kernel's warps
#define SEGMENT 16    // the block scan's segments: BLOCK = SEGMENT x SEGMENT
#define WINDOW 32     // predecessors read per look-back round
#define AGGREGATE 1u  // status flags, as scan.cl's
#define PREFIX 2u
#define Q (ALPHA / 4)  // 16-byte chunks a work-item
#ifdef NV_NANOSLEEP  // the waits of cuda/agpu/scan_onepass.cu (CUB's sm_90 tuning)
#define SLEEP_NS(ns) asm volatile("nanosleep.u32 %0;" ::"r"(ns))
#else
#define SLEEP_NS(ns)
#endif
#define BEFORE_FIRST_POLL_NS 1245u
#define BETWEEN_POLLS_NS 648u
#define VEC4_(t) t##4
#define VEC4(t) VEC4_(t)
typedef VEC4(T) T4;

int swizzle(int chunk) { return chunk ^ ((chunk >> 3) & 7); }

// Words i .. i + 3 (the identity from n on). 16-byte aligned: i % 4 == 0.
T4 load4(__global const T* in, ulong i, ulong n) {
  if (i + 4 <= n) return *(__global const T4*)(in + i);
  return (T4)(i < n ? in[i] : IDENTITY, i + 1 < n ? in[i + 1] : IDENTITY,
              i + 2 < n ? in[i + 2] : IDENTITY, IDENTITY);
}
void store4(__global T* out, ulong i, ulong n, T4 v) {
  if (i + 4 <= n) {
    *(__global T4*)(out + i) = v;
    return;
  }
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

void publish(__global ulong* status, size_t tile, uint flag, uint bits) {
  *(volatile __global ulong*)(status + tile) = (ulong)flag << 32 | bits;
}

// -DANY_GROUP_SIZE drops the required work-group size: NVIDIA's JIT ignores
// -cl-nv-maxrregcount for a kernel that has one (its .reqntid), as nvcc ignores
// -maxrregcount under __launch_bounds__; without it a register cap applies.
#ifdef ANY_GROUP_SIZE
#define ONEPASS_GROUP_SIZE
#else
#define ONEPASS_GROUP_SIZE __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
#endif

__kernel ONEPASS_GROUP_SIZE void scan_onepass(
    __global const T* in, __global T* out, __global ulong* status, ulong n, ulong m) {
  __local T4 chunks[Q > 1 ? BLOCK * Q : 1];
  __local T totals[BLOCK];       // the work-items' totals
  __local T segments[SEGMENT];   // the segments' sums
  __local ulong window[WINDOW];  // a look-back round's status words
  __local uint tile_id;
  __local T tile_prefix;  // the product of the tiles before this one
  __local int done;
  const int tx = get_local_id(0), lane = tx % WARP;
  if (tx == 0) tile_id = atomic_inc((__global uint*)(status + m));
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t tile = tile_id;
  const ulong first = ((ulong)tile * BLOCK + (ulong)(tx - lane)) * ALPHA;  // the warp's first word
  __local T4* warp_chunks = chunks + (tx - lane) * Q;
  const int full = ((ulong)tile + 1) * BLOCK * ALPHA <= n;  // the whole tile below n

  T x[ALPHA];
#if Q == 1  // the striped and blocked arrangements agree
  const ulong at = first + 4 * (ulong)lane;
  const T4 v = full ? *(__global const T4*)(in + at) : load4(in, at, n);
  x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
#else
  if (full) {
#pragma unroll
    for (int j = 0; j < Q; ++j) {
      const int c = j * WARP + lane;
      warp_chunks[swizzle(c)] = *(__global const T4*)(in + first + 4 * (ulong)c);
    }
  } else {
#pragma unroll
    for (int j = 0; j < Q; ++j) {
      const int c = j * WARP + lane;
      warp_chunks[swizzle(c)] = load4(in, first + 4 * (ulong)c, n);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const T4 v = warp_chunks[swizzle(lane * Q + k)];
    x[4 * k] = v.x, x[4 * k + 1] = v.y, x[4 * k + 2] = v.z, x[4 * k + 3] = v.w;
  }
#endif
#pragma unroll
  for (int k = 1; k < ALPHA; ++k) x[k] = combine(x[k - 1], x[k]);

  // The block's scan: the work-item's exclusive prefix in its segment, the
  // segment's sum by its last work-item, then the segments before.
  totals[tx] = x[ALPHA - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int segment = tx / SEGMENT;
  T in_segment = IDENTITY;
  for (int i = segment * SEGMENT; i < tx; ++i) in_segment = combine(in_segment, totals[i]);
  if (tx % SEGMENT == SEGMENT - 1) segments[segment] = combine(in_segment, x[ALPHA - 1]);
  barrier(CLK_LOCAL_MEM_FENCE);
  T before_segment = IDENTITY;
  for (int i = 0; i < segment; ++i) before_segment = combine(before_segment, segments[i]);

  T total = IDENTITY;  // the tile's sum (work-item 0's)
  if (tx == 0) {
    total = segments[0];
    for (int i = 1; i < SEGMENT; ++i) total = combine(total, segments[i]);
    publish(status, tile, tile == 0 ? PREFIX : AGGREGATE, as_uint(total));
    tile_prefix = IDENTITY;
    done = tile == 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  long next = (long)tile - 1;  // the nearest tile not yet combined (uniform)
  while (!done) {
    if (tx < WINDOW) {
      const long pred = next - tx;
      ulong word = (ulong)PREFIX << 32 | as_uint((T)IDENTITY);
      if (pred >= 0) {
        if (next == (long)tile - 1) SLEEP_NS(BEFORE_FIRST_POLL_NS);  // the first round
        for (;;) {  // until published (its flag not 0)
          word = *(volatile __global ulong*)(status + pred);
          if ((uint)(word >> 32) != 0) break;
          SLEEP_NS(BETWEEN_POLLS_NS);
        }
      }
      window[tx] = word;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx == 0) {
      T sum = tile_prefix;
      int found = 0;
      for (int l = 0; l < WINDOW && !found; ++l) {
        sum = combine(AS_T((uint)window[l]), sum);  // the farther tile on the left
        found = (uint)(window[l] >> 32) == PREFIX;
      }
      tile_prefix = sum;
      done = found;
      if (found) publish(status, tile, PREFIX, as_uint(combine(sum, total)));
    }
    next -= WINDOW;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const T prefix = combine(combine(tile_prefix, before_segment), in_segment);
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) x[k] = combine(prefix, x[k]);
#if Q == 1
  const T4 y = (T4)(x[0], x[1], x[2], x[3]);
  if (full)
    *(__global T4*)(out + at) = y;
  else
    store4(out, at, n, y);
#else
#pragma unroll
  for (int k = 0; k < Q; ++k)
    warp_chunks[swizzle(lane * Q + k)] =
        (T4)(x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (full) {
#pragma unroll
    for (int j = 0; j < Q; ++j) {
      const int c = j * WARP + lane;
      *(__global T4*)(out + first + 4 * (ulong)c) = warp_chunks[swizzle(c)];
    }
  } else {
#pragma unroll
    for (int j = 0; j < Q; ++j) {
      const int c = j * WARP + lane;
      store4(out, first + 4 * (ulong)c, n, warp_chunks[swizzle(c)]);
    }
  }
#endif
}
