// Benchmarks that ran without giving a result: skipped (their API has no
// device here, or the device cannot run the variant: Unavailable) or
// abandoned (the run was interrupted, interrupt.h). run_guarded() records
// them; the reporters (result_reporter.h) leave their runs out of every
// report, so that a JSON report holds measurements and real errors only, and
// list the skipped ones in the JSON context and on stderr instead.
#pragma once
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "naming.h"

namespace gpucmp {

class SkipLog {
 public:
  // `message` is exactly what the benchmark's State was given
  // (SkipWithMessage / SkipWithError), so that a report can recognise the run.
  void skipped(const BenchName& name, const std::string& reason, const std::string& message);
  void abandoned(const BenchName& name, const std::string& message);

  // Whether a failed or skipped run of the benchmark registered as
  // `function_name` (BenchName::str()), given `message`, is one of these.
  bool drops(const std::string& function_name, const std::string& message) const;
  // The reason `function_name` was skipped; empty when it was not.
  std::string reason(const std::string& function_name) const;

  std::size_t skipped_count() const { return order_.size(); }
  // "cuda: no CUDA device (62 benchmarks); opencl: <why> (65 benchmarks)"
  // (an API with several reasons lists each with its count); "none".
  std::string summary() const;
  // The skipped benchmarks' names (BenchName::str()), ", "-separated.
  std::string names() const;
  // One line per API: "cuda: 62 benchmarks skipped: no CUDA device".
  std::vector<std::string> warnings() const;

 private:
  struct Skip {
    std::string api, reason;
  };
  // Per API in first-seen order: (reason, count) in first-seen order.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int>>>> by_api() const;

  std::map<std::string, Skip> skips_;                      // by name
  std::vector<std::string> order_;                         // skipped names, first seen first
  std::set<std::pair<std::string, std::string>> dropped_;  // (name, State message)
};

SkipLog& skip_log();  // the process-wide one

}  // namespace gpucmp
