// Compares two modules (e.g. CUDA's and OpenCL's PTX of one kernel): a unified
// diff of their normalized text and a side-by-side instruction-mix table.
#pragma once
#include <string>

#include "ir.h"
#include "stats.h"

namespace gpucmp::ptx {

struct DiffResult {
  bool equal = false;       // normalized texts are identical
  std::string unified;      // "" when equal
  std::string stats_table;  // per matched kernel: A, B, delta
};

// Normalizes copies of a and b, diffs their printed text (3 lines of context,
// "--- name_a" / "+++ name_b"), and tabulates their stats per kernel pair
// (kernel_match.h; kernels pair with kernels, .func with .func).
DiffResult diff(const Module& a, const Module& b, const std::string& name_a,
                const std::string& name_b);

// The side-by-side table alone.
std::string stats_comparison(const Stats& a, const Stats& b, const std::string& name_a,
                             const std::string& name_b);

}  // namespace gpucmp::ptx
