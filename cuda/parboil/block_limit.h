// A Parboil row's block against its kernel's own limit (what its registers
// allow on the current device), checked when a runner of a non-default block
// is made: over it the row is skipped (parboil::check_kernel_limit), never
// launched to fail.
#pragma once
#include <string>

#include "launch_shape.h"

namespace gpucmp::cuda {

// `kernel`: a __global__ function or a cudaKernel_t (JIT), as
// cudaFuncGetAttributes takes them. Throws ApiError naming `what` when the
// query fails.
void check_block_limit(const void* kernel, const LocalShape& block, int dims,
                       const std::string& what);

}  // namespace gpucmp::cuda
