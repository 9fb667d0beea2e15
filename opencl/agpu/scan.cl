// The AGPU model's prefix sum, reduce then scan with alpha words per
// work-item (harness/workloads/agpu/scan.h); T comes as a -D option (uint for
// int32, summed modulo 2^32; float). Pairs with cuda/agpu/scan.cu, line for
// line: the tile sits in a __local argument of alpha x BLOCK skewed words.
// AS_T reinterprets a uint's bits as T (as_uint or as_float); -DAFFINE16
// makes the uint words' operator the affine16 product (agpu_ops.h).
#include "agpu_ops.clh"
#define BLOCK 256       // scan::kBlock
#define SUMS_ALPHA 32   // scan::kSumsAlpha
// The kernels' alpha: ALPHA where the program is built for one
// (scan::compiled_alpha, -DALPHA), else the argument.
#ifdef ALPHA
#define KERNEL_ALPHA(runtime_alpha) ALPHA
#else
#define KERNEL_ALPHA(runtime_alpha) (runtime_alpha)
#endif

int skew(int e) { return e + (e >> 5); }

T block_exclusive_scan(__local T* a, __local T* b, T mine, T* total) {
  const int tx = get_local_id(0);
  a[tx] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local T* from = a;
  __local T* to = b;
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    to[tx] = tx >= stride ? combine(from[tx - stride], from[tx]) : from[tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local T* t = from;
    from = to;
    to = t;
  }
  *total = from[BLOCK - 1];
  const T exclusive = tx > 0 ? from[tx - 1] : IDENTITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  return exclusive;
}

T load_tile(__global const T* in, __local T* tile_words, ulong n, size_t tile, int alpha) {
  const int tx = get_local_id(0);
  const size_t first = tile * (size_t)alpha * BLOCK;
#pragma unroll
  for (int k = 0; k < alpha; ++k) {
    const int e = k * BLOCK + tx;
    const size_t i = first + e;
    tile_words[skew(e)] = i < n ? in[i] : IDENTITY;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  T mine = IDENTITY;
#pragma unroll
  for (int k = 0; k < alpha; ++k) mine = combine(mine, tile_words[skew(tx * alpha + k)]);
  return mine;
}

// -DBATCHED_LOADS (scan::Variant::batched, with -DALPHA): the tile kernels
// load all ALPHA of a work-item's words into registers before storing any.
#ifdef BATCHED_LOADS
#ifndef ALPHA
#error "BATCHED_LOADS needs a compiled ALPHA"
#endif
T load_tile_batched(__global const T* in, __local T* tile_words, ulong n, size_t tile) {
  const int tx = get_local_id(0);
  const size_t first = tile * (size_t)ALPHA * BLOCK;
  T words[ALPHA];
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) {
    const size_t i = first + k * BLOCK + tx;
    words[k] = i < n ? in[i] : IDENTITY;
  }
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) tile_words[skew(k * BLOCK + tx)] = words[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  T mine = IDENTITY;
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) mine = combine(mine, tile_words[skew(tx * ALPHA + k)]);
  return mine;
}
#define LOAD_OWN_TILE(in, tile_words, n, alpha) \
  load_tile_batched(in, tile_words, n, get_group_id(0))
#else
#define LOAD_OWN_TILE(in, tile_words, n, alpha) load_tile(in, tile_words, n, get_group_id(0), alpha)
#endif

__kernel void scan_tile_sums(__global const T* in, __global T* sums, ulong n, int runtime_alpha,
                             __local T* tile_words) {
  const int alpha = KERNEL_ALPHA(runtime_alpha);
  __local T a[BLOCK], b[BLOCK];
  const T mine = LOAD_OWN_TILE(in, tile_words, n, alpha);
  T total;
  block_exclusive_scan(a, b, mine, &total);
  if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}

void write_scanned_tile(__local T* tile_words, T running, int inclusive, __global T* out,
                        ulong n, size_t tile, int alpha) {
  const int tx = get_local_id(0);
#pragma unroll
  for (int k = 0; k < alpha; ++k) {
    const int e = skew(tx * alpha + k);
    const T word = tile_words[e];
    tile_words[e] = inclusive ? combine(running, word) : running;
    running = combine(running, word);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t first = tile * (size_t)alpha * BLOCK;
#pragma unroll
  for (int k = 0; k < alpha; ++k) {
    const int e = k * BLOCK + tx;
    const size_t i = first + e;
    if (i < n) out[i] = tile_words[skew(e)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void scan_sums(__global T* sums, ulong m, __local T* tile_words) {
  __local T a[BLOCK], b[BLOCK];
  T offset = IDENTITY;
  const size_t tiles = (m + (size_t)SUMS_ALPHA * BLOCK - 1) / ((size_t)SUMS_ALPHA * BLOCK);
  for (size_t t = 0; t < tiles; ++t) {
    const T mine = load_tile(sums, tile_words, m, t, SUMS_ALPHA);
    T total;
    const T before = block_exclusive_scan(a, b, mine, &total);
    write_scanned_tile(tile_words, combine(offset, before), 0, sums, m, t, SUMS_ALPHA);
    offset = combine(offset, total);
  }
}

__kernel void scan_tiles(__global const T* in, __global T* out, __global const T* offsets, ulong n,
                         int runtime_alpha, __local T* tile_words) {
  const int alpha = KERNEL_ALPHA(runtime_alpha);
  __local T a[BLOCK], b[BLOCK];
  const T mine = LOAD_OWN_TILE(in, tile_words, n, alpha);
  T total;
  const T before = block_exclusive_scan(a, b, mine, &total);
  write_scanned_tile(tile_words, combine(offsets[get_group_id(0)], before), 1, out, n,
                     get_group_id(0), alpha);
}

// lookback: one pass with decoupled look-back, as scan.cu's (64-bit status
// words flag << 32 | the value's bits, written and read whole through
// volatile; m of them, zeroed before the launch, then the tile counter).
#define AGGREGATE 1u
#define PREFIX 2u
#define WINDOW 32

void publish(__global ulong* status, size_t tile, uint flag, uint bits) {
  *(volatile __global ulong*)(status + tile) = (ulong)flag << 32 | bits;
}

__kernel void scan_lookback(__global const T* in, __global T* out, __global ulong* status,
                            ulong n, ulong m, int alpha, __local T* tile_words) {
  // alpha read at run time, as scan.cu's scan_lookback
  __local T a[BLOCK], b[BLOCK];
  __local ulong window[WINDOW];
  __local size_t tile_id;
  __local long next;
  __local T prefix;
  __local int done;
  const int tx = get_local_id(0);
  if (tx == 0) tile_id = atomic_inc((__global uint*)(status + m));
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t tile = tile_id;
  const T mine = load_tile(in, tile_words, n, tile, alpha);
  T total;
  const T before = block_exclusive_scan(a, b, mine, &total);
  if (tx == 0) {
    publish(status, tile, tile == 0 ? PREFIX : AGGREGATE, as_uint(total));
    next = (long)tile - 1;
    prefix = IDENTITY;
    done = tile == 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  while (!done) {
    const long from = next;
    if (tx < WINDOW)
      window[tx] = from - tx >= 0 ? *(volatile __global ulong*)(status + from - tx) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx == 0) {
      T sum = prefix;
      int lane = 0;
      int found = 0;
#ifdef UNROLL_LOOKBACK_WINDOW
      // A cross-run (--cl-build-options): the same walk as a counted loop
      // with its exits as a predicate, which NVIDIA's JIT unrolls (nvcc
      // unrolls scan.cu's walk as written; the JIT keeps the loop below, and
      // keeps it under #pragma unroll too).
      int open = 1;
#pragma unroll
      for (int l = 0; l < WINDOW; ++l) {
        const ulong word = window[l];
        const uint flag = (uint)(word >> 32);
        open = open && flag != 0;
        if (open) {
          sum = combine(AS_T((uint)word), sum);
          lane = l + 1;
          found = flag == PREFIX;
          open = !found;
        }
      }
#else
      for (; lane < WINDOW && !found; ++lane) {
        const uint flag = (uint)(window[lane] >> 32);
        if (flag == 0) break;
        sum = combine(AS_T((uint)window[lane]), sum);
        found = flag == PREFIX;
      }
#endif
      prefix = sum;
      next = from - lane;
      done = found;
      if (found) publish(status, tile, PREFIX, as_uint(combine(sum, total)));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  write_scanned_tile(tile_words, combine(prefix, before), 1, out, n, tile, alpha);
}
