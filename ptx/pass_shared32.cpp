// pass_shared32(): 64-bit .shared addressing -> 32-bit, as nvcc emits it (passes.h).
//
// Why: NVIDIA's OpenCL PTX addresses its __local tiles through 64-bit registers
// (mov.u64 %rd16, matrixMul_$_As; add.s64; ld.shared.f32 %f8, [%rd4+64]), nvcc's
// through 32-bit ones (mov.u32; add.s32; [%r8+64]); the driver's JIT then reads
// LDS at [R+UR+imm] for OpenCL and [R+imm] for nvcc. The pass prices that alone.
//
// Why the program computes the same: a .shared window address fits in 32 bits
// (PTX truncates addresses with cvt.u32.u64), and the low 32 bits of a sum,
// difference, product or left shift depend only on the operands' low 32 bits,
// so an address chain done modulo 2^32 ends at the same address.
//
// How: (1) address registers -- 64-bit, declared at the top of the body, every
// definition a mov of a .shared symbol or a mov/add/sub of another address
// register (plus a 64-bit register or int32 immediate), every read the base of
// an ld/st/atom/red.shared or such a definition's address operand -- are
// rebuilt in place in 32 bits (mov.u32 sym; add.s32). (2) Their register
// offsets get a 32-bit twin written right after each of the offset's
// definitions, with its guard, so it holds the low half wherever the offset is
// read (mul.wide.s32 -> mul.lo.s32, cvt.s64.s32 -> mov.b32, shl/add/sub/mul.lo/
// mov on twins, else cvt.u32.u64); offsets left unread are removed. (3) Any
// other access through a 64-bit register gets cvt.u32.u64 of it right before.
// .shared::cluster is left alone. New registers: `.reg .b32 %rsh<N>`.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "literals.h"
#include "pass_cleanup_steps.h"
#include "pass_common.h"
#include "passes.h"
#include "registers.h"

namespace gpucmp::ptx {
namespace {

using cleanup::register_operand;

bool is_64bit_modifier(const std::string& m) { return m == "b64" || m == "u64" || m == "s64"; }

// An integer immediate whose value means the same as a .s32 operand.
bool is_int32_immediate(const Operand& op) {
  if (op.kind != Operand::Kind::Immediate) return false;
  const bool negative = !op.value.empty() && op.value[0] == '-';
  long long v = 0;
  if (!parse_integer(negative ? op.value.substr(1) : op.value, v)) return false;
  return negative ? v <= 2147483648LL : v <= 2147483647LL;
}

Statement instruction_statement(const std::string& opcode, std::vector<std::string> modifiers,
                                std::vector<Operand> operands, const Instruction& guarded_like) {
  Statement s;
  s.instruction = cleanup::make_instruction(opcode, std::move(modifiers), std::move(operands));
  s.instruction.guard = guarded_like.guard;
  s.instruction.guard_negated = guarded_like.guard_negated;
  return s;
}

// The index of the memory operand of an ld/st/atom/red on .shared or
// .shared::cta, or -1 for any other instruction.
int shared_address_index(const Instruction& ins) {
  static const std::set<std::string> kAccesses = {"ld", "st", "atom", "red"};
  if (!kAccesses.count(ins.opcode) ||
      !(ins.has_modifier("shared") || ins.has_modifier("shared::cta")))
    return -1;
  for (std::size_t k = 0; k < ins.operands.size(); ++k)
    if (ins.operands[k].kind == Operand::Kind::Memory) return static_cast<int>(k);
  return -1;
}

// 64-bit registers of a function, and which of them the pass may edit the
// definitions of: those declared at the top of the body (not parameters, not
// in a { } scope that may shadow them). Also a prefix no declared name uses.
class Registers64 {
 public:
  explicit Registers64(const Function& f) : classes_(f) {
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

  bool is_64bit(const std::string& r) const { return classes_.of(r) == ".b64"; }
  bool editable(const std::string& r) const {
    return is_64bit(r) && !not_top_.count(r) && !not_top_.count(split_register(r).prefix);
  }
  std::string fresh_prefix(std::string wanted) const {
    while (prefixes_.count(wanted)) wanted += "_";
    return wanted;
  }

 private:
  cleanup::RegisterClasses classes_;
  std::set<std::string>
      not_top_;  // names (or range prefixes) of parameters and scoped declarations
  std::set<std::string> prefixes_;  // of every declared name
};

// Definition forms of an address register (part 1 above).
enum class Shape { None, Symbol, Copy, Add, Sub };

class Shared32 {
 public:
  Shared32(Function& f, const std::set<std::string>& shared_symbols)
      : f_(f), symbols_(shared_symbols), types_(f), counts_(count_registers(f)) {}

  PassReport run() {
    PassReport r{"shared32", 0, {}};
    std::vector<int> accesses;
    int cluster = 0;
    for (std::size_t i = 0; i < f_.body.size(); ++i) {
      if (f_.body[i].kind != Statement::Kind::Instruction) continue;
      cluster += at(i).has_modifier("shared::cluster");
      if (const Operand* a = address_of(at(i)); a && types_.is_64bit(a->name))
        accesses.push_back(static_cast<int>(i));
    }
    if (cluster > 0)
      r.notes.push_back(f_.name + ": " + std::to_string(cluster) +
                        " instructions on .shared::cluster left alone");
    if (accesses.empty()) return r;
    prefix_ = types_.fresh_prefix("%rsh");
    find_address_registers(accesses);
    lower_offsets();
    const int through_cvt = rewrite(accesses);
    remove_dead_offsets();
    Statement decl;
    decl.kind = Statement::Kind::RegDecl;
    decl.decl.space = ".reg";
    decl.decl.types = {".b32"};
    decl.decl.declarators.push_back({prefix_, next_, "", ""});
    f_.body.insert(f_.body.begin() + cleanup::declaration_insertion_point(f_), std::move(decl));
    r.changed = static_cast<int>(accesses.size());
    r.notes.push_back(f_.name + ": " + std::to_string(r.changed) +
                      " .shared accesses to 32-bit addresses (" +
                      std::to_string(r.changed - through_cvt) + " through " +
                      std::to_string(rebuilt_.size()) + " address registers rebuilt in 32 bits, " +
                      std::to_string(through_cvt) + " on a 32-bit copy of a 64-bit base)");
    for (const auto& [reg, why] : kept_)
      r.notes.push_back(f_.name + ": " + reg + " stays 64-bit: " + why);
    return r;
  }

 private:
  const Instruction& at(std::size_t i) const { return f_.body[i].instruction; }
  std::string fresh() { return prefix_ + std::to_string(next_++); }

  static const Operand* address_of(const Instruction& ins) {
    const int k = shared_address_index(ins);
    return k < 0 ? nullptr : &ins.operands[k];
  }
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

  // Part 1: the largest set of those that qualifies, then the ones connected
  // to an access through their definitions: only they are rebuilt.
  void find_address_registers(const std::vector<int>& accesses) {
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
      else if (!kept_.count(base))
        kept_[base] = refusal(base, candidates);
    }
    while (!work.empty()) {
      const std::string r = work.back();
      work.pop_back();
      if (!rebuilt_.emplace(r, "").second) continue;
      for (int d : counts_.def_sites.at(r))
        if (const int k = address_index(at(d), candidates); k > 0)
          work.push_back(at(d).operands[k].name);
      if (const auto uses = counts_.use_sites.find(r); uses != counts_.use_sites.end())
        for (int u : uses->second)
          if (!address_of(at(u)) && allowed_reads(u, r, candidates))
            work.push_back(at(u).operands[0].name);
    }
    for (auto& [r, register32] : rebuilt_) {
      register32 = fresh();
      for (int d : counts_.def_sites.at(r)) address_index_[d] = address_index(at(d), candidates);
    }
  }

  // Whether `op` has a 32-bit low half with no instruction at the point of
  // use: an immediate that fits, or a register that can have a twin.
  bool has_low_half(const Operand& op) const {
    if (op.kind != Operand::Kind::Register) return is_int32_immediate(op);
    return types_.editable(op.name) && counts_.def_sites.count(op.name) && !rebuilt_.count(op.name);
  }

  // That low half; a register's twin is queued for part 2 when new.
  Operand low_half(const Operand& op) {
    if (op.kind != Operand::Kind::Register) return op;
    auto [it, added] = twins_.emplace(op.name, "");
    if (added) {
      it->second = fresh();
      queue_.push_back(op.name);
    }
    return register_operand(it->second);
  }

  // The twin's definition after definition `ins` of offset register r (part 2).
  Statement twin_definition(const Instruction& ins, const std::string& r, const std::string& twin) {
    const auto& ops = ins.operands;
    const auto& mods = ins.modifiers;
    const Operand t = register_operand(twin);
    const bool one_result =
        !ops.empty() && ops[0].kind == Operand::Kind::Register && ops[0].name == r;
    const bool from_32 = mods.size() == 2 && (mods[1] == "s32" || mods[1] == "u32");
    if (one_result && ins.opcode == "mul" && ops.size() == 3 && from_32 && mods[0] == "wide")
      return instruction_statement("mul", {"lo", mods[1]}, {t, ops[1], ops[2]}, ins);
    if (one_result && ins.opcode == "cvt" && ops.size() == 2 && from_32 &&
        (mods[0] == "s64" || mods[0] == "u64"))
      return instruction_statement("mov", {"b32"}, {t, ops[1]}, ins);
    const bool plain = mods.size() == 1 && is_64bit_modifier(mods[0]);
    const bool lo = mods.size() == 2 && mods[0] == "lo" && (mods[1] == "s64" || mods[1] == "u64");
    const bool copy = ins.opcode == "mov" && plain && ops.size() == 2;
    const bool shift = ins.opcode == "shl" && plain && mods[0] == "b64" && ops.size() == 3;
    const bool add_sub = (ins.opcode == "add" || ins.opcode == "sub") && plain && mods[0] != "b64";
    const bool arithmetic = ops.size() == 3 && ((ins.opcode == "mul" && lo) || add_sub);
    if (!one_result || !(copy || shift || arithmetic) || !has_low_half(ops[1]) ||
        (arithmetic && !has_low_half(ops[2])))
      return instruction_statement("cvt", {"u32", "u64"}, {t, register_operand(r)}, ins);
    if (copy) return instruction_statement("mov", {"b32"}, {t, low_half(ops[1])}, ins);
    if (shift) return instruction_statement("shl", {"b32"}, {t, low_half(ops[1]), ops[2]}, ins);
    return instruction_statement(
        ins.opcode, lo ? std::vector<std::string>{"lo", "s32"} : std::vector<std::string>{"s32"},
        {t, low_half(ops[1]), low_half(ops[2])}, ins);
  }

  // Part 2: a twin for every register offset a rebuilt definition adds, and for
  // the 64-bit values those twins are computed from.
  void lower_offsets() {
    for (const auto& [d, k] : address_index_)
      if (k > 0 && at(d).operands.size() == 3 &&
          at(d).operands[3 - k].kind == Operand::Kind::Register &&
          has_low_half(at(d).operands[3 - k]))
        low_half(at(d).operands[3 - k]);
    while (!queue_.empty()) {
      const std::string r = queue_.back();
      queue_.pop_back();
      for (int d : counts_.def_sites.at(r))
        twins_after_[d].push_back(twin_definition(at(d), r, twins_.at(r)));
    }
  }

  // The new body: rebuilt definitions, twins after the offsets' definitions,
  // accesses on 32-bit bases. Returns how many accesses went through a cvt.
  int rewrite(const std::vector<int>& accesses) {
    const std::set<int> access_set(accesses.begin(), accesses.end());
    std::vector<Statement> body;
    int through_cvt = 0;
    for (int i = 0; i < static_cast<int>(f_.body.size()); ++i) {
      Statement s = f_.body[i];
      const Instruction& ins = at(i);
      // A 32-bit operand for `op`: its twin, an immediate, or a cvt.u32.u64 right here.
      const auto low_here = [&](const Operand& op) {
        if (op.kind == Operand::Kind::Register && twins_.count(op.name))
          return register_operand(twins_.at(op.name));
        if (is_int32_immediate(op)) return op;
        const std::string converted = fresh();
        body.push_back(
            instruction_statement("cvt", {"u32", "u64"}, {register_operand(converted), op}, ins));
        return register_operand(converted);
      };
      if (const auto rebuilt = address_index_.find(i); rebuilt != address_index_.end()) {
        const int k = rebuilt->second;
        std::vector<Operand> ops = {register_operand(rebuilt_.at(ins.operands[0].name))};
        for (std::size_t j = 1; j < ins.operands.size(); ++j)
          ops.push_back(k == 0 ? ins.operands[j]
                        : static_cast<int>(j) == k
                            ? register_operand(rebuilt_.at(ins.operands[j].name))
                            : low_here(ins.operands[j]));
        const bool mov =
            ins.opcode == "mov";  // of the symbol (nvcc's mov.u32) or of an address register
        s = instruction_statement(ins.opcode, {mov ? "u32" : "s32"}, ops, ins);
      } else if (access_set.count(i)) {
        Operand& address = s.instruction.operands[shared_address_index(ins)];
        if (const auto base = rebuilt_.find(address.name); base != rebuilt_.end()) {
          address.name = base->second;
        } else {
          address.name = low_here(register_operand(address.name)).name;
          ++through_cvt;
        }
        address.text = address.str();
      }
      body.push_back(std::move(s));
      if (const auto twins = twins_after_.find(i); twins != twins_after_.end())
        body.insert(body.end(), twins->second.begin(), twins->second.end());
    }
    f_.body = std::move(body);
    return through_cvt;
  }

  // 64-bit offsets whose only readers were rebuilt definitions: unread now.
  void remove_dead_offsets() {
    const std::set<std::string> body_names = body_declared_names(f_);
    for (bool removed = true; removed;) {
      const RegisterCounts counts = count_registers(f_);
      std::vector<bool> remove(f_.body.size(), false);
      removed = false;
      for (const auto& [r, twin] : twins_) {
        const auto defs = counts.def_sites.find(r);
        if (counts.use_count(r) > 0 || defs == counts.def_sites.end()) continue;
        for (int d : defs->second) {
          Instruction unguarded = at(d);  // a guarded pure instruction nothing reads is dead too
          unguarded.guard.reset();
          if (is_pure(unguarded, body_names)) remove[d] = removed = true;
        }
      }
      erase_statements(f_, remove);
    }
  }

  Function& f_;
  const std::set<std::string>& symbols_;
  const Registers64 types_;
  const RegisterCounts counts_;  // of the body as it came in: the analysis's statement indices
  std::string prefix_;
  int next_ = 0;
  std::map<std::string, std::string> rebuilt_;  // address register -> its 32-bit register
  std::map<int, int> address_index_;            // their definitions -> operand read as the address
  std::map<std::string, std::string> twins_;    // offset register -> its 32-bit twin
  std::vector<std::string> queue_;              // twins whose definitions are still to make
  std::map<int, std::vector<Statement>> twins_after_;  // definition -> twin definitions after it
  std::map<std::string, std::string> kept_;            // access base left 64-bit -> why
};

}  // namespace

PassReport pass_shared32(Module& m) {
  PassReport report{"shared32", 0, {}};
  std::set<std::string> module_symbols;
  for (const ModuleItem& item : m.items)
    if (item.kind == ModuleItem::Kind::Variable && item.variable.space == ".shared")
      for (const Declarator& d : item.variable.declarators) module_symbols.insert(d.name);
  for (Function& f : m.functions) {
    if (!f.has_body) continue;
    std::set<std::string> symbols = module_symbols;
    for (const Statement& s : f.body)
      if (s.kind == Statement::Kind::VarDecl && s.decl.space == ".shared")
        for (const Declarator& d : s.decl.declarators) symbols.insert(d.name);
    PassReport r = Shared32(f, symbols).run();
    report.changed += r.changed;
    report.notes.insert(report.notes.end(), r.notes.begin(), r.notes.end());
  }
  return report;
}

}  // namespace gpucmp::ptx
