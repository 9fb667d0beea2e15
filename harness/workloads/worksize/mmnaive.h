// mmnaive: the naive matrix product of Takemoto et al. (IPSJ 2015, work-size
// tuning), C = A x B for n x n row-major floats with one output element per
// work-item, no tiling and no local memory: work-item (x = column j, y = row
// i) sums A[i][k] * B[k][j] over k ascending in a float accumulator. The
// global size is (n, n); the work-group / block shape is the benchmark
// parameter (harness/local_rows.h). It counts 2 n^3 flop per launch (GFLOP/s
// against the device's FP32 peak).
#pragma once
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

namespace gpucmp::mmnaive {

constexpr int kMultiple = 16;  // n is a multiple of this (the default 16x16 shape divides it)
constexpr int kMinN = 16;
constexpr int kMaxN = 8192;           // 3 x 256 MiB
constexpr int kFullCheckMaxN = 2048;  // above: kSampledEntries seeded entries are checked
constexpr int kSampledEntries = 4096;

struct Problem {
  int n = 0;
  std::vector<float> a, b;  // seeded inputs, n x n row-major
  std::vector<float> c;     // the device's result
  // The reference of the checked entries (every entry up to kFullCheckMaxN,
  // else the seeded sample `checked`), computed once per problem because the
  // rows of one size share it: ref = sum_k a_ik b_kj and abs_sum =
  // sum_k |a_ik b_kj|, both in double (each product is exact in double).
  std::vector<std::size_t> checked;  // empty: every entry, in order
  std::vector<double> ref, abs_sum;
};

// A and B uniform in [-1, 1), seeded by n, with the reference computed.
Problem make_problem(int n);

// Fills p.ref and p.abs_sum for p.checked (every entry when it is empty).
void compute_reference(Problem& p);

// Every checked entry's |c - ref| / abs_sum against gamma_n = n u / (1 - n u),
// u = 2^-24: Higham's bound (Accuracy and Stability, Thm 3.1) on a float dot
// product of n terms, |fl(sum) - sum| <= gamma_n sum |a_k b_k|, which holds for
// any order of summation and with or without fused multiply-adds (an FMA
// only removes the product's rounding). It is a worst case, so a correct
// kernel can never fail it; a dropped or wrong product moves an entry by
// about abs_sum / n, 1 / (n^2 u) times the bound (16 at n = 1024).
Validation validate(const Problem& p);
double tolerance(int n);

// Flop one launch counts: 2 n^3.
double flops(int n);

// quick 256 (fast on PoCL); standard and large 1024, the study's size.
std::vector<int> preset_sizes(SizePreset size);

GlobalSize global_size(int n);

struct Variant {
  std::string name;  // "base"
  LocalShape local;  // set by the harness to the row's resolved shape
  Part part;         // a split row's block of C (harness/split_rows.h); whole by default
};

// What a part reads and writes, as rectangles of the n x n arrays: a block of
// rows of C needs the same rows of A and all of B; a block of columns of C
// needs all of A and the same columns of B.
Rect c_rect(int n, const Part& part);
Rect a_rect(int n, const Part& part);
Rect b_rect(int n, const Part& part);
// The same as host transfers (split_io.h): A and B in, C out.
std::vector<PartTransfer> part_io(Problem& p, const Part& part);

// Launches per job of a split row: the study's 10.
constexpr int kSplitLaunches = 10;
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::mmnaive
