// gpucmp-bench's own options (Google Benchmark's --benchmark_* are parsed by it).
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "split_options.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

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
// max_samples were taken, whichever comes first. fixed = 0 means --samples was
// not given: a user's --samples 0 is refused when parsed.
struct SamplingRule {
  int fixed = 0;
  int min_samples = 10;
  int max_samples = 10000;
  double max_noise = 0.01;    // coefficient of variation (stddev / mean)
  double time_limit_s = 1.0;  // per benchmark
};

// The device indices are -1 when not given: the parser refuses negative values,
// so -1 never comes from the user.
struct Options {
  bool list_devices = false;
  int cuda_device = -1;  // -1: not given (device 0)
  int cl_platform = -1;  // -1: the default choice (NVIDIA if present, else the first)
  int cl_device = -1;
  SizePreset size = SizePreset::standard;
  std::string cl_kernel_dir;          // read .cl files from here instead of the embedded copies
  std::string cl_build_options;       // added to every OpenCL build (--cl-build-options)
  bool cl_args_every_launch = false;  // --cl-kernel-args every: set before each launch
  double batch_target_ms = 20;        // launches per timed sample are chosen to last about this
  SamplingRule sampling;
  CacheMode cache = CacheMode::hot;
  bool startup = true;       // register the startup/ benchmarks (compile + first launch)
  bool launch_floor = true;  // probe the launch floor before each hot row (launch_floor.h)
  int startup_samples = 5;   // fresh builds / context starts per startup benchmark
  bool progress = true;      // one progress line per benchmark on stderr
  bool launch_gaps = false;  // time each launch too: launch_us, launch_gap_us (runner.h)
  bool tune = false;         // add each API's best row per workload family (tune.h)
  // Google Benchmark's --benchmark_repetitions and random interleaving, as
  // given: a row's repetitions run back to back unless interleaved (measure.h,
  // RowSetup).
  int repetitions = 1;
  bool interleaved = false;
  SplitOptions split;  // multi-device rows (split_options.h)
};

// Adds gpucmp's options to `app`, writing into `opts`.
void add_common_options(CLI::App& app, Options& opts);

// Parses a byte count such as 4096, 64K, 16MiB, 1G (binary multiples); throws
// UsageError naming `what` for anything else, zero or negative.
long long parse_bytes(const std::string& text, const std::string& what);

// ---- values checked when they are parsed -----------------------------------
// Every bad value (0, negative, not a number, too large for any type) gets one
// line naming the option, the text and the rule, e.g. "--samples 0: must be in
// 1..100000". (CLI11's own range checks print their bounds as doubles, the
// missing upper bound as 1.79e308, and take "nan" for a number.)

constexpr long long kNoUpperBound = std::numeric_limits<long long>::max();

struct IntRange {
  long long lo = 0, hi = kNoUpperBound;
  long long multiple_of = 1;
};
// A whole number (decimal, optional sign) in `range`; throws UsageError
// "<what> <text>: ..." otherwise.
long long parse_int(const std::string& text, const std::string& what, const IntRange& range);

// A power of two in 2^lo_log2..2^hi_log2; throws UsageError "<what> <text>:
// must be a power of two in <lo>..<hi>" for every bad value (one rule, so the
// line always states it whole).
long long parse_power_of_two(const std::string& text, const std::string& what, int lo_log2,
                             int hi_log2);

struct RealRange {
  double lo = 0;
  bool lo_open = false;  // true: lo itself is refused ("must be > lo")
  double hi = std::numeric_limits<double>::max();
};
// A finite real number in `range`; throws UsageError "<what> <text>: ..." otherwise.
double parse_real(const std::string& text, const std::string& what, const RealRange& range);

// Adds option `name` (e.g. "--cp-grid") whose text `store` parses and keeps
// when CLI11 parses the command line: a UsageError that `store` throws
// becomes a CLI::ValidationError with the same one line.
CLI::Option* add_checked_option(CLI::App& app, const std::string& name,
                                std::function<void(const std::string&)> store,
                                const std::string& help);
// The same for a comma-separated list (e.g. --mm-n 256,512). An empty item
// ("256,,512", "256,", '') is refused, and so is an item given twice
// ("int32,int32": two rows of one name), unless `repeats` allows it (a list
// of devices that may name one device twice).
enum class Repeats { refused, allowed };
CLI::Option* add_checked_list_option(CLI::App& app, const std::string& name,
                                     std::function<void(const std::vector<std::string>&)> store,
                                     const std::string& help, Repeats repeats = Repeats::refused);

// --cl-build-options (gpucmp-bench and gpucmp-ptx dump): added to every
// OpenCL build; blank text is refused ("--cl-build-options: empty").
CLI::Option* add_cl_build_options(CLI::App& app, std::string& target, const std::string& help);

// A list option whose items are each one of two words, kept in order as
// true for `yes` and false for `no` (e.g. --scan-poll wait,spin); any other
// item is refused: "<name> <item>: not a <what> (<no>, <yes>)".
CLI::Option* add_two_word_list_option(CLI::App& app, const std::string& name, const std::string& no,
                                      const std::string& yes, const std::string& what,
                                      std::vector<bool>& target, const std::string& help);

// Options given that would have no effect in this run are refused, as an
// unknown device is: "--max-noise: no effect with --samples (...)". Checked
// once the command line is parsed.
void check_no_effect_options(const CLI::App& app, const Options& opts);

// A path option (e.g. "-o,--out"): a given empty path is refused ("--out:
// empty path"), not taken for "not given".
CLI::Option* add_path_option(CLI::App& app, const std::string& name, std::string& target,
                             const std::string& help);

// Paths the user names: each throws UsageError "<what> <path>: <why>" (no
// such file or directory, is a directory, not a regular file, permission
// denied, empty path) when the path cannot serve.
void check_directory(const std::string& path, const std::string& what);
// A directory this process may create files in.
void check_output_directory(const std::string& path, const std::string& what);
// A file to read: an existing regular file (not a folder, FIFO or device,
// which would report a bogus size or block) that this process may open.
void check_input_file(const std::string& path, const std::string& what);
// A file to write later: not a folder, and a new or regular file in an
// existing folder this process may write into, or a device (/dev/null).
void check_output_file(const std::string& path, const std::string& what);

// The reasons behind the last two, "" when the path can serve.
std::string why_not_input_file(const std::string& path);
std::string why_not_output_file(const std::string& path);

}  // namespace gpucmp
