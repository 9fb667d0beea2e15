// The one place where the CUDA side can ask for OpenCL's PTX without knowing
// OpenCL: the cross-run rows `<workload>/cuda/<variant>-opencl-ptx` run the
// code OpenCL's compiler produced through CUDA's JIT and runtime
// (docs/DESIGN.md "Explaining a gap" 1). The program's entry point (harness/main.cpp), which
// knows both APIs, installs the source; cuda/ only calls opencl_ptx().
#pragma once
#include <functional>
#include <string>

namespace gpucmp::cross_ptx {

// OpenCL's PTX (CL_PROGRAM_BINARIES) of exactly the program that the OpenCL
// row `workload`/`variant` builds. Throws Unavailable when the OpenCL device
// returns no PTX (not NVIDIA's OpenCL, no OpenCL device).
using OpenclPtxSource =
    std::function<std::string(const std::string& workload, const std::string& variant)>;

void set_opencl_source(OpenclPtxSource source);

// The installed source's answer; throws Unavailable when none is installed
// (a program without the OpenCL side).
std::string opencl_ptx(const std::string& workload, const std::string& variant);

}  // namespace gpucmp::cross_ptx
