// STREAM triad, one element per thread (harness/workloads/stream/triad.h).
// Pairs with opencl/stream/triad.cl, line for line.
#include "triad_kernels.h"
#include "workloads/stream/triad.h"

namespace gpucmp::cuda {

namespace {
__global__ void triad(float* a, const float* b, const float* c, float s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = b[i] + s * c[i];
}
}  // namespace

void launch_triad(float* a, const float* b, const float* c, float s, int n, cudaStream_t stream) {
  triad<<<n / triad::kBlock, triad::kBlock, 0, stream>>>(a, b, c, s);
}

}  // namespace gpucmp::cuda
