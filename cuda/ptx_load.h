// CUDA's counterpart of an OpenCL PTX build: loading nvcc's PTX of a kernel
// file as a module (the driver JIT-compiles it to SASS) with
// cudaLibraryLoadData, every kernel of it loaded into the current context.
#pragma once
#include <string>

namespace gpucmp::cuda {

// Milliseconds to load `ptx` and all its kernels; the module is unloaded
// afterwards. Throws ApiError when the driver rejects it.
double load_ptx_module_ms(const std::string& ptx, const std::string& what);

// nvcc's PTX of the kernels a benchmark variant runs (the precise build, as
// embedded at build time), or empty when there is none (--use_fast_math
// variants, library rows, a build without nvcc's PTX).
std::string variant_ptx(const std::string& workload, const std::string& variant);

}  // namespace gpucmp::cuda
