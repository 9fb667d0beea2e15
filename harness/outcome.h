// What the run produced beyond Google Benchmark's own report: the exit code and
// one result per benchmark run for the paired CUDA/OpenCL summary.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "errors.h"
#include "naming.h"

namespace gpucmp {

struct RunResult {
  BenchName name;
  double seconds = 0;         // mean device time per launch
  double pct_peak = 0;        // 0: peak unknown
  bool launch_bound = false;  // within kLaunchBoundMargin of the API's launch floor
};

class Outcome {
 public:
  // A benchmark failed (validation, API error: kExitFailed) or was given bad
  // input (kExitUsage). The exit code is the worst one seen.
  void fail(ExitCode code, const std::string& line);
  void record(RunResult r) { results_.push_back(std::move(r)); }

  int exit_code() const { return exit_code_; }
  const std::vector<RunResult>& results() const { return results_; }
  const std::vector<std::string>& failures() const { return failures_; }

  // For every benchmark present for both cuda and opencl: CUDA time, OpenCL
  // time, OpenCL/CUDA ratio and % of peak (medians over repetitions).
  void print_paired_summary(std::ostream& out) const;

 private:
  int exit_code_ = kExitOk;
  std::vector<RunResult> results_;
  std::vector<std::string> failures_;
};

Outcome& outcome();  // the process-wide one

}  // namespace gpucmp
