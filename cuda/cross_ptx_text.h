// The PTX that the cross-run rows (cross_runners.h) hand to the driver JIT,
// and the names to look up in it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace gpucmp::cuda {

// OpenCL's PTX of the program that the OpenCL row `workload`/`variant`
// builds (harness/cross_ptx.h), rewritten for CUDA by
// ptx::rewrite_opencl_kernel_for_cuda (%envreg reads replaced, a `__constant`
// pointer parameter redirected to ptx::kConstantArgSymbol of
// `constant_bytes`), with what was done in comments at its top. Made once per
// process and variant. Throws Unavailable where OpenCL has no PTX to give
// (not NVIDIA's OpenCL), ApiError when it cannot be rewritten.
std::string opencl_ptx_for_cuda(const std::string& workload, const std::string& variant,
                                std::size_t constant_bytes);

// nvcc's PTX of the kernel file of `workload`/`variant`, as embedded at build
// time (harness/nvcc_ptx.h: the precise builds only). Throws Unavailable when
// it is not embedded.
std::string nvcc_ptx_for(const std::string& workload, const std::string& variant);

// The one .entry (kernel) or module-scope variable of `ptx` whose name
// contains the first of `parts` that any name contains (alternatives: the
// mangled names of one kernel in the forms its source has had), e.g.
// "matrixMulILi16EE" for nvcc's matrixMul<16>. Throws ApiError, naming `what`
// and the candidates, when none or several match.
std::string entry_named(const std::string& ptx, const std::vector<std::string>& parts,
                        const std::string& what);
std::string variable_named(const std::string& ptx, const std::vector<std::string>& parts,
                           const std::string& what);

// The bytes of the last parameter of the .entry `kernel` of `ptx` where it is
// a by-value aggregate (`.param .align A .b8 name[N]`: N). Throws ApiError,
// naming `what`, when the kernel is not there or its last parameter is no
// such array.
std::size_t last_param_bytes(const std::string& ptx, const std::string& kernel,
                             const std::string& what);

}  // namespace gpucmp::cuda
