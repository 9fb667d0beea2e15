// Launchers of the CUDA matrixMul kernels (matrixmul.cu).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

// Tiled kernel, tile 16 or 32; n must be a multiple of the tile. tile_align:
// the tiles' alignment in bytes, 16 or 0 for float's own (matrixmul.h Variant).
void launch_matrixmul(int tile, int tile_align, float* c, const float* a, const float* b, int n,
                      cudaStream_t stream);

}  // namespace gpucmp::cuda
