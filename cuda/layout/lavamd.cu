// LavaMD (harness/workloads/layout/lavamd.h), written once against the
// generated particle4 accessors and compiled once per layout: GPUCMP_LAYOUT
// and GPUCMP_TILE are the template's parameters. Pairs with
// opencl/layout/lavamd.cl, line for line: LocalAlign aligns the shared arrays
// (variant "aligned": 16 bytes; nvcc reads them with LDS.128 at either).
#include <gpucmp_layouts.h>

#include "lavamd_kernels.h"
#include "workloads/layout/lavamd.h"

namespace gpucmp::cuda {

namespace {
constexpr int kPar = lavamd::kParPerBox;

template <int GPUCMP_LAYOUT, int GPUCMP_TILE, int LocalAlign>
__global__ void lavamd_kernel(float* fv, const float* rv, const float* qv, const int* neighbours,
                              const int* counts, size_t n, float a2) {
  __shared__ alignas(LocalAlign) float ra_v[kPar], ra_x[kPar], ra_y[kPar], ra_z[kPar];
  __shared__ alignas(LocalAlign) float rb_v[kPar], rb_x[kPar], rb_y[kPar], rb_z[kPar], qb[kPar];
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

template <int Layout, int LocalAlign>
void launch(float* fv, const float* rv, const float* qv, const int* neighbours, const int* counts,
            size_t boxes, cudaStream_t stream) {
  lavamd_kernel<Layout, lavamd::kTile, LocalAlign>
      <<<unsigned(boxes), lavamd::kThreads, 0, stream>>>(fv, rv, qv, neighbours, counts,
                                                         boxes * kPar, lavamd::kA2);
}

template <int LocalAlign>
void launch_aligned(layout::Layout layout, float* fv, const float* rv, const float* qv,
                    const int* neighbours, const int* counts, std::size_t boxes,
                    cudaStream_t stream) {
  switch (layout) {
    case layout::Layout::aos:
      return launch<GPUCMP_LAYOUT_AOS, LocalAlign>(fv, rv, qv, neighbours, counts, boxes, stream);
    case layout::Layout::soa:
      return launch<GPUCMP_LAYOUT_SOA, LocalAlign>(fv, rv, qv, neighbours, counts, boxes, stream);
    case layout::Layout::aosoa:
      return launch<GPUCMP_LAYOUT_AOSOA, LocalAlign>(fv, rv, qv, neighbours, counts, boxes, stream);
  }
}
}  // namespace

void launch_lavamd(layout::Layout layout, bool aligned, float* fv, const float* rv, const float* qv,
                   const int* neighbours, const int* counts, std::size_t boxes,
                   cudaStream_t stream) {
  if (aligned)
    launch_aligned<16>(layout, fv, rv, qv, neighbours, counts, boxes, stream);
  else
    launch_aligned<alignof(float)>(layout, fv, rv, qv, neighbours, counts, boxes, stream);
}

}  // namespace gpucmp::cuda
