// Multi-device rows of a workload whose work splits into blocks of rows or
// columns (after Takemoto et al., IPSJ 2015): for every
// runner row and every --split spec, the benchmark
// <workload>/<api>/<variant>/<params>/local:<shape>/devices:<N>/split:<spec>/axis:<y|x>,
// one "launch" of which is one whole job on all devices at once, transfers
// included (split_runner.h), and with --split-over mpi the same name ending
// /over:mpi, one device per MPI rank (harness/mpi_split.h). Rows exist only
// with --split.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "device_group.h"
#include "launch_shape.h"
#include "local_rows.h"
#include "runner_table.h"
#include "split_executor.h"
#include "split_options.h"
#include "split_runner.h"
#include "startup.h"

namespace gpucmp {

// The split of one row, resolved on its devices: each device's fraction of
// the work, its part, and what the rule measured (counters).
struct SplitChoice {
  std::vector<Part> parts;
  std::vector<std::pair<std::string, double>> counters;
};

// `units` along the axis in granules of `granule`; `ops`: the job's
// operation count (the study's k classes). Calibrated: probes the devices
// (split_runner.h) with equal parts of `row` through `executor`.
SplitChoice resolve_split(const SplitSpec& spec, SplitAxis axis, SplitExecutor& executor,
                          const SplitRow& row, long long units, long long granule, double ops,
                          int launches);

// Devices the rows of `api` will use, for their names: the MPI ranks with
// --split-over mpi, else the API's split group (the option's list size when
// the API is unavailable).
int split_device_count(const ApiSet& apis, const std::string& api, const SplitOptions& opts);

// UsageError for a spec that cannot apply to `devices` devices: study-k is
// for two (with fewer the rows are skipped, as every split row).
void check_split_spec(const SplitSpec& spec, int devices, const std::string& api);

// Adds the split counters: devices, launches_per_job and share_<i> of each device.
void add_split_counters(Measurement& m, const SplitChoice& choice, int launches, long long units);

// Registers the split rows of `table` (see above). `local`: the rows run the
// first fixed shape of the workload's --<w>-local list (its default shape
// when none is fixed). `launches`: the workload's launches per job (the
// study's counts), unless --split-launches says otherwise. Variant needs
// `local` and `part`. `problem`: Problem&(); `describe` as register_local_rows;
// `io`: std::vector<PartTransfer>(Problem&, const Part&), what a part reads
// and writes (split_io.h). Each row reports output_digest, the digest of its
// whole output after timing.
template <class Problem, class Variant, class MakeProblem, class Describe, class Io>
void register_split_rows(const RunnerTable<Problem, Variant>& table,
                         const std::vector<Param>& params, const GlobalSize& global,
                         const LocalOption& local, const Options& opts, const ApiSet& apis,
                         MakeProblem problem, Describe describe, Io io, int launches) {
  const SplitOptions& split = opts.split;
  if (split.specs.empty()) return;
  if (split.launches > 0) launches = split.launches;
  const LocalShape shape = local.split_shape(global);
  const SplitAxis axis = global.dims == 1 ? SplitAxis::x : split.axis;
  for (const auto& row : table.rows())
    for (const SplitSpec& spec : split.specs) {
      BenchName name{table.workload(), row.api, row.variant.name, params};
      name.params.push_back({"local", to_string(shape, global.dims)});
      const int devices = split_device_count(apis, row.api, split);
      check_split_spec(spec, devices, row.api);
      name.params.push_back({"devices", std::to_string(devices)});
      name.params.push_back({"split", to_string(spec)});
      name.params.push_back({"axis", to_string(axis)});
      if (split.over == SplitOver::mpi) name.params.push_back({"over", "mpi"});
      const SplitRowMaker make_row = [row, shape, problem, io, id = name.str()] {
        Problem& p = problem();
        SplitRow r;
        r.name = id;
        r.make = [&p, row, shape](int, const Part& part) {
          Variant v = row.variant;
          v.local = shape;
          v.part = part;
          return row.make(p, v);
        };
        r.io = [&p, io](const Part& part) { return io(p, part); };
        return r;
      };
      add_split_row(name.str(), make_row);
      const auto prepare = [row, spec, axis, global, shape, problem, describe, launches, apis, name,
                            make_row](const DeviceInfo& dev) {
        SplitExecutor& executor = split_executor(apis, row.api);
        const SplitRow split_row = make_row();
        Prepared r;
        r.m.name = name;
        describe(r.m, problem(), dev);
        const long long units = axis == SplitAxis::y ? global.y : global.x;
        const long long granule = axis == SplitAxis::y ? shape.y : shape.x;
        const SplitChoice choice = resolve_split(spec, axis, executor, split_row, units, granule,
                                                 r.m.work_per_launch * launches, launches);
        r.runner = executor.runner(split_row, choice.parts, launches);
        add_split_counters(r.m, choice, launches, units);
        r.m.output_digest = [io = split_row.io, axis] { return output_digest(io(Part{axis})); };
        return r;
      };
      register_measured(name, apis, opts, prepare, /*startup=*/false);
    }
}

}  // namespace gpucmp
