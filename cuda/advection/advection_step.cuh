// The step as weights, for the kernels that compute it so (advection.cu's
// weights and stream, advection_async.cu): advection_method.h's upwind
// weights and the weighted 5 x 5 sum, written once. Pairs with
// opencl/advection/advection_step.clh.
#pragma once

#include "advection_kernels.h"

namespace gpucmp::cuda {

constexpr int kStepHalo = 2;
constexpr float kStepSixth = 1.0F / 6;

// The upwind Lagrange weights at xi (advection_method.h upwind_weights):
// w[0] is 0 where xi > 0, w[4] elsewhere.
__device__ __forceinline__ void upwind_weights(float xi, float* w) {
  if (xi > 0.0F) {
    w[0] = 0.0F;
    w[1] = -xi * (xi - 1.0F) * (xi - 2.0F) * kStepSixth;
    w[2] = (xi + 1.0F) * (xi - 1.0F) * (xi - 2.0F) * 0.5F;
    w[3] = -(xi + 1.0F) * xi * (xi - 2.0F) * 0.5F;
    w[4] = (xi + 1.0F) * xi * (xi - 1.0F) * kStepSixth;
  } else {
    w[0] = -(xi + 1.0F) * xi * (xi - 1.0F) * kStepSixth;
    w[1] = (xi + 2.0F) * xi * (xi - 1.0F) * 0.5F;
    w[2] = -(xi + 2.0F) * (xi + 1.0F) * (xi - 1.0F) * 0.5F;
    w[3] = (xi + 2.0F) * (xi + 1.0F) * xi * kStepSixth;
    w[4] = 0.0F;
  }
}

__device__ __forceinline__ bool on_border(int x, int y, int nx, int ny) {
  return x < kStepHalo || y < kStepHalo || x >= nx - kStepHalo || y >= ny - kStepHalo;
}

// The new value of the cell whose 5 x 5 values are a (a[r][c]: row y - 2 +
// r, column x - 2 + c), its row's x weights wx and its column's y weights
// wy: each row's sum over its columns, in order, then over the rows. A
// border cell keeps its value. Every kernel computing the step as weights
// sums in this order, each term a fused multiply-add, so that their fields
// are equal bit for bit (advection_step.clh writes a * b + c, which
// NVIDIA's OpenCL contracts into the same FMAs).
__device__ __forceinline__ float weighted_step(const float (&a)[5][5], const float* wx,
                                               const float (&wy)[5], bool border) {
  if (border) return a[2][2];
  float out = 0.0F;
#pragma unroll
  for (int r = 0; r < 5; ++r) {
    float v = 0.0F;
#pragma unroll
    for (int c = 0; c < 5; ++c) v = fmaf(wx[c], a[r][c], v);
    out = fmaf(wy[r], v, out);
  }
  return out;
}

// Cell (x, y)'s new value `v` (Vec: float, or float4 for four cells from
// x on) into the neighbours' buffers where row y is one they receive.
template <class Vec>
__device__ __forceinline__ void store_peers(const PeerStores& p, int nx, int x, int y, Vec v) {
  if (unsigned(y - p.up.first) < unsigned(p.up.count))
    *reinterpret_cast<Vec*>(p.up.to + (size_t)(y - p.up.row0) * nx + x) = v;
  if (unsigned(y - p.down.first) < unsigned(p.down.count))
    *reinterpret_cast<Vec*>(p.down.to + (size_t)(y - p.down.row0) * nx + x) = v;
}

}  // namespace gpucmp::cuda
