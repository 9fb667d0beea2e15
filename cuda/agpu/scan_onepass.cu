// scan's onepass: decoupled look-back (Merrill and Garland) as scan.cu's
// lookback, with fewer instructions per word (harness/workloads/agpu/scan.h).
// Pairs with opencl/agpu/scan_onepass.cl. A block of kBlock threads scans one
// tile of ALPHA x kBlock words at a time, ALPHA compiled (4, 8, 16, 32),
// thread t owning words t x ALPHA .. t x ALPHA + ALPHA - 1 in registers:
//   load   persistent blocks: the next tile is copied into shared memory by
//          cp.async (each warp its 32 x ALPHA words, 16-byte chunks,
//          coalesced) while the current one is scanned; each lane then reads
//          its ALPHA consecutive words (__syncwarp only). OpenCL's kernel
//          has no such copy on NVIDIA (advection's ring cross-run: its
//          async_work_group_copy is loads, stores and a barrier), so it
//          keeps one tile a work-group.
//   scan   in registers, then the warp's by __shfl_up_sync, then the 8 warp
//          totals from shared memory (one __syncthreads)
//   look   warp 0 publishes the tile's aggregate and looks back 32 tiles a
//          round (scan_status.cuh), one per lane, sleeping between polls,
//          then publishes the prefix;
//          a second __syncthreads hands the tile's prefix to every warp
//   store  the way back through shared memory, 16-byte vectors, coalesced.
// Shared memory holds 16-byte chunks swizzled (chunk c at c ^ (c / 8 % 8)) so
// that the striped and blocked accesses both meet 8 distinct 16-byte bank
// groups in each quarter warp.
#include <algorithm>
#include <string>
#include <type_traits>

#include "async_copy.cuh"
#include "check.h"
#include "errors.h"
#include "scan_kernels.h"
#include "scan_status.cuh"
#include "word_ops.h"

namespace gpucmp::cuda {

namespace {
using scan_status::from_bits;
using scan_status::kAggregate;
using scan_status::kPrefix;
using scan_status::publish;
using scan_status::to_bits;

constexpr int kBlock = scan::kBlock;
constexpr int kWarp = 32;
constexpr int kWarps = kBlock / kWarp;
constexpr unsigned kFullMask = 0xffffffffU;
constexpr unsigned kFirstBackoffNs = 32, kLastBackoffNs = 512;  // look_back's waits

__device__ __forceinline__ int swizzle(int chunk) { return chunk ^ ((chunk >> 3) & 7); }

// Words i .. i + 3 (the identity from n on).
template <class Op, class T = typename Op::T, class T4 = typename Op::T4>
__device__ __forceinline__ T4 load4(const T* __restrict__ in, size_t i, size_t n) {
  if (i + 4 <= n) return *reinterpret_cast<const T4*>(in + i);
  T4 v;
  v.x = i < n ? in[i] : Op::identity();
  v.y = i + 1 < n ? in[i + 1] : Op::identity();
  v.z = i + 2 < n ? in[i + 2] : Op::identity();
  v.w = i + 3 < n ? in[i + 3] : Op::identity();
  return v;
}
template <class T, class T4>
__device__ __forceinline__ void store4(T* __restrict__ out, size_t i, size_t n, T4 v) {
  if (i + 4 <= n) {
    *reinterpret_cast<T4*>(out + i) = v;
    return;
  }
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

// Starts copying tile `tile`'s words (kBlock x ALPHA from tile x kBlock x
// ALPHA) into `chunks`, its kBlock x ALPHA / 4 16-byte chunks: warp w's 32 x
// ALPHA words at chunks w x 8 x ALPHA .., swizzled, coalesced. Whole chunks
// by cp.async, one commit group; a chunk that reaches past n by loads (the
// identity from n on).
template <class Op, int ALPHA, class T = typename Op::T, class T4 = typename Op::T4>
__device__ __forceinline__ void prefetch_tile(const T* __restrict__ in, T4* chunks, size_t tile,
                                              size_t n) {
  constexpr int Q = ALPHA / 4;  // chunks per lane
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const size_t first = (tile * kBlock + size_t(warp) * kWarp) * ALPHA;
  T4* warp_chunks = chunks + warp * kWarp * Q;
#pragma unroll
  for (int j = 0; j < Q; ++j) {
    const int c = j * kWarp + lane;
    const size_t i = first + 4 * size_t(c);
    if (i + 4 <= n)
      copy_async16(&warp_chunks[swizzle(c)], in + i);
    else
      warp_chunks[swizzle(c)] = load4<Op>(in, i, n);
  }
  commit_copies();
}

// The lane's ALPHA consecutive words of its warp's chunks (after the copies
// landed and the warp synchronised).
template <int ALPHA, class T, class T4>
__device__ __forceinline__ void read_blocked(const T4* chunks, T (&x)[ALPHA]) {
  constexpr int Q = ALPHA / 4;
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const T4* warp_chunks = chunks + warp * kWarp * Q;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const T4 v = warp_chunks[swizzle(lane * Q + k)];
    x[4 * k] = v.x, x[4 * k + 1] = v.y, x[4 * k + 2] = v.z, x[4 * k + 3] = v.w;
  }
}

// x to out[the warp's words of tile `tile`, below n] through the warp's
// chunks (read_blocked's way back), 16-byte stores, coalesced.
template <int ALPHA, class T, class T4>
__device__ __forceinline__ void store_blocked(T* __restrict__ out, T4* chunks, size_t tile,
                                              size_t n, const T (&x)[ALPHA]) {
  constexpr int Q = ALPHA / 4;
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const size_t first = (tile * kBlock + size_t(warp) * kWarp) * ALPHA;
  T4* warp_chunks = chunks + warp * kWarp * Q;
#pragma unroll
  for (int k = 0; k < Q; ++k)
    warp_chunks[swizzle(lane * Q + k)] = T4{x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]};
  __syncwarp();
#pragma unroll
  for (int j = 0; j < Q; ++j) {
    const int c = j * kWarp + lane;
    store4(out, first + 4 * size_t(c), n, warp_chunks[swizzle(c)]);
  }
}

// Warp 0's look-back from tile `tile` (> 0): lane l reads the status of tile
// base - l, all lanes spin until those up to the nearest inclusive prefix
// (every lane if none) are published, then lanes 0..p are combined in order
// (the farther tile on the left) and the round's product goes left of the
// earlier rounds'. Returns the product of every tile before `tile` (lane 0's).
template <class Op, class T = typename Op::T>
__device__ __forceinline__ T look_back(const unsigned long long* status, size_t tile) {
  const int lane = threadIdx.x % kWarp;
  const volatile unsigned long long* words = status;
  const unsigned long long before_first =
      (unsigned long long)kPrefix << 32 | to_bits(Op::identity());
  T exclusive = Op::identity();
  long long base = (long long)tile - 1;  // the nearest tile not yet combined
  for (;;) {
    const long long pred = base - lane;
    unsigned long long word;
    unsigned prefixes;
    unsigned backoff = kFirstBackoffNs;
    for (;;) {  // warp-uniform: the masks are ballots
      word = pred >= 0 ? words[pred] : before_first;
      const unsigned flag = unsigned(word >> 32);
      const unsigned pending = __ballot_sync(kFullMask, flag == 0);
      prefixes = __ballot_sync(kFullMask, flag == kPrefix);
      const unsigned needed = prefixes ? prefixes ^ (prefixes - 1) : kFullMask;  // lanes 0..p
      if ((pending & needed) == 0) break;
      // Not yet: wait before polling the 32 words again (exponential; CUB's
      // scan kernel spends 5% of its ncu samples sleeping), so that the
      // polls of every waiting block take less of the L2's bandwidth.
      __nanosleep(backoff);
      backoff = min(2 * backoff, kLastBackoffNs);
    }
    const int p = prefixes ? __ffs(int(prefixes)) - 1 : kWarp - 1;
    // Lane l: the product of lanes l .. min(l + 2d - 1, p) after step d.
    T v = from_bits<T>(unsigned(word));
#pragma unroll
    for (int d = 1; d < kWarp; d *= 2) {
      const T farther = __shfl_down_sync(kFullMask, v, d);
      if (lane + d <= p) v = Op::combine(farther, v);
    }
    exclusive = Op::combine(v, exclusive);
    if (prefixes) return exclusive;
    base -= kWarp;
  }
}

// One tile, its words already in `chunks`: the scan, the look-back, the
// store. Returns after the tile's words are written.
template <class Op, int ALPHA, class T = typename Op::T, class T4 = typename Op::T4>
__device__ __forceinline__ void scan_tile(T* __restrict__ out, unsigned long long* status,
                                          T4* chunks, size_t tile, size_t n, T* warp_totals,
                                          T* tile_prefix) {
  const int tx = threadIdx.x, lane = tx % kWarp, warp = tx / kWarp;
  T x[ALPHA];
  read_blocked<ALPHA>(chunks, x);
#pragma unroll
  for (int k = 1; k < ALPHA; ++k) x[k] = Op::combine(x[k - 1], x[k]);
  T inclusive = x[ALPHA - 1];  // the lane's total, then its warp's inclusive scan
#pragma unroll
  for (int d = 1; d < kWarp; d *= 2) {
    const T left = __shfl_up_sync(kFullMask, inclusive, d);
    if (lane >= d) inclusive = Op::combine(left, inclusive);
  }
  T lane_prefix = __shfl_up_sync(kFullMask, inclusive, 1);
  if (lane == kWarp - 1) warp_totals[warp] = inclusive;
  __syncthreads();
  T total = warp_totals[0];
  T warp_prefix = Op::identity();
#pragma unroll
  for (int w = 1; w < kWarps; ++w) {
    if (w == warp) warp_prefix = total;
    total = Op::combine(total, warp_totals[w]);
  }
  if (warp == 0) {
    T exclusive = Op::identity();
    if (tile == 0) {
      if (lane == 0) publish(status, tile, kPrefix, to_bits(total));
    } else {
      if (lane == 0) publish(status, tile, kAggregate, to_bits(total));
      exclusive = look_back<Op>(status, tile);
      if (lane == 0) publish(status, tile, kPrefix, to_bits(Op::combine(exclusive, total)));
    }
    if (lane == 0) *tile_prefix = exclusive;
  }
  __syncthreads();
  T prefix = Op::combine(*tile_prefix, warp_prefix);
  if (lane > 0) prefix = Op::combine(prefix, lane_prefix);
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) x[k] = Op::combine(prefix, x[k]);
  store_blocked<ALPHA>(out, chunks, tile, n, x);
}

// Persistent blocks (as many as fit at once): each takes tile after tile
// from the counter, and asks for its next tile, and starts copying it into
// its second buffer (cp.async), before it scans the current one, so that
// the next tile's loads are in flight while the block waits on its look-back.
// A tile's id is taken before the tile it follows is done, but that tile
// publishes its aggregate without waiting on anything later, so no tile
// waits on one that cannot finish.
template <class Op, int ALPHA, class T = typename Op::T, class T4 = typename Op::T4>
__global__ void __launch_bounds__(kBlock)
    scan_onepass(const T* __restrict__ in, T* __restrict__ out, unsigned long long* status,
                 size_t n, size_t m) {
  static_assert(ALPHA % 4 == 0, "16-byte chunks");
  constexpr int kChunks = kBlock * ALPHA / 4;  // one tile's
  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  T4* buffers = reinterpret_cast<T4*>(dynamic_shared);  // two tiles' chunks
  __shared__ __align__(16) T warp_totals[kWarps];
  __shared__ unsigned tile_ids[2];
  __shared__ T tile_prefix;
  const int tx = threadIdx.x;
  if (tx == 0) tile_ids[0] = scan_status::next_tile(status, m);
  __syncthreads();
  size_t tile = tile_ids[0];
  if (tile >= m) return;
  prefetch_tile<Op, ALPHA>(in, buffers, tile, n);
  for (int cur = 0;; cur ^= 1) {
    if (tx == 0) tile_ids[cur ^ 1] = scan_status::next_tile(status, m);
    __syncthreads();  // the id; and the other buffer's last reader is done
    const size_t next = tile_ids[cur ^ 1];
    if (next < m) {
      prefetch_tile<Op, ALPHA>(in, buffers + (cur ^ 1) * kChunks, next, n);
      wait_copies<1>();  // the current tile's copies have landed
    } else {
      wait_copies<0>();
    }
    __syncwarp();  // each warp reads only the chunks its own lanes copied
    scan_tile<Op, ALPHA>(out, status, buffers + cur * kChunks, tile, n, warp_totals, &tile_prefix);
    if (next >= m) return;
    tile = next;
  }
}

// The persistent grid: the blocks of scan_onepass<Op, A> that fit on the
// device at once (at most m), its dynamic shared memory allowed first.
template <class Op, int A, class T = typename Op::T, class T4 = typename Op::T4>
unsigned persistent_blocks(size_t m, size_t shared_bytes) {
  const auto kernel = scan_onepass<Op, A>;
  check(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)),
      "cudaFuncSetAttribute", "scan/onepass shared memory");
  int per_sm = 0, device = 0, sms = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, shared_bytes),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "scan/onepass");
  check(cudaGetDevice(&device), "cudaGetDevice", "scan/onepass");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute", "scan/onepass");
  const size_t blocks = size_t(std::max(1, per_sm)) * size_t(sms);
  return unsigned(std::min(blocks, m));
}

// Calls launch(std::integral_constant<int, A>{}) with A = alpha, one of
// scan::onepass_has_alpha's.
template <class Launch>
void with_onepass_alpha(int alpha, Launch launch) {
  switch (alpha) {
    case 4:
      return launch(std::integral_constant<int, 4>{});
    case 8:
      return launch(std::integral_constant<int, 8>{});
    case 16:
      return launch(std::integral_constant<int, 16>{});
    case 32:
      return launch(std::integral_constant<int, 32>{});
    default:
      throw ApiError("scan/onepass: no kernel for alpha " + std::to_string(alpha));
  }
}
}  // namespace

void launch_scan_onepass(scan::Type type, const void* in, void* out, void* status, std::size_t n,
                         int alpha, cudaStream_t stream) {
  auto* words = static_cast<unsigned long long*>(status);
  const std::size_t m = scan::tiles(n, alpha);
  check(cudaMemsetAsync(words, 0, scan::lookback_status_bytes(n, alpha), stream), "cudaMemsetAsync",
        "scan/onepass status");
  agpu_ops::with_op(type, [&](auto op) {
    using Op = decltype(op);
    using T = typename Op::T;
    with_onepass_alpha(alpha, [&](auto compiled) {
      constexpr int A = decltype(compiled)::value;
      const size_t shared = 2 * size_t(kBlock) * A / 4 * sizeof(typename Op::T4);
      scan_onepass<Op, A><<<persistent_blocks<Op, A>(m, shared), kBlock, shared, stream>>>(
          static_cast<const T*>(in), static_cast<T*>(out), words, n, m);
    });
  });
}

}  // namespace gpucmp::cuda
