#include "tune_family.h"

#include <algorithm>

namespace gpucmp {

namespace {
bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool same_params(const std::vector<Param>& a, const std::vector<Param>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Param& x, const Param& y) {
    return x.name == y.name && x.value == y.value;
  });
}

bool in_problem(const Param& p, const TuneFamily& family) {
  return std::any_of(family.problem.begin(), family.problem.end(),
                     [&](const Param& q) { return q.name == p.name && q.value == p.value; });
}
}  // namespace

bool operator==(const TuneFamily& a, const TuneFamily& b) {
  return a.math == b.math && same_params(a.problem, b.problem);
}
bool operator!=(const TuneFamily& a, const TuneFamily& b) { return !(a == b); }

std::optional<TuneFamily> tune_family_by_rule(const BenchName& row, const TuneRule& rule) {
  const TuneClass* found = nullptr;
  for (const TuneClass& c : rule.classes) {
    const std::vector<std::string>* variants = row.api == "cuda"     ? &c.cuda
                                               : row.api == "opencl" ? &c.opencl
                                                                     : nullptr;
    if (variants && contains(*variants, row.variant)) {
      found = &c;
      break;
    }
  }
  if (!found) return std::nullopt;
  TuneFamily family;
  family.math = found->math;
  for (const Param& p : row.params) {
    if (contains(rule.problem, p.name))
      family.problem.push_back(p);
    else if (!contains(rule.free, p.name) && p.name != kLocalParam)
      return std::nullopt;
  }
  return family;
}

BenchName best_row_name(const std::string& workload, const std::string& api,
                        const TuneFamily& family) {
  BenchName name{workload, api, "best", family.problem};
  if (!family.math.empty()) name.params.push_back({"math", family.math});
  return name;
}

std::string tuned_choice(const BenchName& candidate, const TuneFamily& family) {
  std::string choice = candidate.variant;
  for (const Param& p : candidate.params)
    if (!in_problem(p, family)) choice += "/" + p.name + ":" + p.value;
  return choice;
}

}  // namespace gpucmp
