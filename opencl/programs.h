// Every OpenCL program the benchmarks build, with its exact build options:
// one list read by the runners and by `gpucmp-ptx dump`, so that the PTX
// dumped is the PTX timed.
//
// Each workload's programs register themselves beside its OpenCL runner, in a
// GPUCMP_PROGRAMS { specs.push_back(source(...)); } block
// (program_spec_helpers.h: source(), derived(), the PTX chains), as its
// runners do (GPUCMP_RUNNERS, harness/runner_table.h): no central list to
// extend. The blocks run once, on the first program_specs(), in a fixed
// order (by source file path), so the list's order never depends on the
// linker's; gpucmp_opencl must be linked whole (CMakeLists.txt).
#pragma once
#include <string>
#include <vector>

#include "device_info.h"

namespace gpucmp::opencl {

// How a program reaches the device:
//   source:        clCreateProgramWithSource + clBuildProgram(options)
//   ptx_as_built:  the PTX that source build produced (CL_PROGRAM_BINARIES),
//                  reloaded with clCreateProgramWithBinary + clBuildProgram(options):
//                  the control that must time as the source build does
//   ptx_as_built_passes: that PTX after gpucmp's PTX passes (`passes`): one
//                  pass priced apart from the -O0 chain (ptx-align)
//   ptx_O0:        the PTX of a build with -cl-opt-disable (front end at -O0),
//                  reloaded the same way: ptxas still optimizes it
//   ptx_passes:    that -O0 PTX after gpucmp's PTX passes (`passes`), made at
//                  run time from the driver in use
//   ptx_file:      a hand-edited PTX file (ptx/variants/<workload>/`ptx`)
//   ptx_from_nvcc: nvcc's PTX of the CUDA kernel (`ptx`, entry containing
//                  `entry`), rewritten to OpenCL's conventions (ptx/opencl_abi.h)
// Every PTX-loaded variant is built with the options of its source variant.
enum class ProgramFrom {
  source,
  ptx_as_built,
  ptx_as_built_passes,
  ptx_O0,
  ptx_passes,
  ptx_file,
  ptx_from_nvcc
};

struct ProgramSpec {
  std::string workload;  // "matrixMul"
  std::string variant;   // "tile16", "tile16-auto-unroll-cse"
  std::string base;      // the source variant it derives from ("tile16"); itself for source
  std::string file;      // "matrixmul.cl"
  std::string options;   // added to Session::common_build_options()
  // Added after `options` on NVIDIA's driver only, by the runner and by
  // gpucmp-ptx dump alike: vendor extensions (onepass: -DNV_NANOSLEEP, PTX
  // nanosleep through inline asm). Empty for most programs.
  std::string nvidia_options;
  // Options that depend on the device the program is built for, added after
  // `options` (before the NVIDIA ones) by the runner and gpucmp-ptx dump alike
  // (Session::source_options): cp's by-value chunk, -DCP_BYVALUE_ATOMS=N from
  // CL_DEVICE_MAX_PARAMETER_SIZE. nullptr for most programs; may throw
  // Unavailable where the device cannot build the program.
  std::string (*device_options)(const DeviceInfo& device) = nullptr;
  ProgramFrom from = ProgramFrom::source;
  // Its kernels take an array by value (cp's and MRI's by-value forms). After
  // a -cl-opt-disable build, NVIDIA's OpenCL builds such a program otherwise
  // in the rest of the process (Session::before_opt_disabled_build).
  bool arrays_by_value = false;
  std::vector<std::string> passes;  // ptx_passes, ptx_as_built_passes
  std::string ptx;                  // ptx_file, ptx_from_nvcc: the PTX file's name
  std::string entry;                // ptx_from_nvcc: the kernel to keep (a name part)
  std::string kernel;               // ptx_from_nvcc: its OpenCL name
  // A step of the study's PTX chains: "auto" (gpucmp's passes) or "hand"
  // (hand-edited files) and its place, 1 = the clean -O0 baseline, then one
  // step per pass; the -O0 PTX every chain starts from has step 0 and no
  // chain. Empty / -1 for every other program.
  std::string chain;
  int step = -1;
};

// "source", "ptx_as_built", "ptx_passes", ... (the enum's names).
const char* from_name(ProgramFrom from);

// How a program is built, for the result JSON (the row's label): key=value
// pairs joined by "; ": from, base, options, passes, chain, step (empty ones
// left out), e.g. "from=ptx_passes; base=tile16; passes=cleanup,unroll;
// chain=auto; step=2". The report reads variants from it, not from names.
// With NVIDIA-only options: "nvidia_options=..." after the options; with
// device options: "device_options=..." as `device` gets them ("per device"
// without one).
std::string describe(const ProgramSpec& spec, const DeviceInfo* device = nullptr);

// The options `spec`'s program is built with on a driver: its own, then its
// device options for `device`, then its NVIDIA-only ones when `nvidia`
// (Session::source_options asks its driver and device).
std::string driver_options(const ProgramSpec& spec, bool nvidia,
                           const DeviceInfo& device = DeviceInfo{});

// Every registered program, in registration order (by file path, then in
// the order each block pushed them). Throws std::logic_error when no block
// is linked in, or when two programs share a (workload, variant) name.
const std::vector<ProgramSpec>& program_specs();

// The program of a benchmark variant; throws ApiError for an unknown pair.
const ProgramSpec& program_spec(const std::string& workload, const std::string& variant);

// The PTX-loaded variants of a workload (all but `source`), in list order.
std::vector<ProgramSpec> ptx_variants(const std::string& workload);

// A GPUCMP_PROGRAMS block: appends its file's programs to `specs`.
using AddPrograms = void (*)(std::vector<ProgramSpec>& specs);
struct ProgramRegistration {
  std::string file;  // __FILE__ of the block
  AddPrograms add;
};
// Kept at static-initialisation time by GPUCMP_PROGRAMS; a registration after
// program_specs() has built the list is an error (std::logic_error).
struct ProgramRegistrar {
  ProgramRegistrar(const char* file, AddPrograms add);
};
const std::vector<ProgramRegistration>& program_registrations();

// The programs of `registrations`, run in file-path order (blocks of one
// file in the order given); throws std::logic_error naming both files when a
// (workload, variant) name is pushed twice. program_specs() is this over
// program_registrations().
std::vector<ProgramSpec> collect_program_specs(std::vector<ProgramRegistration> registrations);

}  // namespace gpucmp::opencl

#define GPUCMP_PROGRAMS_CAT2(a, b) a##b
#define GPUCMP_PROGRAMS_CAT(a, b) GPUCMP_PROGRAMS_CAT2(a, b)
// GPUCMP_PROGRAMS { specs.push_back(source("triad", "base", "triad.cl", "")); }
// (the block's parameter is `specs`, a std::vector<ProgramSpec>&).
#define GPUCMP_PROGRAMS_FN GPUCMP_PROGRAMS_CAT(gpucmp_add_programs_, __LINE__)
#define GPUCMP_PROGRAMS                                                              \
  static void GPUCMP_PROGRAMS_FN(std::vector<::gpucmp::opencl::ProgramSpec>& specs); \
  static const ::gpucmp::opencl::ProgramRegistrar GPUCMP_PROGRAMS_CAT(               \
      gpucmp_program_registrar_, __LINE__)(__FILE__, &GPUCMP_PROGRAMS_FN);           \
  static void GPUCMP_PROGRAMS_FN(std::vector<::gpucmp::opencl::ProgramSpec>& specs)
