#include "sass_compare.h"

#include <set>

#include "text_table.h"

namespace gpucmp::ptx {
namespace {

int count_of(const std::map<std::string, int>& counts, const std::string& key) {
  const auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

// One row per key of either map whose counts differ (all rows when `all`).
void add_rows(TextTable& table, const std::map<std::string, int>& a,
              const std::map<std::string, int>& b, bool all, bool& differ) {
  std::set<std::string> keys;
  for (const auto* m : {&a, &b})
    for (const auto& [k, n] : *m) keys.insert(k);
  for (const auto& k : keys) {
    const int na = count_of(a, k), nb = count_of(b, k);
    if (na != nb) differ = true;
    if (na != nb || all)
      table.add_row({k, std::to_string(na), std::to_string(nb), signed_delta(nb - na)});
  }
}

std::string described(const std::string& name, const SassStats& s) {
  return name + (s.source.empty() ? " (source not labelled)" : " (" + s.source + ")");
}

}  // namespace

SassComparison compare_sass(const SassStats& a, const SassStats& b, const std::string& name_a,
                            const std::string& name_b) {
  SassComparison r;
  bool differ = a.total.total != b.total.total;
  TextTable classes({"class", "A", "B", "delta"});
  classes.add_row({"instructions", std::to_string(a.total.total), std::to_string(b.total.total),
                   signed_delta(b.total.total - a.total.total)});
  add_rows(classes, a.total.by_class, b.total.by_class, true, differ);
  TextTable opcodes({"opcode", "A", "B", "delta"});
  add_rows(opcodes, a.total.by_opcode, b.total.by_opcode, false, differ);
  r.equal = !differ;
  r.table = "A = " + described(name_a, a) + "\nB = " + described(name_b, b) + "\n\n" +
            classes.str() +
            (r.equal ? "\nsame count of every opcode\n"
                     : "\nopcodes whose counts differ:\n" + opcodes.str());
  return r;
}

}  // namespace gpucmp::ptx
