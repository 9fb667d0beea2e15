// The result of checking a device output against the CPU reference.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "parallel_for.h"

namespace gpucmp {

struct Validation {
  bool ok = true;
  double max_rel_err = 0;   // the largest error, in the workload's stated measure
  double tolerance = 0;     // ok == every error <= tolerance (NaN fails)
  std::string where;        // the worst element, e.g. "c[12,40]: got 1.5, want 1.25"
  std::size_t checked = 0;  // how many elements were compared

  // One line: "max_rel_err 3.1e-07 <= 1e-05 over 4096 values (worst c[1,2] ...)".
  std::string describe() const;
};

// Elements a thread of check_elements_parallel takes at least.
constexpr std::size_t kCheckGrain = 256;

// Checks `count` elements: err(i) is element i's error in the workload's
// measure, where(i) describes element i (only called for the worst one).
template <class ErrFn, class WhereFn>
Validation check_elements(std::size_t count, double tolerance, ErrFn err, WhereFn where) {
  Validation v;
  v.tolerance = tolerance;
  v.checked = count;
  std::size_t worst = 0;
  bool found = false;
  for (std::size_t i = 0; i < count; ++i) {
    double e = err(i);
    if (std::isnan(e)) e = INFINITY;
    if (!found || e > v.max_rel_err) {
      v.max_rel_err = e;
      worst = i;
      found = true;
    }
  }
  v.ok = v.max_rel_err <= tolerance;
  if (found) v.where = where(worst);
  return v;
}

// check_elements over threads (parallel_for.h), for an err(i) that reads only
// its inputs and writes only element i's own slots (no running state: a
// prefix sum checks in order with check_elements). The same Validation as
// check_elements: the worst element is the first of the largest errors.
template <class ErrFn, class WhereFn>
Validation check_elements_parallel(std::size_t count, double tolerance, ErrFn err, WhereFn where) {
  struct Worst {
    double err = -HUGE_VAL;
    std::size_t at = 0;
    bool found = false;
  };
  std::vector<Worst> worst(host_threads(count, kCheckGrain));
  parallel_for(count, kCheckGrain, [&](std::size_t begin, std::size_t end, unsigned t) {
    Worst w;
    for (std::size_t i = begin; i < end; ++i) {
      double e = err(i);
      if (std::isnan(e)) e = INFINITY;
      if (!w.found || e > w.err) w = {e, i, true};
    }
    worst[t] = w;
  });
  Validation v;
  v.tolerance = tolerance;
  v.checked = count;
  Worst all;
  for (const Worst& w : worst)  // ranges in order: a later range wins only if larger
    if (w.found && (!all.found || w.err > all.err)) all = w;
  if (all.found) {
    v.max_rel_err = all.err;
    v.where = where(all.at);
  }
  v.ok = v.max_rel_err <= tolerance;
  return v;
}

}  // namespace gpucmp
