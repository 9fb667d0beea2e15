// The PTX a PTX-loaded benchmark variant is built from (programs.h), made with
// the driver of the session in use: its own PTX reloaded (as is, or after
// gpucmp's passes), its -O0 PTX, that PTX after gpucmp's passes, a hand-edited
// file, or nvcc's PTX rewritten.
#pragma once
#include <string>

#include "programs.h"

namespace gpucmp::opencl {

class Session;

struct VariantPtx {
  std::string text;    // PTX, NUL-free
  std::string origin;  // one line: where it came from (and the pass report)
};

// Throws Unavailable where the OpenCL binaries are not PTX (PoCL) or the
// variant needs what this build lacks (nvcc's PTX without a CUDA side), and
// ApiError when the PTX cannot be parsed or rewritten.
VariantPtx variant_ptx(Session& session, const ProgramSpec& spec);

}  // namespace gpucmp::opencl
