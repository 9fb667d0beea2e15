// Offline CUDA toolkit programs (ptxas, cuobjdump) for SASS of dumped PTX.
#pragma once
#include <string>

namespace gpucmp::ptxtool {

// Full path of `program` on PATH or in the CUDA toolkit found at build time;
// empty when absent.
std::string find_tool(const std::string& program);

// Runs `command` through /bin/sh; returns its exit code and stdout+stderr.
int run_command(const std::string& command, std::string& output);

// "sm_90" from a PTX file's ".target sm_90[, texmode_independent]"; empty if none.
std::string ptx_target(const std::string& ptx_text);

// Assembles `ptx_path` with offline ptxas for its target and writes
// `sass_path` (cuobjdump -sass), headed by the ptxas version: the driver's
// JIT compiler may differ. Returns an empty string on success, else why not.
std::string sass_of_ptx(const std::string& ptx_path, const std::string& sass_path);

}  // namespace gpucmp::ptxtool
