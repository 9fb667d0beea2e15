// Every OpenCL program the benchmarks build, with its exact build options:
// one table read by the runners and by `gpucmp-ptx dump`, so that the PTX
// dumped is the PTX timed.
#pragma once
#include <string>
#include <vector>

namespace gpucmp::opencl {

struct ProgramSpec {
  std::string workload;  // "matrixMul"
  std::string variant;   // "tile16"
  std::string file;      // "matrixmul.cl"
  std::string options;   // added to Session::common_build_options()
};

const std::vector<ProgramSpec>& program_specs();

// The program of a benchmark variant; throws ApiError for an unknown pair.
const ProgramSpec& program_spec(const std::string& workload, const std::string& variant);

}  // namespace gpucmp::opencl
