#include "pass_shared32_addresses.h"

#include <iterator>

#include "literals.h"

namespace gpucmp::ptx::shared32 {

bool is_64bit_modifier(const std::string& m) { return m == "b64" || m == "u64" || m == "s64"; }

bool is_int32_immediate(const Operand& op) {
  if (op.kind != Operand::Kind::Immediate) return false;
  const bool negative = !op.value.empty() && op.value[0] == '-';
  long long v = 0;
  if (!parse_integer(negative ? op.value.substr(1) : op.value, v)) return false;
  return negative ? v <= 2147483648LL : v <= 2147483647LL;
}

int shared_address_index(const Instruction& ins) {
  static const std::set<std::string> kAccesses = {"ld", "st", "atom", "red"};
  if (!kAccesses.count(ins.opcode) ||
      !(ins.has_modifier("shared") || ins.has_modifier("shared::cta")))
    return -1;
  for (std::size_t k = 0; k < ins.operands.size(); ++k)
    if (ins.operands[k].kind == Operand::Kind::Memory) return static_cast<int>(k);
  return -1;
}

const Operand* address_of(const Instruction& ins) {
  const int k = shared_address_index(ins);
  return k < 0 ? nullptr : &ins.operands[k];
}

Registers64::Registers64(const Function& f) : classes_(f) {
  int depth = 0;
  for (const Statement& s : f.body) {
    depth += (s.kind == Statement::Kind::ScopeOpen) - (s.kind == Statement::Kind::ScopeClose);
    if (s.kind != Statement::Kind::RegDecl && s.kind != Statement::Kind::VarDecl) continue;
    for (const Declarator& d : s.decl.declarators) {
      prefixes_.insert(d.range ? d.name : split_register(d.name).prefix);
      if (depth > 0) not_top_.insert(d.name);
    }
  }
  for (const Param& p : f.params) {
    prefixes_.insert(split_register(p.name).prefix);
    not_top_.insert(p.name);
  }
}

namespace {

// Definition forms of an address register (part 1 in pass_shared32.cpp).
enum class Shape { None, Symbol, Copy, Add, Sub };

class AddressAnalysis {
 public:
  AddressAnalysis(const Function& f, const std::set<std::string>& shared_symbols,
                  const Registers64& types, const RegisterCounts& counts)
      : f_(f), symbols_(shared_symbols), types_(types), counts_(counts) {}

  // The largest set of registers that may hold addresses that qualifies, then
  // the ones connected to an access through their definitions: only they are rebuilt.
  AddressRegisters find(const std::vector<int>& accesses) const {
    AddressRegisters out;
    std::set<std::string> candidates = may_hold_addresses();
    for (bool dropped = true; dropped;) {
      dropped = false;
      for (auto it = candidates.begin(); it != candidates.end();) {
        const bool keep = refusal(*it, candidates).empty();
        dropped = dropped || !keep;
        it = keep ? std::next(it) : candidates.erase(it);
      }
    }
    std::vector<std::string> work;
    for (int a : accesses) {
      const std::string& base = address_of(at(a))->name;
      if (candidates.count(base))
        work.push_back(base);
      else if (!out.kept.count(base))
        out.kept[base] = refusal(base, candidates);
    }
    while (!work.empty()) {
      const std::string r = work.back();
      work.pop_back();
      if (!out.rebuilt.emplace(r, "").second) continue;
      for (int d : counts_.def_sites.at(r))
        if (const int k = address_index(at(d), candidates); k > 0)
          work.push_back(at(d).operands[k].name);
      if (const auto uses = counts_.use_sites.find(r); uses != counts_.use_sites.end())
        for (int u : uses->second)
          if (!address_of(at(u)) && allowed_reads(u, r, candidates))
            work.push_back(at(u).operands[0].name);
    }
    for (const auto& [r, register32] : out.rebuilt)
      for (int d : counts_.def_sites.at(r)) out.address_index[d] = address_index(at(d), candidates);
    return out;
  }

 private:
  const Instruction& at(std::size_t i) const { return f_.body[i].instruction; }

  static bool names_one_of(const Operand& op, const std::set<std::string>& set) {
    return op.kind == Operand::Kind::Register && set.count(op.name);
  }

  Shape shape_of(const Instruction& ins) const {
    const auto& ops = ins.operands;
    if (ins.modifiers.size() != 1 || !is_64bit_modifier(ins.modifiers[0]) || ops.empty() ||
        ops[0].kind != Operand::Kind::Register)
      return Shape::None;
    const auto reg64 = [&](const Operand& op) {
      return op.kind == Operand::Kind::Register && types_.is_64bit(op.name);
    };
    if (ins.opcode == "mov" && ops.size() == 2) {
      if (ops[1].kind == Operand::Kind::Symbol && symbols_.count(ops[1].name)) return Shape::Symbol;
      return reg64(ops[1]) ? Shape::Copy : Shape::None;
    }
    if ((ins.opcode != "add" && ins.opcode != "sub") || ins.modifiers[0] == "b64" ||
        ops.size() != 3)
      return Shape::None;
    for (int k : {1, 2})
      if (!reg64(ops[k]) && !is_int32_immediate(ops[k])) return Shape::None;
    return ins.opcode == "add" ? Shape::Add : Shape::Sub;
  }

  // The operand index of the address register a definition reads, given the
  // registers taken as addresses: 0 for mov of a symbol, -1 when none (or two).
  int address_index(const Instruction& ins, const std::set<std::string>& addresses) const {
    const Shape shape = shape_of(ins);
    if (shape == Shape::Symbol || shape == Shape::None) return shape == Shape::Symbol ? 0 : -1;
    const bool first = names_one_of(ins.operands[1], addresses);
    const bool second = shape == Shape::Add && names_one_of(ins.operands[2], addresses);
    return first == second ? -1 : first ? 1 : 2;
  }

  // How many of instruction i's reads of r part 1 allows: as the base of a
  // .shared access, or as the address a definition of another candidate reads.
  int allowed_reads(int i, const std::string& r, const std::set<std::string>& candidates) const {
    const Instruction& ins = at(i);
    if (const Operand* a = address_of(ins)) return a->name == r ? 1 : 0;
    if (ins.operands.empty() || !names_one_of(ins.operands[0], candidates)) return 0;
    const int k = address_index(ins, candidates);
    return k > 0 && ins.operands[k].name == r ? 1 : 0;
  }

  // Why r cannot be rebuilt with `candidates` as the other address registers; "" if it can.
  std::string refusal(const std::string& r, const std::set<std::string>& candidates) const {
    if (!types_.editable(r)) return "a parameter or declared in a { } scope";
    std::map<int, int> reads;  // statement -> reads of r there
    if (const auto uses = counts_.use_sites.find(r); uses != counts_.use_sites.end())
      for (int u : uses->second) ++reads[u];
    for (const auto& [u, n] : reads)
      if (n > allowed_reads(u, r, candidates)) return "also read by '" + at(u).full_opcode() + "'";
    const auto defs = counts_.def_sites.find(r);
    if (defs == counts_.def_sites.end()) return "not defined in the body";
    for (int d : defs->second) {
      if (shape_of(at(d)) == Shape::None) return "defined by '" + at(d).full_opcode() + "'";
      if (address_index(at(d), candidates) < 0)
        return "computed by '" + at(d).full_opcode() + "' from a register that stays 64-bit";
    }
    return "";
  }

  // Registers that may hold a .shared address: defined by mov of a .shared
  // symbol, or by an address step (mov, add, sub) from one.
  std::set<std::string> may_hold_addresses() const {
    std::set<std::string> out;
    for (bool grew = true; grew;) {
      grew = false;
      for (const Statement& s : f_.body) {
        const Shape shape =
            s.kind == Statement::Kind::Instruction ? shape_of(s.instruction) : Shape::None;
        const auto& ops = s.instruction.operands;
        if (shape != Shape::None && (shape == Shape::Symbol || names_one_of(ops[1], out) ||
                                     (shape == Shape::Add && names_one_of(ops[2], out))))
          grew = out.insert(ops[0].name).second || grew;
      }
    }
    return out;
  }

  const Function& f_;
  const std::set<std::string>& symbols_;
  const Registers64& types_;
  const RegisterCounts& counts_;
};

}  // namespace

AddressRegisters find_address_registers(const Function& f,
                                        const std::set<std::string>& shared_symbols,
                                        const Registers64& types, const RegisterCounts& counts,
                                        const std::vector<int>& accesses) {
  return AddressAnalysis(f, shared_symbols, types, counts).find(accesses);
}

}  // namespace gpucmp::ptx::shared32
