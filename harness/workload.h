// A workload is defined once here in harness/ (spec, inputs, reference,
// tolerance, work counts); cuda/ and opencl/ add thin runners to it.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api.h"
#include "measure.h"
#include "options.h"
#include "startup.h"
#include "tune_family.h"

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
  // Files the options asked for in place of a run (heartwall's
  // --heartwall-write-rodinia): written, and true; nothing asked, false.
  // Called once the command line is parsed, before any API or device starts;
  // a file that cannot be written is a UsageError.
  virtual bool write_requested_files(const Options& opts) {
    (void)opts;
    return false;
  }
  // --tune (harness/tune.h): the family of the timed row `row` (a name it
  // registered with register_measured, before timed_name), the rows of one
  // problem and math that are each its API's own implementations and so
  // interchangeable; nothing for a row that is not (a cross-run, a control,
  // a vendor library, a split row) or a workload that has no families.
  virtual std::optional<TuneFamily> tune_family(const BenchName& row) const {
    (void)row;
    return std::nullopt;
  }
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

// A timed row as register_measured took it: its name (before timed_name) and
// its prepare, for --tune's best rows (harness/tune.h), which prepare their
// candidates themselves. Only rows of an API this build has.
struct MeasuredEntry {
  BenchName name;
  Prepare prepare;
};
const std::vector<MeasuredEntry>& measured_rows();

// The names registered so far, in order (for progress lines).
const std::vector<std::string>& registered_names();

// Frees the runner kept for the repetitions of the last measured row (its
// device buffers). Every benchmark of another name frees it as it starts;
// call this once the benchmarks have run, before the APIs go.
void release_kept_row();

// Keeps the most recently used problems (`keep` of them, 1 unless said) so
// that consecutive benchmarks of one configuration (one per API and variant)
// share inputs and reference data, and, with keep > 1, interleaved ones too
// (--benchmark_enable_random_interleaving visits the sizes in random order).
// The least recently used is freed first, before a new one is made: problems
// can be GiBs. A reference from get() holds until the next get().
template <class Key, class Problem>
class LastProblem {
 public:
  explicit LastProblem(std::size_t keep = 1) : keep_(keep < 1 ? 1 : keep) {}

  template <class Make>
  Problem& get(const Key& key, Make make) {
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (!(it->first != key)) {                 // keys define != (the old rule)
        kept_.splice(kept_.begin(), kept_, it);  // now the most recent
        return *kept_.front().second;
      }
    while (kept_.size() >= keep_) kept_.pop_back();
    auto made = std::make_unique<Problem>(make());
    kept_.emplace_front(key, std::move(made));
    return *kept_.front().second;
  }
  std::size_t size() const { return kept_.size(); }

 private:
  std::size_t keep_;
  std::list<std::pair<Key, std::unique_ptr<Problem>>> kept_;
};

}  // namespace gpucmp
