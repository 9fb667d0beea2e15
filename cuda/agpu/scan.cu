// The AGPU model's prefix sum, reduce then scan with alpha words per thread
// (harness/workloads/agpu/scan.h), templated on the word (int32 summed as
// unsigned: modulo 2^32; float). Pairs with opencl/agpu/scan.cl, line for
// line. A tile of alpha x kBlock words sits in shared memory at skewed
// indices (word e at e + e / 32), so that a thread's alpha consecutive words
// fall in distinct banks across the warp whatever alpha is.
#include "scan_kernels.h"

namespace gpucmp::cuda {

namespace {
constexpr int kBlock = scan::kBlock;
constexpr int kSumsAlpha = scan::kSumsAlpha;

__device__ int skew(int e) { return e + (e >> 5); }
// The tile's words in dynamic shared memory: alpha x kBlock, skewed (the
// model's M / (alpha b) blocks per SM follow from it).
size_t tile_bytes(int alpha, size_t word) {
  const size_t words = size_t(alpha) * kBlock;
  return (words + words / 32) * word;
}
template <class T>
__device__ T* tile_memory() {
  extern __shared__ unsigned char dynamic_shared[];
  return reinterpret_cast<T*>(dynamic_shared);
}

// The block's inclusive scan of the threads' values (Hillis-Steele, in order:
// each step adds the value `stride` to the left); returns the thread's
// exclusive prefix, and the block's total in *total.
template <class T>
__device__ T block_exclusive_scan(T* a, T* b, T mine, T* total) {
  const int tx = threadIdx.x;
  a[tx] = mine;
  __syncthreads();
  T* from = a;
  T* to = b;
  for (int stride = 1; stride < kBlock; stride *= 2) {
    to[tx] = tx >= stride ? from[tx - stride] + from[tx] : from[tx];
    __syncthreads();
    T* t = from;
    from = to;
    to = t;
  }
  *total = from[kBlock - 1];
  const T exclusive = tx > 0 ? from[tx - 1] : T(0);
  __syncthreads();  // a and b are reused by the caller's next scan
  return exclusive;
}

// Loads tile `tile` (alpha x kBlock words from tile x alpha x kBlock, zero
// beyond n) into shared memory, coalesced, and returns the sum of this
// thread's alpha consecutive words, added in order.
template <class T>
__device__ T load_tile(const T* in, T* tile_words, size_t n, size_t tile, int alpha) {
  const int tx = threadIdx.x;
  const size_t first = tile * (size_t)alpha * kBlock;
  for (int k = 0; k < alpha; ++k) {
    const int e = k * kBlock + tx;
    const size_t i = first + e;
    tile_words[skew(e)] = i < n ? in[i] : T(0);
  }
  __syncthreads();
  T mine = 0;
  for (int k = 0; k < alpha; ++k) mine = mine + tile_words[skew(tx * alpha + k)];
  return mine;
}

// 1: each tile's sum.
template <class T>
__global__ void scan_tile_sums(const T* in, T* sums, size_t n, int alpha) {
  __shared__ T a[kBlock], b[kBlock];
  const T mine = load_tile(in, tile_memory<T>(), n, blockIdx.x, alpha);
  T total;
  block_exclusive_scan(a, b, mine, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// Scans the loaded tile in place from `offset` (inclusive: each word becomes
// offset + its prefix; exclusive: offset + the prefix before it), writes it
// to out[tile's words < n], coalesced, and returns the tile's total. `mine`
// is this thread's sum from load_tile.
template <class T>
__device__ T scan_loaded_tile(T* tile_words, T* a, T* b, T mine, T offset, bool inclusive, T* out,
                              size_t n, size_t tile, int alpha) {
  const int tx = threadIdx.x;
  T total;
  T running = offset + block_exclusive_scan(a, b, mine, &total);
  for (int k = 0; k < alpha; ++k) {
    const int e = skew(tx * alpha + k);
    const T word = tile_words[e];
    tile_words[e] = inclusive ? running + word : running;
    running = running + word;
  }
  __syncthreads();
  const size_t first = tile * (size_t)alpha * kBlock;
  for (int k = 0; k < alpha; ++k) {
    const int e = k * kBlock + tx;
    const size_t i = first + e;
    if (i < n) out[i] = tile_words[skew(e)];
  }
  __syncthreads();  // the tile's memory is reloaded next
  return total;
}

// 2: one block, the exclusive scan of the m tile sums in place, tile by tile
// (kSumsAlpha words per thread, read and written coalesced), each tile from
// the running total of the tiles before it.
template <class T>
__global__ void scan_sums(T* sums, size_t m) {
  __shared__ T a[kBlock], b[kBlock];
  T* tile_words = tile_memory<T>();
  T offset = 0;
  const size_t tiles = (m + (size_t)kSumsAlpha * kBlock - 1) / ((size_t)kSumsAlpha * kBlock);
  for (size_t t = 0; t < tiles; ++t) {
    const T mine = load_tile<T>(sums, tile_words, m, t, kSumsAlpha);
    offset =
        offset + scan_loaded_tile(tile_words, a, b, mine, offset, false, sums, m, t, kSumsAlpha);
  }
}

// 3: each tile's inclusive scan plus its offset, written coalesced.
template <class T>
__global__ void scan_tiles(const T* in, T* out, const T* offsets, size_t n, int alpha) {
  __shared__ T a[kBlock], b[kBlock];
  T* tile_words = tile_memory<T>();
  const T mine = load_tile(in, tile_words, n, blockIdx.x, alpha);
  scan_loaded_tile(tile_words, a, b, mine, offsets[blockIdx.x], true, out, n, blockIdx.x, alpha);
}

template <class T>
void run(const void* in, void* out, void* sums, size_t n, int alpha, cudaStream_t stream) {
  const size_t m = scan::tiles(n, alpha);
  const T* x = static_cast<const T*>(in);
  T* s = static_cast<T*>(sums);
  const size_t tile = tile_bytes(alpha, sizeof(T));
  scan_tile_sums<T><<<unsigned(m), kBlock, tile, stream>>>(x, s, n, alpha);
  scan_sums<T><<<1, kBlock, tile_bytes(kSumsAlpha, sizeof(T)), stream>>>(s, m);
  scan_tiles<T><<<unsigned(m), kBlock, tile, stream>>>(x, static_cast<T*>(out), s, n, alpha);
}
}  // namespace

void launch_scan_alpha(scan::Type type, const void* in, void* out, void* sums, std::size_t n,
                       int alpha, cudaStream_t stream) {
  if (type == scan::Type::int32)
    run<unsigned>(in, out, sums, n, alpha, stream);
  else
    run<float>(in, out, sums, n, alpha, stream);
}

}  // namespace gpucmp::cuda
