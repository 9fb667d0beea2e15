// gpucmp-ptx dump: the PTX (and SASS) of every kernel from either compiler.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace gpucmp::ptxtool {

struct DumpOptions {
  std::string api;  // "opencl" | "cuda"
  std::string out_dir;
  std::string variant;    // substring filter of "workload/variant"
  std::string jit_cache;  // opencl: the compute-cache folder to use and keep ("": a temporary one)
  int cl_platform = -1, cl_device = -1;
  std::string cl_build_options;  // opencl: added to every program's build (a cross-run's)
  bool sass = true;
  bool ptxas_sass = true;  // opencl: also <name>.ptxas.sass (offline ptxas: not what ran)
  // opencl: --shard K/N keeps the K-th of every N programs (K from 1), so that
  // N processes, each with its own compute cache, dump the whole set between them.
  int shard_index = 0, shard_count = 1;
};

void add_dump_command(CLI::App& app, DumpOptions& opts);
int run_dump(const DumpOptions& opts);  // exit code

}  // namespace gpucmp::ptxtool
