#include "dump_command.h"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "errors.h"
#include "opencl_api.h"
#include "ptx_dump.h"
#include "session.h"
#include "toolkit.h"

namespace gpucmp::ptxtool {

namespace fs = std::filesystem;

void add_dump_command(CLI::App& app, DumpOptions& opts) {
  auto* dump = app.add_subcommand("dump", "Write the PTX (and SASS) of every kernel");
  dump->add_option("--api", opts.api, "opencl: build now on the OpenCL device; cuda: the "
                                      "build's ptx-dump output")
      ->required()
      ->check(CLI::IsMember({"opencl", "cuda"}));
  dump->add_option("--out", opts.out_dir, "Output folder")->required();
  dump->add_option("--variant", opts.variant, "Only programs whose workload/variant contains this");
  dump->add_option("--cl-platform", opts.cl_platform, "OpenCL platform index");
  dump->add_option("--cl-device", opts.cl_device, "OpenCL device index");
  dump->add_flag("!--no-sass", opts.sass, "Skip SASS (offline ptxas + cuobjdump)");
}

namespace {

int dump_opencl(const DumpOptions& opts) {
  // Every program is compiled afresh, so that each build log carries ptxas'
  // report: the NVIDIA driver otherwise serves repeated builds from its cache.
  setenv("CUDA_CACHE_DISABLE", "1", 0);
  auto api = opencl::make_api();
  Options o;
  o.cl_platform = opts.cl_platform;
  o.cl_device = opts.cl_device;
  api->select(o);
  if (!api->unavailable().empty()) throw UsageError(api->unavailable());
  const auto dumped = opencl::dump_programs(opencl::session(), opts.out_dir, opts.variant);
  int failed = 0;
  for (const auto& d : dumped) {
    if (!d.error.empty()) {
      std::cerr << "gpucmp-ptx: error: " << d.spec.workload << "/" << d.spec.variant << ": "
                << d.error << "\n";
      ++failed;
      continue;
    }
    std::cout << d.ptx_path << "\n";
    if (!opts.sass) continue;
    const std::string sass = d.ptx_path.substr(0, d.ptx_path.size() - 4) + ".sass";
    const std::string why = sass_of_ptx(d.ptx_path, sass);
    if (why.empty()) std::cout << sass << "\n";
    else std::cerr << "gpucmp-ptx: note: no SASS for " << d.ptx_path << ": " << why << "\n";
  }
  return failed ? kExitFailed : kExitOk;
}

int dump_cuda(const DumpOptions& opts) {
#ifdef GPUCMP_CUDA_DUMP_DIR
  const fs::path from = GPUCMP_CUDA_DUMP_DIR;
  if (!fs::is_directory(from))
    throw UsageError(from.string() + " is missing: build the target ptx-dump first "
                     "(cmake --build build --target ptx-dump)");
  fs::create_directories(opts.out_dir);
  int copied = 0;
  for (const auto& entry : fs::directory_iterator(from)) {
    const std::string name = entry.path().filename().string();
    if (!opts.variant.empty() && name.find(opts.variant) == std::string::npos) continue;
    fs::copy_file(entry.path(), fs::path(opts.out_dir) / name,
                  fs::copy_options::overwrite_existing);
    std::cout << (fs::path(opts.out_dir) / name).string() << "\n";
    ++copied;
  }
  if (!copied) throw UsageError("--variant '" + opts.variant + "' matches no CUDA dump");
  return kExitOk;
#else
  (void)opts;
  throw UsageError("this build has no CUDA side (no CUDA toolkit at configure time)");
#endif
}

}  // namespace

int run_dump(const DumpOptions& opts) {
  return opts.api == "opencl" ? dump_opencl(opts) : dump_cuda(opts);
}

}  // namespace gpucmp::ptxtool
