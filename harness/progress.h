// Progress lines on stderr for long suites ("[12/95] matrixMul/opencl/tile16/
// n:1024, 83 left, at 41.2 s"): stdout stays Google Benchmark's (--benchmark_format=json).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "naming.h"

namespace gpucmp {

// How many runs to expect: the names `filter` selects (Google Benchmark's
// --benchmark_filter: an extended regex, searched; a leading '-' negates;
// empty or "all" selects everything) times `repetitions`, leaving out the
// names of `skipped_apis` (APIs without a device: their benchmarks do nothing
// and get no progress line). Disabled when `enabled` is false.
void progress_plan(bool enabled, const std::vector<std::string>& names, const std::string& filter,
                   int repetitions, const std::set<std::string>& skipped_apis = {});

// How many names `filter` selects; -1 when it is not a valid regex.
int count_selected(const std::vector<std::string>& names, const std::string& filter);

// Prints one line for the run starting now (none after an interrupt, none
// for a benchmark of a skipped API).
void progress_step(const BenchName& name);

// The value of Google Benchmark flag --<flag>=V in argv (empty when absent);
// read before benchmark::Initialize removes it.
std::string benchmark_flag(int argc, char** argv, const std::string& flag);

}  // namespace gpucmp
