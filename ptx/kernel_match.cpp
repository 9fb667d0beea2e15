#include "kernel_match.h"

#include <algorithm>

namespace gpucmp::ptx {
namespace {

using Rule = bool (*)(const std::string&, const std::string&);

bool same_name(const std::string& x, const std::string& y) { return x == y; }

bool one_mangles_other(const std::string& x, const std::string& y) {
  return mangled_names_identifier(x, y) || mangled_names_identifier(y, x);
}

}  // namespace

bool mangled_names_identifier(const std::string& mangled, const std::string& plain) {
  if (mangled.rfind("_Z", 0) != 0 || plain.empty()) return false;
  const std::string encoded = std::to_string(plain.size()) + plain;
  for (std::size_t at = mangled.find(encoded); at != std::string::npos;
       at = mangled.find(encoded, at + 1)) {
    const bool digit_before = at > 0 && mangled[at - 1] >= '0' && mangled[at - 1] <= '9';
    if (!digit_before) return true;
  }
  return false;
}

std::vector<std::pair<int, int>> match_kernels(const std::vector<std::string>& a,
                                               const std::vector<std::string>& b) {
  std::vector<int> partner_of_a(a.size(), -1), partner_of_b(b.size(), -1);
  // Per rule, candidate pairs nearest in position first: CUDA's matrixMul<16>
  // and matrixMul<32> both hold "matrixMul"; file order decides between them.
  const Rule rules[] = {same_name, one_mangles_other};
  for (Rule rule : rules) {
    std::vector<std::pair<std::size_t, std::size_t>> candidates;
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = 0; j < b.size(); ++j)
        if (partner_of_a[i] == -1 && partner_of_b[j] == -1 && rule(a[i], b[j]))
          candidates.emplace_back(i, j);
    std::stable_sort(candidates.begin(), candidates.end(), [](const auto& x, const auto& y) {
      const auto distance = [](const auto& p) {
        return p.first > p.second ? p.first - p.second : p.second - p.first;
      };
      return distance(x) < distance(y);
    });
    for (const auto& [i, j] : candidates) {
      if (partner_of_a[i] != -1 || partner_of_b[j] != -1) continue;
      partner_of_a[i] = static_cast<int>(j);
      partner_of_b[j] = static_cast<int>(i);
    }
  }
  std::size_t next_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (partner_of_a[i] != -1) continue;
    while (next_b < b.size() && partner_of_b[next_b] != -1) ++next_b;
    if (next_b == b.size()) break;
    partner_of_a[i] = static_cast<int>(next_b);
    partner_of_b[next_b] = static_cast<int>(i);
  }
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < a.size(); ++i)
    pairs.emplace_back(static_cast<int>(i), partner_of_a[i]);
  for (std::size_t j = 0; j < b.size(); ++j)
    if (partner_of_b[j] == -1) pairs.emplace_back(-1, static_cast<int>(j));
  return pairs;
}

}  // namespace gpucmp::ptx
