// bodies (harness/workloads/layout/bodies.h), written once against the
// generated body12 accessors and compiled once per layout (template
// parameters GPUCMP_LAYOUT, GPUCMP_TILE). Pairs with opencl/layout/bodies.cl.
#include <gpucmp_layouts.h>

#include "bodies_kernels.h"
#include "workloads/layout/bodies.h"

namespace gpucmp::cuda {

namespace {
template <int GPUCMP_LAYOUT, int GPUCMP_TILE>
__global__ void bodies_kernel(float* r2, const float* b, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const float x = body12_pos(b, n, i, 0), y = body12_pos(b, n, i, 1), z = body12_pos(b, n, i, 2);
  r2[i] = x * x + y * y + z * z;
}

template <int Layout>
void launch(float* r2, const float* b, size_t n, cudaStream_t stream) {
  bodies_kernel<Layout, layout::kDefaultTile>
      <<<unsigned(n / bodies::kBlock), bodies::kBlock, 0, stream>>>(r2, b, n);
}
}  // namespace

void launch_bodies(layout::Layout layout, float* r2, const float* bodies, std::size_t n,
                   cudaStream_t stream) {
  switch (layout) {
    case layout::Layout::aos:
      return launch<GPUCMP_LAYOUT_AOS>(r2, bodies, n, stream);
    case layout::Layout::soa:
      return launch<GPUCMP_LAYOUT_SOA>(r2, bodies, n, stream);
    case layout::Layout::aosoa:
      return launch<GPUCMP_LAYOUT_AOSOA>(r2, bodies, n, stream);
  }
}

}  // namespace gpucmp::cuda
