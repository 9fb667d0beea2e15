// The local (work-group / block) size of the Parboil kernels as a benchmark
// parameter: --cp-local, --mriq-local, --mrifhd-local. Not given,
// nothing changes: each variant runs its kernel's own size (cp 16x8, MRI 256)
// under its usual name. Given (fixed shapes and `sweep`), every runner row
// also runs once per shape, named .../local:<shape> (launch_shape.h's
// to_string), validated like every row. What a kernel allows is its
// BlockRule; a given shape that breaks it is a UsageError naming the option,
// the shape and the rule, before anything runs. The rows reuse the work-size
// rows' device checks and counters (local_rows.h); the work-size rules
// (driver, query, study, tuner) are not wired for these kernels and refused.
#pragma once
#include <string>
#include <vector>

#include "../../api.h"
#include "../../device_info.h"
#include "../../launch_shape.h"
#include "../../measure.h"
#include "../../naming.h"

namespace CLI {
class App;
}

namespace gpucmp::parboil {

// What one kernel allows as its block, from the points its grid covers.
struct BlockRule {
  std::string kernel;      // "cp unrollx8", for the messages
  int dims = 1;            // 1 or 2
  long long points_x = 1;  // cp: lattice points along x; MRI: voxels
  long long points_y = 1;  // cp: lattice rows
  int per_thread_x = 1;    // points one thread covers along x (cp unrollx8: 8)
  bool round_up = false;   // the grid rounds up and the kernel skips the tail
                           // (MRI: `if (t >= numX) return`): any size fits
};

// The work-items the blocks must tile exactly (x: points_x / per_thread_x).
GlobalSize threads(const BlockRule& rule);

// The NDRange a row of `shape` launches: threads(rule), with x rounded up to
// a multiple of shape.x where rule.round_up.
GlobalSize launch_global(const BlockRule& rule, const LocalShape& shape);

// Throws UsageError "<what>: <rule>" when `shape` does not tile the kernel's
// grid: cp base, X must divide the points along x; cp unrollx8, per_thread_x
// times X must; Y must divide the rows. A rounding-up kernel takes any size.
// (The device's limit is checked apart, where the device is known.)
void check_block_rule(const LocalShape& shape, const BlockRule& rule, const std::string& what);

// The shapes `sweep` stands for: every shape that tiles threads(rule) within
// NVIDIA's 1024 work-items (candidate_shapes). For a rounding-up kernel these
// are the divisors of its points, the sizes without a partial last block (11
// for Parboil's 32^3 and 64^3 datasets), as the work-size kernels' 1-D sweep.
std::vector<LocalShape> sweep_shapes(const BlockRule& rule);

// One extra row of a runner row: its spec and the NDRange it launches.
struct LocalRow {
  LocalSpec spec;
  GlobalSize global;
  int dims = 1;
  Param param() const;  // {"local", "16x8"} / {"local", "256"}
};

// The --<workload>-local option.
class LocalSizes {
 public:
  // dims: 1 or 2; `rule_help`: the kernel's rule and default, for the help.
  LocalSizes(const std::string& workload, int dims, std::string rule_help);
  void add_to(CLI::App& app);
  bool given() const { return !given_.empty(); }

  // The extra rows of one runner row of `api`: the given shapes checked
  // against `rule` (check_block_rule) and against the selected device's
  // limits (UsageError), sweep expanded (its shapes over a device's limit are
  // skipped when they run); a shape listed twice runs once.
  std::vector<LocalRow> rows(const BlockRule& rule, const ApiSet& apis,
                             const std::string& api) const;

 private:
  // One item: a shape of the kernel's dims or sweep (UsageError naming the
  // option and the item for anything else).
  LocalSpec parse(const std::string& item) const;

  std::string workload_, flag_;
  int dims_;
  std::string rule_help_;
  std::vector<LocalSpec> given_;  // empty: not given
};

// When a row is prepared on `dev`: the device's limits (a sweep shape over
// them: Unavailable, the row skipped; a given one: UsageError) and the
// counters local_x, local_y of the work-size rows.
void prepare_local_row(Measurement& m, const LocalRow& row, const DeviceInfo& dev,
                       const std::string& what);

// For the runners: a shape over the kernel's own limit (`kernel_max`
// work-items, what its registers allow: cudaFuncAttributes::maxThreadsPerBlock;
// on OpenCL the tuner's limit, opencl/group_size.h: on NVIDIA the register
// file's bound, elsewhere CL_KERNEL_WORK_GROUP_SIZE) cannot launch:
// Unavailable naming both, the row skipped. Known only once the kernel is
// built.
void check_kernel_limit(const LocalShape& shape, int dims, long long kernel_max,
                        const std::string& source);

}  // namespace gpucmp::parboil
