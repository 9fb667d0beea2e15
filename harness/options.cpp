#include "options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "errors.h"

namespace gpucmp {

const char* to_string(SizePreset s) {
  switch (s) {
    case SizePreset::quick:
      return "quick";
    case SizePreset::standard:
      return "standard";
    case SizePreset::large:
      return "large";
  }
  return "?";
}

const char* to_string(CacheMode m) { return m == CacheMode::hot ? "hot" : "cold"; }

namespace {

// Stores an index option: 0 and above (no upper bound: the API says which exist).
std::function<void(const std::string&)> index_into(int& target, const std::string& name) {
  return [&target, name](const std::string& text) {
    target = int(parse_int(text, name, {0, std::numeric_limits<int>::max()}));
  };
}

std::function<void(const std::string&)> int_into(int& target, const std::string& name,
                                                 IntRange range) {
  return [&target, name, range](const std::string& text) {
    target = int(parse_int(text, name, range));
  };
}

std::function<void(const std::string&)> real_into(double& target, const std::string& name,
                                                  RealRange range, double scale = 1) {
  return [&target, name, range, scale](const std::string& text) {
    target = parse_real(text, name, range) * scale;
  };
}

}  // namespace

void add_common_options(CLI::App& app, Options& opts) {
  app.add_flag("--list-devices", opts.list_devices,
               "List every CUDA device and every OpenCL platform/device, then exit");
  add_checked_option(app, "--cuda-device", index_into(opts.cuda_device, "--cuda-device"),
                     "CUDA device index")
      ->type_name("INT");
  add_checked_option(app, "--cl-platform", index_into(opts.cl_platform, "--cl-platform"),
                     "OpenCL platform index")
      ->type_name("INT");
  add_checked_option(app, "--cl-device", index_into(opts.cl_device, "--cl-device"),
                     "OpenCL device index within the platform")
      ->type_name("INT");
  app.add_option_function<std::string>(
         "--size",
         [&opts](const std::string& name) {
           opts.size = name == "quick"   ? SizePreset::quick
                       : name == "large" ? SizePreset::large
                                         : SizePreset::standard;
         },
         "Size preset (default standard)")
      ->check(CLI::IsMember({"quick", "standard", "large"}))
      ->type_name("quick|standard|large");
  add_checked_option(
      app, "--cl-kernel-dir",
      [&opts](const std::string& dir) {
        check_directory(dir, "--cl-kernel-dir");
        opts.cl_kernel_dir = dir;
      },
      "Read OpenCL kernels (.cl) from this folder instead of the embedded copies")
      ->type_name("DIR");
  add_cl_build_options(
      app, opts.cl_build_options,
      "Added to every OpenCL program's build (from source and from PTX), after its own options, "
      "for a cross-run (e.g. -cl-nv-maxrregcount=40); refused when the OpenCL compiler refuses "
      "them; the JSON context says them (opencl.user_build_options). CUDA rows are unchanged");
  add_checked_option(
      app, "--cl-kernel-args",
      [&opts](const std::string& mode) {
        if (mode != "changed" && mode != "every")
          throw UsageError("--cl-kernel-args " + mode + ": not a mode (changed, every)");
        opts.cl_args_every_launch = mode == "every";
      },
      "When OpenCL rows set their kernels' arguments: changed (default: only an argument that "
      "differs from the one the kernel holds, as an OpenCL program at its best) or every (all of "
      "them before every launch, as CUDA passes them: the cross-run that prices the setting); "
      "the JSON context says it (opencl.kernel_args). CUDA rows are unchanged")
      ->type_name("MODE");
  add_split_options(app, opts.split);
  app.add_flag("--launch-gaps", opts.launch_gaps,
               "Also time each launch of a timed batch (CUDA: events around it; OpenCL: its "
               "commands' profiling) and report launch_us and launch_gap_us, the device time "
               "between launches per launch");
  app.add_flag("--tune", opts.tune,
               "Also register, per workload, API and problem, a row <workload>/<api>/best/... "
               "that times each of the workload's interchangeable rows briefly (its own source "
               "forms and launch choices, same math; never cross-runs, controls or vendor "
               "libraries) and measures the fastest; its label says the choice")
      ->disable_flag_override();  // --tune=VALUE is refused (exit 2): it takes none
  add_checked_option(app, "--batch-ms",
                     real_into(opts.batch_target_ms, "--batch-ms", {0, true, 60000}),
                     "Target duration of one timed batch of launches, in ms (> 0, <= 60000)")
      ->type_name("MS");
  add_checked_option(app, "--samples", int_into(opts.sampling.fixed, "--samples", {1, 100000}),
                     "Exactly this many timed samples per benchmark (1..100000), instead of "
                     "sampling to --max-noise; use --benchmark_repetitions for independent "
                     "repeats")
      ->type_name("N");
  add_checked_option(app, "--min-samples",
                     int_into(opts.sampling.min_samples, "--min-samples", {2, 10000}),
                     "Timed samples before the noise target may stop sampling (2..10000, "
                     "default 10)")
      ->type_name("N");
  add_checked_option(app, "--max-noise",
                     real_into(opts.sampling.max_noise, "--max-noise", {0.001, false, 100}, 0.01),
                     "Sample until the relative standard deviation is at most this, in % "
                     "(0.001..100, default 1)")
      ->type_name("PCT");
  add_checked_option(app, "--time-limit",
                     real_into(opts.sampling.time_limit_s, "--time-limit", {0.001, false, 3600}),
                     "Seconds of sampling per benchmark after which --max-noise is given up "
                     "(once --min-samples are taken; 0.001..3600, default 1)")
      ->type_name("S");
  app.add_option_function<std::string>(
         "--cache",
         [&opts](const std::string& m) {
           opts.cache = m == "cold" ? CacheMode::cold : CacheMode::hot;
         },
         "hot: batches of launches, caches warm (default); cold: one launch per sample, "
         "L2 flushed before each")
      ->check(CLI::IsMember({"hot", "cold"}))
      ->type_name("hot|cold");
  app.add_option_function<std::string>(
         "--launch-floor", [&opts](const std::string& v) { opts.launch_floor = v == "on"; },
         "Probe the API's launch floor before each hot row's samples and mark launch-bound "
         "rows (default on); off: no probe kernels run (a profiler then sees the rows' own "
         "kernels first) and no row carries the mark")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  app.add_option_function<std::string>(
         "--startup", [&opts](const std::string& v) { opts.startup = v == "on"; },
         "Register the startup/ benchmarks: program build (OpenCL) or module load (CUDA) "
         "and the first launch, per kernel (default on)")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  add_checked_option(app, "--startup-samples",
                     int_into(opts.startup_samples, "--startup-samples", {1, 1000}),
                     "Fresh builds / context starts per startup benchmark (1..1000, default 5)")
      ->type_name("N");
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
  } catch (const std::out_of_range&) {
    throw UsageError(what + " '" + text + "': too large");
  } catch (const std::exception&) {
    throw UsageError(what + " '" + text + "': not a byte count (e.g. 4096, 64K, 16M, 1G)");
  }
  std::string suffix = text.substr(pos);
  for (auto& c : suffix) c = char(std::toupper(static_cast<unsigned char>(c)));
  static const std::map<std::string, long long> scale = {
      {"", 1},          {"B", 1},           {"K", 1LL << 10}, {"KIB", 1LL << 10},
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

// ---- values checked when they are parsed ------------------------------------

namespace {

// The int types' own limit is no rule worth stating: "must be >= 0" reads
// better than "must be in 0..2147483647" (a too-large value says so apart).
bool unbounded(const IntRange& r) {
  return r.hi == kNoUpperBound || r.hi == std::numeric_limits<int>::max();
}

std::string rule_of(const IntRange& r) {
  const std::string step =
      r.multiple_of > 1 ? "a multiple of " + std::to_string(r.multiple_of) + " " : "";
  if (unbounded(r)) return "must be " + step + ">= " + std::to_string(r.lo);
  return "must be " + step + "in " + std::to_string(r.lo) + ".." + std::to_string(r.hi);
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string rule_of(const RealRange& r) {
  const bool bounded = r.hi < std::numeric_limits<double>::max();
  if (!r.lo_open && bounded) return "must be in " + number_text(r.lo) + ".." + number_text(r.hi);
  return std::string("must be ") + (r.lo_open ? "> " : ">= ") + number_text(r.lo) +
         (bounded ? " and <= " + number_text(r.hi) : "");
}

// strtoll/strtod skip leading blanks and stop at the first character they do
// not take: the whole text must be the number.
bool whole_number_text(const std::string& text, const char* end) {
  return !text.empty() && !std::isspace(static_cast<unsigned char>(text[0])) &&
         end == text.c_str() + text.size();
}

}  // namespace

long long parse_int(const std::string& text, const std::string& what, const IntRange& range) {
  const std::string where = what + " " + text + ": ";
  const std::string rule = rule_of(range);
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (!whole_number_text(text, end)) throw UsageError(where + "not a whole number (" + rule + ")");
  // ERANGE: beyond long long, so beyond any range too.
  const bool too_large = (errno == ERANGE && value > 0) || value > range.hi;
  if (too_large && unbounded(range))
    throw UsageError(where + "too large (at most " + std::to_string(range.hi) + ")");
  if (too_large || errno == ERANGE || value < range.lo || value % range.multiple_of != 0)
    throw UsageError(where + rule);
  return value;
}

long long parse_power_of_two(const std::string& text, const std::string& what, int lo_log2,
                             int hi_log2) {
  const long long lo = 1LL << lo_log2, hi = 1LL << hi_log2;
  long long v = 0;
  try {
    v = parse_int(text, what, {lo, hi});
  } catch (const UsageError&) {
    v = 0;
  }
  if (v == 0 || (v & (v - 1)) != 0)
    throw UsageError(what + " " + text + ": must be a power of two in " + std::to_string(lo) +
                     ".." + std::to_string(hi));
  return v;
}

double parse_real(const std::string& text, const std::string& what, const RealRange& range) {
  const std::string where = what + " " + text + ": ";
  const std::string rule = rule_of(range);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (!whole_number_text(text, end) || std::isnan(value))
    throw UsageError(where + "not a number (" + rule + ")");
  // strtod returns +-HUGE_VAL (inf) for text beyond double: out of range too.
  if (value < range.lo || (range.lo_open && value == range.lo) || !(value <= range.hi))
    throw UsageError(where + rule);
  return value;
}

CLI::Option* add_checked_option(CLI::App& app, const std::string& name,
                                std::function<void(const std::string&)> store,
                                const std::string& help) {
  return app.add_option_function<std::string>(
      name,
      [store = std::move(store)](const std::string& text) {
        try {
          store(text);
        } catch (const UsageError& e) {
          throw CLI::ValidationError(e.what());
        }
      },
      help);
}

namespace {

// The items of a list option's arguments (each split at its commas): an
// empty item or, unless `repeats` allows it, an item given twice is refused.
// (CLI11's own delimiter drops empty items without a word.)
std::vector<std::string> list_items(const std::string& name, const std::vector<std::string>& args,
                                    Repeats repeats) {
  std::vector<std::string> items;
  for (const std::string& arg : args) {
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = arg.find(',', start);
      std::string item = arg.substr(start, comma == std::string::npos ? comma : comma - start);
      if (item.empty())
        throw UsageError(name + " '" + arg + "': an empty item (comma-separated, none empty)");
      if (repeats == Repeats::refused && std::find(items.begin(), items.end(), item) != items.end())
        throw UsageError(name + " " + item + ": given twice (each item gives its own rows)");
      items.push_back(std::move(item));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return items;
}

}  // namespace

CLI::Option* add_checked_list_option(CLI::App& app, const std::string& name,
                                     std::function<void(const std::vector<std::string>&)> store,
                                     const std::string& help, Repeats repeats) {
  // No CLI11 delimiter: the arguments reach list_items() whole, empty items
  // included.
  return app.add_option_function<std::vector<std::string>>(
      name,
      [name, repeats, store = std::move(store)](const std::vector<std::string>& args) {
        try {
          store(list_items(name, args, repeats));
        } catch (const UsageError& e) {
          throw CLI::ValidationError(e.what());
        }
      },
      help);
}

CLI::Option* add_cl_build_options(CLI::App& app, std::string& target, const std::string& help) {
  return add_checked_option(
             app, "--cl-build-options",
             [&target](const std::string& text) {
               if (text.find_first_not_of(' ') == std::string::npos)
                 throw UsageError(
                     "--cl-build-options: empty (give the options, e.g. "
                     "-cl-nv-maxrregcount=40)");
               target = text;
             },
             help)
      ->type_name("OPTS");
}

CLI::Option* add_two_word_list_option(CLI::App& app, const std::string& name, const std::string& no,
                                      const std::string& yes, const std::string& what,
                                      std::vector<bool>& target, const std::string& help) {
  return add_checked_list_option(
             app, name,
             [=, &target](const std::vector<std::string>& items) {
               for (const auto& text : items) {
                 if (text != no && text != yes)
                   throw UsageError(name + " " + text + ": not a " + what + " (" + no + ", " + yes +
                                    ")");
                 target.push_back(text == yes);
               }
             },
             help)
      ->type_name("LIST");
}

void check_no_effect_options(const CLI::App& app, const Options& opts) {
  if (opts.sampling.fixed > 0)
    for (const char* adaptive : {"--max-noise", "--min-samples", "--time-limit"})
      if (app.count(adaptive) > 0)
        throw UsageError(std::string(adaptive) + ": no effect with --samples " +
                         std::to_string(opts.sampling.fixed) +
                         " (a fixed number of samples; give one or the other)");
  if (!opts.startup && app.count("--startup-samples") > 0)
    throw UsageError("--startup-samples: no effect with --startup off");
}

}  // namespace gpucmp
