#include "cross_ptx_text.h"

#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cross_ptx.h"
#include "errors.h"
#include "ptx/cuda_abi.h"
#include "ptx/parse_error.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptx_load.h"

namespace gpucmp::cuda {

namespace {

std::string rewrite(const std::string& text, std::size_t constant_bytes, const std::string& what) {
  try {
    ptx::Module m = ptx::parse(text, what);
    std::vector<std::string> notes;
    ptx::rewrite_opencl_kernel_for_cuda(m, constant_bytes, &notes);
    std::string header = "// gpucmp: OpenCL's PTX of " + what + ", rewritten for CUDA:\n";
    for (const std::string& n : notes) header += "//   " + n + "\n";
    return header + ptx::print(m);
  } catch (const ptx::ParseError& e) {
    throw ApiError("OpenCL's PTX of " + what + " does not parse: " + e.what());
  } catch (const std::invalid_argument& e) {
    throw ApiError("OpenCL's PTX of " + what + " cannot be rewritten for CUDA: " + e.what());
  }
}

std::string one_named(const std::vector<std::string>& names, const std::vector<std::string>& parts,
                      const std::string& kind, const std::string& what) {
  std::string all, tried;
  for (const std::string& name : names) all += (all.empty() ? "" : ", ") + name;
  for (const std::string& part : parts) {
    tried += (tried.empty() ? "'" : ", '") + part + "'";
    std::string found;
    for (const std::string& name : names) {
      if (name.find(part) == std::string::npos) continue;
      if (!found.empty())
        throw ApiError(what + ": several " + kind + "s match '" + part + "': " + found + ", " +
                       name);
      found = name;
    }
    if (!found.empty()) return found;
  }
  throw ApiError(what + ": no " + kind + " matches " + tried + " (" + kind +
                 "s: " + (all.empty() ? "none" : all) + ")");
}

ptx::Module parse_embedded(const std::string& text, const std::string& what) {
  try {
    return ptx::parse(text, what);
  } catch (const ptx::ParseError& e) {
    throw ApiError(what + ": the PTX does not parse: " + e.what());
  }
}

}  // namespace

std::string opencl_ptx_for_cuda(const std::string& workload, const std::string& variant,
                                std::size_t constant_bytes) {
  static std::map<std::pair<std::string, std::string>, std::string> made;
  const auto key = std::pair{workload, variant};
  if (const auto it = made.find(key); it != made.end()) return it->second;
  const std::string what = workload + "/" + variant;
  return made[key] = rewrite(cross_ptx::opencl_ptx(workload, variant), constant_bytes, what);
}

std::string nvcc_ptx_for(const std::string& workload, const std::string& variant) {
  std::string text = variant_ptx(workload, variant);
  if (text.empty())
    throw Unavailable("nvcc's PTX of " + workload + "/" + variant +
                      " is not embedded in this build (only the precise kernels are)");
  return text;
}

std::string entry_named(const std::string& ptx, const std::vector<std::string>& parts,
                        const std::string& what) {
  std::vector<std::string> names;
  for (const ptx::Function& f : parse_embedded(ptx, what).functions)
    if (f.is_entry) names.push_back(f.name);
  return one_named(names, parts, "kernel", what);
}

std::string variable_named(const std::string& ptx, const std::vector<std::string>& parts,
                           const std::string& what) {
  std::vector<std::string> names;
  for (const ptx::ModuleItem& item : parse_embedded(ptx, what).items)
    if (item.kind == ptx::ModuleItem::Kind::Variable)
      for (const ptx::Declarator& d : item.variable.declarators) names.push_back(d.name);
  return one_named(names, parts, "variable", what);
}

std::size_t last_param_bytes(const std::string& ptx, const std::string& kernel,
                             const std::string& what) {
  for (const ptx::Function& f : parse_embedded(ptx, what).functions) {
    if (!f.is_entry || f.name != kernel) continue;
    if (f.params.empty()) throw ApiError(what + ": kernel " + kernel + " has no parameter");
    const ptx::Param& last = f.params.back();
    if (const auto bytes = ptx::byte_array_size(last)) return *bytes;
    throw ApiError(what + ": the last parameter of " + kernel +
                   " is no by-value array: " + last.raw);
  }
  throw ApiError(what + ": no kernel " + kernel + " in the PTX");
}

}  // namespace gpucmp::cuda
