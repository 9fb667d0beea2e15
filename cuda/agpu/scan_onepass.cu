// scan's onepass: decoupled look-back (Merrill and Garland) as scan.cu's
// lookback, with fewer instructions per word (harness/workloads/agpu/scan.h).
// Pairs with opencl/agpu/scan_onepass.cl. A block of kBlock threads scans one
// tile of ALPHA x kBlock words, ALPHA compiled (4, 8, 16, 32), thread t owning
// words t x ALPHA .. t x ALPHA + ALPHA - 1 in registers:
//   load   each warp reads its 32 x ALPHA words as 16-byte vectors, lane after
//          lane (coalesced, evict-first: the words are read once), into its
//          own part of shared memory and reads back its lane's ALPHA
//          consecutive words (__syncwarp only; no transpose at ALPHA 4, where
//          the two arrangements agree)
//   scan   in registers, then the warp's by __shfl_up_sync, then the 8 warp
//          totals from shared memory (one __syncthreads)
//   look   warp 0 publishes the tile's aggregate and looks back 32 tiles a
//          round (scan_status.cuh), one per lane, sleeping before the first
//          poll and between polls (the waits of CUB's sm_90 tuning), then
//          publishes the prefix;
//          a second __syncthreads hands the tile's prefix to every warp
//   store  the way back through shared memory, 16-byte vectors, coalesced,
//          evict-first (the prefix sums are not read again here).
// Only the last tile checks its accesses against n (a branch uniform over
// the block): checking every access, as this kernel did until 2026-11-25,
// took 55 registers instead of 40 at ALPHA 16 and ran 1.46x slower
// (scripts/experiments/scan_forms/forms.cu on the H200, GUARD 1 against 0).
// Shared memory holds 16-byte chunks swizzled (chunk c at c ^ (c / 8 % 8)) so
// that the striped and blocked accesses both meet 8 distinct 16-byte bank
// groups in each quarter warp.
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
using scan_status::from_bits;
using scan_status::kAggregate;
using scan_status::kPrefix;
using scan_status::publish;
using scan_status::to_bits;

constexpr int kBlock = scan::kBlock;
constexpr int kWarp = 32;
constexpr int kWarps = kBlock / kWarp;
constexpr unsigned kFullMask = 0xffffffffU;
// look_back's waits: before the first poll (CUB's name for it: the L2 write
// latency) and between polls. The values are CUB's
// sm_90 tuning for 4-byte sums (fixed_delay_constructor_t<648, 1245> in
// cub/device/dispatch/tuning/tuning_scan.cuh); with them the H200 ran the
// scan 1.17x faster than with the back-off of 32 to 512 ns used before
// (scripts/experiments/scan_forms/forms.cu, WAIT 1 against 0).
constexpr unsigned kBeforeFirstPollNs = 1245, kBetweenPollsNs = 648;

__device__ __forceinline__ int swizzle(int chunk) { return chunk ^ ((chunk >> 3) & 7); }

// Words i .. i + 3, all below n; evict-first (__ldcs, __stcs: ld/st.global.cs).
template <class T4, class T>
__device__ __forceinline__ T4 load4_full(const T* __restrict__ in, size_t i) {
  return __ldcs(reinterpret_cast<const T4*>(in + i));
}
template <class T, class T4>
__device__ __forceinline__ void store4_full(T* __restrict__ out, size_t i, T4 v) {
  __stcs(reinterpret_cast<T4*>(out + i), v);
}

// Words i .. i + 3 (the identity from n on).
template <class Op, class T = typename Op::T, class T4 = typename Op::T4>
__device__ __forceinline__ T4 load4(const T* __restrict__ in, size_t i, size_t n) {
  if (i + 4 <= n) return load4_full<T4>(in, i);
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
    store4_full(out, i, v);
    return;
  }
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

// The warp's words from `first` (32 x ALPHA, coalesced) into x, ALPHA
// consecutive words per lane. `chunks`: the warp's 8 x ALPHA 16-byte chunks.
// FULL: every word is below n (no check).
template <class Op, int ALPHA, bool FULL, class T = typename Op::T, class T4 = typename Op::T4>
__device__ __forceinline__ void load_blocked(const T* __restrict__ in, T4* chunks, size_t first,
                                             size_t n, T (&x)[ALPHA]) {
  constexpr int Q = ALPHA / 4;  // chunks per lane
  const int lane = threadIdx.x % kWarp;
  const auto load = [&](size_t i) { return FULL ? load4_full<T4>(in, i) : load4<Op>(in, i, n); };
  if constexpr (Q == 1) {
    const T4 v = load(first + 4 * size_t(lane));
    x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
  } else {
#pragma unroll
    for (int j = 0; j < Q; ++j) {
      const int c = j * kWarp + lane;
      chunks[swizzle(c)] = load(first + 4 * size_t(c));
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const T4 v = chunks[swizzle(lane * Q + k)];
      x[4 * k] = v.x, x[4 * k + 1] = v.y, x[4 * k + 2] = v.z, x[4 * k + 3] = v.w;
    }
  }
}

// load_blocked's way back: x to out[first ..] (words below n), coalesced.
template <int ALPHA, bool FULL, class T, class T4>
__device__ __forceinline__ void store_blocked(T* __restrict__ out, T4* chunks, size_t first,
                                              size_t n, const T (&x)[ALPHA]) {
  constexpr int Q = ALPHA / 4;
  const int lane = threadIdx.x % kWarp;
  const auto store = [&](size_t i, T4 v) {
    if constexpr (FULL)
      store4_full(out, i, v);
    else
      store4(out, i, n, v);
  };
  if constexpr (Q == 1) {
    store(first + 4 * size_t(lane), T4{x[0], x[1], x[2], x[3]});
  } else {
#pragma unroll
    for (int k = 0; k < Q; ++k)
      chunks[swizzle(lane * Q + k)] = T4{x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]};
    __syncwarp();
#pragma unroll
    for (int j = 0; j < Q; ++j) {
      const int c = j * kWarp + lane;
      store(first + 4 * size_t(c), chunks[swizzle(c)]);
    }
  }
}

// Warp 0's look-back from tile `tile` (> 0): lane l reads the status of tile
// base - l, all lanes spin until those up to the nearest inclusive prefix
// (every lane if none) are published, then lanes 0..p are combined in order
// (the farther tile on the left) and the round's product goes left of the
// earlier rounds'. Returns the product of every tile before `tile` (lane 0's).
// sleep: wait before the first poll and between polls (else spin).
template <class Op, class T = typename Op::T>
__device__ __forceinline__ T look_back(const unsigned long long* status, size_t tile, bool sleep) {
  const int lane = threadIdx.x % kWarp;
  const volatile unsigned long long* words = status;
  const unsigned long long before_first =
      (unsigned long long)kPrefix << 32 | to_bits(Op::identity());
  T exclusive = Op::identity();
  long long base = (long long)tile - 1;  // the nearest tile not yet combined
  if (sleep) __nanosleep(kBeforeFirstPollNs);
  for (;;) {
    const long long pred = base - lane;
    unsigned long long word;
    unsigned prefixes;
    for (;;) {  // warp-uniform: the masks are ballots
      word = pred >= 0 ? words[pred] : before_first;
      const unsigned flag = unsigned(word >> 32);
      const unsigned pending = __ballot_sync(kFullMask, flag == 0);
      prefixes = __ballot_sync(kFullMask, flag == kPrefix);
      const unsigned needed = prefixes ? prefixes ^ (prefixes - 1) : kFullMask;  // lanes 0..p
      if ((pending & needed) == 0) break;
      if (sleep) __nanosleep(kBetweenPollsNs);  // not yet: fewer polls, less of the L2's bandwidth
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

template <class Op, int ALPHA, class T = typename Op::T, class T4 = typename Op::T4>
__global__ void __launch_bounds__(kBlock)
    scan_onepass(const T* __restrict__ in, T* __restrict__ out, unsigned long long* status,
                 size_t n, size_t m, bool sleep) {
  static_assert(ALPHA % 4 == 0, "16-byte chunks");
  constexpr int Q = ALPHA / 4;
  __shared__ T4 chunks[Q > 1 ? kBlock * Q : 1];
  __shared__ __align__(16) T warp_totals[kWarps];
  __shared__ unsigned tile_id;
  __shared__ T tile_prefix;
  const int tx = threadIdx.x, lane = tx % kWarp, warp = tx / kWarp;
  if (tx == 0) tile_id = scan_status::next_tile(status, m);
  __syncthreads();
  const size_t tile = tile_id;
  const size_t first = (tile * kBlock + size_t(warp) * kWarp) * ALPHA;  // the warp's first word
  T4* warp_chunks = chunks + (Q > 1 ? warp * kWarp * Q : 0);

  // Whether the whole tile lies below n (every tile but perhaps the last).
  const bool full = (tile + 1) * size_t(kBlock) * ALPHA <= n;
  T x[ALPHA];
  if (full)
    load_blocked<Op, ALPHA, true>(in, warp_chunks, first, n, x);
  else
    load_blocked<Op, ALPHA, false>(in, warp_chunks, first, n, x);
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
      exclusive = look_back<Op>(status, tile, sleep);
      if (lane == 0) publish(status, tile, kPrefix, to_bits(Op::combine(exclusive, total)));
    }
    if (lane == 0) tile_prefix = exclusive;
  }
  __syncthreads();
  T prefix = Op::combine(tile_prefix, warp_prefix);
  if (lane > 0) prefix = Op::combine(prefix, lane_prefix);
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) x[k] = Op::combine(prefix, x[k]);
  if (full)
    store_blocked<ALPHA, true>(out, warp_chunks, first, n, x);
  else
    store_blocked<ALPHA, false>(out, warp_chunks, first, n, x);
}

}  // namespace

void launch_scan_onepass(scan::Type type, const void* in, void* out, void* status, std::size_t n,
                         int alpha, bool spin, cudaStream_t stream) {
  auto* words = static_cast<unsigned long long*>(status);
  const std::size_t m = scan::tiles(n, alpha);
  check(cudaMemsetAsync(words, 0, scan::lookback_status_bytes(n, alpha), stream), "cudaMemsetAsync",
        "scan/onepass status");
  agpu_ops::with_op(type, [&](auto op) {
    using Op = decltype(op);
    using T = typename Op::T;
    with_compiled_alpha<4, 8, 16, 32>(  // scan::onepass_has_alpha's
        alpha,
        [&](auto compiled) {
          constexpr int A = decltype(compiled)::value;
          scan_onepass<Op, A><<<unsigned(m), kBlock, 0, stream>>>(
              static_cast<const T*>(in), static_cast<T*>(out), words, n, m, !spin);
        },
        [&] { throw ApiError("scan/onepass: no kernel for alpha " + std::to_string(alpha)); });
  });
}

}  // namespace gpucmp::cuda
