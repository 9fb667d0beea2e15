#include "opt_disabled_guard.h"

#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <string>

#include "errors.h"
#include "group_size.h"
#include "session.h"

namespace gpucmp::opencl {

namespace {

std::atomic<bool>& marked() {
  static std::atomic<bool> m{false};
  return m;
}

std::mutex& failures_mutex() {
  static std::mutex m;
  return m;
}

// workload/variant -> the error its build ahead ended in.
std::map<std::string, std::exception_ptr>& failures() {
  static std::map<std::string, std::exception_ptr> f;
  return f;
}

std::string name(const ProgramSpec& spec) { return spec.workload + "/" + spec.variant; }

// The programs built ahead: by-value ones that are not themselves -O0 builds.
bool guarded(const ProgramSpec& spec) {
  return spec.arrays_by_value && spec.from != ProgramFrom::ptx_O0 &&
         spec.from != ProgramFrom::ptx_passes;
}

}  // namespace

void before_opt_disabled_build(Session& s) {
  static std::once_flag once;
  std::call_once(once, [&s] {
    for (const ProgramSpec& spec : program_specs()) {
      if (!guarded(spec)) continue;
      try {
        s.program(spec);
        if (spec.from == ProgramFrom::source) build_register_report(spec);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failures_mutex());
        failures()[name(spec)] = std::current_exception();
      }
    }
    marked() = true;
  });
}

bool opt_disabled_built() { return marked(); }

void check_build_after_opt_disabled(const ProgramSpec& spec) {
  if (!guarded(spec) || !marked()) return;
  {
    const std::lock_guard<std::mutex> lock(failures_mutex());
    if (const auto it = failures().find(name(spec)); it != failures().end())
      std::rethrow_exception(it->second);
  }
  throw Unavailable(
      name(spec) +
      " takes arrays by value and was not built before this process's first "
      "-cl-opt-disable build, after which NVIDIA's OpenCL builds it otherwise (a copy "
      "of the arrays into local memory): run it in a process without -ptx-O0 or "
      "-auto- rows");
}

}  // namespace gpucmp::opencl
