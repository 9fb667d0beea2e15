// Does a -cl-opt-disable build change what NVIDIA's OpenCL compiler makes of
// later builds in the same process, and what undoes it? Builds each program
// of the command line (FILE or FILE::OPTIONS; files without #include) and
// keeps a hash of its PTX (CL_PROGRAM_BINARIES; every build has a define of
// its own, -DPROBE_BUILD=N, so that none is a repeat of an earlier one) and the bytes of its PTX's
// local depots (__local_depot: what a kernel copies into local memory). Then
// builds TAINT (FILE::OPTIONS) with -cl-opt-disable (1), and again with its
// PTX read and built again from the binary, as gpucmp's -ptx-O0 rows do (2:
// after 1, so it can only add to it), and after each builds every program again, printing those
// whose PTX differs from the first builds. Where some differ, it tries the remedies in turn, each
// followed by the same check: the -cl-opt-disable programs released, a new context,
// clUnloadPlatformCompiler. A control rebuild comes first. PROBE_EXTRA (e.g. -cl-nv-verbose, as
// gpucmp-ptx dump adds) goes with every build. usage: probe TAINT PROGRAM... ; exit 0, or 2 on
// usage or OpenCL errors.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Spec {
  std::string file, options, name;
};

Spec parse_spec(const std::string& arg) {
  const auto sep = arg.find("::");
  const Spec s{arg.substr(0, sep), sep == std::string::npos ? "" : arg.substr(sep + 2), arg};
  return s;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "opt_disable_leak: error: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Context {  // a context and queue-less device handle, released on scope exit
  cl_context ctx = nullptr;
  explicit Context(cl_device_id dev) {
    cl_int err = CL_SUCCESS;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) {
      std::fprintf(stderr, "opt_disable_leak: error: clCreateContext %d\n", err);
      std::exit(2);
    }
  }
  ~Context() { clReleaseContext(ctx); }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
};

struct Program {  // a built program, released on scope exit (or by reset())
  cl_program p = nullptr;
  ~Program() { reset(); }
  void reset() {
    if (p) clReleaseProgram(p);
    p = nullptr;
  }
};

struct Built {
  std::size_t hash = 0;
  long depot = 0;
  bool ok = false;
  std::string ptx;
};

Built build(cl_context ctx, cl_device_id dev, const Spec& s, const std::string& extra, Program& out,
            bool read_ptx = true) {
  const std::string text = read_text(s.file);
  const char* src = text.c_str();
  cl_int err = CL_SUCCESS;
  out.reset();
  out.p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  // A define no program uses, new for every build: the driver might reuse an
  // earlier build of the same source and options (hypothesis), and a check
  // must be a first build.
  static int builds = 0;
  const char* every = std::getenv("PROBE_EXTRA");
  const std::string options = s.options + extra + (every ? std::string(" ") + every : "") +
                              " -DPROBE_BUILD=" + std::to_string(++builds);
  if (err != CL_SUCCESS || clBuildProgram(out.p, 1, &dev, options.c_str(), nullptr, nullptr)) {
    std::size_t n = 0;
    clGetProgramBuildInfo(out.p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(out.p, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::printf("  %s (%s): build failed: %.300s\n", s.name.c_str(), extra.c_str(), log.c_str());
    return {};
  }
  if (!read_ptx) return {0, 0, true, ""};
  std::size_t size = 0;
  clGetProgramInfo(out.p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::string ptx(size, '\0');
  unsigned char* bin = reinterpret_cast<unsigned char*>(ptx.data());
  clGetProgramInfo(out.p, CL_PROGRAM_BINARIES, sizeof bin, &bin, nullptr);
  Built b{std::hash<std::string>{}(ptx), 0, true, ptx};
  const std::regex depot(R"(__local_depot\d+\[(\d+)\])");
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), depot); it != std::sregex_iterator();
       ++it)
    b.depot += std::stol((*it)[1]);
  return b;
}

// Builds `ptx` (a binary of CL_PROGRAM_BINARIES) again, as gpucmp's PTX rows do.
void reload(cl_context ctx, cl_device_id dev, const std::string& ptx, Program& out) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(ptx.data());
  const std::size_t size = ptx.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  out.reset();
  out.p = clCreateProgramWithBinary(ctx, 1, &dev, &size, &bytes, &status, &err);
  if (err != CL_SUCCESS || clBuildProgram(out.p, 1, &dev, "", nullptr, nullptr) != CL_SUCCESS)
    std::printf("  reload of the PTX failed\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "opt_disable_leak: error: usage: probe TAINT PROGRAM...\n");
    return 2;
  }
  // NVIDIA's platform where there is one (the machine may list others, PoCL).
  cl_platform_id platforms[16];
  cl_uint count = 0;
  if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS || count == 0) {
    std::fprintf(stderr, "opt_disable_leak: error: no OpenCL platform\n");
    return 2;
  }
  cl_platform_id platform = platforms[0];
  char name[256] = {};
  for (cl_uint i = 0; i < count && i < 16; ++i) {
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find("NVIDIA") != std::string::npos) {
      platform = platforms[i];
      break;
    }
  }
  clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
  cl_device_id dev = nullptr;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "opt_disable_leak: error: no device on %s\n", name);
    return 2;
  }
  std::printf("platform: %s\n", name);
  const Spec taint = parse_spec(argv[1]);
  std::vector<Spec> specs;
  for (int i = 2; i < argc; ++i) specs.push_back(parse_spec(argv[i]));

  auto ctx = std::make_unique<Context>(dev);
  std::vector<Built> first;
  std::printf("## first builds (no -cl-opt-disable build before them)\n");
  for (const Spec& s : specs) {
    Program p;
    first.push_back(build(ctx->ctx, dev, s, "", p));
    if (first.back().ok)
      std::printf("  %s: local depot %ld bytes\n", s.name.c_str(), first.back().depot);
  }
  Program tainted, reloaded;
  const auto check = [&](const char* step) {
    int same = 0, differ = 0;
    std::printf("## %s\n", step);
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (!first[i].ok) continue;
      Program p;
      const Built b = build(ctx->ctx, dev, specs[i], "", p);
      if (b.ok && b.hash == first[i].hash) {
        ++same;
        continue;
      }
      ++differ;
      std::printf("  differs: %s (local depot %ld bytes, first %ld)\n", specs[i].name.c_str(),
                  b.depot, first[i].depot);
    }
    std::printf("  %d the same, %d differ\n", same, differ);
    return differ;
  };
  // The three remedies in turn, each checked, until one leaves every program
  // as it first was.
  const auto remedies = [&] {
    tainted.reset();
    reloaded.reset();
    if (!check("  remedy: the -cl-opt-disable program (and its reload) released")) return;
    ctx = std::make_unique<Context>(dev);
    if (!check("  remedy: a new context")) return;
    clUnloadPlatformCompiler(platform);
    check("  remedy: clUnloadPlatformCompiler");
  };
  check("control: rebuilt, no -cl-opt-disable build");
  if (!build(ctx->ctx, dev, taint, " -cl-opt-disable", tainted, false).ok) {
    std::fprintf(stderr, "opt_disable_leak: error: the -cl-opt-disable build of TAINT failed\n");
    return 2;
  }
  if (check("taint 1: a -cl-opt-disable build")) remedies();
  const std::string ptx = build(ctx->ctx, dev, taint, " -cl-opt-disable", tainted).ptx;
  reload(ctx->ctx, dev, ptx, reloaded);
  if (check("taint 2: the same, its PTX read and built again from the binary")) remedies();
  return 0;
}
