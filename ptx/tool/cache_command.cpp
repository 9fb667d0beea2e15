#include "cache_command.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "errors.h"
#include "options.h"
#include "ptx/jit_cache.h"
#include "toolkit.h"

namespace gpucmp::ptxtool {

namespace fs = std::filesystem;

void add_cache_command(CLI::App& app, CacheOptions& opts) {
  auto* cmd = app.add_subcommand("cache-sass",
                                 "Write every cubin of a driver compute-cache folder and its SASS "
                                 "(<first kernel>.cubin, .sass whose first line names the source)");
  add_path_option(*cmd, "--cache", opts.cache_dir,
                  "The compute-cache folder (CUDA_CACHE_PATH of a run)")
      ->required();
  add_path_option(*cmd, "--out", opts.out_dir, "Output folder")->required();
  cmd->add_option("--label", opts.label,
                  "What filled the cache, e.g. 'CUDA, driver 580.159.04, gpucmp-bench "
                  "matrixMul/cuda/tile16-opencl-ptx'")
      ->required();
}

int run_cache(const CacheOptions& opts) {
  std::error_code ec;
  if (fs::exists(opts.out_dir, ec) && !fs::is_directory(opts.out_dir, ec))
    throw UsageError("--out " + opts.out_dir + ": not a directory");
  std::vector<ptx::CacheCubin> cubins;
  try {
    cubins = ptx::cubins_in_cache(opts.cache_dir);
  } catch (const ptx::JitCacheError& e) {
    throw UsageError(e.what());
  }
  if (cubins.empty())
    throw UsageError(opts.cache_dir + " holds no cubin: was the run's CUDA_CACHE_DISABLE 0?");
  fs::create_directories(opts.out_dir);
  std::map<std::string, int> seen;  // the same first kernel in several cubins
  int failed = 0;
  for (const auto& c : cubins) {
    std::string stem = c.kernels.empty() ? "cubin" : c.kernels.front();
    if (const int n = seen[stem]++) stem += "-" + std::to_string(n + 1);
    const fs::path cubin = fs::path(opts.out_dir) / (stem + ".cubin");
    std::ofstream(cubin, std::ios::binary) << c.elf;
    const std::string sass = (fs::path(opts.out_dir) / (stem + ".sass")).string();
    const std::string why =
        sass_of_cubins({cubin.string()}, sass,
                       "// SASS: driver JIT (" + opts.label + "), cubin from the compute cache");
    std::cout << cubin.string() << " (sm_" << c.sm << ", " << c.kernels.size() << " kernels)\n";
    if (why.empty()) {
      std::cout << sass << "\n";
    } else {
      std::cerr << "gpucmp-ptx: note: no SASS for " << cubin.string() << ": " << why << "\n";
      ++failed;
    }
  }
  return failed ? kExitFailed : kExitOk;
}

}  // namespace gpucmp::ptxtool
