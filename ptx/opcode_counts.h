// Instruction counts by full opcode and by class (classify.h), for PTX and SASS.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace gpucmp::ptx {

struct OpcodeCounts {
  int total = 0;
  std::map<std::string, int> by_opcode;  // "fma.rn.f32" -> 16
  std::map<std::string, int> by_class;   // "fma.f32" -> 16

  void add(const std::string& full_opcode, const std::string& instruction_class);
  int of_class(const std::string& name) const;  // 0 when absent
};

// {"instructions": N, "by_class": {...}, "by_opcode": {...}}
nlohmann::json to_json(const OpcodeCounts& c);

}  // namespace gpucmp::ptx
