#include "gbench_flag_values.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "errors.h"
#include "options.h"

namespace gpucmp {

namespace {

using Check = std::function<void(const std::string& flag, const std::string& value)>;

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

[[noreturn]] void refuse(const std::string& flag, const std::string& value,
                         const std::string& why) {
  throw UsageError("--" + flag + "=" + value + ": " + why);
}

Check one_of(std::vector<std::string> allowed) {
  return [allowed = std::move(allowed)](const std::string& flag, const std::string& value) {
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    refuse(flag, value, "must be one of " + list);
  };
}

// Google Benchmark's boolean flags take any word; these are the ones that
// read as what they say.
const std::vector<std::string>& bool_words() {
  static const std::vector<std::string> words = {"true", "false", "yes", "no",
                                                 "on",   "off",   "1",   "0"};
  return words;
}

void boolean(const std::string& flag, const std::string& value) {
  if (std::find(bool_words().begin(), bool_words().end(), lower(value)) == bool_words().end())
    refuse(flag, value, "must be true, false, yes, no, on, off, 1 or 0");
}

void color(const std::string& flag, const std::string& value) {
  if (lower(value) != "auto") boolean(flag, value);
}

Check whole(long long lo, long long hi) {
  return [lo, hi](const std::string& flag, const std::string& value) {
    try {
      parse_int(value, "--" + flag + "=" + value, {lo, hi});
    } catch (const UsageError&) {
      refuse(flag, value,
             "must be a whole number in " + std::to_string(lo) + ".." + std::to_string(hi));
    }
  };
}

// Google Benchmark's warm-up reruns a benchmark until this much of its
// (manual) time has passed: with gpucmp's microseconds a launch that is
// thousands of whole reruns, setup and validation each. Only 0 is taken.
void warmup_time(const std::string& flag, const std::string& value) {
  double seconds = -1;
  try {
    seconds = parse_real(value, "", {0, false, 1e9});
  } catch (const UsageError&) {
    refuse(flag, value, "must be a number of seconds");
  }
  if (seconds != 0)
    refuse(flag, value,
           "only 0: Google Benchmark's warm-up would rerun each benchmark whole (setup and "
           "validation) until that much launch time had passed; gpucmp-bench warms up itself "
           "(a first launch and a warm-up batch before the samples)");
}

// --benchmark_dry_run: Google Benchmark's own one-iteration pass; gpucmp's
// benchmarks sample by their own protocol and would ignore it.
void dry_run(const std::string& flag, const std::string& value) {
  refuse(flag, value,
         "not supported by gpucmp-bench (for a fast pass: --size quick --samples 2 "
         "--startup off)");
}

// Google Benchmark 1.7 takes seconds as a number; 1.8 also "<seconds>s" and
// "<iterations>x". Valid or not, it changes nothing in gpucmp-bench.
void min_time(const std::string& flag, const std::string& value) {
#ifdef GPUCMP_HAVE_SKIP_MESSAGE  // Google Benchmark 1.8 or later
  const std::string form = "a number of seconds (2, 2s) or of iterations (100x), > 0";
  std::string number = value;
  if (!number.empty() && (number.back() == 's' || number.back() == 'x')) number.pop_back();
  const bool iterations = !value.empty() && value.back() == 'x';
#else
  const std::string form = "a number of seconds, > 0";
  const std::string& number = value;
  const bool iterations = false;
#endif
  try {
    if (iterations)
      parse_int(number, "", {1, kNoUpperBound});
    else
      parse_real(number, "", {0, true, 1e9});
  } catch (const UsageError&) {
    refuse(flag, value, "must be " + form);
  }
  refuse(flag, value,
         "no effect in gpucmp-bench: each benchmark is one iteration that samples until "
         "--samples, --max-noise or --time-limit says stop");
}

// key=value pairs, comma-separated, each key once.
void context(const std::string& flag, const std::string& value) {
  std::set<std::string> keys;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = value.find(',', start);
    const std::string pair =
        value.substr(start, comma == std::string::npos ? comma : comma - start);
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || pair.find('=', eq + 1) != std::string::npos)
      refuse(flag, value, "must be KEY=VALUE pairs, comma-separated ('" + pair + "' is not one)");
    if (!keys.insert(pair.substr(0, eq)).second)
      refuse(flag, value, "the key " + pair.substr(0, eq) + " is given twice");
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

// Names, comma-separated, none empty or repeated.
void name_list(const std::string& flag, const std::string& value) {
  std::set<std::string> seen;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = value.find(',', start);
    const std::string item =
        value.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.empty()) refuse(flag, value, "an empty item (comma-separated, none empty)");
    if (!seen.insert(item).second) refuse(flag, value, item + " given twice");
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

void nonempty(const std::string& flag, const std::string& value) {
  if (value.empty()) refuse(flag, value, "empty path");
}

void any(const std::string&, const std::string&) {}

struct Flag {
  bool is_bool = false;  // may stand alone ("--benchmark_list_tests" means true)
  Check check;
};

const std::map<std::string, Flag>& flags() {
  static const std::map<std::string, Flag> table = {
      {"benchmark_list_tests", {true, boolean}},
      {"benchmark_filter", {false, any}},  // check_filter() (gbench_flags.h)
      {"benchmark_min_time", {false, min_time}},
      {"benchmark_min_warmup_time", {false, warmup_time}},
      {"benchmark_dry_run", {true, dry_run}},
      {"benchmark_repetitions", {false, whole(1, 100000)}},
      {"benchmark_enable_random_interleaving", {true, boolean}},
      {"benchmark_report_aggregates_only", {true, boolean}},
      {"benchmark_display_aggregates_only", {true, boolean}},
      {"benchmark_format", {false, one_of({"console", "json", "csv"})}},
      {"benchmark_out_format", {false, one_of({"json", "console", "csv"})}},
      {"benchmark_out", {false, nonempty}},
      {"benchmark_color", {true, color}},
      {"benchmark_counters_tabular", {true, boolean}},
      {"benchmark_perf_counters", {false, name_list}},
      {"benchmark_context", {false, context}},
      {"benchmark_time_unit", {false, one_of({"ns", "us", "ms", "s"})}},
      {"v", {false, whole(0, 1000)}},
  };
  return table;
}

}  // namespace

void check_gbench_flags(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    // After "--" Google Benchmark still reads its flags, unchecked: refused.
    if (arg == "--")
      throw UsageError(
          "--: gpucmp-bench takes no arguments after '--' (give options before it, or none)");
    if (arg.rfind("--benchmark_", 0) != 0 && arg.rfind("--v=", 0) != 0 && arg != "--v") continue;
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
    const auto it = flags().find(name);
    if (it == flags().end())
      throw UsageError("--" + name + ": not a Google Benchmark option (see --help)");
    if (eq == std::string::npos) {
      if (!it->second.is_bool)
        throw UsageError("--" + name + ": needs a value (--" + name + "=...)");
      it->second.check(name, "true");  // standing alone: true
      continue;
    }
    it->second.check(name, arg.substr(eq + 1));
  }
  // Google Benchmark reads these when the flag is not given.
  for (const auto& [env, flag] : {std::pair{"BENCHMARK_FORMAT", "benchmark_format"},
                                  std::pair{"BENCHMARK_OUT_FORMAT", "benchmark_out_format"}}) {
    const char* value = std::getenv(env);
    bool given = false;
    for (int i = 1; i < argc; ++i)
      given = given || std::string(argv[i]).rfind(std::string("--") + flag + "=", 0) == 0;
    if (!value || given) continue;
    try {
      flags().at(flag).check(flag, value);
    } catch (const UsageError& e) {
      throw UsageError(std::string(env) + "=" + value + " (environment): " +
                       std::string(e.what()).substr(std::string(e.what()).find(": ") + 2));
    }
  }
}

}  // namespace gpucmp
