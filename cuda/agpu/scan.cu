// The AGPU model's prefix sum, reduce then scan with alpha words per thread
// (harness/workloads/agpu/scan.h), templated on the operator (word_ops.h:
// int32 summed as unsigned, modulo 2^32; float; the affine16 product, l's
// words first everywhere). Pairs with opencl/agpu/scan.cl, line for line. A tile of alpha x kBlock
// words sits in shared memory at skewed indices (word e at e + e / 32), so that a thread's alpha
// consecutive words fall in distinct banks across the warp whatever alpha is.
#include <cstdint>
#include <string>
#include <type_traits>

#include "check.h"
#include "compiled_alpha.h"
#include "errors.h"
#include "scan_kernels.h"
#include "scan_status.cuh"
#include "word_ops.h"

namespace gpucmp::cuda {

namespace {
constexpr int kBlock = scan::kBlock;
constexpr int kSumsAlpha = scan::kSumsAlpha;

__device__ __forceinline__ int skew(int e) { return e + (e >> 5); }
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
template <class Op, class T = typename Op::T>
__device__ T block_exclusive_scan(T* a, T* b, T mine, T* total) {
  const int tx = threadIdx.x;
  a[tx] = mine;
  __syncthreads();
  T* from = a;
  T* to = b;
  for (int stride = 1; stride < kBlock; stride *= 2) {
    to[tx] = tx >= stride ? Op::combine(from[tx - stride], from[tx]) : from[tx];
    __syncthreads();
    T* t = from;
    from = to;
    to = t;
  }
  *total = from[kBlock - 1];
  const T exclusive = tx > 0 ? from[tx - 1] : Op::identity();
  __syncthreads();  // a and b are reused by the caller's next scan
  return exclusive;
}

// Loads tile `tile` (alpha x kBlock words from tile x alpha x kBlock, the
// identity beyond n) into shared memory, coalesced, and returns the sum of
// this thread's alpha consecutive words, added in order.
template <class Op, class T = typename Op::T>
__device__ __forceinline__ T load_tile(const T* in, T* tile_words, size_t n, size_t tile,
                                       int alpha) {
  const int tx = threadIdx.x;
  const size_t first = tile * (size_t)alpha * kBlock;
#pragma unroll
  for (int k = 0; k < alpha; ++k) {
    const int e = k * kBlock + tx;
    const size_t i = first + e;
    tile_words[skew(e)] = i < n ? in[i] : Op::identity();
  }
  __syncthreads();
  T mine = Op::identity();
#pragma unroll
  for (int k = 0; k < alpha; ++k) mine = Op::combine(mine, tile_words[skew(tx * alpha + k)]);
  return mine;
}

// load_tile's words, all ALPHA of this thread loaded into registers before
// the first is stored (scan::Variant::batched): the order NVIDIA's OpenCL JIT
// gives scan.cl's loop, where nvcc interleaves loads and stores.
template <class Op, int ALPHA, class T = typename Op::T>
__device__ __forceinline__ T load_tile_batched(const T* in, T* tile_words, size_t n, size_t tile) {
  static_assert(ALPHA > 0, "batched loads need a compiled alpha");
  const int tx = threadIdx.x;
  const size_t first = tile * (size_t)ALPHA * kBlock;
  T words[ALPHA];
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) {
    const size_t i = first + k * kBlock + tx;
    words[k] = i < n ? in[i] : Op::identity();
  }
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) tile_words[skew(k * kBlock + tx)] = words[k];
  __syncthreads();
  T mine = Op::identity();
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) mine = Op::combine(mine, tile_words[skew(tx * ALPHA + k)]);
  return mine;
}

// The tile kernels' load: batched (compiled alphas only) or load_tile's.
template <class Op, int ALPHA, bool BATCHED, class T = typename Op::T>
__device__ __forceinline__ T load_own_tile(const T* in, T* tile_words, size_t n, int alpha) {
  if constexpr (BATCHED)
    return load_tile_batched<Op, ALPHA>(in, tile_words, n, blockIdx.x);
  else
    return load_tile<Op>(in, tile_words, n, blockIdx.x, alpha);
}

// 1: each tile's sum.
template <class Op, int ALPHA, bool BATCHED, class T = typename Op::T>
__global__ void scan_tile_sums(const T* in, T* sums, size_t n, int runtime_alpha) {
  const int alpha = ALPHA > 0 ? ALPHA : runtime_alpha;
  __shared__ T a[kBlock], b[kBlock];
  const T mine = load_own_tile<Op, ALPHA, BATCHED>(in, tile_memory<T>(), n, alpha);
  T total;
  block_exclusive_scan<Op>(a, b, mine, &total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// Scans the loaded tile in place, this thread's alpha words from `running`
// (inclusive: each word becomes running + its prefix; exclusive: running +
// the prefix before it), and writes it to out[tile's words < n], coalesced.
template <class Op, class T = typename Op::T>
__device__ __forceinline__ void write_scanned_tile(T* tile_words, T running, bool inclusive, T* out,
                                                   size_t n, size_t tile, int alpha) {
  const int tx = threadIdx.x;
#pragma unroll
  for (int k = 0; k < alpha; ++k) {
    const int e = skew(tx * alpha + k);
    const T word = tile_words[e];
    tile_words[e] = inclusive ? Op::combine(running, word) : running;
    running = Op::combine(running, word);
  }
  __syncthreads();
  const size_t first = tile * (size_t)alpha * kBlock;
#pragma unroll
  for (int k = 0; k < alpha; ++k) {
    const int e = k * kBlock + tx;
    const size_t i = first + e;
    if (i < n) out[i] = tile_words[skew(e)];
  }
  __syncthreads();  // the tile's memory is reloaded next
}

// 2: one block, the exclusive scan of the m tile sums in place, tile by tile
// (kSumsAlpha words per thread, read and written coalesced), each tile from
// the running total of the tiles before it.
template <class Op, class T = typename Op::T>
__global__ void scan_sums(T* sums, size_t m) {
  __shared__ T a[kBlock], b[kBlock];
  T* tile_words = tile_memory<T>();
  T offset = Op::identity();
  const size_t tiles = (m + (size_t)kSumsAlpha * kBlock - 1) / ((size_t)kSumsAlpha * kBlock);
  for (size_t t = 0; t < tiles; ++t) {
    const T mine = load_tile<Op>(sums, tile_words, m, t, kSumsAlpha);
    T total;
    const T before = block_exclusive_scan<Op>(a, b, mine, &total);
    write_scanned_tile<Op>(tile_words, Op::combine(offset, before), false, sums, m, t, kSumsAlpha);
    offset = Op::combine(offset, total);
  }
}

// 3: each tile's inclusive scan plus its offset, written coalesced.
template <class Op, int ALPHA, bool BATCHED, class T = typename Op::T>
__global__ void scan_tiles(const T* in, T* out, const T* offsets, size_t n, int runtime_alpha) {
  const int alpha = ALPHA > 0 ? ALPHA : runtime_alpha;
  __shared__ T a[kBlock], b[kBlock];
  T* tile_words = tile_memory<T>();
  const T mine = load_own_tile<Op, ALPHA, BATCHED>(in, tile_words, n, alpha);
  T total;
  const T before = block_exclusive_scan<Op>(a, b, mine, &total);
  write_scanned_tile<Op>(tile_words, Op::combine(offsets[blockIdx.x], before), true, out, n,
                         blockIdx.x, alpha);
}

// lookback: one pass with decoupled look-back (Merrill and Garland). Each
// tile's status is one 64-bit word (scan_status.cuh); `status` holds m words
// zeroed before the launch, then a 32-bit counter that hands out tile ids in
// the order blocks start (so a tile only waits on tiles already running).
// A look-back round reads kWindow predecessors at once, one per thread of
// the first warp; thread 0 adds them. The kernel reads alpha at run time:
// on the H200 this form ran fastest (scan.h).
using scan_status::from_bits;
using scan_status::kAggregate;
using scan_status::kPrefix;
using scan_status::publish;
using scan_status::to_bits;
constexpr int kWindow = 32;  // predecessors read per look-back round

template <class Op, class T = typename Op::T>
__global__ void scan_lookback(const T* in, T* out, unsigned long long* status, size_t n, size_t m,
                              int alpha) {
  __shared__ T a[kBlock], b[kBlock];
  __shared__ unsigned long long window[kWindow];
  __shared__ size_t tile_id;
  __shared__ long long next;  // the nearest predecessor not yet added
  __shared__ T prefix;        // the sum of the predecessors added so far
  __shared__ int done;
  T* tile_words = tile_memory<T>();
  const int tx = threadIdx.x;
  if (tx == 0) tile_id = scan_status::next_tile(status, m);
  __syncthreads();
  const size_t tile = tile_id;
  const T mine = load_tile<Op>(in, tile_words, n, tile, alpha);
  T total;
  const T before = block_exclusive_scan<Op>(a, b, mine, &total);
  if (tx == 0) {
    publish(status, tile, tile == 0 ? kPrefix : kAggregate, to_bits(total));
    next = (long long)tile - 1;
    prefix = Op::identity();
    done = tile == 0;
  }
  __syncthreads();
  // Rounds of look-back: kWindow threads read the next predecessors' status
  // words, thread 0 adds them nearest first (value + prefix: the order a
  // non-commutative operator needs) up to the first not yet published, or
  // through the first holding its prefix, which ends the look-back.
  while (!done) {
    const long long from = next;
    if (tx < kWindow)
      window[tx] =
          from - tx >= 0 ? *reinterpret_cast<volatile unsigned long long*>(status + from - tx) : 0;
    __syncthreads();
    if (tx == 0) {
      T sum = prefix;
      int lane = 0;
      bool found = false;
      for (; lane < kWindow && !found; ++lane) {
        const unsigned flag = unsigned(window[lane] >> 32);
        if (flag == 0) break;
        sum = Op::combine(from_bits<T>(unsigned(window[lane])), sum);
        found = flag == kPrefix;
      }
      prefix = sum;
      next = from - lane;
      done = found;
      if (found) publish(status, tile, kPrefix, to_bits(Op::combine(sum, total)));
    }
    __syncthreads();
  }
  write_scanned_tile<Op>(tile_words, Op::combine(prefix, before), true, out, n, tile, alpha);
}

// Calls launch(std::integral_constant<int, A>{}) with A = alpha where the
// kernels are compiled for it (scan::compiled_alpha), else A = 0 (read at
// run time).
template <class Launch>
void with_alpha(int alpha, Launch launch) {
  with_compiled_alpha<1, 2, 4, 8, 16, 32>(scan::compiled_alpha(alpha), launch,
                                          [&] { launch(std::integral_constant<int, 0>{}); });
}

template <class Op, class T = typename Op::T>
void run(const void* in, void* out, void* sums, size_t n, int alpha, bool batched,
         cudaStream_t stream) {
  const size_t m = scan::tiles(n, alpha);
  const T* x = static_cast<const T*>(in);
  T* s = static_cast<T*>(sums);
  const size_t tile = tile_bytes(alpha, sizeof(T));
  const auto launch = [&](auto compiled, auto batch) {
    constexpr int A = decltype(compiled)::value;
    constexpr bool B = decltype(batch)::value;
    scan_tile_sums<Op, A, B><<<unsigned(m), kBlock, tile, stream>>>(x, s, n, alpha);
    scan_sums<Op><<<1, kBlock, tile_bytes(kSumsAlpha, sizeof(T)), stream>>>(s, m);
    scan_tiles<Op, A, B>
        <<<unsigned(m), kBlock, tile, stream>>>(x, static_cast<T*>(out), s, n, alpha);
  };
  if (!batched) {
    with_alpha(alpha, [&](auto compiled) { launch(compiled, std::false_type{}); });
    return;
  }
  // scan::batched_has_alpha's alphas (the harness skips the others' rows).
  with_compiled_alpha<8, 16, 32>(
      alpha, [&](auto compiled) { launch(compiled, std::true_type{}); },
      [&] {
        throw ApiError("scan/alpha: batched loads are compiled for alpha 8, 16 and 32 only, not " +
                       std::to_string(alpha));
      });
}

template <class Op, class T = typename Op::T>
void run_lookback(const void* in, void* out, unsigned long long* status, size_t n, int alpha,
                  cudaStream_t stream) {
  const size_t m = scan::tiles(n, alpha);
  scan_lookback<Op><<<unsigned(m), kBlock, tile_bytes(alpha, sizeof(T)), stream>>>(
      static_cast<const T*>(in), static_cast<T*>(out), status, n, m, alpha);
}
}  // namespace

void launch_scan_alpha(scan::Type type, const void* in, void* out, void* sums, std::size_t n,
                       int alpha, bool batched, cudaStream_t stream) {
  agpu_ops::with_op(type,
                    [&](auto op) { run<decltype(op)>(in, out, sums, n, alpha, batched, stream); });
}

void launch_scan_lookback(scan::Type type, const void* in, void* out, void* status, std::size_t n,
                          int alpha, cudaStream_t stream) {
  auto* words = static_cast<unsigned long long*>(status);
  check(cudaMemsetAsync(words, 0, scan::lookback_status_bytes(n, alpha), stream), "cudaMemsetAsync",
        "scan/lookback status");
  agpu_ops::with_op(type,
                    [&](auto op) { run_lookback<decltype(op)>(in, out, words, n, alpha, stream); });
}

}  // namespace gpucmp::cuda
