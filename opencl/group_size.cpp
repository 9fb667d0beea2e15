#include "group_size.h"

#include <map>
#include <mutex>
#include <regex>

#include "check.h"
#include "local_choice.h"
#include "opt_disabled_guard.h"
#include "session.h"

namespace gpucmp::opencl {

int kernel_group_size(cl_kernel kernel, const std::string& what) {
  std::size_t size = 0, multiple = 0;
  check(clGetKernelWorkGroupInfo(kernel, session().device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof size,
                                 &size, nullptr),
        "clGetKernelWorkGroupInfo", what + " CL_KERNEL_WORK_GROUP_SIZE");
  check(clGetKernelWorkGroupInfo(kernel, session().device(),
                                 CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                 &multiple, nullptr),
        "clGetKernelWorkGroupInfo", what + " CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE");
  if (multiple > 0 && size >= multiple) size -= size % multiple;
  return int(size);
}

int ptxas_registers(const std::string& log, const std::string& name) {
  const std::string entry = "Compiling entry function '" + name + "'";
  const std::size_t at = log.find(entry);
  if (at == std::string::npos) return 0;
  // Up to the next entry's report.
  const std::size_t next = log.find("Compiling entry function '", at + entry.size());
  const std::string part = log.substr(at, next == std::string::npos ? next : next - at);
  static const std::regex used(R"(Used (\d+) registers)");
  std::smatch m;
  return std::regex_search(part, m, used) ? std::stoi(m[1].str()) : 0;
}

namespace {

// The build log of `spec`'s program built with -cl-nv-verbose (ptxas'
// report) on the session's device, per device and program, built once.
std::string register_report(const ProgramSpec& spec) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  Session& s = session();
  const std::string options = s.source_options(spec) + " -cl-nv-verbose";
  const std::string key = s.info().name + "|" + spec.file + "|" + options;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = known.find(key); it != known.end()) return it->second;
  }
  check_build_after_opt_disabled(spec);
  std::string log = s.build(spec.file, options).log;
  const std::lock_guard<std::mutex> lock(mutex);
  return known.emplace(key, std::move(log)).first->second;
}

}  // namespace

void build_register_report(const ProgramSpec& spec) {
  if (session().is_nvidia()) register_report(spec);
}

KernelResources kernel_resources(cl_kernel kernel, const ProgramSpec& spec,
                                 const std::string& name) {
  KernelResources r;
  cl_ulong local = 0;
  std::size_t size = 0;
  check(clGetKernelWorkGroupInfo(kernel, session().device(), CL_KERNEL_LOCAL_MEM_SIZE, sizeof local,
                                 &local, nullptr),
        "clGetKernelWorkGroupInfo", name + " CL_KERNEL_LOCAL_MEM_SIZE");
  check(clGetKernelWorkGroupInfo(kernel, session().device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof size,
                                 &size, nullptr),
        "clGetKernelWorkGroupInfo", name + " CL_KERNEL_WORK_GROUP_SIZE");
  r.shared = static_cast<long long>(local);
  r.max_threads = int(size);
  if (session().is_nvidia() && spec.from == ProgramFrom::source) {
    r.registers = ptxas_registers(register_report(spec), name);
    // NVIDIA's driver reports 256 for every kernel, whatever its registers,
    // and launches every block whose registers fit an SM and refuses one warp
    // more (H200, driver 580, every size in steps of 32: kernels of 15 to 55
    // registers launch 1024 work-items, of 71 896, 87 640, 105 512, 137 384;
    // results/nvidia-h200/2026-11-29-group-size). The tuner searches what
    // launches, as it does on CUDA.
    // A kernel compiled for one group size (reqd_work_group_size) keeps the
    // driver's value: it launches with that size alone.
    std::size_t compiled[3] = {0, 0, 0};
    check(clGetKernelWorkGroupInfo(kernel, session().device(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                   sizeof compiled, compiled, nullptr),
          "clGetKernelWorkGroupInfo", name + " CL_KERNEL_COMPILE_WORK_GROUP_SIZE");
    const bool fixed = compiled[0] != 0;
    const DeviceInfo& dev = session().info();
    const int limit = register_limited_block(r.registers, sm_limits(dev), dev.max_group_size);
    if (!fixed && limit > 0 && limit != r.max_threads) {
      r.reported_max_threads = r.max_threads;
      r.max_threads = limit;
    }
  }
  return r;
}

}  // namespace gpucmp::opencl
