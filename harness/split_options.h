// Options of the multi-device rows: which split rules or
// fixed shares to run, along which axis, how many launches one job makes,
// and which devices of each API take part. No --split: no split rows.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "work_split.h"

namespace CLI {
class App;
}

namespace gpucmp {

// One split row: a rule (work_split.h), or a fixed share of the first
// device (the rest shared equally by the others), for curves against the
// split ratio.
struct SplitSpec {
  bool fixed_share = false;
  SplitRule rule = SplitRule::equal;
  double share = 0;  // fixed_share: the first device's fraction, 0..1
};
// "equal", "pe", "study-k", "calibrated", "share:0.3".
std::string to_string(const SplitSpec& spec);
// The items of --split: the rules, share:F with F in 0..1, and sweep
// (share:0, share:0.1, .., share:1). Throws UsageError naming `what`.
std::vector<SplitSpec> parse_split_specs(const std::vector<std::string>& items,
                                         const std::string& what);

// An OpenCL device as platform and device index.
struct ClDeviceIndex {
  int platform = 0;
  int device = 0;
};

// Where the devices of a split row are driven from: threads of this process,
// or one MPI rank per device (mpirun -np N, harness/mpi_split.h).
enum class SplitOver { threads, mpi };

struct SplitOptions {
  std::vector<SplitSpec> specs;  // empty: no split rows
  SplitAxis axis = SplitAxis::y;
  int launches = 0;  // kernel launches per job; 0: the workload's own
  SplitOver over = SplitOver::threads;
  // Threads: the group's devices (empty: every CUDA device / every device of
  // the selected platform). MPI: rank i's device is entry i (empty: the
  // node-local rank modulo the devices of the API / selected platform).
  std::vector<int> cuda_devices;
  std::vector<ClDeviceIndex> cl_devices;
  // Set after parsing: a workload has split rows of its own (advection's two GPUs).
  bool workload_rows = false;
  // Whether the APIs make their split group: --split's rows, a workload's
  // own, or the ranks of an MPI split.
  bool wants_group() const { return !specs.empty() || workload_rows || over == SplitOver::mpi; }
};

// --split, --split-axis, --split-launches, --split-over, --cuda-split-devices,
// --cl-split-devices.
void add_split_options(CLI::App& app, SplitOptions& opts);
// After parsing: a split option given without --split is a UsageError (it
// would do nothing), unless a workload has split rows of its own
// (`workload_rows`: Workload::has_split_rows).
void check_split_options(const SplitOptions& opts, bool workload_rows = false);

}  // namespace gpucmp
