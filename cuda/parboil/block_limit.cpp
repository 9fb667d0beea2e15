#include "block_limit.h"

#include <cuda_runtime.h>

#include "check.h"
#include "workloads/parboil/local_size.h"

namespace gpucmp::cuda {

void check_block_limit(const void* kernel, const LocalShape& block, int dims,
                       const std::string& what) {
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, kernel), "cudaFuncGetAttributes", what);
  parboil::check_kernel_limit(block, dims, attr.maxThreadsPerBlock,
                              "cudaFuncAttributes::maxThreadsPerBlock");
}

}  // namespace gpucmp::cuda
