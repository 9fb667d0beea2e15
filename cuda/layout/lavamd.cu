// LavaMD (harness/workloads/layout/lavamd.h), written once against the
// generated particle4 accessors and compiled once per layout: GPUCMP_LAYOUT
// and GPUCMP_TILE are the template's parameters. Pairs with
// opencl/layout/lavamd.cl, line for line.
#include <gpucmp_layouts.h>

#include "lavamd_kernels.h"
#include "workloads/layout/lavamd.h"

namespace gpucmp::cuda {

namespace {
constexpr int kPar = lavamd::kParPerBox;

template <int GPUCMP_LAYOUT, int GPUCMP_TILE>
__global__ void lavamd_kernel(float* fv, const float* rv, const float* qv, const int* neighbours,
                              const int* counts, size_t n, float a2) {
  __shared__ float ra_v[kPar], ra_x[kPar], ra_y[kPar], ra_z[kPar];
  __shared__ float rb_v[kPar], rb_x[kPar], rb_y[kPar], rb_z[kPar], qb[kPar];
  const int bx = blockIdx.x, tx = threadIdx.x;
  const size_t home = (size_t)bx * kPar;
  for (int i = tx; i < kPar; i += blockDim.x) {
    ra_v[i] = particle4_v(rv, n, home + i);
    ra_x[i] = particle4_x(rv, n, home + i);
    ra_y[i] = particle4_y(rv, n, home + i);
    ra_z[i] = particle4_z(rv, n, home + i);
  }
  float f_v = 0, f_x = 0, f_y = 0, f_z = 0;
  const int count = counts[bx];
  for (int k = 0; k < count; ++k) {
    const size_t first = (size_t)neighbours[bx * lavamd::kNeighbours + k] * kPar;
    __syncthreads();  // the previous box's particles are no longer read
    for (int j = tx; j < kPar; j += blockDim.x) {
      rb_v[j] = particle4_v(rv, n, first + j);
      rb_x[j] = particle4_x(rv, n, first + j);
      rb_y[j] = particle4_y(rv, n, first + j);
      rb_z[j] = particle4_z(rv, n, first + j);
      qb[j] = qv[first + j];
    }
    __syncthreads();
    if (tx < kPar) {
      for (int j = 0; j < kPar; ++j) {
        const float r2 =
            ra_v[tx] + rb_v[j] - (ra_x[tx] * rb_x[j] + ra_y[tx] * rb_y[j] + ra_z[tx] * rb_z[j]);
        const float u2 = a2 * r2;
        const float vij = expf(-u2);
        const float fs = 2.0f * vij;
        const float dx = ra_x[tx] - rb_x[j], dy = ra_y[tx] - rb_y[j], dz = ra_z[tx] - rb_z[j];
        f_v += qb[j] * vij;
        f_x += qb[j] * (fs * dx);
        f_y += qb[j] * (fs * dy);
        f_z += qb[j] * (fs * dz);
      }
    }
  }
  if (tx < kPar) {
    particle4_v(fv, n, home + tx) = f_v;
    particle4_x(fv, n, home + tx) = f_x;
    particle4_y(fv, n, home + tx) = f_y;
    particle4_z(fv, n, home + tx) = f_z;
  }
}

template <int Layout>
void launch(float* fv, const float* rv, const float* qv, const int* neighbours, const int* counts,
            size_t boxes, cudaStream_t stream) {
  lavamd_kernel<Layout, lavamd::kTile><<<unsigned(boxes), lavamd::kThreads, 0, stream>>>(
      fv, rv, qv, neighbours, counts, boxes * kPar, lavamd::kA2);
}
}  // namespace

void launch_lavamd(layout::Layout layout, float* fv, const float* rv, const float* qv,
                   const int* neighbours, const int* counts, std::size_t boxes,
                   cudaStream_t stream) {
  switch (layout) {
    case layout::Layout::aos:
      return launch<GPUCMP_LAYOUT_AOS>(fv, rv, qv, neighbours, counts, boxes, stream);
    case layout::Layout::soa:
      return launch<GPUCMP_LAYOUT_SOA>(fv, rv, qv, neighbours, counts, boxes, stream);
    case layout::Layout::aosoa:
      return launch<GPUCMP_LAYOUT_AOSOA>(fv, rv, qv, neighbours, counts, boxes, stream);
  }
}

}  // namespace gpucmp::cuda
