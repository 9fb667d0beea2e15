// Shared by the optimization passes (passes.h): which registers an instruction
// reads and writes, how often each register is defined and used in a function,
// which instructions are pure, and editing helpers. Internal to ptx/.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

// Registers written by an instruction: those named in operand 0 (a register,
// vector, predicate pair or list). Over-approximates (bar.sync %r1 counts),
// which only makes the passes more careful.
std::vector<std::string> defined_registers(const Instruction& ins);

// Names read by an instruction: the guard, every register and memory base in
// operands 1.., and operand 0 when it is an address or a read operand
// (st, red, bra, bar, wgmma accumulators, ...).
std::vector<std::string> used_registers(const Instruction& ins);

struct RegisterCounts {
  std::map<std::string, int> defs;  // parameters of .reg kind count as a definition
  std::map<std::string, int> uses;  // return parameters count as a use (by ret)
  std::map<std::string, std::vector<int>> def_sites;  // body statement indices
  std::map<std::string, std::vector<int>> use_sites;  // body statement indices

  int def_count(const std::string& r) const;
  int use_count(const std::string& r) const;
};
RegisterCounts count_registers(const Function& f);

// %tid, %ntid, %ctaid, %nctaid (any component): the same value for the whole run
// of a thread.
bool is_invariant_special_register(const std::string& name);

// Names declared in the body (.local/.shared/.param in call blocks, ...): a
// pure instruction must not refer to them, since they may be scoped.
std::set<std::string> body_declared_names(const Function& f);

// Arithmetic, logic, comparisons, conversions and moves without side effects:
// no guard, no carry (.cc, addc), operand 0 a plain register, no memory
// operand, no special register other than the invariant ones, no symbol
// declared in the body.
bool is_pure(const Instruction& ins, const std::set<std::string>& body_names);

// Renames every register and memory base an operand names, read or written
// (its elements too).
void rename_operand_registers(Operand& op, const std::map<std::string, std::string>& renames);

// Renames the registers an instruction reads (operands 1.. and the guard, and
// operand 0 where used_registers() counts it as read).
void rename_uses(Instruction& ins, const std::map<std::string, std::string>& renames);

// Removes the body statements marked true and rebuilds the blocks.
void erase_statements(Function& f, const std::vector<bool>& remove);

// Index of the last instruction statement of a block if it is a terminator
// (bra, ret, ...), else the block's end.
int insertion_point(const Function& f, int block);

}  // namespace gpucmp::ptx
