// The launcher of advection.cu for the C++ runner (a .cpp cannot include a .cu).
#pragma once
#include <cuda_runtime.h>

#include <string>

namespace gpucmp::cuda {

// One step of `variant` ("blocked", "branchy", "plain"; harness/workloads/
// advection/advection.h) from `from` into `to`, nx x ny cells, on `stream`.
void launch_advection_step(const std::string& variant, const float* from, float* to, int nx, int ny,
                           float xc, float yc, float omega, cudaStream_t stream);

}  // namespace gpucmp::cuda
