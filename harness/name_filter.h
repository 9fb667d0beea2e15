// The --benchmark_filter of a run, matched the way Google Benchmark matches it.
//
// Google Benchmark is built with POSIX regular expressions (regcomp/regexec,
// REG_EXTENDED; scripts/cmake/GoogleBenchmark.cmake), not std::regex, whose
// backtracking engine takes exponential time on filters such as "(.*)*x".
// gpucmp validates the filter and counts the rows it selects (progress lines,
// "matches nothing") with the same engine, so that the count and Google
// Benchmark's selection never differ and no filter hangs the run.
#pragma once

#include <regex.h>

#include <string>
#include <vector>

namespace gpucmp {

class NameFilter {
 public:
  // A leading '-' negates (Google Benchmark's rule); "" and "all" select every
  // name. Throws UsageError naming the filter when it is not a valid POSIX
  // extended regular expression.
  explicit NameFilter(const std::string& filter);
  ~NameFilter();
  NameFilter(const NameFilter&) = delete;
  NameFilter& operator=(const NameFilter&) = delete;

  bool selects(const std::string& name) const;
  int count(const std::vector<std::string>& names) const;

 private:
  regex_t re_{};
  bool compiled_ = false;
  bool negate_ = false;
};

}  // namespace gpucmp
