// The AGPU model's prefix sum, reduce then scan with alpha words per
// work-item (harness/workloads/agpu/scan.h); T comes as a -D option (uint for
// int32, summed modulo 2^32; float). Pairs with cuda/agpu/scan.cu, line for
// line: the tile sits in a __local argument of alpha x BLOCK skewed words.
#define BLOCK 256       // scan::kBlock
#define SUMS_ALPHA 32   // scan::kSumsAlpha

int skew(int e) { return e + (e >> 5); }

T block_exclusive_scan(__local T* a, __local T* b, T mine, T* total) {
  const int tx = get_local_id(0);
  a[tx] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local T* from = a;
  __local T* to = b;
  for (int stride = 1; stride < BLOCK; stride *= 2) {
    to[tx] = tx >= stride ? from[tx - stride] + from[tx] : from[tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local T* t = from;
    from = to;
    to = t;
  }
  *total = from[BLOCK - 1];
  const T exclusive = tx > 0 ? from[tx - 1] : (T)0;
  barrier(CLK_LOCAL_MEM_FENCE);
  return exclusive;
}

T load_tile(__global const T* in, __local T* tile_words, ulong n, size_t tile, int alpha) {
  const int tx = get_local_id(0);
  const size_t first = tile * (size_t)alpha * BLOCK;
  for (int k = 0; k < alpha; ++k) {
    const int e = k * BLOCK + tx;
    const size_t i = first + e;
    tile_words[skew(e)] = i < n ? in[i] : (T)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  T mine = 0;
  for (int k = 0; k < alpha; ++k) mine = mine + tile_words[skew(tx * alpha + k)];
  return mine;
}

__kernel void scan_tile_sums(__global const T* in, __global T* sums, ulong n, int alpha,
                             __local T* tile_words) {
  __local T a[BLOCK], b[BLOCK];
  const T mine = load_tile(in, tile_words, n, get_group_id(0), alpha);
  T total;
  block_exclusive_scan(a, b, mine, &total);
  if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}

T scan_loaded_tile(__local T* tile_words, __local T* a, __local T* b, T mine, T offset,
                   int inclusive, __global T* out, ulong n, size_t tile, int alpha) {
  const int tx = get_local_id(0);
  T total;
  T running = offset + block_exclusive_scan(a, b, mine, &total);
  for (int k = 0; k < alpha; ++k) {
    const int e = skew(tx * alpha + k);
    const T word = tile_words[e];
    tile_words[e] = inclusive ? running + word : running;
    running = running + word;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t first = tile * (size_t)alpha * BLOCK;
  for (int k = 0; k < alpha; ++k) {
    const int e = k * BLOCK + tx;
    const size_t i = first + e;
    if (i < n) out[i] = tile_words[skew(e)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return total;
}

__kernel void scan_sums(__global T* sums, ulong m, __local T* tile_words) {
  __local T a[BLOCK], b[BLOCK];
  T offset = 0;
  const size_t tiles = (m + (size_t)SUMS_ALPHA * BLOCK - 1) / ((size_t)SUMS_ALPHA * BLOCK);
  for (size_t t = 0; t < tiles; ++t) {
    const T mine = load_tile(sums, tile_words, m, t, SUMS_ALPHA);
    offset = offset +
             scan_loaded_tile(tile_words, a, b, mine, offset, 0, sums, m, t, SUMS_ALPHA);
  }
}

__kernel void scan_tiles(__global const T* in, __global T* out, __global const T* offsets, ulong n,
                         int alpha, __local T* tile_words) {
  __local T a[BLOCK], b[BLOCK];
  const T mine = load_tile(in, tile_words, n, get_group_id(0), alpha);
  scan_loaded_tile(tile_words, a, b, mine, offsets[get_group_id(0)], 1, out, n,
                   get_group_id(0), alpha);
}
