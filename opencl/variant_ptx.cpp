#include "variant_ptx.h"

#include <map>
#include <optional>
#include <stdexcept>

#include "errors.h"
#include "nvcc_ptx.h"
#include "opt_disabled_guard.h"
#include "ptx/opencl_abi.h"
#include "ptx/parse_error.h"
#include "ptx/parser.h"
#include "ptx/passes.h"
#include "ptx/printer.h"
#include "ptx_dump.h"
#include "session.h"

namespace gpucmp::opencl {

namespace hand_ptx {
const std::map<std::string, std::string>& embedded_sources();  // generated (ptx/variants/)
}  // namespace hand_ptx

namespace {

std::string driver_ptx(Session& s, const ProgramSpec& spec, const std::string& extra) {
  if (extra.find("-cl-opt-disable") != std::string::npos) before_opt_disabled_build(s);
  std::string ptx = program_binary(s.program(spec.file, s.source_options(spec) + extra).program);
  if (!looks_like_ptx(ptx))
    throw Unavailable("PTX variants need NVIDIA's OpenCL: '" + s.info().name +
                      "' returns binaries that are not PTX");
  return ptx;
}

std::string embedded(const std::map<std::string, std::string>& table, const std::string& name,
                     const std::string& what) {
  const auto it = table.find(name);
  if (it == table.end()) throw ApiError("no embedded " + what + " " + name);
  return it->second;
}

std::string nvcc_kernel_ptx(const std::string& name) {
#ifdef GPUCMP_HAVE_NVCC_PTX
  return embedded(nvcc_ptx::embedded_sources(), name, "nvcc PTX");
#else
  throw Unavailable("ptx-from-nvcc needs a build with the CUDA side (nvcc's PTX of " + name + ")");
#endif
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

VariantPtx transform(const ProgramSpec& spec, const std::string& text, const std::string& what) {
  ptx::Module m = ptx::parse(text, what);
  if (spec.from != ProgramFrom::ptx_from_nvcc) {
    // OpenCL C's default FP_CONTRACT ON lets mul+add become fma, as the source build does.
    const std::string header = ptx::run_passes(m, spec.passes, true, nullptr);
    const char* input = spec.from == ProgramFrom::ptx_passes
                            ? "-cl-opt-disable PTX of this driver"
                            : "this driver's PTX of the source build";
    return {header + ptx::print(m), std::string(input) + ", then:\n" + header};
  }
  std::vector<std::string> notes;
  ptx::rewrite_nvcc_kernel_for_opencl(m, spec.entry, spec.kernel, &notes);
  const std::string origin = "nvcc's PTX (" + spec.ptx + ") rewritten: " + join(notes);
  return {"// gpucmp: " + origin + "\n" + ptx::print(m), origin};
}

}  // namespace

VariantPtx variant_ptx(Session& s, const ProgramSpec& spec) {
  if (!s.is_nvidia())
    throw Unavailable("PTX variants need NVIDIA's OpenCL (the device is '" + s.info().name + "')");
  switch (spec.from) {
    case ProgramFrom::source:
      throw ApiError(spec.workload + "/" + spec.variant + " is built from source, not PTX");
    case ProgramFrom::ptx_as_built:
      return {driver_ptx(s, spec, ""), "this driver's PTX of the source build, reloaded"};
    case ProgramFrom::ptx_O0:
      return {driver_ptx(s, spec, " -cl-opt-disable"), "this driver's -cl-opt-disable PTX"};
    case ProgramFrom::ptx_file:
      return {embedded(hand_ptx::embedded_sources(), spec.ptx, "hand-edited PTX"),
              "ptx/variants/" + spec.workload + "/" + spec.ptx};
    case ProgramFrom::ptx_as_built_passes:
    case ProgramFrom::ptx_passes:
    case ProgramFrom::ptx_from_nvcc:
      break;
  }
  std::string input;
  if (spec.from == ProgramFrom::ptx_as_built_passes)
    input = driver_ptx(s, spec, "");
  else if (spec.from == ProgramFrom::ptx_passes)
    input = driver_ptx(s, spec, " -cl-opt-disable");
  else
    input = nvcc_kernel_ptx(spec.ptx);
  const std::string what = spec.workload + "/" + spec.variant;
  try {
    return transform(spec, input, what);
  } catch (const ptx::ParseError& e) {
    throw ApiError(what + ": the input PTX does not parse: " + e.what());
  } catch (const std::invalid_argument& e) {
    throw ApiError(what + ": " + e.what());
  }
}

}  // namespace gpucmp::opencl
