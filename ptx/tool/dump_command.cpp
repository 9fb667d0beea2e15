#include "dump_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "errors.h"
#include "opencl_api.h"
#include "options.h"
#include "ptx_dump.h"
#include "session.h"
#include "toolkit.h"

namespace gpucmp::ptxtool {

namespace fs = std::filesystem;

void add_dump_command(CLI::App& app, DumpOptions& opts) {
  auto* dump = app.add_subcommand("dump", "Write the PTX (and SASS) of every kernel");
  dump->add_option("--api", opts.api,
                   "opencl: build now on the OpenCL device; cuda: the "
                   "build's ptx-dump output")
      ->required()
      ->check(CLI::IsMember({"opencl", "cuda"}));
  add_path_option(*dump, "--out", opts.out_dir, "Output folder")->required();
  dump->add_option("--variant", opts.variant, "Only programs whose workload/variant contains this");
  // Indices are checked when parsed (-1, the default choice, is no user value).
  add_checked_option(
      *dump, "--cl-platform",
      [&opts](const std::string& text) {
        opts.cl_platform =
            int(parse_int(text, "--cl-platform", {0, std::numeric_limits<int>::max()}));
      },
      "OpenCL platform index")
      ->type_name("INT");
  add_checked_option(
      *dump, "--cl-device",
      [&opts](const std::string& text) {
        opts.cl_device = int(parse_int(text, "--cl-device", {0, std::numeric_limits<int>::max()}));
      },
      "OpenCL device index")
      ->type_name("INT");
  add_cl_build_options(
      *dump, opts.cl_build_options,
      "opencl: added to every program's build after its own options, as gpucmp-bench's "
      "--cl-build-options: the PTX, build log and SASS of a cross-run's builds; refused when "
      "the OpenCL compiler refuses them");
  add_path_option(*dump, "--jit-cache", opts.jit_cache,
                  "opencl: the driver's compute-cache folder to use and keep (new or empty; "
                  "default: a temporary one, removed)");
  dump->add_flag("!--no-sass", opts.sass,
                 "Skip SASS (cuobjdump of the driver JIT's cubins; "
                 "offline ptxas + cuobjdump)");
  dump->add_flag("!--no-ptxas-sass", opts.ptxas_sass,
                 "opencl: skip <name>.ptxas.sass (offline ptxas on the PTX: not what ran)");
  add_checked_option(
      *dump, "--shard",
      [&opts](const std::string& text) {
        const auto slash = text.find('/');
        if (slash == std::string::npos)
          throw UsageError("--shard " + text + ": expected K/N, e.g. 1/4");
        opts.shard_count = int(parse_int(text.substr(slash + 1), "--shard N", {1, 1024}));
        opts.shard_index =
            int(parse_int(text.substr(0, slash), "--shard K", {1, opts.shard_count})) - 1;
      },
      "opencl: only the K-th of every N programs (K = 1..N), so that N processes dump the set "
      "between them")
      ->type_name("K/N");
  dump->footer(
      "--api opencl writes per program <name>.ptx, <name>.log (ptxas' report), <name>.jit.cubin "
      "(what the driver's JIT made, from its compute cache), <name>.sass (its SASS: what ran) and "
      "<name>.ptxas.sass (offline ptxas on the PTX: not what ran). Each .sass names its source "
      "on its first line.");
}

namespace {

// The driver's compute-cache folder for this process: NVIDIA's OpenCL stores
// the cubins its JIT makes there. A temporary one is removed at the end.
class JitCacheFolder {
 public:
  explicit JitCacheFolder(const std::string& keep) : path_(keep), temporary_(keep.empty()) {
    if (temporary_) {
      std::string pattern = (fs::temp_directory_path() / "gpucmp-jit-cache-XXXXXX").string();
      if (!mkdtemp(pattern.data())) throw UsageError("cannot create a temporary folder");
      path_ = pattern;
    } else {
      std::error_code ec;
      fs::create_directories(path_, ec);
      if (ec || !fs::is_empty(path_, ec))
        throw UsageError("--jit-cache " + path_ + ": must be a new or empty folder");
    }
  }
  ~JitCacheFolder() {
    std::error_code ec;
    if (temporary_) fs::remove_all(path_, ec);
  }
  JitCacheFolder(const JitCacheFolder&) = delete;
  JitCacheFolder& operator=(const JitCacheFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool temporary_;
};

void note(const std::string& what) { std::cerr << "gpucmp-ptx: note: " << what << "\n"; }

// <stem>.sass from the driver JIT's cubins (when there are any), <stem>.ptxas.sass
// from offline ptxas.
void write_sass(const opencl::DumpedProgram& d, const std::string& driver, bool ptxas_sass) {
  const std::string stem = d.ptx_path.substr(0, d.ptx_path.size() - 4);
  if (d.jit_cubin_paths.empty()) {
    note("no driver-JIT cubin for " + d.ptx_path + ": " + d.jit_note +
         "; only the offline ptxas SASS, which is not what ran");
  } else {
    if (!d.jit_note.empty()) note(d.ptx_path + ": JIT cubin " + d.jit_note);
    const std::string why = sass_of_cubins(
        d.jit_cubin_paths, stem + ".sass",
        "// SASS: driver JIT (NVIDIA OpenCL, driver " + driver + "), cubin from the compute cache");
    if (why.empty())
      std::cout << stem << ".sass\n";
    else
      note("no SASS of " + d.jit_cubin_paths.front() + " (the cubin is written): " + why);
  }
  if (!ptxas_sass) return;
  const std::string why = sass_of_ptx(d.ptx_path, stem + ".ptxas.sass");
  if (why.empty())
    std::cout << stem << ".ptxas.sass\n";
  else
    note("no offline ptxas SASS for " + d.ptx_path + ": " + why);
}

int dump_opencl(const DumpOptions& opts) {
  // The driver's compute cache on, in a folder of its own, before OpenCL is
  // first used: the cubins its JIT makes land there, one new entry per build
  // (the folder starts empty, so each build is compiled afresh and its log
  // carries ptxas' -cl-nv-verbose report).
  const JitCacheFolder cache(opts.jit_cache);
  setenv("CUDA_CACHE_DISABLE", "0", 1);
  setenv("CUDA_CACHE_PATH", cache.path().c_str(), 1);
  auto api = opencl::make_api();
  Options o;
  o.cl_platform = opts.cl_platform;
  o.cl_device = opts.cl_device;
  o.cl_build_options = opts.cl_build_options;
  api->select(o);
  if (!api->unavailable().empty()) throw UsageError(api->unavailable());
  opencl::Session& session = opencl::session();
  const auto dumped = opencl::dump_programs(session, opts.out_dir, opts.variant, cache.path(),
                                            {opts.shard_index, opts.shard_count});
  int failed = 0;
  for (const auto& d : dumped) {
    if (!d.error.empty()) {
      std::cerr << "gpucmp-ptx: error: " << d.spec.workload << "/" << d.spec.variant << ": "
                << d.error << "\n";
      ++failed;
      continue;
    }
    std::cout << d.ptx_path << "\n";
    for (const auto& c : d.jit_cubin_paths) std::cout << c << "\n";
    if (opts.sass) write_sass(d, session.info().driver, opts.ptxas_sass);
  }
  return failed ? kExitFailed : kExitOk;
}

int dump_cuda(const DumpOptions& opts) {
#ifdef GPUCMP_CUDA_DUMP_DIR
  const fs::path from = GPUCMP_CUDA_DUMP_DIR;
  if (!fs::is_directory(from))
    throw UsageError(from.string() +
                     " is missing: build the target ptx-dump first "
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

// The options that only --api opencl reads, as given: refused with --api
// cuda, which copies the build's own dump and would otherwise drop them.
std::vector<std::string> opencl_only_options(const DumpOptions& opts) {
  std::vector<std::string> given;
  if (!opts.cl_build_options.empty()) given.emplace_back("--cl-build-options");
  if (!opts.jit_cache.empty()) given.emplace_back("--jit-cache");
  if (opts.cl_platform >= 0) given.emplace_back("--cl-platform");
  if (opts.cl_device >= 0) given.emplace_back("--cl-device");
  if (opts.shard_count > 1) given.emplace_back("--shard");
  if (!opts.sass) given.emplace_back("--no-sass");
  if (!opts.ptxas_sass) given.emplace_back("--no-ptxas-sass");
  return given;
}

}  // namespace

int run_dump(const DumpOptions& opts) {
  if (opts.api == "cuda") {
    if (const auto given = opencl_only_options(opts); !given.empty())
      throw UsageError("dump --api cuda: " + given.front() +
                       " applies to --api opencl only (--api cuda copies the build's CUDA dump)");
  }
  std::error_code ec;
  if (fs::exists(opts.out_dir, ec) && !fs::is_directory(opts.out_dir, ec))
    throw UsageError("--out " + opts.out_dir + ": not a directory");
  // A usage error (no PTX from this platform, no CUDA dump) leaves behind no
  // empty --out or --jit-cache folder that this run created, nor any missing
  // parent of theirs it created on the way (deepest first).
  std::vector<fs::path> created;
  for (const std::string& dir : {opts.out_dir, opts.jit_cache}) {
    if (dir.empty()) continue;
    for (fs::path p = fs::absolute(dir, ec).lexically_normal(); !p.empty() && !fs::exists(p, ec);
         p = p.parent_path()) {
      created.push_back(p);
      if (p == p.parent_path()) break;
    }
  }
  std::sort(created.begin(), created.end(), [](const fs::path& a, const fs::path& b) {
    return a.string().size() > b.string().size();  // children before their parents
  });
  try {
    return opts.api == "opencl" ? dump_opencl(opts) : dump_cuda(opts);
  } catch (const UsageError&) {
    for (const fs::path& dir : created)
      if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) fs::remove(dir, ec);
    throw;
  }
}

}  // namespace gpucmp::ptxtool
