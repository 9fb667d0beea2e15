// gpucmp-ptx cache-sass: the cubins a driver JIT left in a compute-cache folder
// (CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH=<dir>), each written with its SASS.
// How the SASS of CUDA's own JIT is read: run gpucmp-bench's -opencl-ptx or
// -ptx-jit rows (or any CUDA row under CUDA_FORCE_PTX_JIT=1) with a private
// cache folder, then `gpucmp-ptx cache-sass --cache DIR --out OUT`.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace gpucmp::ptxtool {

struct CacheOptions {
  std::string cache_dir;
  std::string out_dir;
  std::string label;  // what filled the cache, for the SASS files' first line
};

void add_cache_command(CLI::App& app, CacheOptions& opts);
int run_cache(const CacheOptions& opts);  // exit code

}  // namespace gpucmp::ptxtool
