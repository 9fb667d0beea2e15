// One step of the cubic semi-Lagrangian advection (harness/workloads/
// advection/advection.h, advection_method.h): the paper's blocked kernel in
// its branch-free and two-branch forms, a plain kernel of one thread per
// cell, the blocked tile with the step as weights, and the same step streamed
// row by row (async: advection_async.cu). Pairs with
// opencl/advection/advection.cl, line for line. The constants 1/6, 1/3, 2/3
// are multiplied, not divided by, on both APIs.
#include "advection_kernels.h"
#include "advection_step.cuh"
#include "workloads/advection/advection.h"

namespace gpucmp::cuda {

namespace {
constexpr int kTileX = advection::kTileX;
constexpr int kTileY = advection::kTileY;
constexpr int kHalo = 2;
constexpr int kPlainRows = advection::kPlainRows;
constexpr int kWeightsRows = advection::kWeightsRows;
constexpr float kSixth = 1.0F / 6, kThird = 1.0F / 3, kTwoThirds = 2.0F / 3;

// The coefficients of one row's cubic at one column, f0 .. f4 = f_{i-2} ..
// f_{i+2}: the u >= 0 side and dif = c3p - c3m (branch-free form), or both
// sides (two-branch form).
struct BranchFree {
  float c3, c2, c1, c0, dif;
  __device__ static BranchFree of(float f0, float f1, float f2, float f3, float f4) {
    return {(f3 - f0) * kSixth + (f1 - f2) * 0.5F, (f3 + f1) * 0.5F - f2,
            f3 * kThird + f2 * 0.5F - f1 + f0 * kSixth, f2,
            (f1 + f3) * kTwoThirds - f2 - (f0 + f4) * kSixth};
  }
  // fp - dif xi (xi^2 - 1) (u < 0), u < 0 being xi > 0.
  __device__ float at(float xi) const {
    const float fp = ((c3 * xi + c2) * xi + c1) * xi + c0;
    return fp - dif * xi * (xi * xi - 1.0F) * (xi > 0.0F ? 1.0F : 0.0F);
  }
};

struct TwoBranch {
  float c3p, c3m, c2, c1p, c1m, c0;
  __device__ static TwoBranch of(float f0, float f1, float f2, float f3, float f4) {
    return {(f3 - f0) * kSixth + (f1 - f2) * 0.5F,
            (f4 - f1) * kSixth + (f2 - f3) * 0.5F,
            (f3 + f1) * 0.5F - f2,
            f3 * kThird + f2 * 0.5F - f1 + f0 * kSixth,
            -f1 * kThird - f2 * 0.5F + f3 - f4 * kSixth,
            f2};
  }
  __device__ float at(float xi) const {
    if (xi > 0.0F) return ((c3m * xi + c2) * xi + c1m) * xi + c0;
    return ((c3p * xi + c2) * xi + c1p) * xi + c0;
  }
};

// Every kernel: grid rows y_first + blockIdx.y x (its tile's rows) on, of
// the nx x ny grid; `from` and `to` hold the grid's rows from row0 on (a
// part's resident rows, harness/workloads/advection/halo_split.h; 0: all).
// Peer: the rows `peers` names are stored into the neighbours' buffers too
// (over:p2p); the parameter is last, so the one-GPU instantiation's other
// parameters sit where they always did.

// Rows y0 - 2 .. y0 + rows + 1, columns x0 - 2 .. x0 + kTileX + 1 of f into
// `tile` (rows of kTileX + 4), clamped at the grid's edge, where only border
// cells, which keep their values, would read them.
__device__ void load_tile(float* tile, int rows, const float* from, int row0, int x0, int y0,
                          int nx, int ny) {
  for (int r = 0; r < rows + 2 * kHalo; ++r) {
    const int gy = min(max(y0 - kHalo + r, 0), ny - 1) - row0;
    for (int c = threadIdx.x; c < kTileX + 2 * kHalo; c += kTileX) {
      const int gx = min(max(x0 - kHalo + c, 0), nx - 1);
      tile[r * (kTileX + 2 * kHalo) + c] = from[(size_t)gy * nx + gx];
    }
  }
}

// blocked: a block of kTileX threads per kTileX x kTileY cells; f and its
// halo of 2 in shared memory (load_tile); thread tx walks column
// x0 + tx down the tile, keeping the x-coefficients of the five rows its
// cell spans and computing one new row's per cell.
template <class Cubic, bool Peer>
__global__ void advection_blocked(const float* from, float* to, int row0, int y_first, int nx,
                                  int ny, float xc, float yc, float omega, PeerStores peers) {
  __shared__ float tile[kTileY + 2 * kHalo][kTileX + 2 * kHalo];
  const int tx = threadIdx.x;
  const int x0 = blockIdx.x * kTileX, y0 = y_first + blockIdx.y * kTileY;
  load_tile(&tile[0][0], kTileY, from, row0, x0, y0, nx, ny);
  __syncthreads();
  const int x = x0 + tx;
  const float xi_y = -omega * ((float)x - xc);
  const auto row = [&](int r) {
    return Cubic::of(tile[r][tx], tile[r][tx + 1], tile[r][tx + 2], tile[r][tx + 3],
                     tile[r][tx + 4]);
  };
  Cubic w0 = row(0), w1 = row(1), w2 = row(2), w3 = row(3);
#pragma unroll 4
  for (int t = 0; t < kTileY; ++t) {
    const Cubic w4 = row(t + 4);
    const int y = y0 + t;
    const float xi_x = omega * ((float)y - yc);
    float out = tile[t + kHalo][tx + kHalo];
    if (!on_border(x, y, nx, ny))
      out = Cubic::of(w0.at(xi_x), w1.at(xi_x), w2.at(xi_x), w3.at(xi_x), w4.at(xi_x)).at(xi_y);
    to[(size_t)(y - row0) * nx + x] = out;
    if (Peer) store_peers(peers, nx, x, y, out);
    w0 = w1;
    w1 = w2;
    w2 = w3;
    w3 = w4;
  }
}

// plain: one thread per cell, its 5 x 5 neighbours from global memory; the
// branch-free form.
template <bool Peer>
__global__ void advection_plain(const float* from, float* to, int row0, int y_first, int nx, int ny,
                                float xc, float yc, float omega, PeerStores peers) {
  const int x = blockIdx.x * kTileX + threadIdx.x;
  const int y = y_first + blockIdx.y * kPlainRows + threadIdx.y;
  const size_t i = (size_t)(y - row0) * nx + x;
  if (on_border(x, y, nx, ny)) {
    to[i] = from[i];
    if (Peer) store_peers(peers, nx, x, y, from[i]);
    return;
  }
  const float xi_x = omega * ((float)y - yc), xi_y = -omega * ((float)x - xc);
  float v[5];
#pragma unroll
  for (int r = 0; r < 5; ++r) {
    const float* f = from + (size_t)(y - row0 - kHalo + r) * nx + (x - kHalo);
    v[r] = BranchFree::of(f[0], f[1], f[2], f[3], f[4]).at(xi_x);
  }
  to[i] = BranchFree::of(v[0], v[1], v[2], v[3], v[4]).at(xi_y);
  if (Peer) store_peers(peers, nx, x, y, to[i]);
}
// weights: a tile of kTileX x kWeightsRows cells (shorter than blocked's,
// for more resident blocks); the 5 x 5 values around the cell in registers
// (one new row of five from shared memory per cell), the x weights of the
// tile's rows in shared memory (one row per thread), the y weights of the
// column in registers.
template <bool Peer>
__global__ void advection_weights(const float* from, float* to, int row0, int y_first, int nx,
                                  int ny, float xc, float yc, float omega, PeerStores peers) {
  __shared__ float tile[kWeightsRows + 2 * kHalo][kTileX + 2 * kHalo];
  __shared__ float wx[kWeightsRows][5];
  const int tx = threadIdx.x;
  const int x0 = blockIdx.x * kTileX, y0 = y_first + blockIdx.y * kWeightsRows;
  load_tile(&tile[0][0], kWeightsRows, from, row0, x0, y0, nx, ny);
  static_assert(kTileX >= kWeightsRows, "one thread per row's x weights");
  if (tx < kWeightsRows) upwind_weights(omega * ((float)(y0 + tx) - yc), wx[tx]);
  __syncthreads();
  const int x = x0 + tx;
  float wy[5];
  upwind_weights(-omega * ((float)x - xc), wy);
  float a[5][5];  // a[r][c]: tile row t + r, column tx + c
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int c = 0; c < 5; ++c) a[r][c] = tile[r][tx + c];
#pragma unroll 4
  for (int t = 0; t < kWeightsRows; ++t) {
#pragma unroll
    for (int c = 0; c < 5; ++c) a[4][c] = tile[t + 4][tx + c];
    const int y = y0 + t;
    const float out = weighted_step(a, wx[t], wy, on_border(x, y, nx, ny));
    to[(size_t)(y - row0) * nx + x] = out;
    if (Peer) store_peers(peers, nx, x, y, out);
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 5; ++c) a[r][c] = a[r + 1][c];
  }
}

// stream: the step as weights computes it (the same sums in the same order),
// but a block of kTileX threads walks kTileY rows of its columns reading each
// input row once: the row enters a double row buffer in shared memory (each
// thread its column; the two threads at each side the 2-column halo, one
// barrier a row), and each thread moves the 5 values around its column into
// its 5 x 5 register window. The rows kPrefetch ahead are loaded into
// registers before the row in hand is computed, so that the loads overlap
// the arithmetic; no tile waits in shared memory for all its loads.
constexpr int kPrefetch = advection::kStreamPrefetch;
template <bool Peer>
__global__ void advection_stream(const float* from, float* to, int row0, int y_first, int nx,
                                 int ny, float xc, float yc, float omega, PeerStores peers) {
  __shared__ float line[2][kTileX + 2 * kHalo];
  __shared__ float wx[kTileY][5];
  const int tx = threadIdx.x;
  const int x0 = blockIdx.x * kTileX, y0 = y_first + blockIdx.y * kTileY;
  const int x = x0 + tx;
  const bool side = tx < kHalo || tx >= kTileX - kHalo;  // also loads a halo column
  const int slot = tx < kHalo ? tx : tx + 2 * kHalo;     // its place in the row buffer
  const int hx = min(max(x0 - kHalo + slot, 0), nx - 1);
  static_assert(kTileX == kTileY, "one thread per row's x weights");
  upwind_weights(omega * ((float)(y0 + tx) - yc), wx[tx]);
  float wy[5];
  upwind_weights(-omega * ((float)x - xc), wy);
  constexpr int kRows = kTileY + 2 * kHalo;  // input rows y0 - 2 .. y0 + kTileY + 1
  const auto row_at = [&](int k) {
    return (size_t)(min(max(y0 - kHalo + k, 0), ny - 1) - row0) * nx;
  };
  float pv[kPrefetch], ph[kPrefetch];
#pragma unroll
  for (int k = 0; k < kPrefetch; ++k) {
    pv[k] = from[row_at(k) + x];
    ph[k] = side ? from[row_at(k) + hx] : 0.0F;
  }
  float a[5][5];  // a[r][c]: row y - 2 + r, column x - 2 + c
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    float* buf = line[k & 1];
    buf[tx + kHalo] = pv[0];
    if (side) buf[slot] = ph[0];
#pragma unroll
    for (int j = 0; j + 1 < kPrefetch; ++j) {
      pv[j] = pv[j + 1];
      ph[j] = ph[j + 1];
    }
    if (k + kPrefetch < kRows) {
      pv[kPrefetch - 1] = from[row_at(k + kPrefetch) + x];
      if (side) ph[kPrefetch - 1] = from[row_at(k + kPrefetch) + hx];
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 5; ++c) a[r][c] = a[r + 1][c];
#pragma unroll
    for (int c = 0; c < 5; ++c) a[4][c] = buf[tx + c];
    if (k < 2 * kHalo) continue;
    const int t = k - 2 * kHalo, y = y0 + t;
    const float out = weighted_step(a, wx[t], wy, on_border(x, y, nx, ny));
    to[(size_t)(y - row0) * nx + x] = out;
    if (Peer) store_peers(peers, nx, x, y, out);
  }
}
}  // namespace

namespace {

template <bool Peer>
void launch_blocks(const std::string& variant, const StepLaunch& s, dim3 blocks,
                   cudaStream_t stream) {
  if (variant == "plain")
    advection_plain<Peer><<<blocks, dim3(kTileX, kPlainRows), 0, stream>>>(
        s.from, s.to, s.row0, s.y_first, s.nx, s.ny, s.xc, s.yc, s.omega, s.peers);
  else if (variant == "stream")
    advection_stream<Peer><<<blocks, kTileX, 0, stream>>>(s.from, s.to, s.row0, s.y_first, s.nx,
                                                          s.ny, s.xc, s.yc, s.omega, s.peers);
  else if (variant == "weights")
    advection_weights<Peer><<<blocks, kTileX, 0, stream>>>(s.from, s.to, s.row0, s.y_first, s.nx,
                                                           s.ny, s.xc, s.yc, s.omega, s.peers);
  else if (variant == "branchy")
    advection_blocked<TwoBranch, Peer><<<blocks, kTileX, 0, stream>>>(
        s.from, s.to, s.row0, s.y_first, s.nx, s.ny, s.xc, s.yc, s.omega, s.peers);
  else
    advection_blocked<BranchFree, Peer><<<blocks, kTileX, 0, stream>>>(
        s.from, s.to, s.row0, s.y_first, s.nx, s.ny, s.xc, s.yc, s.omega, s.peers);
}

}  // namespace

void launch_advection_step(const std::string& variant, const StepLaunch& s, cudaStream_t stream) {
  const advection::TileShape tile = advection::tile_shape(variant);
  const unsigned blocks_x = unsigned(tile.tiles_x(s.nx));
  const unsigned blocks_y = unsigned(s.rows / tile.rows);
  if (blocks_y == 0) return;
  if (variant == "async" || variant == "ring" || variant == advection::kAsyncMaxL1)
    launch_advection_async(variant != "ring",
                           variant == advection::kAsyncMaxL1 ? int(cudaSharedmemCarveoutMaxL1)
                                                             : int(cudaSharedmemCarveoutDefault),
                           s, dim3(blocks_x, blocks_y), stream);
  else if (s.peers.any())
    launch_blocks<true>(variant, s, dim3(blocks_x, blocks_y), stream);
  else
    launch_blocks<false>(variant, s, dim3(blocks_x, blocks_y), stream);
}

}  // namespace gpucmp::cuda
