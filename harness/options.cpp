#include "options.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <limits>
#include <map>
#include <string>

#include "errors.h"

namespace gpucmp {

const char* to_string(SizePreset s) {
  switch (s) {
    case SizePreset::quick: return "quick";
    case SizePreset::standard: return "standard";
    case SizePreset::large: return "large";
  }
  return "?";
}

const char* to_string(CacheMode m) { return m == CacheMode::hot ? "hot" : "cold"; }

void add_common_options(CLI::App& app, Options& opts) {
  app.add_flag("--list-devices", opts.list_devices,
               "List every CUDA device and every OpenCL platform/device, then exit");
  app.add_option("--cuda-device", opts.cuda_device, "CUDA device index")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--cl-platform", opts.cl_platform, "OpenCL platform index")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--cl-device", opts.cl_device, "OpenCL device index within the platform")
      ->check(CLI::NonNegativeNumber);
  app.add_option_function<std::string>(
         "--size",
         [&opts](const std::string& name) {
           opts.size = name == "quick" ? SizePreset::quick
                       : name == "large" ? SizePreset::large
                                         : SizePreset::standard;
         },
         "Size preset (default standard)")
      ->check(CLI::IsMember({"quick", "standard", "large"}))
      ->type_name("quick|standard|large");
  app.add_option("--cl-kernel-dir", opts.cl_kernel_dir,
                 "Read OpenCL kernels (.cl) from this folder instead of the embedded copies")
      ->check(CLI::ExistingDirectory);
  app.add_option("--batch-ms", opts.batch_target_ms,
                 "Target duration of one timed batch of launches, in ms")
      ->check(CLI::PositiveNumber);
  app.add_option("--samples", opts.sampling.fixed,
                 "Exactly this many timed samples per benchmark, instead of sampling to "
                 "--max-noise; use --benchmark_repetitions for independent repeats")
      ->check(CLI::Range(1, 100000));
  app.add_option("--min-samples", opts.sampling.min_samples,
                 "Timed samples before the noise target may stop sampling (default 10)")
      ->check(CLI::Range(2, 10000));
  app.add_option_function<double>(
         "--max-noise", [&opts](double pct) { opts.sampling.max_noise = pct / 100; },
         "Sample until the relative standard deviation is at most this, in % (default 1)")
      ->check(CLI::Range(0.001, 100.0));
  app.add_option("--time-limit", opts.sampling.time_limit_s,
                 "Seconds of sampling per benchmark after which --max-noise is given up "
                 "(once --min-samples are taken; default 1)")
      ->check(CLI::Range(0.001, 3600.0));
  app.add_option_function<std::string>(
         "--cache",
         [&opts](const std::string& m) { opts.cache = m == "cold" ? CacheMode::cold : CacheMode::hot; },
         "hot: batches of launches, caches warm (default); cold: one launch per sample, "
         "L2 flushed before each")
      ->check(CLI::IsMember({"hot", "cold"}))
      ->type_name("hot|cold");
  app.add_option_function<std::string>(
         "--startup", [&opts](const std::string& v) { opts.startup = v == "on"; },
         "Register the startup/ benchmarks: program build (OpenCL) or module load (CUDA) "
         "and the first launch, per kernel (default on)")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  app.add_option("--startup-samples", opts.startup_samples,
                 "Fresh builds / context starts per startup benchmark (default 5)")
      ->check(CLI::Range(1, 1000));
  app.add_option_function<std::string>(
         "--progress", [&opts](const std::string& v) { opts.progress = v == "on"; },
         "One progress line per benchmark on stderr (default on)")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
}

long long parse_bytes(const std::string& text, const std::string& what) {
  std::size_t pos = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &pos);
  } catch (const std::exception&) {
    throw UsageError(what + " '" + text + "': not a byte count (e.g. 4096, 64K, 16M, 1G)");
  }
  std::string suffix = text.substr(pos);
  for (auto& c : suffix) c = char(std::toupper(static_cast<unsigned char>(c)));
  static const std::map<std::string, long long> scale = {
      {"", 1},          {"B", 1},          {"K", 1LL << 10}, {"KIB", 1LL << 10},
      {"M", 1LL << 20}, {"MIB", 1LL << 20}, {"G", 1LL << 30}, {"GIB", 1LL << 30}};
  const auto it = scale.find(suffix);
  if (it == scale.end())
    throw UsageError(what + " '" + text + "': unknown unit '" + text.substr(pos) +
                     "' (use K, M or G)");
  if (value <= 0) throw UsageError(what + " '" + text + "': must be positive");
  if (value > std::numeric_limits<long long>::max() / it->second)
    throw UsageError(what + " '" + text + "': too large");
  return value * it->second;
}

}  // namespace gpucmp
