#include "unroll.h"

#include "classify.h"

namespace gpucmp::ptx {
namespace {

bool is_induction_update(const Instruction& ins) {
  if ((ins.opcode != "add" && ins.opcode != "sub") || ins.operands.size() != 3) return false;
  const std::string type = ins.type();
  if (type.empty() || (type[0] != 's' && type[0] != 'u' && type[0] != 'b')) return false;
  const Operand& dest = ins.operands[0];
  if (dest.kind != Operand::Kind::Register) return false;
  for (std::size_t i = 1; i < ins.operands.size(); ++i)
    if (ins.operands[i].kind == Operand::Kind::Register && ins.operands[i].name == dest.name)
      return true;
  return false;
}

// 64-bit integer arithmetic (pointers): mul.wide, add.s64, cvta, ...
bool is_address_arithmetic(const Instruction& ins) {
  if (instruction_class(ins) != "int.addr") return false;
  const std::string type = ins.type();
  return ins.opcode == "cvta" || ins.has_modifier("wide") || type == "s64" || type == "u64" ||
         type == "b64";
}

bool is_control(const Instruction& ins) {
  return ins.opcode == "bra" || ins.opcode == "brx" || ins.opcode == "setp";
}

}  // namespace

std::vector<std::string> loop_work_opcodes(const Function& f, const Loop& loop) {
  std::vector<std::string> out;
  for (int b : loop.blocks) {
    const BasicBlock& block = f.blocks[b];
    for (int i = block.begin; i < block.end; ++i) {
      const Statement& s = f.body[i];
      if (s.kind != Statement::Kind::Instruction) continue;
      const Instruction& ins = s.instruction;
      if (is_control(ins) || is_induction_update(ins) || is_address_arithmetic(ins)) continue;
      out.push_back(ins.full_opcode());
    }
  }
  return out;
}

int repetition_count(const std::vector<std::string>& sequence) {
  const std::size_t n = sequence.size();
  for (std::size_t k = n; k > 1; --k) {
    if (n % k != 0) continue;
    const std::size_t period = n / k;
    bool repeats = true;
    for (std::size_t i = period; i < n && repeats; ++i)
      repeats = sequence[i] == sequence[i - period];
    if (repeats) return static_cast<int>(k);
  }
  return 1;
}

int estimate_unroll(const Function& f, const Loop& loop) {
  return repetition_count(loop_work_opcodes(f, loop));
}

}  // namespace gpucmp::ptx
