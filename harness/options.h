// gpucmp-bench's own options (Google Benchmark's --benchmark_* are parsed by it).
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpucmp {

enum class SizePreset { quick, standard, large };
const char* to_string(SizePreset);

struct Options {
  bool list_devices = false;
  int cuda_device = -1;  // -1: not given (device 0)
  int cl_platform = -1;  // -1: the default choice (NVIDIA if present, else the first)
  int cl_device = -1;
  SizePreset size = SizePreset::standard;
  std::string cl_kernel_dir;  // read .cl files from here instead of the embedded copies
  double batch_target_ms = 20;  // launches per timed sample are chosen to last about this
  int samples = 20;             // timed samples (Google Benchmark iterations) per benchmark
};

// Adds gpucmp's options to `app`, writing into `opts`.
void add_common_options(CLI::App& app, Options& opts);

// Parses a byte count such as 4096, 64K, 16MiB, 1G (binary multiples); throws
// UsageError naming `what` for anything else, zero or negative.
long long parse_bytes(const std::string& text, const std::string& what);

}  // namespace gpucmp
