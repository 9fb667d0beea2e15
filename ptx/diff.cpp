#include "diff.h"

#include <algorithm>
#include <set>

#include "classify.h"
#include "kernel_match.h"
#include "line_diff.h"
#include "normalize.h"
#include "printer.h"
#include "text_table.h"

namespace gpucmp::ptx {
namespace {

const KernelStats kNoKernel{};

void add_row(TextTable& table, const std::string& label, long long a, long long b) {
  table.add_row({label, std::to_string(a), std::to_string(b), signed_delta(b - a)});
}

std::vector<std::string> class_rows(const KernelStats& a, const KernelStats& b) {
  std::vector<std::string> out;
  auto present = [&](const std::string& c) {
    return a.all.of_class(c) > 0 || b.all.of_class(c) > 0;
  };
  for (const auto& c : class_names())
    if (present(c)) out.push_back(c);
  for (const auto* k : {&a, &b})
    for (const auto& [c, n] : k->all.by_class)
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

long long value_or_zero(const std::map<std::string, long long>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

std::string pair_table(const KernelStats* a, const KernelStats* b) {
  const KernelStats& ka = a ? *a : kNoKernel;
  const KernelStats& kb = b ? *b : kNoKernel;
  std::string out = "kernel " + (a ? ka.name : std::string("-")) + " (A) <-> " +
                    (b ? kb.name : std::string("-")) + " (B)\n";
  TextTable table({"", "A", "B", "delta"});
  add_row(table, "instructions", ka.all.total, kb.all.total);
  add_row(table, "in loops", ka.in_loops.total, kb.in_loops.total);
  add_row(table, "loops", static_cast<long long>(ka.loops.size()),
          static_cast<long long>(kb.loops.size()));
  for (const auto& c : class_rows(ka, kb))
    add_row(table, c, ka.all.of_class(c), kb.all.of_class(c));
  std::set<std::string> types;
  for (const auto* k : {&ka, &kb})
    for (const auto& [t, n] : k->registers) types.insert(t);
  for (const auto& t : types)
    add_row(table, "regs ." + t, value_or_zero(ka.registers, t), value_or_zero(kb.registers, t));
  return out + table.str();
}

// Indices and names of the kernels (.entry) or of the functions (.func).
std::pair<std::vector<int>, std::vector<std::string>> functions_of_kind(const Stats& s,
                                                                        bool entry) {
  std::pair<std::vector<int>, std::vector<std::string>> out;
  for (std::size_t i = 0; i < s.kernels.size(); ++i) {
    if (s.kernels[i].is_entry != entry) continue;
    out.first.push_back(static_cast<int>(i));
    out.second.push_back(s.kernels[i].name);
  }
  return out;
}

}  // namespace

std::string stats_comparison(const Stats& a, const Stats& b, const std::string& name_a,
                             const std::string& name_b) {
  std::string out = "A = " + name_a + "\nB = " + name_b + "\n";
  // Kernels pair with kernels, .func with .func (OpenCL -O0 has builtins as .func).
  for (const bool entry : {true, false}) {
    const auto [index_a, names_a] = functions_of_kind(a, entry);
    const auto [index_b, names_b] = functions_of_kind(b, entry);
    for (const auto& [i, j] : match_kernels(names_a, names_b))
      out += "\n" + pair_table(i >= 0 ? &a.kernels[index_a[i]] : nullptr,
                               j >= 0 ? &b.kernels[index_b[j]] : nullptr);
  }
  return out;
}

DiffResult diff(const Module& a, const Module& b, const std::string& name_a,
                const std::string& name_b) {
  Module na = a, nb = b;
  normalize(na);
  normalize(nb);
  const std::string text_a = print(na), text_b = print(nb);
  DiffResult r;
  r.equal = text_a == text_b;
  r.unified = unified_diff(text_a, text_b, name_a, name_b);
  r.stats_table = stats_comparison(compute_stats(na), compute_stats(nb), name_a, name_b);
  return r;
}

}  // namespace gpucmp::ptx
