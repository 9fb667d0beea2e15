#include "naming.h"

#include <sstream>

namespace gpucmp {

namespace {
std::string join_params(const std::vector<Param>& params) {
  std::string out;
  for (const auto& p : params) out += "/" + p.name + ":" + p.value;
  return out;
}
}  // namespace

std::string BenchName::str() const {
  return workload + "/" + api + "/" + variant + join_params(params);
}

std::string BenchName::pair_key() const { return workload + "/" + variant + join_params(params); }

std::optional<BenchName> parse_bench_name(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, '/');) parts.push_back(part);
  if (parts.size() < 3) return std::nullopt;
  BenchName n{parts[0], parts[1], parts[2], {}};
  if (n.workload.empty() || n.api.empty() || n.variant.empty()) return std::nullopt;
  for (std::size_t i = 3; i < parts.size(); ++i) {
    if (parts[i].rfind("manual_time", 0) == 0 || parts[i].rfind("real_time", 0) == 0) break;
    const auto colon = parts[i].find(':');
    if (colon == std::string::npos || colon == 0) return std::nullopt;
    std::string name = parts[i].substr(0, colon), value = parts[i].substr(colon + 1);
    if (name == "manual_time" || name == "repeats" || name == "min_time" || name == "iterations")
      break;                          // Google Benchmark's own suffixes
    const auto us = value.find('_');  // aggregate suffix: "_mean", "_median", ...
    if (us != std::string::npos) value.resize(us);
    n.params.push_back({name, value});
  }
  return n;
}

}  // namespace gpucmp
