// `gpucmp-ptx dump --api opencl`: builds every OpenCL program with the
// options its benchmark uses and writes what the driver produced.
#pragma once
#include <string>
#include <vector>

#include "cl.h"
#include "programs.h"

namespace gpucmp::opencl {

class Session;

struct DumpedProgram {
  ProgramSpec spec;
  std::string ptx_path;  // <out>/<workload>-<variant>.ptx (CL_PROGRAM_BINARIES)
  std::string log_path;  // <out>/<workload>-<variant>.log (build log)
  std::string error;     // why this program could not be dumped ("" when it was)
};

// `filter`: a substring of "workload/variant" (empty: all). On NVIDIA the build
// adds -cl-nv-verbose so that the log holds ptxas' register and spill report
// (it does not change the code). Throws UsageError when the platform's binaries
// are not PTX (e.g. PoCL) or nothing matches `filter`. A PTX variant that
// fails to build is returned with `error` set (its log written), and the
// others are still dumped.
std::vector<DumpedProgram> dump_programs(Session& session, const std::string& out_dir,
                                         const std::string& filter);

// True when `binary` is PTX text (".version" and ".target" directives).
bool looks_like_ptx(const std::string& binary);

// CL_PROGRAM_BINARIES of a program built for one device.
std::string program_binary(cl_program program);

}  // namespace gpucmp::opencl
