#include "validation.h"

#include <cstdio>

namespace gpucmp {

std::string Validation::describe() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "max_rel_err %.3g %s tolerance %.3g over %zu values", max_rel_err,
                ok ? "<=" : ">", tolerance, checked);
  std::string out = buf;
  if (!where.empty()) out += " (worst " + where + ")";
  return out;
}

}  // namespace gpucmp
