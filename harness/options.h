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

// hot: batches of back-to-back launches, caches warm (the default);
// cold: one launch per sample, the L2 flushed before each (not timed).
enum class CacheMode { hot, cold };
const char* to_string(CacheMode);

// When sampling stops: after exactly `fixed` samples when fixed > 0; else
// never before `min_samples`, then as soon as the relative standard deviation
// of the samples is <= max_noise, or time_limit_s of sampling have passed, or
// max_samples were taken, whichever comes first.
struct SamplingRule {
  int fixed = 0;
  int min_samples = 10;
  int max_samples = 10000;
  double max_noise = 0.01;     // coefficient of variation (stddev / mean)
  double time_limit_s = 1.0;   // per benchmark
};

struct Options {
  bool list_devices = false;
  int cuda_device = -1;  // -1: not given (device 0)
  int cl_platform = -1;  // -1: the default choice (NVIDIA if present, else the first)
  int cl_device = -1;
  SizePreset size = SizePreset::standard;
  std::string cl_kernel_dir;  // read .cl files from here instead of the embedded copies
  double batch_target_ms = 20;  // launches per timed sample are chosen to last about this
  SamplingRule sampling;
  CacheMode cache = CacheMode::hot;
  bool startup = true;          // register the startup/ benchmarks (compile + first launch)
  int startup_samples = 5;      // fresh builds / context starts per startup benchmark
  bool progress = true;         // one progress line per benchmark on stderr
};

// Adds gpucmp's options to `app`, writing into `opts`.
void add_common_options(CLI::App& app, Options& opts);

// Parses a byte count such as 4096, 64K, 16MiB, 1G (binary multiples); throws
// UsageError naming `what` for anything else, zero or negative.
long long parse_bytes(const std::string& text, const std::string& what);

}  // namespace gpucmp
