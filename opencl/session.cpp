#include "session.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check.h"
#include "errors.h"
#include "opt_disabled_guard.h"
#include "options.h"
#include "ptx_dump.h"
#include "variant_ptx.h"

namespace gpucmp::opencl {

const std::map<std::string, std::string>& embedded_sources();  // generated

std::vector<cl_platform_id> platforms() {
  cl_uint count = 0;
  const cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || count == 0) return {};
  check(err, "clGetPlatformIDs", "count");
  std::vector<cl_platform_id> ids(count);
  check(clGetPlatformIDs(count, ids.data(), nullptr), "clGetPlatformIDs", "list");
  return ids;
}

std::vector<cl_device_id> devices(cl_platform_id platform) {
  cl_uint count = 0;
  const cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (err == CL_DEVICE_NOT_FOUND || count == 0) return {};
  check(err, "clGetDeviceIDs", "count");
  std::vector<cl_device_id> ids(count);
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr), "clGetDeviceIDs",
        "list");
  return ids;
}

std::string platform_info(cl_platform_id p, cl_platform_info what) {
  std::size_t size = 0;
  check(clGetPlatformInfo(p, what, 0, nullptr, &size), "clGetPlatformInfo", "size");
  std::string s(size, '\0');
  check(clGetPlatformInfo(p, what, size, s.data(), nullptr), "clGetPlatformInfo", "value");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_info(cl_device_id d, cl_device_info what) {
  std::size_t size = 0;
  check(clGetDeviceInfo(d, what, 0, nullptr, &size), "clGetDeviceInfo", "size");
  std::string s(size, '\0');
  check(clGetDeviceInfo(d, what, size, s.data(), nullptr), "clGetDeviceInfo", "value");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

namespace {

template <class T>
bool device_value(cl_device_id d, cl_device_info what, T& out) {
  return clGetDeviceInfo(d, what, sizeof(T), &out, nullptr) == CL_SUCCESS;
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// cl_nv_device_attribute_query (cl_ext.h names them too; spelled out here so
// older headers work).
constexpr cl_device_info kNvComputeCapMajor = 0x4000;
constexpr cl_device_info kNvComputeCapMinor = 0x4001;
constexpr cl_device_info kNvPciBusId = 0x4008;
constexpr cl_device_info kNvPciSlotId = 0x4009;
constexpr cl_device_info kNvPciDomainId = 0x400A;
constexpr cl_device_info kNvWarpSize = 0x4003;

DeviceInfo describe(cl_platform_id p, cl_device_id d) {
  DeviceInfo info;
  info.api = "opencl";
  info.name = device_info(d, CL_DEVICE_NAME);
  info.vendor = device_info(d, CL_DEVICE_VENDOR);
  info.driver = device_info(d, CL_DRIVER_VERSION);
  cl_uint units = 0, clock = 0;
  device_value(d, CL_DEVICE_MAX_COMPUTE_UNITS, units);
  device_value(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, clock);
  info.compute_units = int(units);
  info.max_clock_mhz = clock;
  cl_ulong cache = 0;  // NVIDIA reports the L2 here; CPUs (PoCL) their last-level cache
  if (device_value(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cache)) info.l2_bytes = (long long)cache;
  std::size_t group = 0, items[3] = {0, 0, 0};
  if (device_value(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, group)) info.max_group_size = int(group);
  std::size_t parameter_bytes = 0;  // cp's by-value atoms (harness/workloads/parboil/cp.h)
  if (device_value(d, CL_DEVICE_MAX_PARAMETER_SIZE, parameter_bytes))
    info.max_parameter_bytes = (long long)parameter_bytes;
  if (device_value(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, items)) {
    info.max_group_x = int(items[0]);
    info.max_group_y = int(items[1]);
  }
  cl_ulong local_bytes = 0;  // OpenCL has no per-unit figure: the limit of one work-group
  if (device_value(d, CL_DEVICE_LOCAL_MEM_SIZE, local_bytes)) {
    info.local_bytes_per_cu = (long long)local_bytes;
    info.local_bytes_source = "CL_DEVICE_LOCAL_MEM_SIZE (one work-group's limit)";
  }
  const bool nvidia = platform_info(p, CL_PLATFORM_NAME).find("NVIDIA") != std::string::npos;
  cl_uint major = 0, minor = 0, bus = 0, slot = 0, domain = 0;
  if (nvidia && device_value(d, kNvComputeCapMajor, major) &&
      device_value(d, kNvComputeCapMinor, minor)) {
    info.cc_major = int(major);
    info.cc_minor = int(minor);
    info.lanes_per_cu = fp32_lanes_per_sm(info.cc_major, info.cc_minor);
    cl_uint warp = 0;
    if (device_value(d, kNvWarpSize, warp)) info.warp_size = int(warp);
    info.fp32_peak_gflops =
        fp32_fma_peak_gflops(info.compute_units, info.cc_major, info.cc_minor, info.max_clock_mhz);
    info.peak_note = "FP32: compute units x FP32 lanes/SM of sm_" + std::to_string(major) +
                     std::to_string(minor) + " x 2 x CL_DEVICE_MAX_CLOCK_FREQUENCY";
    if (device_value(d, kNvPciBusId, bus) && device_value(d, kNvPciSlotId, slot)) {
      device_value(d, kNvPciDomainId, domain);
      info.pci_bus_id = pci_id(int(domain), int(bus), int(slot));
    }
  } else {
    info.peak_note = "no peak model for this device: pct_peak not reported";
    cl_uint width = 0;
    if (device_value(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, width))
      info.lanes_per_cu = int(width);
  }
  return info;
}

}  // namespace

std::string nvidia_icd_hint(const std::vector<cl_platform_id>& found) {
  for (cl_platform_id p : found)
    if (platform_info(p, CL_PLATFORM_NAME).find("NVIDIA") != std::string::npos) return "";
  std::vector<std::string> dirs = {"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu",
                                   "/usr/lib64", "/usr/lib"};
  if (const char* ld = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream ss(ld);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty()) dirs.insert(dirs.begin(), dir);
  }
  for (const auto& dir : dirs) {
    const std::string lib = dir + "/libnvidia-opencl.so.1";
    if (!file_exists(lib)) continue;
    return "NVIDIA's OpenCL library " + lib +
           " is present but no NVIDIA platform is registered with the ICD loader; fix: "
           "mkdir -p /tmp/icd && echo " +
           lib + " > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd";
  }
  return "";
}

Session::Session(cl_platform_id platform, cl_device_id device, std::string kernel_dir)
    : platform_(platform), device_(device), kernel_dir_(std::move(kernel_dir)) {
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, cl_context_properties(platform), 0};
  context_ = Context(clCreateContext(props, 1, &device, nullptr, nullptr, &err));
  check(err, "clCreateContext", device_info(device, CL_DEVICE_NAME));
  const cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = Queue(clCreateCommandQueueWithProperties(context_, device, qprops, &err));
  check(err, "clCreateCommandQueueWithProperties", "profiling queue");
  info_ = describe(platform, device);
}

Session::Session(cl_platform_id platform, cl_device_id device, std::string kernel_dir,
                 cl_context shared)
    : platform_(platform), device_(device), kernel_dir_(std::move(kernel_dir)) {
  check(clRetainContext(shared), "clRetainContext", "the split group's shared context");
  context_ = Context(shared);
  cl_int err = CL_SUCCESS;
  const cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = Queue(clCreateCommandQueueWithProperties(context_, device, qprops, &err));
  check(err, "clCreateCommandQueueWithProperties", "profiling queue, shared context");
  info_ = describe(platform, device);
}

Session& Session::in_shared_context() {
  if (!shared_context_)
    throw Unavailable("one context over several devices needs a split group (--cl-split-devices)");
  return shared_context_();
}

const char* Session::common_build_options() { return "-cl-std=CL1.2"; }

namespace {
std::string& user_options() {
  static std::string options;
  return options;
}
}  // namespace

void Session::set_user_build_options(const std::string& options) { user_options() = options; }
const std::string& Session::user_build_options() { return user_options(); }

std::string Session::source(const std::string& file) const {
  // A line #include "NAME" takes NAME's text (the embedded copies have no
  // include path; e.g. the layout accessors, gpucmp_layouts.h).
  std::string text = file_text(file), out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto open = line.rfind("#include \"", 0) == 0 ? line.find('"') : std::string::npos;
    const auto close = open == std::string::npos ? open : line.find('"', open + 1);
    out += close == std::string::npos ? line : file_text(line.substr(open + 1, close - open - 1));
    out += "\n";
  }
  return out;
}

std::string Session::file_text(const std::string& file) const {
  if (!kernel_dir_.empty() && file.find(".cl") != std::string::npos) {
    // DIR/file, else DIR/<study>/file: --cl-kernel-dir opencl reads the tree.
    std::string path = kernel_dir_ + "/" + file;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
      for (const auto& entry : std::filesystem::directory_iterator(kernel_dir_, ec))
        if (entry.is_directory(ec) && std::filesystem::exists(entry.path() / file, ec)) {
          path = (entry.path() / file).string();
          break;
        }
    // A folder or a device opens as a stream but reads as nothing (a folder)
    // or never ends: refused by name, as a missing file is.
    if (const std::string why = why_not_input_file(path); !why.empty())
      throw UsageError("--cl-kernel-dir: cannot read " + path + ": " + why);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("--cl-kernel-dir: cannot read " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw UsageError("--cl-kernel-dir: cannot read " + path + ": I/O error");
    return ss.str();
  }
  const auto& table = embedded_sources();
  const auto it = table.find(file);
  if (it == table.end()) throw ApiError("no embedded OpenCL source " + file);
  return it->second;
}

std::string Session::program_key(const std::string& file, const std::string& extra) {
  return file + "|" + extra;
}

const BuiltProgram& Session::program(const std::string& file, const std::string& extra) {
  const std::string key = program_key(file, extra);
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  return programs_.emplace(key, build(file, extra)).first->second;
}

void Session::forget_programs() {
  programs_.clear();
  ptx_programs_.clear();
}

std::string Session::source_options(const ProgramSpec& spec) const {
  return driver_options(spec, is_nvidia(), info_);
}

const BuiltProgram& Session::program(const ProgramSpec& spec) {
  if (spec.from == ProgramFrom::source) {
    const std::string options = source_options(spec);
    if (!programs_.count(program_key(spec.file, options))) check_build_after_opt_disabled(spec);
    return program(spec.file, options);
  }
  const std::string key = spec.workload + "/" + spec.variant;
  if (auto it = ptx_programs_.find(key); it != ptx_programs_.end()) return it->second;
  check_build_after_opt_disabled(spec);
  const VariantPtx ptx = variant_ptx(*this, spec);
  return ptx_programs_.emplace(key, build_from_ptx(ptx.text, source_options(spec), key))
      .first->second;
}

namespace {

// The common options, then `extra`, then the user's (leading spaces dropped;
// none when blank).
std::string build_options(const std::string& extra) {
  std::string options = Session::common_build_options();
  for (const std::string* more : {&extra, &Session::user_build_options()}) {
    const std::size_t start = more->find_first_not_of(' ');
    if (start != std::string::npos) options += " " + more->substr(start);
  }
  return options;
}

// clBuildProgram of a created program, source or PTX alike: times it and keeps
// the build log (trailing NULs and newlines dropped) whether or not it built.
cl_int build_and_log(BuiltProgram& built, cl_device_id device) {
  const auto t0 = std::chrono::steady_clock::now();
  const cl_int err =
      clBuildProgram(built.program, 1, &device, built.options.c_str(), nullptr, nullptr);
  built.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::size_t size = 0;
  clGetProgramBuildInfo(built.program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  built.log.assign(size, '\0');
  clGetProgramBuildInfo(built.program, device, CL_PROGRAM_BUILD_LOG, size, built.log.data(),
                        nullptr);
  while (!built.log.empty() && (built.log.back() == '\0' || built.log.back() == '\n'))
    built.log.pop_back();
  return err;
}

}  // namespace

BuiltProgram Session::build_from_ptx(const std::string& ptx, const std::string& extra,
                                     const std::string& what) const {
  const auto* bytes = reinterpret_cast<const unsigned char*>(ptx.data());
  const std::size_t size = ptx.size() + 1;  // with the terminating NUL
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  BuiltProgram built;
  built.options = build_options(extra);
  built.program =
      Program(clCreateProgramWithBinary(context_, 1, &device_, &size, &bytes, &status, &err));
  if (err != CL_SUCCESS || status != CL_SUCCESS)
    throw BuildError(
        "clCreateProgramWithBinary (" + what + "): " + error_name(err != CL_SUCCESS ? err : status),
        "the driver rejected the PTX before building it");
  err = build_and_log(built, device_);
  if (err != CL_SUCCESS)
    throw BuildError(
        "OpenCL build of PTX " + what + " failed on " + info_.name + ": " + error_name(err),
        built.log);
  return built;
}

bool Session::is_nvidia() const {
  return platform_info(platform_, CL_PLATFORM_NAME).find("NVIDIA") != std::string::npos;
}

BuiltProgram Session::build(const std::string& file, const std::string& extra) const {
  const std::string text = source(file);
  const char* ptr = text.c_str();
  const std::size_t len = text.size();
  cl_int err = CL_SUCCESS;
  BuiltProgram built;
  built.options = build_options(extra);
  built.program = Program(clCreateProgramWithSource(context_, 1, &ptr, &len, &err));
  check(err, "clCreateProgramWithSource", file);
  err = build_and_log(built, device_);
  if (err != CL_SUCCESS)
    throw BuildError("OpenCL build of " + file + " (options '" + built.options + "') failed on " +
                         info_.name + ": " + error_name(err),
                     built.log);
  return built;
}

void Session::check_user_build_options() const {
  if (user_build_options().empty()) return;
  const char* text = "__kernel void gpucmp_options_probe(__global int* x) { x[0] = 1; }\n";
  const std::size_t len = std::strlen(text);
  cl_int err = CL_SUCCESS;
  BuiltProgram built;
  built.options = build_options("");
  built.program = Program(clCreateProgramWithSource(context_, 1, &text, &len, &err));
  check(err, "clCreateProgramWithSource", "the --cl-build-options probe");
  if (build_and_log(built, device_) == CL_SUCCESS) return;
  std::string first = built.log.substr(0, built.log.find('\n'));
  if (first.empty()) first = "no build log";
  throw UsageError("--cl-build-options '" + user_build_options() + "': the OpenCL compiler of " +
                   info_.name + " refuses them (" + first + ")");
}

namespace {
std::unique_ptr<Session>& current() {
  static std::unique_ptr<Session> s;
  return s;
}
thread_local Session* this_thread_session = nullptr;  // use_session_on_this_thread
}  // namespace

Session& session() {
  if (this_thread_session) return *this_thread_session;
  if (!current()) throw Unavailable("no OpenCL device selected");
  return *current();
}

void set_session(std::unique_ptr<Session> s) { current() = std::move(s); }

void use_session_on_this_thread(Session* s) { this_thread_session = s; }

ThisThreadSession::ThisThreadSession(Session& s) : previous_(this_thread_session) {
  this_thread_session = &s;
}
ThisThreadSession::~ThisThreadSession() { this_thread_session = previous_; }

Kernel make_kernel(const BuiltProgram& p, const char* name) {
  cl_int err = CL_SUCCESS;
  Kernel k(clCreateKernel(p.program, name, &err));
  check(err, "clCreateKernel", name);
  return k;
}

Buffer make_buffer(cl_mem_flags flags, std::size_t bytes, const std::string& what) {
  cl_int err = CL_SUCCESS;
  Buffer b(clCreateBuffer(session().context(), flags, bytes, nullptr, &err));
  check(err, "clCreateBuffer", what + ", " + std::to_string(bytes) + " bytes");
  return b;
}

}  // namespace gpucmp::opencl
