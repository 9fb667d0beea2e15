// What --tune chooses among (harness/tune.h): the rows of one workload and
// API that compute one problem with one math, each an implementation of that
// API's own (never a cross-run, a control or a vendor library). Which rows
// those are is each workload's knowledge (Workload::tune_family); most state
// it as data, a TuneRule.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "naming.h"

namespace gpucmp {

struct TuneFamily {
  // The row's parameters less the free ones (those a candidate may choose,
  // e.g. scan's alpha), in name order: the problem.
  std::vector<Param> problem;
  // The math class where the workload's variants differ in math (cp's
  // "ieee", "fast", OpenCL's "default"); empty where they do not.
  std::string math;
};
bool operator==(const TuneFamily& a, const TuneFamily& b);
bool operator!=(const TuneFamily& a, const TuneFamily& b);

// One math class of a workload: each API's own variants of it.
struct TuneClass {
  std::string math;  // empty: the workload's one math (no math:... parameter)
  std::vector<std::string> cuda, opencl;
};

// A workload's families as data.
struct TuneRule {
  std::vector<std::string> problem;  // parameters that fix the problem (each optional)
  std::vector<std::string> free;     // parameters a candidate may choose besides its variant
  std::vector<TuneClass> classes;
};

// The free parameter every family has: the block / work-group shape.
inline const char* const kLocalParam = "local";

// The row's family under `rule`: its variant among the variants of one class
// for its API, and each of its parameters a problem or a free one (a row
// with another, e.g. a split row's gpus: or scan's poll:, is not tunable);
// else nothing.
std::optional<TuneFamily> tune_family_by_rule(const BenchName& row, const TuneRule& rule);

// The best row of `family` on `api`:
// <workload>/<api>/best/<problem>[/math:<class>].
BenchName best_row_name(const std::string& workload, const std::string& api,
                        const TuneFamily& family);

// What a candidate chose beyond the family's problem: its variant and its free
// parameters, "alpha/alpha:8" (the best row's tuned= label).
std::string tuned_choice(const BenchName& candidate, const TuneFamily& family);

}  // namespace gpucmp
