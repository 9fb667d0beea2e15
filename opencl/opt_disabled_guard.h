// Builds with -cl-opt-disable and the programs that take arrays by value.
//
// After one OpenCL build with -cl-opt-disable (the study's -O0 input: the
// -ptx-O0 rows and the -auto- pass chains), NVIDIA's OpenCL (driver 580.159,
// H200) builds every later program of the same process whose kernels take an
// array by value so that the kernel copies the array into local memory
// (local depots of 10-16 KB against 0-56 bytes; MRI-FHD by value 2.0x slower
// at 64^3 and 5.3x at 32^3 after one -ptx-O0 row). Releasing programs, a new
// context and clUnloadPlatformCompiler did not undo it; a new process does
// (scripts/experiments/opt_disable_leak,
// results/nvidia-h200/2026-11-29-opt-disable-leak/NOTES.md).
//
// So before a process's first such build every by-value program
// (ProgramSpec::arrays_by_value) is built into the session's caches, with its
// register report (group_size.h); a program that fails there keeps its error
// for its row. After it, a by-value program not built yet is refused as
// Unavailable, never built otherwise and timed; Session::forget_programs (the
// startup rows) drops the programs built ahead too, so a by-value row after
// it in a marked process is refused as well. The mark is the process's;
// the programs built ahead are the calling session's (the by-value workloads
// have no multi-device rows).
#pragma once
#include "programs.h"

namespace gpucmp::opencl {

class Session;

// Called right before a -cl-opt-disable build: the first call builds every
// by-value program in `s` and then marks the process. Thread-safe.
void before_opt_disabled_build(Session& s);

// Whether the process has had a -cl-opt-disable build (before_opt_disabled_build).
bool opt_disabled_built();

// For a program about to be built (not found in a cache): nothing where
// `spec` takes no arrays by value or the process is not marked; else the
// error its build ahead ended in, or Unavailable naming why it is refused.
void check_build_after_opt_disabled(const ProgramSpec& spec);

}  // namespace gpucmp::opencl
