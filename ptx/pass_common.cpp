#include "pass_common.h"

#include <algorithm>

#include "cfg.h"
#include "registers.h"

namespace gpucmp::ptx {
namespace {

// Opcodes whose operand 0 is read (or read and written), not only written.
bool reads_operand_zero(const Instruction& ins) {
  static const std::set<std::string> kReaders = {
      "st",        "red",     "bra",      "brx",       "bar",           "barrier",
      "nanosleep", "pmevent", "prefetch", "prefetchu", "applypriority", "discard",
      "wgmma",     "tcgen05", "stmatrix", "sust",      "sured",         "cp",
      "mbarrier",  "call",    "ret"};
  return kReaders.count(ins.opcode) > 0;
}

void collect_names(const Operand& op, std::vector<std::string>& out) {
  switch (op.kind) {
    case Operand::Kind::Register:
      out.push_back(op.name);
      break;
    case Operand::Kind::Memory:
      if (!op.name.empty()) out.push_back(op.name);
      for (const Operand& e : op.elements) collect_names(e, out);
      break;
    case Operand::Kind::Vector:
    case Operand::Kind::PredicatePair:
    case Operand::Kind::List:
      for (const Operand& e : op.elements) collect_names(e, out);
      break;
    default:
      break;
  }
}

bool mentions_special_register(const Operand& op, bool& invariant_only) {
  bool any = false;
  if (op.kind == Operand::Kind::SpecialRegister) {
    any = true;
    if (!is_invariant_special_register(op.name)) invariant_only = false;
  }
  for (const Operand& e : op.elements) any = mentions_special_register(e, invariant_only) || any;
  return any;
}

bool mentions(const Operand& op, Operand::Kind kind) {
  if (op.kind == kind) return true;
  return std::any_of(op.elements.begin(), op.elements.end(),
                     [kind](const Operand& e) { return mentions(e, kind); });
}

}  // namespace

std::vector<std::string> defined_registers(const Instruction& ins) {
  std::vector<std::string> out;
  if (!ins.operands.empty() && ins.operands[0].kind != Operand::Kind::Memory)
    collect_names(ins.operands[0], out);
  return out;
}

std::vector<std::string> used_registers(const Instruction& ins) {
  std::vector<std::string> out;
  if (ins.guard) out.push_back(*ins.guard);
  for (std::size_t i = 0; i < ins.operands.size(); ++i) {
    const Operand& op = ins.operands[i];
    if (i > 0 || op.kind == Operand::Kind::Memory || reads_operand_zero(ins))
      collect_names(op, out);
  }
  return out;
}

int RegisterCounts::def_count(const std::string& r) const {
  const auto it = defs.find(r);
  return it == defs.end() ? 0 : it->second;
}

int RegisterCounts::use_count(const std::string& r) const {
  const auto it = uses.find(r);
  return it == uses.end() ? 0 : it->second;
}

RegisterCounts count_registers(const Function& f) {
  RegisterCounts c;
  for (const Param& p : f.params) ++c.defs[p.name];
  if (f.return_params)
    for (const Param& p : *f.return_params) {
      ++c.defs[p.name];
      ++c.uses[p.name];
    }
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    const Statement& s = f.body[i];
    if (s.kind != Statement::Kind::Instruction) continue;
    for (const std::string& r : defined_registers(s.instruction)) {
      ++c.defs[r];
      c.def_sites[r].push_back(static_cast<int>(i));
    }
    for (const std::string& r : used_registers(s.instruction)) {
      ++c.uses[r];
      c.use_sites[r].push_back(static_cast<int>(i));
    }
  }
  return c;
}

bool is_invariant_special_register(const std::string& name) {
  const std::string base = name.substr(0, name.find('.'));
  return base == "%tid" || base == "%ntid" || base == "%ctaid" || base == "%nctaid";
}

std::set<std::string> body_declared_names(const Function& f) {
  std::set<std::string> out;
  for (const Statement& s : f.body)
    if (s.kind == Statement::Kind::VarDecl)
      for (const Declarator& d : s.decl.declarators) out.insert(d.name);
  return out;
}

bool is_pure(const Instruction& ins, const std::set<std::string>& body_names) {
  static const std::set<std::string> kPure = {
      "add",   "sub",  "mul",  "mad",  "mul24", "mad24",    "fma", "div",  "rem",   "abs",
      "neg",   "min",  "max",  "and",  "or",    "xor",      "not", "cnot", "shl",   "shr",
      "selp",  "slct", "setp", "set",  "cvt",   "cvta",     "mov", "sad",  "popc",  "clz",
      "bfind", "brev", "bfe",  "bfi",  "prmt",  "copysign", "rcp", "sqrt", "rsqrt", "sin",
      "cos",   "lg2",  "ex2",  "tanh", "testp", "lop3",     "shf", "dp4a", "dp2a"};
  if (ins.guard || !kPure.count(ins.opcode) || ins.has_modifier("cc")) return false;
  if (ins.operands.size() < 2 || ins.operands[0].kind != Operand::Kind::Register) return false;
  for (std::size_t i = 1; i < ins.operands.size(); ++i) {
    const Operand& op = ins.operands[i];
    if (mentions(op, Operand::Kind::Memory) || mentions(op, Operand::Kind::List)) return false;
    bool invariant_only = true;
    if (mentions_special_register(op, invariant_only) && !invariant_only) return false;
    if (op.kind == Operand::Kind::Symbol && body_names.count(op.name)) return false;
    if (op.kind == Operand::Kind::Register && body_names.count(op.name)) return false;
  }
  return true;
}

void rename_operand_registers(Operand& op, const std::map<std::string, std::string>& renames) {
  if (op.kind == Operand::Kind::Register || op.kind == Operand::Kind::Memory) {
    const auto it = renames.find(op.name);
    if (it != renames.end()) {
      op.name = it->second;
      if (op.kind == Operand::Kind::Register) op.text = (op.negated ? "!" : "") + op.name;
    }
  }
  for (Operand& e : op.elements) rename_operand_registers(e, renames);
}

void rename_uses(Instruction& ins, const std::map<std::string, std::string>& renames) {
  if (ins.guard) {
    const auto it = renames.find(*ins.guard);
    if (it != renames.end()) ins.guard = it->second;
  }
  for (std::size_t i = 0; i < ins.operands.size(); ++i) {
    Operand& op = ins.operands[i];
    if (i > 0 || op.kind == Operand::Kind::Memory || reads_operand_zero(ins))
      rename_operand_registers(op, renames);
  }
}

void erase_statements(Function& f, const std::vector<bool>& remove) {
  std::vector<Statement> kept;
  kept.reserve(f.body.size());
  for (std::size_t i = 0; i < f.body.size(); ++i)
    if (!remove[i]) kept.push_back(std::move(f.body[i]));
  f.body = std::move(kept);
  build_blocks(f);
}

int insertion_point(const Function& f, int block) {
  const BasicBlock& b = f.blocks[block];
  for (int i = b.end - 1; i >= b.begin; --i) {
    const Statement& s = f.body[i];
    if (s.kind != Statement::Kind::Instruction) continue;
    return is_terminator(s.instruction) ? i : b.end;
  }
  return b.end;
}

}  // namespace gpucmp::ptx
