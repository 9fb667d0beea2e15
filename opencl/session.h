// The OpenCL device gpucmp runs on: platform/device choice, context, profiling
// queue, kernel sources (embedded or --cl-kernel-dir) and program builds.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device_info.h"
#include "handles.h"
#include "options.h"
#include "programs.h"

namespace gpucmp::opencl {

std::vector<cl_platform_id> platforms();  // empty when no ICD is installed
std::vector<cl_device_id> devices(cl_platform_id platform);
std::string platform_info(cl_platform_id p, cl_platform_info what);
std::string device_info(cl_device_id d, cl_device_info what);

// Where NVIDIA's OpenCL library is when the loader did not list an NVIDIA
// platform, with the exact fix; empty when there is nothing to fix.
std::string nvidia_icd_hint(const std::vector<cl_platform_id>& found);

struct BuiltProgram {
  Program program;
  double build_ms = 0;
  std::string options;
  std::string log;  // the build log (warnings; ptxas info with -cl-nv-verbose on NVIDIA)
};

class Session {
 public:
  Session(cl_platform_id platform, cl_device_id device, std::string kernel_dir);
  // A session on `device` in `shared`, a context made over several devices
  // (retained here): its own queue and programs, buffers any device of the
  // context can use (split_group.h, over:context).
  Session(cl_platform_id platform, cl_device_id device, std::string kernel_dir, cl_context shared);

  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return device_; }
  cl_platform_id platform() const { return platform_; }
  const DeviceInfo& info() const { return info_; }
  DeviceInfo& info() { return info_; }

  // Builds `file` (e.g. "matrixmul.cl") with the common options plus `extra`,
  // once per process; throws BuildError with the build log on failure.
  const BuiltProgram& program(const std::string& file, const std::string& extra = "");
  // The program of a benchmark variant, from source or from PTX (programs.h),
  // built with source_options(spec).
  const BuiltProgram& program(const ProgramSpec& spec);
  // The options a variant's source is built with on this session's driver:
  // its own, then those computed from this device (ProgramSpec::device_options),
  // then its NVIDIA-only ones where the driver is NVIDIA's. The one
  // place the runners (program(spec)), the PTX variants' source builds and
  // `gpucmp-ptx dump` take them from, so the kernel dumped is the one timed.
  std::string source_options(const ProgramSpec& spec) const;
  // Builds `ptx` with clCreateProgramWithBinary + clBuildProgram(common + extra);
  // `what` names it in errors. Throws BuildError with the log on failure.
  BuiltProgram build_from_ptx(const std::string& ptx, const std::string& extra,
                              const std::string& what) const;
  // Builds without caching, with the common options plus `extra`.
  BuiltProgram build(const std::string& file, const std::string& extra) const;
  // Drops every built program, so that the next program() builds again (the
  // startup benchmarks). No runner may be alive: they refer to the programs.
  void forget_programs();
  // True on NVIDIA's platform (CL_PROGRAM_BINARIES is PTX there).
  bool is_nvidia() const;
  // The options every program is built with (precise math, OpenCL C 1.2).
  static const char* common_build_options();
  // Options the user adds to every build after each program's own
  // (gpucmp-bench --cl-build-options; "" none). Process-wide, so that every
  // session (the split rows' devices too) builds with them.
  static void set_user_build_options(const std::string& options);
  // This device's session in one context over every device of its split
  // group (split_group.h: made on first use); Unavailable where the session
  // is not in a split group or its devices are on several platforms.
  Session& in_shared_context();
  void set_shared_context(std::function<Session&()> find) { shared_context_ = std::move(find); }
  static const std::string& user_build_options();
  // Builds an empty kernel with the user's options: throws UsageError naming
  // them, with the build log's first line, when the compiler refuses them.
  void check_user_build_options() const;

 private:
  // The key of programs_ for a build of `file` with `extra`.
  static std::string program_key(const std::string& file, const std::string& extra);
  std::string source(const std::string& file) const;
  // One file's text as it is stored (--cl-kernel-dir for .cl files, else embedded).
  std::string file_text(const std::string& file) const;

  cl_platform_id platform_;
  cl_device_id device_;
  std::string kernel_dir_;
  Context context_;
  Queue queue_;
  std::function<Session&()> shared_context_;  // set by the split group
  DeviceInfo info_;
  std::map<std::string, BuiltProgram> programs_;
  std::map<std::string, BuiltProgram> ptx_programs_;
};

// The session of the device chosen by the OpenCL Api's select(); throws
// Unavailable when there is none.
Session& session();
void set_session(std::unique_ptr<Session> s);
// Makes session() return `s` on the calling thread (a split row's device
// thread, opencl/split_group.h); null: the selected device's again.
void use_session_on_this_thread(Session* s);

// While it lives, session() on this thread is `s`; then what it was.
class ThisThreadSession {
 public:
  explicit ThisThreadSession(Session& s);
  ~ThisThreadSession();
  ThisThreadSession(const ThisThreadSession&) = delete;
  ThisThreadSession& operator=(const ThisThreadSession&) = delete;

 private:
  Session* previous_;
};

// Creates a kernel `name` of a built program.
Kernel make_kernel(const BuiltProgram& p, const char* name);

// A device buffer of `bytes` bytes.
Buffer make_buffer(cl_mem_flags flags, std::size_t bytes, const std::string& what);

}  // namespace gpucmp::opencl
