// nvcc's PTX of the CUDA kernel files (matrixmul.ptx, cp.ptx, ...), compiled
// with the benchmark's flags and embedded at build time by cuda/CMakeLists.txt
// (only in builds with the CUDA side: GPUCMP_HAVE_NVCC_PTX). Read by the CUDA
// side (startup: PTX module load) and the OpenCL side (ptx-from-nvcc variants).
#pragma once
#include <map>
#include <string>

namespace gpucmp::nvcc_ptx {

// File name -> PTX text.
const std::map<std::string, std::string>& embedded_sources();

}  // namespace gpucmp::nvcc_ptx
