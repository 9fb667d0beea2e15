// sort: the bitonic sorting network of Takemoto et al. (IPSJ 2015, work-size
// tuning) over n floats (n a power of two), ascending, in global memory only
// (no local memory, so any local size works). One kernel launch per pass
// (stage k = 2, 4, ..., n; distance j = k/2, ..., 1): log2 n (log2 n + 1) / 2
// passes, each of n/2 work-items, work-item t doing one compare-exchange of
// the pair (i, i + j) with i = t with a 0 bit inserted at j's position,
// ascending where bit k of i is 0. The global size is n/2; the work-group /
// block size is the benchmark parameter (harness/local_rows.h).
//
// One launch of the benchmark is one whole sort of a fresh copy: a
// device-to-device copy restores the unsorted input from an untouched device
// copy (on the same stream / queue), then every pass runs. The copy is part
// of the timed work (at n = 2^18 it moves as much as one pass: 1/172 of it).
// It counts GB/s: 8n bytes per pass (every element read and written once:
// the kernel writes both elements of every pair, swapped or not) plus the
// copy's 8n (read and write, as bandwidthTest counts a copy).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "../../launch_shape.h"
#include "../../options.h"
#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::sort {

constexpr int kMinLog2N = 10;
constexpr int kMaxLog2N = 26;  // 2 x 256 MiB on the device

struct Problem {
  std::size_t n = 0;          // a power of two
  std::vector<float> input;   // seeded, unsorted
  std::vector<float> sorted;  // the reference: std::sort of input
  std::vector<float> output;  // the device's result
};

// input uniform in [-1, 1) (exact floats, no -0 and no NaN), seeded by n; the
// reference sorted with std::sort.
Problem make_problem(std::size_t n);

// The output must equal the reference bit for bit: a compare-exchange moves
// values without changing them, and with no -0 and no NaN in the input the
// ascending order is unique. An element's error is 0 when its bits match,
// else its relative difference (at least the smallest double, so -0 for +0
// still fails); the tolerance is 0.
Validation validate(const Problem& p);

// Passes of one sort: log2 n (log2 n + 1) / 2 (171 at n = 2^18).
int passes(std::size_t n);

// Bytes one launch counts: (passes + 1) x 8n.
double counted_bytes(std::size_t n);

// The network on the CPU with the kernel's own index arithmetic (one
// compare_exchange per work-item t of each pass): what the tests check the
// indexing with.
void compare_exchange(float* a, unsigned t, unsigned k, unsigned j);
void bitonic_sort_cpu(std::vector<float>& a);

// quick 2^14 (fast on PoCL); standard and large 2^18, the study's size.
std::vector<std::size_t> preset_sizes(SizePreset size);

// n/2 work-items per pass.
GlobalSize global_size(std::size_t n);

struct Variant {
  std::string name;  // "bitonic"
  LocalShape local;  // set by the harness to the row's resolved shape
};
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::sort
