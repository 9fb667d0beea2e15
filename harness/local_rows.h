// Rows of a workload whose launch geometry is free: one benchmark
// per runner row and local-size spec, named .../local:<spec>, each measured
// with the shape its spec resolves to on the device that runs it. The
// workload states its problem, global size and what to measure; everything
// about shapes (legality, rules, the tuner, the counters) is here, once.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_info.h"
#include "kernel_resources.h"
#include "launch_shape.h"
#include "runner_table.h"
#include "startup.h"
#include "workload.h"

namespace gpucmp {

// The device's work-group limits (NVIDIA's 1024 where the API reported none).
LocalLimits local_limits(const DeviceInfo& dev);

// A spec resolved on a device: the shape the row runs with and, for the
// tuner, how many candidates there were and how many it measured.
struct LocalChoice {
  LocalShape shape;
  int candidates = 0;
  int measured = 0;
  KernelResources kernel;  // the tuner's: what its model knew of the kernel
};

// The --<workload>-local option of a workload whose launch geometry is free:
// its parsing (parse_local_specs), its help and its default list
// (1-D: 256,study,driver,tuner; 2-D: 16x16,study-x,study-y,driver,tuner).
class LocalOption {
 public:
  // dims: 1 or 2; `divides`: what a 1-D size must divide, for the help ("n/2").
  LocalOption(const std::string& workload, int dims, std::string divides = "");
  void add_to(CLI::App& app);
  // The given specs, or the default list, expanded for `global` (a sweep
  // becomes every legal shape).
  std::vector<LocalSpec> specs(const GlobalSize& global) const;
  // The shape of the split rows: the first fixed shape of the list (given or
  // default).
  LocalShape split_shape(const GlobalSize& global) const;

 private:
  std::string workload_;
  std::string flag_;
  int dims_;
  std::string divides_;
  std::vector<LocalSpec> given_;  // empty: not given
};

// Makes a runner of the row for one concrete shape (not yet uploaded).
using ShapedRunnerFactory = std::function<std::unique_ptr<Runner>(const LocalShape&)>;

// fixed: the shape, checked against the device's limits (UsageError naming
// the limit; a shape that came from a sweep is skipped instead, Unavailable);
// driver: OpenCL LocalShape{} (the runner passes a NULL local size), CUDA as
// query; query: the runner's suggested_group_size() as a dividing shape
// (shape_for_block_size); study*: study_rule_shape; tuner: local_choice.h's
// budgeted search, measuring through `make`.
LocalChoice resolve_local(const LocalSpec& spec, const GlobalSize& global, const DeviceInfo& dev,
                          const ShapedRunnerFactory& make, const std::string& what);

// Counters every local row reports: local_x, local_y (0: OpenCL's driver chose),
// and for the tuner tuner_candidates and tuner_measured.
void add_local_counters(Measurement& m, const LocalChoice& choice);

// A shape the user gave (not one a sweep made) against the limits of the
// selected device of `api`, before anything runs: UsageError naming the limit.
void check_given_shape(const LocalSpec& spec, const GlobalSize& global, const ApiSet& apis,
                       const std::string& api, const std::string& what);

// Registers, for every row of `table` and every spec, the benchmark
// <workload>/<api>/<variant>/<params>/local:<spec>. `problem` returns the
// (cached) problem; `describe` fills the measurement's unit, work, peak,
// clear_output and validate. Variant needs `name` and a LocalShape `local`,
// which is set to the resolved shape before the row's factory is called.
// `problem`: Problem&(); `describe`: void(Measurement&, Problem&, const DeviceInfo&).
template <class Problem, class Variant, class MakeProblem, class Describe>
void register_local_rows(const RunnerTable<Problem, Variant>& table,
                         const std::vector<Param>& params, const GlobalSize& global,
                         const LocalOption& local, const Options& opts, const ApiSet& apis,
                         MakeProblem problem, Describe describe) {
  const std::vector<LocalSpec> specs = local.specs(global);
  for (const auto& row : table.rows())
    for (const LocalSpec& spec : specs) {
      BenchName name{table.workload(), row.api, row.variant.name, params};
      name.params.push_back({"local", to_string(spec, global.dims)});
      check_given_shape(spec, global, apis, row.api, name.str());
      const auto prepare = [row, spec, global, name, problem, describe](const DeviceInfo& dev) {
        Problem& p = problem();
        const ShapedRunnerFactory make = [&p, &row](const LocalShape& shape) {
          Variant v = row.variant;
          v.local = shape;
          return row.make(p, v);
        };
        const LocalChoice choice = resolve_local(spec, global, dev, make, name.str());
        Prepared r;
        r.runner = make(choice.shape);
        r.m.name = name;
        describe(r.m, p, dev);
        add_local_counters(r.m, choice);
        return r;
      };
      register_measured(name, apis, opts, prepare, /*startup=*/false);
    }
}

}  // namespace gpucmp
