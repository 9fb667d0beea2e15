// matrixMul: C = A x B, n x n row-major; the CUDA SDK tiled algorithm.
// One work-item per C entry, TILE x TILE work-groups; each step stages one
// TILE x TILE tile of A and of B in local memory. TILE comes from -DTILE=.
// Pairs with cuda/matrixmul.cu line for line.
__kernel void matrixMul(__global float* C, __global const float* A,
                        __global const float* B, int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int row = get_group_id(1) * TILE + ty;
  const int col = get_group_id(0) * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = sum;
}
