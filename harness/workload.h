// A workload is defined once here in harness/ (spec, inputs, reference,
// tolerance, work counts); cuda/ and opencl/ add thin runners to it.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api.h"
#include "measure.h"
#include "options.h"
#include "startup.h"

namespace CLI {
class App;
}

namespace gpucmp {

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  // Workload-specific options (sizes), e.g. --mm-n.
  virtual void add_options(CLI::App&) {}
  // Registers one benchmark per configuration x runner. Throws UsageError for
  // bad option values (before anything runs).
  virtual void register_benchmarks(const Options& opts, const ApiSet& apis) = 0;
  // What the workload states once for all its rows (e.g. advection's flow
  // and initial field), as "<workload>.<key>" context entries.
  virtual void add_context(ContextList& ctx) const { (void)ctx; }
  // Whether the options asked for rows of the workload's own that run split
  // over devices or MPI ranks (harness/split_executor.h), so that the split
  // options apply without --split.
  virtual bool has_split_rows() const { return false; }
};

// The timed benchmark's name: `name`, plus the parameter cache:cold in cold
// mode and gaps:timed with --launch-gaps, so that rows timed differently
// never mix in one file or dashboard.
BenchName timed_name(const BenchName& name, const Options& opts);

// Registers the timed benchmark `name` (measure() with the options' protocol)
// and, when `startup` and the API has one for this variant, its startup
// benchmark (startup.h), registered after every timed one by
// register_deferred_benchmarks().
void register_measured(const BenchName& name, const ApiSet& apis, const Options& opts,
                       Prepare prepare, bool startup);
void register_deferred_benchmarks();

// The names registered so far, in order (for progress lines).
const std::vector<std::string>& registered_names();

// Keeps the most recently built problem so consecutive benchmarks of one
// configuration (one per API and variant) share inputs and reference data.
template <class Key, class Problem>
class LastProblem {
 public:
  template <class Make>
  Problem& get(const Key& key, Make make) {
    if (!problem_ || key_ != key) {
      problem_.reset();  // free the old one first: problems can be GiBs
      problem_ = std::make_unique<Problem>(make());
      key_ = key;
    }
    return *problem_;
  }

 private:
  Key key_{};
  std::unique_ptr<Problem> problem_;
};

}  // namespace gpucmp
