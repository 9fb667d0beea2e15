// Two SASS listings side by side (e.g. the driver JIT's and offline ptxas' of
// one PTX): instruction counts by class and by opcode, not the text (register
// numbers and addresses differ between any two compilations).
#pragma once
#include <string>

#include "sass.h"

namespace gpucmp::ptx {

struct SassComparison {
  bool equal = false;  // the same count of every opcode
  std::string table;   // A/B with their source labels, then the rows that differ
};

SassComparison compare_sass(const SassStats& a, const SassStats& b, const std::string& name_a,
                            const std::string& name_b);

}  // namespace gpucmp::ptx
