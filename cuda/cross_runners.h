// Cross-run rows (docs/DESIGN.md "Explaining a gap" 1): CUDA-only variants that
// hold one part of a CUDA/OpenCL pair fixed and move the other, each launched
// through CUDA with the geometry, data and validation of the pair's rows.
//   <variant>-opencl-ptx  OpenCL's own PTX of the program the OpenCL row
//                         builds, rewritten for CUDA (ptx/cuda_abi.h), compiled
//                         by CUDA's driver JIT, run by CUDA's runtime
//   <variant>-ptx-jit     nvcc's PTX of the CUDA kernel, compiled by the
//                         driver JIT instead of ahead of time by nvcc/ptxas
// With the OpenCL rows `<variant>-ptx-from-nvcc` (nvcc's PTX through OpenCL),
// a pair's ratio splits into front end, JIT and runtime.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runner.h"
#include "workloads/parboil/cp.h"
#include "workloads/parboil/mri.h"

namespace gpucmp::cuda {

// Whether `variant` is a cross-run variant (…-opencl-ptx, …-ptx-jit).
bool is_cross_variant(const std::string& variant);

// Registered where they are made (GPUCMP_CROSS_RUNNERS): matrixMul tile16/32
// (sdk/cross_matrixmul.cpp), cp unrollx8 (-opencl-ptx in its three math forms,
// -ptx-jit) and mriq/mrifhd (precise/fast-opencl-ptx, precise-ptx-jit,
// precise/fast-byvalue-opencl-ptx): the
// variants and their runner, CUDA-only variants.
std::vector<cp::Variant> cp_cross_variants();
std::unique_ptr<Runner> make_cp_cross_runner(cp::Problem& p, const cp::Variant& v);
std::vector<mri::Variant> mri_cross_variants();
std::unique_ptr<Runner> make_mri_cross_runner(mri::Problem& p, const mri::Variant& v);
// The by-value form's -opencl-ptx rows (parboil/cross_mri_byvalue.cpp), from
// OpenCL's PTX of the by-value program rewritten for CUDA.
std::unique_ptr<Runner> make_mri_byvalue_cross_runner(mri::Problem& p, const mri::Variant& v,
                                                      const std::string& ptx,
                                                      const std::string& what);

}  // namespace gpucmp::cuda
