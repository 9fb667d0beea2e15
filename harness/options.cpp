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
  app.add_option("--samples", opts.samples,
                 "Timed samples per benchmark (each a batch of --batch-ms); use "
                 "--benchmark_repetitions for independent repeats")
      ->check(CLI::Range(1, 100000));
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
