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
//
// Part 1 (which registers qualify) is pass_shared32_addresses.cpp; this file
// makes the 32-bit registers and twins and writes the new body.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pass_cleanup_steps.h"
#include "pass_common.h"
#include "pass_shared32_addresses.h"
#include "passes.h"

namespace gpucmp::ptx::shared32 {
namespace {

using cleanup::register_operand;

Statement instruction_statement(const std::string& opcode, std::vector<std::string> modifiers,
                                std::vector<Operand> operands, const Instruction& guarded_like) {
  Statement s;
  s.instruction = cleanup::make_instruction(opcode, std::move(modifiers), std::move(operands));
  s.instruction.guard = guarded_like.guard;
  s.instruction.guard_negated = guarded_like.guard_negated;
  return s;
}

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

  // Part 1 (pass_shared32_addresses.h), then a 32-bit register for each address
  // register, named before any twin.
  void find_address_registers(const std::vector<int>& accesses) {
    AddressRegisters found =
        shared32::find_address_registers(f_, symbols_, types_, counts_, accesses);
    rebuilt_ = std::move(found.rebuilt);
    address_index_ = std::move(found.address_index);
    kept_ = std::move(found.kept);
    for (auto& entry : rebuilt_) entry.second = fresh();
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
}  // namespace gpucmp::ptx::shared32

namespace gpucmp::ptx {

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
    PassReport r = shared32::Shared32(f, symbols).run();
    report.changed += r.changed;
    report.notes.insert(report.notes.end(), r.notes.begin(), r.notes.end());
  }
  return report;
}

}  // namespace gpucmp::ptx
