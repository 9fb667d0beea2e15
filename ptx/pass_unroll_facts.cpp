#include "pass_unroll_facts.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "cfg.h"
#include "literals.h"

namespace gpucmp::ptx {
namespace {

// constant_before() with a bound on how many register-to-register copies it follows.
std::optional<long long> value_before(const Function& f, const RegisterCounts& counts,
                                      const std::string& reg, int block, int at, int depth) {
  std::set<int> seen;
  while (true) {
    for (int s = at - 1; s >= f.blocks[block].begin; --s) {
      if (f.body[s].kind != Statement::Kind::Instruction) continue;
      const Instruction& ins = f.body[s].instruction;
      const auto defs = defined_registers(ins);
      if (std::find(defs.begin(), defs.end(), reg) == defs.end()) continue;
      long long v = 0;
      if (!is_mov32(ins)) return std::nullopt;
      if (immediate_value(ins.operands[1], v)) return v;
      if (ins.operands[1].is_register() && depth < 8)
        return value_before(f, counts, ins.operands[1].name, block, s, depth + 1);
      return std::nullopt;
    }
    const auto& preds = f.blocks[block].predecessors;
    if (preds.size() != 1 || !seen.insert(block).second) break;
    block = preds[0];
    at = f.blocks[block].end;
  }
  // Not found on the straight-line path: a register defined once, by a mov of
  // an immediate, holds that value wherever it is read.
  const auto sites = counts.def_sites.find(reg);
  long long v = 0;
  if (counts.def_count(reg) != 1 || sites == counts.def_sites.end()) return std::nullopt;
  const Instruction& only = f.body[sites->second[0]].instruction;
  if (is_mov32(only) && immediate_value(only.operands[1], v)) return v;
  return std::nullopt;
}

}  // namespace

bool immediate_value(const Operand& op, long long& v) {
  if (op.kind != Operand::Kind::Immediate) return false;
  std::string_view text = op.value;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (!parse_integer(text, v)) return false;
  if (negative) v = -v;
  return true;
}

long long wrap32(long long v, bool is_signed) {
  const auto u = static_cast<std::uint32_t>(static_cast<unsigned long long>(v));
  return is_signed ? static_cast<long long>(static_cast<std::int32_t>(u))
                   : static_cast<long long>(u);
}

bool is_mov32(const Instruction& ins) {
  return !ins.guard && ins.opcode == "mov" && ins.modifiers.size() == 1 &&
         (ins.modifiers[0] == "b32" || ins.modifiers[0] == "u32" || ins.modifiers[0] == "s32") &&
         ins.operands.size() == 2 && ins.operands[0].is_register();
}

bool add_immediate(const Instruction& ins, std::string& source, long long& step) {
  if (ins.guard || (ins.opcode != "add" && ins.opcode != "sub") || ins.modifiers.size() != 1 ||
      (ins.modifiers[0] != "s32" && ins.modifiers[0] != "u32") || ins.operands.size() != 3 ||
      !ins.operands[0].is_register())
    return false;
  const Operand& a = ins.operands[1];
  const Operand& b = ins.operands[2];
  if (a.is_register() && immediate_value(b, step)) {
    source = a.name;
  } else if (ins.opcode == "add" && b.is_register() && immediate_value(a, step)) {
    source = b.name;
  } else {
    return false;
  }
  if (ins.opcode == "sub") step = -step;
  return true;
}

bool integer_compare(const std::string& op, long long a, long long b) {
  if (op == "lt" || op == "lo") return a < b;
  if (op == "le" || op == "ls") return a <= b;
  if (op == "gt" || op == "hi") return a > b;
  if (op == "ge" || op == "hs") return a >= b;
  if (op == "eq") return a == b;
  return a != b;  // "ne"
}

bool is_integer_compare(const std::string& op) {
  static const std::set<std::string> kOps = {"lt", "le", "gt", "ge", "eq",
                                             "ne", "lo", "ls", "hi", "hs"};
  return kOps.count(op) > 0;
}

std::optional<long long> constant_before(const Function& f, const RegisterCounts& counts,
                                         const std::string& reg, int block, int at) {
  return value_before(f, counts, reg, block, at, 0);
}

bool read_after_loop(const Function& f, const std::string& reg, int begin, int end) {
  const std::vector<int> block_of = block_of_statements(f);
  for (std::size_t s = 0; s < f.body.size(); ++s) {
    const int i = static_cast<int>(s);
    if ((i >= begin && i < end) || f.body[s].kind != Statement::Kind::Instruction) continue;
    const auto uses = used_registers(f.body[s].instruction);
    if (std::find(uses.begin(), uses.end(), reg) == uses.end()) continue;
    bool killed = false;
    for (int p = i - 1; block_of[i] >= 0 && p >= f.blocks[block_of[i]].begin && !killed; --p) {
      if (f.body[p].kind != Statement::Kind::Instruction || f.body[p].instruction.guard) continue;
      const auto defs = defined_registers(f.body[p].instruction);
      killed = std::find(defs.begin(), defs.end(), reg) != defs.end();
    }
    if (!killed) return true;
  }
  return false;
}

std::set<std::string> iteration_local_registers(const Function& f, int begin, int end) {
  const std::vector<int> block_of = block_of_statements(f);
  const int first = block_of[begin], last = block_of[end - 1];
  std::vector<std::set<std::string>> defined_at_exit(last - first + 1);
  std::set<std::string> exposed, written;
  for (int b = first; b <= last; ++b) {
    std::set<std::string> defined;
    bool seeded = false;
    // Defined at entry: on every forward edge in (the header starts empty).
    for (const int p : b == first ? std::vector<int>{} : f.blocks[b].predecessors) {
      const std::set<std::string>& d = defined_at_exit[p - first];
      if (!seeded) {
        defined = d;
        seeded = true;
        continue;
      }
      for (auto it = defined.begin(); it != defined.end();)
        it = d.count(*it) ? std::next(it) : defined.erase(it);
    }
    for (int s = f.blocks[b].begin; s < f.blocks[b].end; ++s) {
      if (f.body[s].kind != Statement::Kind::Instruction) continue;
      const Instruction& ins = f.body[s].instruction;
      for (const std::string& r : used_registers(ins))
        if (!defined.count(r)) exposed.insert(r);
      for (const std::string& r : defined_registers(ins)) {
        written.insert(r);
        if (!ins.guard)
          defined.insert(r);
        else if (!defined.count(r))
          exposed.insert(r);
      }
    }
    defined_at_exit[b - first] = defined;
  }
  std::set<std::string> locals;
  for (const std::string& r : written)
    if (!exposed.count(r) && !read_after_loop(f, r, begin, end)) locals.insert(r);
  return locals;
}

}  // namespace gpucmp::ptx
