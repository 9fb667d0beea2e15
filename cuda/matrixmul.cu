// matrixMul: C = A x B, n x n row-major; the CUDA SDK tiled algorithm.
// One thread per C entry, TILE x TILE blocks; each step stages one TILE x TILE
// tile of A and of B in shared memory. Pairs with opencl/kernels/matrixmul.cl.
#include "matrixmul_kernels.h"

namespace gpucmp::cuda {

template <int TILE>
__global__ void matrixMul(float* C, const float* A, const float* B, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

void launch_matrixmul(int tile, float* c, const float* a, const float* b, int n,
                      cudaStream_t stream) {
  const dim3 grid(n / tile, n / tile);
  if (tile == 16) matrixMul<16><<<grid, dim3(16, 16), 0, stream>>>(c, a, b, n);
  else if (tile == 32) matrixMul<32><<<grid, dim3(32, 32), 0, stream>>>(c, a, b, n);
}

}  // namespace gpucmp::cuda
