// CUDA error checking: every failing call becomes an ApiError naming the call,
// the error's name and description, and the object it was about.
#pragma once
#include <cuda_runtime.h>

#include <string>

namespace gpucmp::cuda {

// "cudaErrorNoDevice (no CUDA-capable device is detected)"
std::string describe(cudaError_t err);

// Throws ApiError "<call> (<what>): <describe(err)>" unless err == cudaSuccess.
void check(cudaError_t err, const char* call, const std::string& what);

}  // namespace gpucmp::cuda
