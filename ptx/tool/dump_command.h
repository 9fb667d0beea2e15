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
  bool sass = true;
};

void add_dump_command(CLI::App& app, DumpOptions& opts);
int run_dump(const DumpOptions& opts);  // exit code

}  // namespace gpucmp::ptxtool
