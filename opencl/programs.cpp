#include "programs.h"

#include "errors.h"

namespace gpucmp::opencl {

namespace {
constexpr const char* kFast = "-cl-fast-relaxed-math";
constexpr const char* kIeee = "-cl-fp32-correctly-rounded-divide-sqrt";
}  // namespace

const std::vector<ProgramSpec>& program_specs() {
  static const std::vector<ProgramSpec> specs = {
      {"matrixMul", "tile16", "matrixmul.cl", "-DTILE=16"},
      {"matrixMul", "tile32", "matrixmul.cl", "-DTILE=32"},
      {"matrixMul", "tile16-ptx-as-built", "matrixmul.cl", "-DTILE=16", ProgramFrom::ptx_as_built},
      {"matrixMul", "tile32-ptx-as-built", "matrixmul.cl", "-DTILE=32", ProgramFrom::ptx_as_built},
      {"matrixMul", "tile16-ptx-O0", "matrixmul.cl", "-DTILE=16", ProgramFrom::ptx_O0},
      {"matrixMul", "tile32-ptx-O0", "matrixmul.cl", "-DTILE=32", ProgramFrom::ptx_O0},
      {"cp", "base", "cp.cl", ""},
      {"cp", "unrollx8", "cp.cl", ""},
      {"cp", "unrollx8-ieee", "cp.cl", kIeee},
      {"cp", "unrollx8-fast", "cp.cl", kFast},
      {"mriq", "precise", "mriq.cl", ""},
      {"mriq", "fast", "mriq.cl", kFast},
      {"mrifhd", "precise", "mrifhd.cl", ""},
      {"mrifhd", "fast", "mrifhd.cl", kFast},
  };
  return specs;
}

const ProgramSpec& program_spec(const std::string& workload, const std::string& variant) {
  for (const auto& s : program_specs())
    if (s.workload == workload && s.variant == variant) return s;
  throw ApiError("no OpenCL program for " + workload + "/" + variant);
}

}  // namespace gpucmp::opencl
