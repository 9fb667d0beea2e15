// triad: STREAM's triad a[i] = b[i] + s * c[i] over n floats (McCalpin's
// STREAM benchmark), the suite's own DRAM-bandwidth kernel: one thread per
// element, 256 per block / work-group. It counts 3 x 4 bytes per element
// (two reads, one write), as STREAM does (no write-allocate traffic).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../../runner_table.h"
#include "../../validation.h"
#include "../../workload.h"

namespace gpucmp::triad {

constexpr int kBlock = 256;             // threads per block / work-items per group
constexpr float kScalar = 3.0f;         // STREAM's scalar
constexpr long long kMaxN = 1LL << 30;  // 12 GiB over the three arrays

struct Problem {
  std::size_t n = 0;        // a multiple of kBlock
  std::vector<float> b, c;  // seeded inputs
  std::vector<float> a;     // the device's result
};

// b, c uniform in [-1, 1), seeded by n.
Problem make_problem(std::size_t n);

// Every element against b + s * c in double: a fused or a separate multiply-add
// in float both lie within 2^-22 of it, relative to max(|ref|, 1).
Validation validate(const Problem& p);

// Bytes one launch counts: 3 x 4 x n.
double counted_bytes(std::size_t n);

// Sizes of a preset: quick 2^20 (12 MiB in all); standard and large 2^25 and
// 2^27 elements (384 MiB and 1.5 GiB), far beyond any L2.
std::vector<std::size_t> preset_sizes(SizePreset size);

struct Variant {
  std::string name;  // "base"
};
const std::vector<Variant>& variants();

using Runners = RunnerTable<Problem, Variant>;
Runners& runners();

std::unique_ptr<Workload> make_workload();

}  // namespace gpucmp::triad
