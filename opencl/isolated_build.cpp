#include "isolated_build.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "child_mode.h"
#include "errors.h"
#include "handles.h"
#include "ptx_dump.h"

extern char** environ;

namespace gpucmp::opencl {

namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool write_all(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  return bool(out.flush());
}

// A fresh folder under the system's temporary one, removed with its files.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "gpucmp-build-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw ApiError("cannot make a temporary folder for a build");
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The position of `platform` among the platforms, and of `device` among the
// platform's devices (what the child looks them up by).
std::pair<int, int> indices(cl_platform_id platform, cl_device_id device) {
  cl_uint np = 0, nd = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
  std::vector<cl_device_id> devices(nd);
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
  int p = -1, d = -1;
  for (cl_uint i = 0; i < np; ++i)
    if (platforms[i] == platform) p = int(i);
  for (cl_uint i = 0; i < nd; ++i)
    if (devices[i] == device) d = int(i);
  if (p < 0 || d < 0) throw ApiError("the session's OpenCL device is not among the listed ones");
  return {p, d};
}

// The child: argv = exe, flag, platform index, device index, source file,
// options, output folder. Writes <out>/build.log and, built, <out>/binary;
// exit 0 built, 1 not (the log says why), 2 bad arguments or no device.
int child_main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "%s: expects 5 arguments, got %d\n", kIsolatedBuildFlag, argc - 2);
    return 2;
  }
  const int p = std::atoi(argv[2]), d = std::atoi(argv[3]);
  const fs::path out = argv[6];
  cl_uint np = 0, nd = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  if (p < 0 || p >= int(np)) return 2;
  clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
  std::vector<cl_device_id> devices(nd);
  clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
  if (d < 0 || d >= int(nd)) return 2;
  cl_device_id device = devices[d];
  cl_int err = CL_SUCCESS;
  const Context context(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
  if (err != CL_SUCCESS) return 2;
  const std::string text = read_all(argv[4]);
  const char* src = text.c_str();
  const std::size_t len = text.size();
  const Program program(clCreateProgramWithSource(context.get(), 1, &src, &len, &err));
  if (err != CL_SUCCESS) return 2;
  const cl_int built = clBuildProgram(program.get(), 1, &device, argv[5], nullptr, nullptr);
  std::size_t size = 0;
  clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (!write_all(out / "build.log", log)) return 2;
  if (built != CL_SUCCESS) return 1;
  return write_all(out / "binary", program_binary(program.get())) ? 0 : 2;
}

const bool registered = register_child_mode(kIsolatedBuildFlag, child_main);

}  // namespace

IsolatedBuild build_opt_disabled(const Session& s, const std::string& file,
                                 const std::string& extra) {
  (void)registered;
  IsolatedBuild r;
  r.options = Session::options_with(extra + " -cl-opt-disable");
  const TempFolder work;
  const fs::path source = work.path() / "program.cl";
  if (!write_all(source, s.source(file)))
    throw ApiError("cannot write " + source.string() + " for the child's build");
  const auto [p, d] = indices(s.platform(), s.device());
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> args = {exe,           kIsolatedBuildFlag, std::to_string(p),
                                   std::to_string(d), source.string(), r.options,
                                   work.path().string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw ApiError("cannot start " + exe + " to build " + file + " with -cl-opt-disable");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw ApiError("lost the child process building " + file);
  r.log = read_all(work.path() / "build.log");
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0)
    throw BuildError("OpenCL build of " + file + " (options '" + r.options +
                         "') in a child process failed on " + s.info().name + " (exit " +
                         std::to_string(code) + ")",
                     r.log);
  r.binary = read_all(work.path() / "binary");
  return r;
}

}  // namespace gpucmp::opencl
