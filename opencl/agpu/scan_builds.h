// Which build of a scan program times a row of one compiled alpha
// (scan_runner.cpp registers them).
#pragma once

#include "programs.h"

namespace gpucmp::opencl {

// `program` (scan's alpha or onepass program of one word type) built for
// `alpha`: its registered program <variant>-a<alpha> where the alpha is one
// of the standard rows' (so that gpucmp-ptx dump, and the suite's SASS, hold
// the very build those rows time), else `program` with -DALPHA=<alpha> added.
ProgramSpec scan_alpha_build(const ProgramSpec& program, int alpha);

}  // namespace gpucmp::opencl
