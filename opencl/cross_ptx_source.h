// What the OpenCL side gives the CUDA side's cross-run rows through
// harness/cross_ptx.h: the PTX of a benchmark's OpenCL program.
#pragma once
#include <string>

namespace gpucmp::opencl {

// CL_PROGRAM_BINARIES of the program that the OpenCL row `workload`/`variant`
// builds (programs.h; the session's own build, shared with that row). Throws
// Unavailable when there is no OpenCL device or its binaries are not PTX
// (anything but NVIDIA's OpenCL), ApiError for an unknown variant.
std::string program_ptx(const std::string& workload, const std::string& variant);

}  // namespace gpucmp::opencl
