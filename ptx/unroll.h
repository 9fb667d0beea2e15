// How many times a loop body was unrolled, estimated from its instruction
// sequence.
#pragma once
#include <string>
#include <vector>

#include "cfg.h"
#include "ir.h"

namespace gpucmp::ptx {

// The loop body's full opcodes in statement order, without control (bra, setp),
// induction updates (integer add/sub whose destination is also a source:
// %r13 = %r13 + 2) and 64-bit address arithmetic (mul.wide, add.s64, cvta),
// which unrolled copies often fold into offsets instead of repeating.
std::vector<std::string> loop_work_opcodes(const Function& f, const Loop& loop);

// The largest k > 1 such that `sequence` is k repetitions of one pattern; 1 when
// there is none (or the sequence is empty).
int repetition_count(const std::vector<std::string>& sequence);

// repetition_count(loop_work_opcodes(f, loop)).
int estimate_unroll(const Function& f, const Loop& loop);

}  // namespace gpucmp::ptx
