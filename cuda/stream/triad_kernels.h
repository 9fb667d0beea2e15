// The launcher of triad.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

namespace gpucmp::cuda {

// a[i] = b[i] + s * c[i] for i < n (a multiple of triad::kBlock), on `stream`.
void launch_triad(float* a, const float* b, const float* c, float s, int n, cudaStream_t stream);

}  // namespace gpucmp::cuda
