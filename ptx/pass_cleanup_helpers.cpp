// Helpers shared by the steps of pass_cleanup (pass_cleanup_steps.h).
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "pass_cleanup_steps.h"
#include "registers.h"

namespace gpucmp::ptx::cleanup {
namespace {

// ".u32" / ".s32" / ".b32" -> ".b32": mov.u32 and mov.b32 both accept any of them.
std::string fold_class(const std::string& type) {
  if (type.size() > 2 && (type[1] == 'u' || type[1] == 's') &&
      std::isdigit(static_cast<unsigned char>(type[2])))
    return ".b" + type.substr(2);
  return type;
}

void rename_operand(Operand& op, const std::function<std::string(const std::string&)>& rename) {
  switch (op.kind) {
    case Operand::Kind::Register:
    case Operand::Kind::Memory:
    case Operand::Kind::Symbol:
      if (!op.name.empty()) op.name = rename(op.name);
      break;
    default:
      break;
  }
  for (Operand& e : op.elements) rename_operand(e, rename);
}

}  // namespace

RegisterClasses::RegisterClasses(const Function& f) {
  for (const Param& p : f.params)
    if (p.space == ".reg" && !p.types.empty()) singles_[p.name] = fold_class(p.types.back());
  for (const Statement& s : f.body) {
    if (s.kind != Statement::Kind::RegDecl || s.decl.types.empty()) continue;
    const std::string cls = fold_class(s.decl.types.back());
    for (const Declarator& d : s.decl.declarators) (d.range ? ranges_ : singles_)[d.name] = cls;
  }
}

std::string RegisterClasses::of(const std::string& reg) const {
  const auto single = singles_.find(reg);
  if (single != singles_.end()) return single->second;
  const RegisterName split = split_register(reg);
  if (split.number.empty() || !split.suffix.empty()) return "";
  const auto range = ranges_.find(split.prefix);
  return range == ranges_.end() ? "" : range->second;
}

int type_bits(const std::string& type) {
  std::size_t digits = 0;
  while (digits < type.size() && !std::isdigit(static_cast<unsigned char>(type[digits]))) ++digits;
  if (digits == 0 || digits == type.size() || type.find('x') != std::string::npos) return 0;
  const std::string kind = type.substr(0, digits);
  if (kind != "b" && kind != "u" && kind != "s" && kind != "f") return 0;
  return std::atoi(type.c_str() + digits);
}

bool is_float_type(const std::string& type) { return type == "f32" || type == "f64"; }

void rename_names(Instruction& ins, const std::function<std::string(const std::string&)>& rename) {
  if (ins.guard) ins.guard = rename(*ins.guard);
  for (Operand& op : ins.operands) rename_operand(op, rename);
}

Operand register_operand(const std::string& name) {
  Operand op;
  op.kind = Operand::Kind::Register;
  op.name = name;
  op.text = name;
  return op;
}

Operand symbol_operand(const std::string& name) {
  Operand op;
  op.kind = Operand::Kind::Symbol;
  op.name = name;
  op.text = name;
  return op;
}

Instruction make_instruction(const std::string& opcode, std::vector<std::string> modifiers,
                             std::vector<Operand> operands) {
  Instruction ins;
  ins.opcode = opcode;
  ins.modifiers = std::move(modifiers);
  ins.operands = std::move(operands);
  return ins;
}

int declaration_insertion_point(const Function& f) {
  int after = 0;
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    const Statement::Kind k = f.body[i].kind;
    if (k == Statement::Kind::RegDecl || k == Statement::Kind::VarDecl)
      after = static_cast<int>(i) + 1;
    if (k == Statement::Kind::Instruction || k == Statement::Kind::Label ||
        k == Statement::Kind::ScopeOpen)
      break;
  }
  return after;
}

void drop_declarators(Function& f, const std::set<std::string>& names, std::vector<bool>& remove) {
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    Statement& s = f.body[i];
    if (s.kind != Statement::Kind::RegDecl && s.kind != Statement::Kind::VarDecl) continue;
    auto& ds = s.decl.declarators;
    const std::size_t size = ds.size();
    ds.erase(std::remove_if(ds.begin(), ds.end(),
                            [&](const Declarator& d) { return !d.range && names.count(d.name); }),
             ds.end());
    if (ds.empty() && size > 0) remove[i] = true;
  }
}

std::optional<std::string> direct_callee(const Instruction& ins) {
  if (ins.opcode != "call") return std::nullopt;
  for (const Operand& op : ins.operands) {
    if (op.kind == Operand::Kind::Symbol) return op.name;
    if (op.kind != Operand::Kind::List) return std::nullopt;  // indirect: through a register
  }
  return std::nullopt;
}

}  // namespace gpucmp::ptx::cleanup
