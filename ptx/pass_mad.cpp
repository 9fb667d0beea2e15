// mul + add -> mad.lo (integers) / fma.rn (f32, with contraction allowed).
#include <algorithm>
#include <string>

#include "cfg.h"
#include "pass_common.h"
#include "passes.h"

namespace gpucmp::ptx {
namespace {

enum class Fusion { None, Integer, Float };

bool is_integer_type(const std::string& t) {
  return t == "s32" || t == "u32" || t == "s64" || t == "u64";
}

bool modifiers_are(const Instruction& ins, std::vector<std::string> expected) {
  std::vector<std::string> mods = ins.modifiers;
  std::sort(mods.begin(), mods.end());
  std::sort(expected.begin(), expected.end());
  return mods == expected;
}

// How a mul and an add of its result may fuse, from opcodes and modifiers alone.
Fusion fusion_kind(const Instruction& mul, const Instruction& add, bool allow_float) {
  if (mul.opcode != "mul" || add.opcode != "add" || mul.guard || add.guard) return Fusion::None;
  if (mul.operands.size() != 3 || add.operands.size() != 3) return Fusion::None;
  const std::string type = mul.type();
  if (is_integer_type(type) && modifiers_are(mul, {"lo", type}) && modifiers_are(add, {type}))
    return Fusion::Integer;
  if (allow_float && type == "f32") {
    for (const bool ftz : {false, true}) {
      std::vector<std::string> mods = {"f32"};
      if (ftz) mods.emplace_back("ftz");
      if (modifiers_are(mul, mods) && modifiers_are(add, mods)) return Fusion::Float;
    }
  }
  return Fusion::None;
}

// Whether a statement in (from, to) writes any of `regs`.
bool redefined_between(const Function& f, int from, int to, const std::vector<std::string>& regs) {
  for (int i = from + 1; i < to; ++i) {
    const Statement& s = f.body[i];
    if (s.kind != Statement::Kind::Instruction) continue;
    for (const std::string& d : defined_registers(s.instruction))
      if (std::find(regs.begin(), regs.end(), d) != regs.end()) return true;
  }
  return false;
}

// The statement in [from, end) whose instruction reads `reg`, or -1.
int first_reader(const Function& f, int from, int end, const std::string& reg) {
  for (int i = from; i < end; ++i) {
    const Statement& s = f.body[i];
    if (s.kind != Statement::Kind::Instruction) continue;
    const auto used = used_registers(s.instruction);
    if (std::find(used.begin(), used.end(), reg) != used.end()) return i;
  }
  return -1;
}

// Rewrites the add at `add` into the fused instruction; the mul stays for the caller to drop.
void fuse(Instruction& add, const Instruction& mul, const std::string& product, Fusion kind) {
  const Operand other = add.operands[1].is_register() && add.operands[1].name == product
                            ? add.operands[2]
                            : add.operands[1];
  Instruction fused;
  fused.opcode = kind == Fusion::Integer ? "mad" : "fma";
  fused.modifiers = kind == Fusion::Integer ? std::vector<std::string>{"lo", mul.type()}
                                            : std::vector<std::string>{"rn"};
  if (kind == Fusion::Float) {
    if (add.has_modifier("ftz")) fused.modifiers.emplace_back("ftz");
    fused.modifiers.emplace_back("f32");
  }
  fused.operands = {add.operands[0], mul.operands[1], mul.operands[2], other};
  add = fused;
}

}  // namespace

PassReport pass_mad(Function& f, bool allow_float_contraction) {
  PassReport report{"mad", 0, {}};
  build_blocks(f);
  const RegisterCounts counts = count_registers(f);
  std::vector<bool> remove(f.body.size(), false);
  int integer_fused = 0, float_fused = 0;
  for (const BasicBlock& b : f.blocks) {
    for (int i = b.begin; i < b.end; ++i) {
      if (f.body[i].kind != Statement::Kind::Instruction) continue;
      const Instruction& mul = f.body[i].instruction;
      if (mul.opcode != "mul" || mul.operands.size() != 3 || !mul.operands[0].is_register())
        continue;
      const std::string product = mul.operands[0].name;
      if (counts.use_count(product) != 1) continue;
      const int j = first_reader(f, i + 1, b.end, product);
      if (j < 0) continue;
      Instruction& add = f.body[j].instruction;
      const Fusion kind = fusion_kind(mul, add, allow_float_contraction);
      if (kind == Fusion::None) continue;
      std::vector<std::string> inputs = {product};
      for (int k = 1; k <= 2; ++k)
        if (mul.operands[k].is_register()) inputs.push_back(mul.operands[k].name);
      if (redefined_between(f, i, j, inputs)) continue;
      fuse(add, mul, product, kind);
      remove[i] = true;
      ++(kind == Fusion::Integer ? integer_fused : float_fused);
    }
  }
  report.changed = integer_fused + float_fused;
  if (report.changed == 0) return report;
  erase_statements(f, remove);
  report.notes.push_back(f.name + ": " + std::to_string(integer_fused) + " mul+add -> mad.lo, " +
                         std::to_string(float_fused) + " mul.f32+add.f32 -> fma.rn.f32");
  return report;
}

}  // namespace gpucmp::ptx
