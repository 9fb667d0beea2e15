// The async variant of the advection step (harness/workloads/advection/
// advection.h): weights' step, bit for bit, streamed row by row through a
// ring of rows in shared memory that cp.async fills kAsyncPrefetch rows
// ahead, so that no register waits for a load; and the ring variant, the
// same kernel with the ring filled by ordinary loads and stores. Pairs with
// opencl/advection/advection_async.cl (async_work_group_copy; -DRING_LOADS).
#include <map>
#include <mutex>
#include <tuple>

#include "advection_kernels.h"
#include "advection_step.cuh"
#include "check.h"
#include "workloads/advection/advection.h"

namespace gpucmp::cuda {

namespace {
constexpr int kThreads = advection::kAsyncThreads;
constexpr int kCells = advection::kAsyncCells;  // columns a thread: one 16-byte copy a row
constexpr int kRows = advection::kAsyncRows;
constexpr int kPrefetch = advection::kAsyncPrefetch;
constexpr int kCols = kThreads * kCells;
constexpr int kInRows = kRows + 2 * kStepHalo;  // input rows y0 - 2 .. y0 + kRows + 1
// A ring slot is refilled kPrefetch rows after it is read: two barriers
// after its last reader, so kPrefetch + 2 slots.
constexpr int kRing = kPrefetch + 2;
// Grid column x0 - 2 + j sits at slot column kLead + j, so that a thread's
// own four columns are 16-byte aligned.
constexpr int kLead = 2;
constexpr int kStride = kCols + 8;
static_assert(kCells == 4, "one float4 a thread and row");

__device__ __forceinline__ unsigned shared_address(const float* p) {
  return unsigned(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void copy_async16(float* to, const float* from) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(to)), "l"(from)
               : "memory");
}
__device__ __forceinline__ void copy_async8(float* to, const float* from) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(shared_address(to)), "l"(from)
               : "memory");
}
__device__ __forceinline__ void commit_copies() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
// Wait until at most `Pending` committed groups are still copying.
template <int Pending>
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

struct Tile {
  const float* from;
  float* to;
  int row0, nx, ny, x0, y0;
  PeerStores peers;  // stored only by the Peer instantiation (over:p2p)
};

// The tile's rows, summing the x weights C0 .. C0 + NC - 1 of each row: NC
// 4 where the block's rows share the sign of xi_x (their zero weight, w[0]
// or w[4], skipped: adding 0 * a to a sum that started at +0 changes no bit,
// so the field equals weights'), NC 5 for the block astride yc.
// Async: the ring filled by cp.async; else (the ring variant) by loads into
// registers and stores to shared memory, which wait for the loads.
template <bool Async, bool Peer, int C0, int NC>
__device__ __forceinline__ void async_rows(const Tile& g, float* ring, const float (*wx)[5],
                                           const float (&wy)[kCells][5]) {
  constexpr int kWin = kCells + NC - 1;  // window columns: x - 2 + C0 on
  const int tx = threadIdx.x, x = g.x0 + tx * kCells;
  const int xl = min(x, g.nx - kCells);  // past the grid's edge: copies the last columns
  const bool left = tx == 0, right = tx == kThreads - 1;
  const int hx = left ? max(g.x0 - kStepHalo, 0) : min(g.x0 + kCols, g.nx - kStepHalo);
  const int hslot = left ? kLead : kLead + kStepHalo + kCols;
  // Input row k (grid row y0 - 2 + k), clamped at the grid's edge, where
  // only border cells, which keep their values, read it.
  const auto row = [&](int k) {
    int gy = g.y0 - kStepHalo + k;
    if (k < kStepHalo) gy = max(gy, 0);
    if (k >= kRows + kStepHalo) gy = min(gy, g.ny - 1);
    return g.from + (gy - g.row0) * g.nx;
  };
  const auto copy_row = [&](int k) {
    float* slot = ring + (k % kRing) * kStride;
    if (Async) {
      copy_async16(slot + kLead + kStepHalo + tx * kCells, row(k) + xl);
      if (left || right) copy_async8(slot + hslot, row(k) + hx);
    } else {
      *reinterpret_cast<float4*>(slot + kLead + kStepHalo + tx * kCells) =
          *reinterpret_cast<const float4*>(row(k) + xl);
      if (left || right)
        *reinterpret_cast<float2*>(slot + hslot) = *reinterpret_cast<const float2*>(row(k) + hx);
    }
  };
#pragma unroll
  for (int k = 0; k < kPrefetch; ++k) {
    copy_row(k);
    commit_copies();
  }
  float a[5][kWin];  // a[r][j]: row y - 2 + r, column x - 2 + C0 + j
#pragma unroll
  for (int k = 0; k < kInRows; ++k) {
    if (k + kPrefetch < kInRows) copy_row(k + kPrefetch);
    commit_copies();  // empty at the end: row k is always kPrefetch groups back
    wait_copies<kPrefetch>();
    __syncthreads();
    const float* slot = ring + (k % kRing) * kStride;
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int j = 0; j < kWin; ++j) a[r][j] = a[r + 1][j];
#pragma unroll
    for (int j = 0; j < kWin; ++j) a[4][j] = slot[kLead + tx * kCells + C0 + j];
    if (k < 2 * kStepHalo) continue;
    const int t = k - 2 * kStepHalo, y = g.y0 + t;
    float w[NC];
#pragma unroll
    for (int j = 0; j < NC; ++j) w[j] = wx[t][C0 + j];
    float out[kCells];
#pragma unroll
    for (int q = 0; q < kCells; ++q) {
      float sum = 0.0F;
#pragma unroll
      for (int r = 0; r < 5; ++r) {
        float v = 0.0F;
#pragma unroll
        for (int j = 0; j < NC; ++j) v = fmaf(w[j], a[r][q + j], v);
        sum = fmaf(wy[q][r], v, sum);
      }
      out[q] = on_border(x + q, y, g.nx, g.ny) ? a[2][q + kStepHalo - C0] : sum;
    }
    if (x < g.nx) {
      const float4 v = make_float4(out[0], out[1], out[2], out[3]);
      *reinterpret_cast<float4*>(g.to + (y - g.row0) * g.nx + x) = v;
      if (Peer) store_peers(g.peers, g.nx, x, y, v);
    }
  }
}

template <bool Async, bool Peer>
__global__ void __launch_bounds__(kThreads)
    advection_async(const float* from, float* to, int row0, int y_first, int nx, int ny, float xc,
                    float yc, float omega, PeerStores peers) {
  __shared__ __align__(16) float ring[kRing * kStride];
  __shared__ float wx[kRows][5];
  const Tile g{from, to, row0, nx, ny, int(blockIdx.x) * kCols, y_first + int(blockIdx.y) * kRows,
               peers};
  for (int t = threadIdx.x; t < kRows; t += kThreads)
    upwind_weights(omega * ((float)(g.y0 + t) - yc), wx[t]);
  float wy[kCells][5];  // the y weights of the thread's columns
#pragma unroll
  for (int q = 0; q < kCells; ++q)
    upwind_weights(-omega * ((float)(g.x0 + int(threadIdx.x) * kCells + q) - xc), wy[q]);
  // xi_x is monotone in y: the block's rows share its sign when its first
  // and last do.
  const bool first = omega * ((float)g.y0 - yc) > 0.0F;
  const bool last = omega * ((float)(g.y0 + kRows - 1) - yc) > 0.0F;
  if (first != last)
    async_rows<Async, Peer, 0, 5>(g, ring, wx, wy);
  else if (first)
    async_rows<Async, Peer, 1, 4>(g, ring, wx, wy);  // w[0] = 0
  else
    async_rows<Async, Peer, 0, 4>(g, ring, wx, wy);  // w[4] = 0
}
}  // namespace

void launch_advection_async(bool async_copy, int carveout, const StepLaunch& s, dim3 blocks,
                            cudaStream_t stream) {
  const bool peer = s.peers.any();
  const auto kernel = async_copy
                          ? (peer ? advection_async<true, true> : advection_async<true, false>)
                          : (peer ? advection_async<false, true> : advection_async<false, false>);
  // The attribute stays with the kernel on its device: set it where it
  // changes, so that a control row leaves no carveout behind for the rows
  // after it. One record per device and kernel, shared by every host thread.
  static std::mutex guard;
  static std::map<std::tuple<int, bool, bool>, int> set_carveout;
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", "advection async carveout");
  {
    const std::lock_guard<std::mutex> lock(guard);
    const auto [it, fresh] =
        set_carveout.try_emplace({device, async_copy, peer}, int(cudaSharedmemCarveoutDefault));
    (void)fresh;
    if (it->second != carveout) {
      check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
            "cudaFuncSetAttribute", "advection async carveout");
      it->second = carveout;
    }
  }
  kernel<<<blocks, kThreads, 0, stream>>>(s.from, s.to, s.row0, s.y_first, s.nx, s.ny, s.xc, s.yc,
                                          s.omega, s.peers);
}

}  // namespace gpucmp::cuda
