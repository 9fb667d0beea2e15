#include "classify.h"

#include <set>

namespace gpucmp::ptx {
namespace {

bool is_integer_type(const std::string& t) {
  static const std::set<std::string> kTypes = {"s16", "u16", "b16", "s32", "u32",
                                               "b32", "s64", "u64", "b64"};
  return kTypes.count(t) > 0;
}

// "shared" for ld.shared::cta.f32, "" when no state space is named.
std::string state_space(const Instruction& ins) {
  static const std::set<std::string> kSpaces = {"global", "shared", "const", "param", "local"};
  for (const auto& m : ins.modifiers) {
    std::string base = m.substr(0, m.find("::"));
    if (kSpaces.count(base)) return base;
  }
  return "";
}

std::string memory_class(const Instruction& ins, bool load) {
  const std::string space = state_space(ins);
  if (load) return space.empty() ? "ld.other" : "ld." + space;
  if (space == "global" || space == "shared" || space == "local") return "st." + space;
  return "st.other";
}

std::string arithmetic_class(const Instruction& ins) {
  const std::string type = ins.type();
  if (type == "f32" || type == "f64") return ins.opcode + "." + type;
  if (is_integer_type(type)) return "int.addr";
  return "other";
}

}  // namespace

const std::vector<std::string>& class_names() {
  static const std::vector<std::string> kNames = {
      "ld.global", "st.global", "ld.shared", "st.shared", "ld.const", "ld.param", "ld.local",
      "st.local",  "ld.other",  "st.other",  "fma.f32",   "fma.f64",  "mad.f32",  "mad.f64",
      "mul.f32",   "mul.f64",   "add.f32",   "add.f64",   "sub.f32",  "sub.f64",  "int.addr",
      "sfu",       "div",       "sqrt",      "setp",      "bra",      "cvt",      "mov",
      "call",      "bar",       "other"};
  return kNames;
}

std::string instruction_class(const Instruction& ins) {
  const std::string& op = ins.opcode;
  if (op == "ld" || op == "ldu") return memory_class(ins, true);
  if (op == "st") return memory_class(ins, false);
  if (op == "fma" || op == "mad" || op == "mul" || op == "add" || op == "sub")
    return arithmetic_class(ins);
  if (op == "mul24" || op == "mad24" || op == "shl" || op == "cvta") return "int.addr";
  if (op == "sin" || op == "cos" || op == "rsqrt" || op == "ex2" || op == "lg2" || op == "tanh")
    return "sfu";
  if (op == "sqrt" || op == "rcp") {
    if (ins.has_modifier("approx")) return "sfu";
    return op == "sqrt" ? "sqrt" : "div";
  }
  if (op == "div") return "div";
  if (op == "setp" || op == "set") return "setp";
  if (op == "bra" || op == "brx") return "bra";
  if (op == "cvt") return "cvt";
  if (op == "mov") return "mov";
  if (op == "call") return "call";
  if (op == "bar" || op == "barrier") return "bar";
  return "other";
}

}  // namespace gpucmp::ptx
