#include "ir.h"

#include <algorithm>
#include <array>

namespace gpucmp::ptx {
namespace {

std::string join_operands(const std::vector<Operand>& ops, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (i > 0) out += separator;
    out += ops[i].str();
  }
  return out;
}

// "+16" / "+-4" (nvcc writes negative offsets as +-N).
std::string offset_suffix(std::int64_t offset) { return "+" + std::to_string(offset); }

}  // namespace

std::string Operand::str() const {
  switch (kind) {
    case Kind::Register:
      return (negated ? "!" : "") + name;
    case Kind::SpecialRegister:
      return name;
    case Kind::Immediate:
    case Kind::FloatImmediate:
      return value;
    case Kind::Vector:
      return "{" + join_operands(elements, ", ") + "}";
    case Kind::Memory: {
      std::string out = "[" + name;
      if (has_offset) out += name.empty() ? std::to_string(offset) : offset_suffix(offset);
      if (!elements.empty()) out += ", " + join_operands(elements, ", ");
      return out + "]";
    }
    case Kind::Symbol:
      return has_offset ? name + offset_suffix(offset) : name;
    case Kind::Sink:
      return "_";
    case Kind::PredicatePair:
      return join_operands(elements, "|");
    case Kind::List:
      return "(" + join_operands(elements, ", ") + ")";
  }
  return text;
}

std::string Instruction::full_opcode() const {
  std::string out = opcode;
  for (const auto& m : modifiers) out += "." + m;
  return out;
}

std::string Instruction::type() const {
  for (auto it = modifiers.rbegin(); it != modifiers.rend(); ++it)
    if (is_type_name(*it)) return *it;
  return "";
}

bool Instruction::has_modifier(const std::string& m) const {
  return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end();
}

std::optional<std::size_t> byte_array_size(const Param& p) {
  if (p.space != ".param" || p.types != std::vector<std::string>{".b8"}) return std::nullopt;
  const std::string& a = p.array;
  if (a.size() < 3 || a.size() > 11 || a.front() != '[' || a.back() != ']') return std::nullopt;
  const std::string n = a.substr(1, a.size() - 2);
  if (n.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::size_t(std::stoull(n));
}

bool is_type_name(const std::string& s) {
  static const std::array<const char*, 28> kTypes = {
      "b8",   "b16",    "b32",    "b64",  "b128",  "u8",     "u16",    "u32",   "u64", "s8",
      "s16",  "s32",    "s64",    "f16",  "f16x2", "bf16",   "bf16x2", "tf32",  "f32", "f64",
      "pred", "e4m3x2", "e5m2x2", "e4m3", "e5m2",  "e2m1x2", "e2m3x2", "e3m2x2"};
  return std::any_of(kTypes.begin(), kTypes.end(), [&](const char* t) { return s == t; });
}

std::string Module::sm_target() const {
  for (const auto& t : targets)
    if (t.rfind("sm_", 0) == 0 || t.rfind("compute_", 0) == 0) return t;
  return "";
}

const Function* Module::find_function(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace gpucmp::ptx
