// OpenCL builds with -cl-opt-disable, each in a process of its own.
//
// After one -cl-opt-disable build, NVIDIA's OpenCL (driver 580.159, H200)
// builds every later program of the process that takes an array by value so
// that it copies the array into local memory: cp's and MRI's by-value kernels
// (10-16 KB local depots against none), MRI-FHD by value 2.0x slower at 64^3
// after one -ptx-O0 row, 5.3x at 32^3. Releasing the program, a new context
// and clUnloadPlatformCompiler do not undo it; a new process does
// (scripts/experiments/opt_disable_leak, results/nvidia-h200/2026-11-29-*-opt-disable-leak).
// So the study's -O0 input (the -ptx-O0 rows and the pass chains) is built by
// a child process: this executable again, with kChildFlag, building only
// that program and handing back its binary and log.
#pragma once
#include <string>

#include "session.h"

namespace gpucmp::opencl {

inline constexpr const char* kIsolatedBuildFlag = "--gpucmp-child-opencl-build";

struct IsolatedBuild {
  std::string binary;   // CL_PROGRAM_BINARIES (PTX on NVIDIA)
  std::string log;      // the build log
  std::string options;  // the options it was built with
};

// Builds `file` (the session's source text of it) with the session's options
// plus `extra` and -cl-opt-disable, in a child process on the session's
// platform and device. Throws BuildError (with the child's log) where the
// build or the child fails.
IsolatedBuild build_opt_disabled(const Session& s, const std::string& file,
                                 const std::string& extra);

}  // namespace gpucmp::opencl
