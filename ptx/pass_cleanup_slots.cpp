// Stack-slot promotion (pass_cleanup_steps.h: promote_stack_slots). clang -O0
// keeps every variable in the local depot:
//   mov.u64 %SPL, __local_depot0;   cvta.local.u64 %SP, %SPL;
//   st.u32 [%SP+24], %r1;   ...   ld.u32 %r9, [%SP+24];
// While the depot's address is only ever used as the base of such fixed-offset
// loads and stores, each offset is an independent variable and can live in a
// register: the ld/st become movs to and from %sl24.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <set>

#include "cfg.h"
#include "pass_cleanup_steps.h"
#include "pass_common.h"
#include "printer.h"

namespace gpucmp::ptx::cleanup {
namespace {

struct Access {
  int statement;
  std::string type;  // the ld/st type ("u32")
};

struct Depot {
  std::string name;                                   // __local_depot0
  std::vector<int> setup;                             // the mov and cvta making its bases
  std::set<std::string> bases;                        // %SPL, %SP
  std::string escape;                                 // a use that is not a slot access
  std::map<std::int64_t, std::vector<Access>> slots;  // by byte offset
};

// ld/st of one value at [base+k]: [%SPL+k] with ld.local/st.local, [%SP+k]
// with generic ld/st; no vector, volatile or other qualifier.
bool is_slot_access(const Instruction& ins, const std::string& base, bool local_window) {
  if ((ins.opcode != "ld" && ins.opcode != "st") || ins.operands.size() != 2) return false;
  const std::size_t space = local_window ? 1 : 0;
  if (ins.modifiers.size() != space + 1 || (local_window && ins.modifiers[0] != "local"))
    return false;
  if (type_bits(ins.modifiers.back()) == 0) return false;
  const bool load = ins.opcode == "ld";
  const Operand& mem = ins.operands[load ? 1 : 0];
  const Operand& value = ins.operands[load ? 0 : 1];
  if (mem.kind != Operand::Kind::Memory || mem.name != base || !mem.elements.empty()) return false;
  const bool plain_value = value.kind == Operand::Kind::Register ||
                           value.kind == Operand::Kind::Immediate ||
                           value.kind == Operand::Kind::FloatImmediate;
  if (load ? !value.is_register() : !plain_value) return false;
  return !(value.is_register() && value.name == base);  // storing the address lets it escape
}

// A statement for a note: printed, without the tab between opcode and operands.
std::string one_line(const Statement& s) {
  std::string text = print(s);
  text.erase(std::remove(text.begin(), text.end(), '\t'), text.end());
  return text;
}

bool names_symbol(const Operand& op, const std::string& symbol) {
  if ((op.kind == Operand::Kind::Symbol || op.kind == Operand::Kind::Memory) && op.name == symbol)
    return true;
  for (const Operand& e : op.elements)
    if (names_symbol(e, symbol)) return true;
  return false;
}

// The depots of f, with their bases, set-up statements and accesses.
std::vector<Depot> find_depots(const Function& f) {
  std::vector<Depot> depots;
  for (const Statement& s : f.body)
    if (s.kind == Statement::Kind::VarDecl && s.decl.space == ".local")
      for (const Declarator& d : s.decl.declarators)
        if (d.name.rfind("__local_depot", 0) == 0) depots.push_back({d.name, {}, {}, {}, {}});
  if (depots.empty()) return depots;
  const RegisterCounts counts = count_registers(f);
  std::map<std::string, std::pair<std::size_t, bool>>
      base_of;                                // register -> (depot, local window?)
  for (const bool generic : {false, true}) {  // the movs first, then the cvtas reading them
    for (std::size_t i = 0; i < f.body.size(); ++i) {
      const Instruction& ins = f.body[i].instruction;
      if (f.body[i].kind != Statement::Kind::Instruction || ins.guard || ins.operands.size() != 2 ||
          !ins.operands[0].is_register() || counts.def_count(ins.operands[0].name) != 1)
        continue;
      const Operand& from = ins.operands[1];
      for (std::size_t d = 0; d < depots.size(); ++d) {
        const bool mov = !generic && ins.opcode == "mov" && from.kind == Operand::Kind::Symbol &&
                         from.name == depots[d].name && !from.has_offset;
        const auto window = base_of.find(from.name);
        const bool cvta = generic && ins.opcode == "cvta" && ins.has_modifier("local") &&
                          from.is_register() && window != base_of.end() &&
                          window->second == std::pair(d, true);
        if (!mov && !cvta) continue;
        base_of[ins.operands[0].name] = {d, mov};
        depots[d].bases.insert(ins.operands[0].name);
        depots[d].setup.push_back(static_cast<int>(i));
      }
    }
  }
  for (std::size_t i = 0; i < f.body.size(); ++i) {
    const Statement& s = f.body[i];
    if (s.kind != Statement::Kind::Instruction) continue;
    for (Depot& depot : depots) {
      if (std::find(depot.setup.begin(), depot.setup.end(), static_cast<int>(i)) !=
          depot.setup.end())
        continue;
      for (const Operand& op : s.instruction.operands)
        if (depot.escape.empty() && names_symbol(op, depot.name)) depot.escape = one_line(s);
    }
    for (const std::string& reg : used_registers(s.instruction)) {
      const auto base = base_of.find(reg);
      if (base == base_of.end()) continue;
      Depot& depot = depots[base->second.first];
      const bool is_setup = std::find(depot.setup.begin(), depot.setup.end(),
                                      static_cast<int>(i)) != depot.setup.end();
      if (is_slot_access(s.instruction, reg, base->second.second)) {
        const Operand& mem = s.instruction.operands[s.instruction.opcode == "ld" ? 1 : 0];
        depot.slots[mem.offset].push_back({static_cast<int>(i), s.instruction.type()});
      } else if (!is_setup && depot.escape.empty()) {
        depot.escape = one_line(s);
      }
    }
  }
  return depots;
}

const Operand& value_of(const Instruction& ins) { return ins.operands[ins.opcode == "ld" ? 0 : 1]; }

// Width of the register an access loads into or stores from: ld.s32 may fill
// a 64-bit register (sign-extending), st.u32 may store the low half of one.
// -1 for a literal, 0 for an undeclared register.
int value_bits(const Function& f, const Access& a, const RegisterClasses& classes) {
  const Operand& value = value_of(f.body[a.statement].instruction);
  if (!value.is_register()) return -1;
  const std::string cls = classes.of(value.name);
  return cls.empty() ? 0 : type_bits(cls.substr(1));
}

// Why slot `offset` must stay in memory, or "" when it can be a register.
std::string slot_refusal(const Function& f, const Depot& depot, std::int64_t offset,
                         const RegisterClasses& classes) {
  const auto bytes = [](const std::vector<Access>& a) { return type_bits(a.front().type) / 8; };
  const std::vector<Access>& accesses = depot.slots.at(offset);
  const int bits = type_bits(accesses.front().type);
  for (const Access& a : accesses) {
    if (type_bits(a.type) != bits) return "accessed with different sizes";
    const int width = value_bits(f, a, classes);
    if (width == 0 || (width > 0 && width < bits))
      return "a value register of unknown or smaller size";
    if (width > bits && (is_float_type(a.type) || a.type[0] == 'f'))
      return "a float access into a wider register";
  }
  if (bits < 16 || offset < 0) return "a " + std::to_string(bits) + "-bit slot";
  const auto next = depot.slots.upper_bound(offset);
  if (next != depot.slots.end() && offset + bytes(accesses) > next->first)
    return "overlaps slot " + std::to_string(next->first);
  const auto previous = depot.slots.find(offset);
  if (previous != depot.slots.begin() &&
      std::prev(previous)->first + bytes(std::prev(previous)->second) > offset)
    return "overlaps slot " + std::to_string(std::prev(previous)->first);
  return "";
}

// ld/st at the slot -> mov (or cvt where the register is wider than the slot)
// between the value and the slot register.
void rewrite_access(Instruction& ins, const std::string& slot, int bits, bool floating, int width) {
  const bool load = ins.opcode == "ld";
  const Operand value = value_of(ins);
  const std::string type = ins.type();
  if (width > bits) {
    // ld.s32 %rd6, [..] sign-extends: cvt.s64.s32; st.u32 [..], %rd1 keeps
    // the low half: cvt.u32.u64.
    const std::string kind = type[0] == 's' && load ? "s" : "u";
    const std::string narrow = kind + std::to_string(bits), wide = kind + std::to_string(width);
    ins.opcode = "cvt";
    ins.modifiers =
        load ? std::vector<std::string>{wide, narrow} : std::vector<std::string>{narrow, wide};
  } else {
    // int 0 stored into a float variable (st.u32 then ld.f32): mov.b32 moves
    // the bits between register classes.
    const bool same_kind = is_float_type(type) == floating && (floating || type[0] != 'f');
    ins.opcode = "mov";
    ins.modifiers = {same_kind ? type : "b" + std::to_string(bits)};
  }
  ins.operands = load ? std::vector<Operand>{value, register_operand(slot)}
                      : std::vector<Operand>{register_operand(slot), value};
}

}  // namespace

int promote_stack_slots(Function& f, std::vector<std::string>& notes) {
  std::vector<Depot> depots = find_depots(f);
  const RegisterClasses existing(f);
  std::vector<bool> remove(f.body.size(), false);
  std::map<std::string, std::vector<std::string>> new_registers;  // class -> names
  std::set<std::string> dropped;                                  // depots and their bases
  int promoted = 0;
  for (std::size_t d = 0; d < depots.size(); ++d) {
    const Depot& depot = depots[d];
    if (!depot.escape.empty()) {
      notes.push_back(f.name + ": " + depot.name + " stays in memory: its address escapes in '" +
                      depot.escape + "'");
      continue;
    }
    int kept = 0;
    for (const auto& [offset, accesses] : depot.slots) {
      if (const std::string why = slot_refusal(f, depot, offset, existing); !why.empty()) {
        notes.push_back(f.name + ": " + depot.name + " slot " + std::to_string(offset) +
                        " stays in memory: " + why);
        ++kept;
        continue;
      }
      const int bits = type_bits(accesses.front().type);
      bool floating = false;
      for (const Access& a : accesses) floating = floating || is_float_type(a.type);
      std::string name = "%sl" + (d ? std::to_string(d) + "_" : "") + std::to_string(offset);
      while (!existing.of(name).empty()) name += "_";
      new_registers[(floating ? ".f" : ".b") + std::to_string(bits)].push_back(name);
      for (const Access& a : accesses)
        rewrite_access(f.body[a.statement].instruction, name, bits, floating,
                       value_bits(f, a, existing));
      ++promoted;
    }
    if (kept > 0) continue;
    for (const int i : depot.setup) remove[i] = true;
    dropped.insert(depot.name);
    dropped.insert(depot.bases.begin(), depot.bases.end());
    notes.push_back(f.name + ": " + std::to_string(depot.slots.size()) + " stack slots of " +
                    depot.name + " promoted to registers, depot removed");
  }
  drop_declarators(f, dropped, remove);
  erase_statements(f, remove);
  std::vector<Statement> decls;
  for (const auto& [cls, names] : new_registers) {
    Statement s;
    s.kind = Statement::Kind::RegDecl;
    s.decl.space = ".reg";
    s.decl.types = {cls};
    for (const std::string& n : names) s.decl.declarators.push_back({n, std::nullopt, "", ""});
    decls.push_back(std::move(s));
  }
  f.body.insert(f.body.begin() + declaration_insertion_point(f), decls.begin(), decls.end());
  build_blocks(f);
  return promoted;
}

}  // namespace gpucmp::ptx::cleanup
