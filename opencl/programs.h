// Every OpenCL program the benchmarks build, with its exact build options:
// one table read by the runners and by `gpucmp-ptx dump`, so that the PTX
// dumped is the PTX timed.
#pragma once
#include <string>
#include <vector>

namespace gpucmp::opencl {

// How a program reaches the device:
//   source:        clCreateProgramWithSource + clBuildProgram(options)
//   ptx_as_built:  the PTX that source build produced (CL_PROGRAM_BINARIES),
//                  reloaded with clCreateProgramWithBinary + clBuildProgram(options):
//                  the control that must time as the source build does
//   ptx_O0:        the PTX of a build with -cl-opt-disable (front end at -O0),
//                  reloaded the same way: ptxas still optimizes it
enum class ProgramFrom { source, ptx_as_built, ptx_O0 };

struct ProgramSpec {
  std::string workload;  // "matrixMul"
  std::string variant;   // "tile16"
  std::string file;      // "matrixmul.cl"
  std::string options;   // added to Session::common_build_options()
  ProgramFrom from = ProgramFrom::source;
};

const std::vector<ProgramSpec>& program_specs();

// The program of a benchmark variant; throws ApiError for an unknown pair.
const ProgramSpec& program_spec(const std::string& workload, const std::string& variant);

}  // namespace gpucmp::opencl
