// Facts about instructions and registers that pass_unroll (passes.h) reads off
// the IR: integer immediates, the induction update's forms, the constant a
// register holds on entry to a loop, whether a register is read after a loop.
// Internal to ptx/.
#pragma once
#include <optional>
#include <set>
#include <string>

#include "ir.h"
#include "pass_common.h"

namespace gpucmp::ptx {

// An integer immediate's value (negative ones included).
bool immediate_value(const Operand& op, long long& v);

// v as a 32-bit register holds it, read as signed or unsigned.
long long wrap32(long long v, bool is_signed);

// setp's integer comparisons (lt, le, gt, ge, eq, ne and the unsigned lo, ls, hi, hs) on
// values already read as signed or unsigned.
bool is_integer_compare(const std::string& op);
bool integer_compare(const std::string& op, long long a, long long b);

// Unguarded `mov.{b,u,s}32 %dest, src`.
bool is_mov32(const Instruction& ins);

// Unguarded `add/sub.{s,u}32 %dest, %src, imm` (or `add %dest, imm, %src`):
// sets the source register and the signed step.
bool add_immediate(const Instruction& ins, std::string& source, long long& step);

// The constant `reg` holds before statement `at` of `block`: the last mov of an
// immediate (or of a register holding one) found walking back through blocks
// with a unique predecessor, or else the register's only definition in the
// body when that is a mov of an immediate.
std::optional<long long> constant_before(const Function& f, const RegisterCounts& counts,
                                         const std::string& reg, int block, int at);

// Whether `reg` may be read outside the body statements [begin, end): some use
// there is not preceded by an unguarded definition in its own block.
bool read_after_loop(const Function& f, const std::string& reg, int begin, int end);

// Registers whose values live within one iteration of the loop whose blocks are the body
// statements [begin, end) (laid out header first, forward edges only but the back edges):
// written in the loop, never read before being written on a path from the header (a guarded
// write does not count as one), not read after the loop. A copy of the loop may rename them.
std::set<std::string> iteration_local_registers(const Function& f, int begin, int end);

}  // namespace gpucmp::ptx
