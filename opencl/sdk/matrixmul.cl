// matrixMul: C = A x B, n x n row-major; the CUDA SDK tiled algorithm in its loop form.
// One work-item per C entry, TILE x TILE work-groups; each step stages one
// TILE x TILE tile of A and of B in local memory. TILE comes from -DTILE=;
// -DALIGN_TILES=16 (the "-aligned" variants) aligns the two tiles to 16 bytes,
// without it they have float's own alignment. Pairs with cuda/sdk/matrixmul.cu
// line for line.
#ifdef ALIGN_TILES
#define TILE_ALIGNMENT __attribute__((aligned(ALIGN_TILES)))
#else
#define TILE_ALIGNMENT
#endif
__kernel void matrixMul(__global float* C, __global const float* A,
                        __global const float* B, int n) {
  __local float As[TILE][TILE] TILE_ALIGNMENT;
  __local float Bs[TILE][TILE] TILE_ALIGNMENT;
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int a_first = n * TILE * get_group_id(1), a_last = a_first + n - 1;
  const int b_first = TILE * get_group_id(0);
  float sum = 0.0f;
  for (int a = a_first, b = b_first; a <= a_last; a += TILE, b += TILE * n) {
    As[ty][tx] = A[a + n * ty + tx];
    Bs[ty][tx] = B[b + n * ty + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(get_group_id(1) * TILE + ty) * n + get_group_id(0) * TILE + tx] = sum;
}
