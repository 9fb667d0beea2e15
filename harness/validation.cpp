#include "validation.h"

#include <cmath>
#include <cstdio>

namespace gpucmp {

std::string Validation::describe() const {
  char buf[160];
  // Failed within the tolerance: a check besides the error failed (`where` says which).
  const bool beyond = max_rel_err > tolerance || std::isnan(max_rel_err);
  std::snprintf(buf, sizeof buf, "max_rel_err %.3g %s tolerance %.3g over %zu values", max_rel_err,
                ok || !beyond ? "<=" : ">", tolerance, checked);
  std::string out = buf;
  if (!where.empty()) out += (ok || beyond ? " (worst " : ", but failed (") + where + ")";
  return out;
}

}  // namespace gpucmp
