// trapezoid: trapezoid-rule integration of f(x) = 4 / (1 + x^2) over [0, 1]
// (= pi), after Takemoto et al. (IPSJ 2015, work-size tuning). `items`
// work-items (a power of two), each integrating its own sub-interval of
// kSteps steps of width h = 1 / (items kSteps) in float: work-item g sums
// f at the nodes x = (g kSteps + s) h, s = 0..kSteps, with weight 1/2 at the
// two ends, and scales by h. Each work-group then adds its items' partial
// sums in a static local / shared array of kMaxLocal floats (a tree correct
// for any group size; a group over kMaxLocal, which only a CPU device allows,
// e.g. PoCL's NULL local size of 4096, first folds its items beyond the
// array in) and local id 0 writes the total to partials[the group's first
// global id]; every other entry stays 0 (the buffer is zeroed once at
// upload), so the host can sum all `items` entries without knowing the group
// size, as it must for OpenCL's NULL local size. The host sums the partials
// in double. The global size is `items`; the work-group / block size is the
// benchmark parameter (harness/local_rows.h), any divisor of items.
//
// h is a power of two, and for items <= 2^24 / kSteps = 2^18 every node
// index is below 2^24: the float nodes (index x h) are then exact and equal
// the reference's. Division is each API's default (CUDA correctly rounded,
// OpenCL within 2.5 ulp; docs/DESIGN.md "Fairness rules").
//
// It counts GFLOP/s at kFlopsPerStep = 5 flop per step (items x kSteps steps):
// the node (1 mul, index x h), 1 + x^2 (1 mul, 1 add, fused or not), the
// divide (1) and the add into the sum (1). The endpoints' extra evaluation
// and weights, the scaling by h and the group reduction (about 2% more) are
// not counted.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "../../launch_shape.h"
#include "../../options.h"
#include "../../runner_table.h"
#include "../../split_io.h"
#include "../../validation.h"
#include "../../work_split.h"
#include "../../workload.h"

namespace gpucmp::trapezoid {

constexpr int kSteps = 64;        // steps per work-item (the kernels' STEPS)
constexpr int kMaxLocal = 1024;   // the kernels' static local array (NVIDIA's largest group)
constexpr int kFlopsPerStep = 5;  // counted, see above
constexpr int kMinLog2Items = 10;
constexpr int kMaxLog2Items = 24;

struct Problem {
  std::size_t items = 0;         // work-items, a power of two
  float h = 0;                   // 1 / (items kSteps), exact
  std::vector<double> item_ref;  // each work-item's integral, in double at the same nodes
  double ref_sum = 0;            // their sum: the trapezoid rule over all items in double
  std::vector<float> partials;   // the device's result: group totals, 0 elsewhere
};

// The integrand in double: 4 / (1 + x^2).
double integrand(double x);

// Work-item g's trapezoid sum over `steps` steps of width h, in double.
double item_integral(std::size_t g, int steps, double h);

// The kernels' arithmetic on the CPU, for the tests: work-item g's float sum
// (already scaled by h), and a group's total of its items' sums `mine` (the
// folds, then the tree one step at a time: within a step no entry is both
// read and written, so the order is the device's).
float item_sum_float(unsigned g, float h);
float group_sum(const std::vector<float>& mine);

// The problem of `items` work-items with its double reference.
Problem make_problem(std::size_t items);

// The group size the partials show: the index of the first non-zero entry
// after entry 0 (a group total is never 0: f >= 2), `items` when there is none.
std::size_t group_size_of(const std::vector<float>& partials);

// Every entry of partials against its reference (a group's first entry: the
// double sum of the group's item_ref; the others: 0), relative to the
// group's reference, and the double sum of all entries against ref_sum,
// relative. Tolerance 1e-5: a work-item's float sum of kSteps + 1 positive
// terms is within gamma_64 ~ 64u of exact (Higham, Thm 4.4 on a recursive
// sum of positive terms, u = 2^-24), each f(x) within about 7u (1 + x^2 2u,
// OpenCL's divide 2.5 ulp = 5u; 1u more where node indices pass 2^24 and
// round), the group's tree adds at most log2 1024 = 10 levels of u (3 more
// for the folds of a 4096 group): about 85u = 5.1e-6 in the worst case, and
// a sum of positive terms keeps the worst
// relative error of its parts. A dropped or doubled work-item moves its
// group's total by 1/1024 at least. The total's difference from pi is
// appended to `where`.
Validation validate(const Problem& p);
constexpr double kTolerance = 1e-5;

// Flop one launch counts: kFlopsPerStep x items x kSteps.
double counted_flops(std::size_t items);

// quick 2^14 (fast on PoCL); standard and large 2^18, the study's size.
std::vector<std::size_t> preset_sizes(SizePreset size);

GlobalSize global_size(std::size_t items);

struct Variant {
  std::string name;  // "base"
  LocalShape local;  // set by the harness to the row's resolved shape
  Part part;         // a split row's block of work-items (harness/split_rows.h)
};

// The work-items (and so the entries of partials) a part covers, as one row.
Rect items_rect(const Problem& p, const Part& part);
// The same as host transfers (split_io.h): nothing in, the partials out.
std::vector<PartTransfer> part_io(Problem& p, const Part& part);

// Launches per job of a split row: the study's 10000.
constexpr int kSplitLaunches = 10000;
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::trapezoid
