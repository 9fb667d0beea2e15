#include "opcode_counts.h"

namespace gpucmp::ptx {

void OpcodeCounts::add(const std::string& full_opcode, const std::string& instruction_class) {
  ++total;
  ++by_opcode[full_opcode];
  ++by_class[instruction_class];
}

int OpcodeCounts::of_class(const std::string& name) const {
  const auto it = by_class.find(name);
  return it == by_class.end() ? 0 : it->second;
}

nlohmann::json to_json(const OpcodeCounts& c) {
  return {{"instructions", c.total}, {"by_class", c.by_class}, {"by_opcode", c.by_opcode}};
}

}  // namespace gpucmp::ptx
