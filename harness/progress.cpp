#include "progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "errors.h"
#include "interrupt.h"
#include "name_filter.h"

namespace gpucmp {

namespace {
struct Plan {
  bool enabled = false;
  int total = -1;  // unknown
  int done = 0;
  std::chrono::steady_clock::time_point start;  // when the plan was made
  std::set<std::string> skipped_apis;
};
Plan& plan() {
  static Plan p;
  return p;
}
}  // namespace

int count_selected(const std::vector<std::string>& names, const std::string& filter) {
  try {
    return NameFilter(filter).count(names);
  } catch (const UsageError&) {
    return -1;
  }
}

void progress_plan(bool enabled, const std::vector<std::string>& names, const std::string& filter,
                   int repetitions, const std::set<std::string>& skipped_apis) {
  Plan& p = plan();
  p.enabled = enabled;
  p.skipped_apis = skipped_apis;
  std::vector<std::string> planned;
  for (const auto& name : names) {
    const auto parsed = parse_bench_name(name);
    if (!parsed || !skipped_apis.count(parsed->api)) planned.push_back(name);
  }
  const int selected = count_selected(planned, filter);
  p.total = selected < 0 ? -1 : selected * std::max(repetitions, 1);
  p.done = 0;
  p.start = std::chrono::steady_clock::now();
}

void progress_step(const BenchName& name) {
  Plan& p = plan();
  if (!p.enabled || interrupt::requested() || p.skipped_apis.count(name.api)) return;
  ++p.done;
  std::cerr << "gpucmp-bench: [" << p.done;
  if (p.total >= p.done) std::cerr << "/" << p.total;
  std::cerr << "] " << name.str();
  if (p.total >= p.done) std::cerr << ", " << (p.total - p.done) << " left";
  // The seconds since the plan: the differences between lines price each row.
  const std::chrono::duration<double> since = std::chrono::steady_clock::now() - p.start;
  char at[32];
  std::snprintf(at, sizeof at, ", at %.1f s", since.count());
  std::cerr << at << std::endl;
}

std::string benchmark_flag(int argc, char** argv, const std::string& flag) {
  const std::string prefix = "--" + flag + "=";
  std::string value;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(prefix, 0) == 0) value = arg.substr(prefix.size());  // the last one wins
  }
  return value;
}

}  // namespace gpucmp
