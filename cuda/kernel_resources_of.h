// A CUDA kernel's resources for the tuner's model (harness/kernel_resources.h):
// cudaFuncGetAttributes of the kernel nvcc built, through the launcher's
// `<kernel>_attributes` function (a .cpp cannot name a __global__ function).
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "check.h"
#include "kernel_resources.h"

namespace gpucmp::cuda {

inline KernelResources resources_of(cudaError_t (*attributes)(cudaFuncAttributes*),
                                    const std::string& what) {
  cudaFuncAttributes a{};
  check(attributes(&a), "cudaFuncGetAttributes", what);
  return {a.numRegs, static_cast<long long>(a.sharedSizeBytes), a.maxThreadsPerBlock};
}

}  // namespace gpucmp::cuda
