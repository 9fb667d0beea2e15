// Instruction-mix statistics per kernel: declared registers, counts by full
// opcode and by class (classify.h), the same counts inside loops, and each
// loop's depth, size and estimated unroll factor.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ir.h"
#include "opcode_counts.h"
#include "sass.h"  // parse_sass(): the same counts for SASS

namespace gpucmp::ptx {

struct LoopStats {
  std::string header;    // label of the header block ("" when it has none)
  int depth = 1;         // 1 = outermost
  int parent = -1;       // index into KernelStats::loops
  int instructions = 0;  // in the loop, nested loops included
  int unrolled_by = 1;   // unroll.h
  OpcodeCounts counts;
};

struct KernelStats {
  std::string name;
  bool is_entry = false;
  std::map<std::string, long long> registers;  // declared, by .reg type: "f32" -> 57
  OpcodeCounts all;
  OpcodeCounts in_loops;  // instructions inside any loop
  std::vector<LoopStats> loops;
};

struct Stats {
  std::string filename;
  std::vector<KernelStats> kernels;  // functions with a body, in file order
};

KernelStats compute_stats(const Function& f);
Stats compute_stats(const Module& m);

nlohmann::json to_json(const KernelStats& k);
nlohmann::json to_json(const Stats& s);

// A readable table per kernel: registers, class counts (all / in loops), loops.
std::string to_table(const Stats& s);

}  // namespace gpucmp::ptx
