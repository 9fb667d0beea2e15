// Offline CUDA toolkit programs (ptxas, cuobjdump) for SASS of dumped PTX and
// of the cubins the driver's JIT made.
#pragma once
#include <string>
#include <vector>

namespace gpucmp::ptxtool {

// Full path of `program` on PATH or in the CUDA toolkit found at build time;
// empty when absent.
std::string find_tool(const std::string& program);

// Runs `command` through /bin/sh; returns its exit code and stdout+stderr.
int run_command(const std::string& command, std::string& output);

// "sm_90" from a PTX file's ".target sm_90[, texmode_independent]"; empty if none.
std::string ptx_target(const std::string& ptx_text);

// "13.0.88" from a `<tool> --version` output ("... V13.0.88"); "" if none.
std::string toolkit_version(const std::string& version_output);

// Assembles `ptx_path` with offline ptxas for its target and writes
// `sass_path` (cuobjdump -sass), whose first line reads "// SASS: offline
// ptxas <version> ... — not what ran": the driver's JIT compiles the PTX
// itself. Returns an empty string on success, else why not.
std::string sass_of_ptx(const std::string& ptx_path, const std::string& sass_path);

// Writes `sass_path`: `label_line` (e.g. "// SASS: driver JIT ..."), then
// cuobjdump -sass of each cubin. Returns an empty string on success, else why
// not (e.g. no cuobjdump).
std::string sass_of_cubins(const std::vector<std::string>& cubin_paths,
                           const std::string& sass_path, const std::string& label_line);

}  // namespace gpucmp::ptxtool
