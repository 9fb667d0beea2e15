// Benchmark names: <workload>/<api>/<variant>/<param>:<value>... (docs/DESIGN.md
// "Conventions").
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpucmp {

struct Param {
  std::string name;
  std::string value;
};

struct BenchName {
  std::string workload, api, variant;
  std::vector<Param> params;

  std::string str() const;
  // The name without its api part: what pairs a CUDA row with an OpenCL row.
  std::string pair_key() const;
};

// Parses a name made by BenchName::str(); nullopt if it is not one.
// Google Benchmark suffixes (/manual_time, /repeats:N, _mean, ...) are ignored.
std::optional<BenchName> parse_bench_name(const std::string& text);

}  // namespace gpucmp
