// The program list (programs.h): the registrations of the GPUCMP_PROGRAMS
// blocks beside the runners, the list they make and its lookups, and the
// helpers those blocks build their specs with (program_spec_helpers.h).
#include "programs.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "errors.h"
#include "program_spec_helpers.h"

namespace gpucmp::opencl {

ProgramSpec source(const std::string& workload, const std::string& variant, const std::string& file,
                   const std::string& options) {
  ProgramSpec s;
  s.workload = workload;
  s.variant = s.base = variant;
  s.file = file;
  s.options = options;
  return s;
}

ProgramSpec with_nvidia(ProgramSpec spec, const std::string& options) {
  spec.nvidia_options = options;
  return spec;
}

namespace {
// `a` and `b` joined by one space (none where either is empty).
std::string joined(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  return b.empty() ? a : a + " " + b;
}
}  // namespace

std::string driver_options(const ProgramSpec& spec, bool nvidia, const DeviceInfo& device) {
  std::string out = spec.options;
  if (spec.device_options) out = joined(out, spec.device_options(device));
  return nvidia ? joined(out, spec.nvidia_options) : out;
}

ProgramSpec derived(const ProgramSpec& base, const std::string& suffix, ProgramFrom from) {
  ProgramSpec s = base;
  s.variant = base.variant + "-" + suffix;
  s.from = from;
  return s;
}

void add_auto_chain(std::vector<ProgramSpec>& specs, const ProgramSpec& base) {
  std::vector<std::string> passes = {"cleanup"};
  ProgramSpec clean = derived(base, "auto-clean", ProgramFrom::ptx_passes);
  clean.passes = passes;
  clean.chain = "auto";
  clean.step = 1;
  specs.push_back(clean);
  std::string name = "auto";
  int step = 1;
  for (const char* pass : {"unroll", "cse", "mad", "licm", "align"}) {
    passes.emplace_back(pass);
    name += std::string("-") + pass;
    ProgramSpec s = derived(base, name, ProgramFrom::ptx_passes);
    s.passes = passes;
    s.chain = "auto";
    s.step = ++step;
    specs.push_back(s);
  }
}

void add_hand_chain(std::vector<ProgramSpec>& specs, const ProgramSpec& base) {
  int index = 0;
  for (const char* step : {"hand-base", "hand-unroll", "hand-unroll-cse", "hand-unroll-cse-mad",
                           "hand-unroll-cse-mad-licm"}) {
    ProgramSpec s = derived(base, step, ProgramFrom::ptx_file);
    s.ptx = base.variant + "-" + step + ".ptx";
    s.chain = "hand";
    s.step = ++index;
    specs.push_back(s);
  }
}

void add_ptx_controls(std::vector<ProgramSpec>& specs, const ProgramSpec& base) {
  specs.push_back(derived(base, "ptx-as-built", ProgramFrom::ptx_as_built));
  ProgramSpec o0 = derived(base, "ptx-O0", ProgramFrom::ptx_O0);
  o0.step = 0;  // where both chains start
  specs.push_back(o0);
  ProgramSpec align = derived(base, "ptx-align", ProgramFrom::ptx_as_built_passes);
  align.passes = {"align"};
  specs.push_back(align);
}

ProgramSpec from_nvcc(const ProgramSpec& base, const std::string& ptx, const std::string& entry,
                      const std::string& kernel) {
  ProgramSpec s = derived(base, "ptx-from-nvcc", ProgramFrom::ptx_from_nvcc);
  s.ptx = ptx;
  s.entry = entry;
  s.kernel = kernel;
  return s;
}

namespace {

std::vector<ProgramRegistration>& registrations() {
  static std::vector<ProgramRegistration> all;
  return all;
}

// Set once program_specs() has built its list: a later registration would be lost.
bool& specs_built() {
  static bool built = false;
  return built;
}

}  // namespace

const char* from_name(ProgramFrom from) {
  switch (from) {
    case ProgramFrom::source:
      return "source";
    case ProgramFrom::ptx_as_built:
      return "ptx_as_built";
    case ProgramFrom::ptx_as_built_passes:
      return "ptx_as_built_passes";
    case ProgramFrom::ptx_O0:
      return "ptx_O0";
    case ProgramFrom::ptx_passes:
      return "ptx_passes";
    case ProgramFrom::ptx_file:
      return "ptx_file";
    case ProgramFrom::ptx_from_nvcc:
      return "ptx_from_nvcc";
  }
  return "?";
}

std::string describe(const ProgramSpec& spec, const DeviceInfo* device) {
  std::string out = std::string("from=") + from_name(spec.from) + "; base=" + spec.base;
  if (!spec.options.empty()) out += "; options=" + spec.options;
  if (spec.device_options)
    out += "; device_options=" + (device ? spec.device_options(*device) : "per device");
  if (!spec.nvidia_options.empty()) out += "; nvidia_options=" + spec.nvidia_options;
  if (!spec.passes.empty()) {
    out += "; passes=";
    for (std::size_t i = 0; i < spec.passes.size(); ++i) out += (i ? "," : "") + spec.passes[i];
  }
  if (!spec.chain.empty()) out += "; chain=" + spec.chain;
  if (spec.step >= 0) out += "; step=" + std::to_string(spec.step);
  return out;
}

ProgramRegistrar::ProgramRegistrar(const char* file, AddPrograms add) {
  if (specs_built())
    throw std::logic_error(std::string("OpenCL programs of ") + file +
                           " registered after the program list was built");
  registrations().push_back({file, add});
}

const std::vector<ProgramRegistration>& program_registrations() { return registrations(); }

std::vector<ProgramSpec> collect_program_specs(std::vector<ProgramRegistration> registrations) {
  std::stable_sort(
      registrations.begin(), registrations.end(),
      [](const ProgramRegistration& a, const ProgramRegistration& b) { return a.file < b.file; });
  std::vector<ProgramSpec> specs;
  std::map<std::string, std::string> file_of;  // "workload/variant" -> its block's file
  for (const ProgramRegistration& r : registrations) {
    std::size_t first = specs.size();
    r.add(specs);
    for (; first < specs.size(); ++first) {
      const std::string name = specs[first].workload + "/" + specs[first].variant;
      const auto [it, inserted] = file_of.emplace(name, r.file);
      if (!inserted)
        throw std::logic_error("OpenCL program " + name + " registered twice: by " + it->second +
                               " and by " + r.file);
    }
  }
  return specs;
}

const std::vector<ProgramSpec>& program_specs() {
  static const std::vector<ProgramSpec> specs = [] {
    if (registrations().empty())
      throw std::logic_error(
          "no OpenCL program registered: gpucmp_opencl must be linked whole (GPUCMP_PROGRAMS, "
          "opencl/programs.h)");
    specs_built() = true;
    return collect_program_specs(registrations());
  }();
  return specs;
}

const ProgramSpec& program_spec(const std::string& workload, const std::string& variant) {
  for (const auto& s : program_specs())
    if (s.workload == workload && s.variant == variant) return s;
  throw ApiError("no OpenCL program for " + workload + "/" + variant);
}

std::vector<ProgramSpec> ptx_variants(const std::string& workload) {
  std::vector<ProgramSpec> out;
  for (const auto& s : program_specs())
    if (s.workload == workload && s.from != ProgramFrom::source) out.push_back(s);
  return out;
}

}  // namespace gpucmp::opencl
