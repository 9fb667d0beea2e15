// `gpucmp-ptx dump --api opencl`: builds every OpenCL program with the
// options its benchmark uses and writes what the driver produced: the PTX, the
// build log and, from the driver's compute cache, the cubin its JIT made.
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
  // <out>/<workload>-<variant>.jit.cubin (then .jit.2.cubin, ...): the cubins
  // the driver's JIT made of this PTX, taken from its compute cache.
  std::vector<std::string> jit_cubin_paths;
  std::string jit_note;  // how the cubin was found if not from this build, or why none
  std::string error;     // why this program could not be dumped ("" when it was)
};

// `filter`: a substring of "workload/variant" (empty: all). On NVIDIA the build
// adds -cl-nv-verbose so that the log holds ptxas' register and spill report
// (it does not change the code). Throws UsageError when the platform's binaries
// are not PTX (e.g. PoCL) or nothing matches `filter`. A PTX variant that
// fails to build is returned with `error` set (its log written), and the
// others are still dumped.
// `jit_cache_dir`: the driver's compute cache folder of this process
// (CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH=<it>, set before OpenCL was first
// used; empty: no cubins). Each program's cubins are those that its last
// build added there with a kernel of its PTX; when that build was served from
// the cache (the same PTX and options as an earlier program), the earlier
// program's cubins, with a note.
// `shard`: of the programs `filter` keeps, only those whose place p in the
// catalog's order has p % shard.count == shard.index; built in dump_order's order.
struct DumpShard {
  int index = 0, count = 1;
};
// The programs a dump builds, in the order it builds them: those whose
// `workload/variant` contains `filter` (all for ""), every shard.count-th from
// shard.index on (the PTX-as-built ones left out, they are their source's
// build), the -cl-opt-disable ones (ptx_O0, ptx_passes) after all the others:
// after one such build NVIDIA's OpenCL builds arrays taken by value otherwise
// for the rest of the process (Session::before_opt_disabled_build).
std::vector<ProgramSpec> dump_order(const std::vector<ProgramSpec>& specs,
                                    const std::string& filter, DumpShard shard);

std::vector<DumpedProgram> dump_programs(Session& session, const std::string& out_dir,
                                         const std::string& filter,
                                         const std::string& jit_cache_dir = "",
                                         DumpShard shard = {});

// True when `binary` is PTX text (".version" and ".target" directives).
bool looks_like_ptx(const std::string& binary);

// CL_PROGRAM_BINARIES of a program built for one device.
std::string program_binary(cl_program program);

}  // namespace gpucmp::opencl
