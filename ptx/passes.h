// Optimization passes over the PTX IR: integer/float multiply-add fusion (mad),
// common-subexpression elimination over the dominator tree (cse) and
// loop-invariant code motion into existing preheaders (licm). They keep the
// printed PTX assemblable: they only fuse, remove or move instructions and
// rename registers of the same class; .reg declarations stay as they are.
#pragma once
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

struct PassReport {
  std::string pass;                // "mad", "cse", "licm"
  int changed = 0;                 // instructions fused, removed or hoisted
  std::vector<std::string> notes;  // human-readable details
};

// mul.lo.{s,u}{32,64} + add of the same type -> mad.lo; with
// allow_float_contraction also mul.f32 + add.f32 -> fma.rn.f32 (no rounding
// modifiers, no .sat; .ftz kept when both have it). Only when the mul result
// has exactly one use (the add), both stand unguarded in one basic block and
// nothing in between redefines the mul's operands or result.
PassReport pass_mad(Function& f, bool allow_float_contraction);

// Value numbering of pure instructions over the dominator tree: a repeat of an
// available computation is removed and its uses renamed to the earlier result
// (both results and all register operands defined exactly once).
PassReport pass_cse(Function& f);

// Hoists pure, single-definition, loop-invariant instructions of every natural
// loop into its preheader (the header's unique predecessor outside the loop),
// inner loops first; loops without one are skipped with a note.
PassReport pass_licm(Function& f);

// Runs the named passes ("mad", "cse", "licm"; anything else throws
// std::invalid_argument) in order on every function with a body, rebuilding
// the basic blocks after each. Appends one report per pass (summed over the
// functions) to *reports when given. Returns a comment block describing the run,
// for the caller to put in front of the printed module.
std::string run_passes(Module& m, const std::vector<std::string>& names,
                       bool allow_float_contraction, std::vector<PassReport>* reports);

// Number of instruction statements in a body.
int count_instructions(const Function& f);

}  // namespace gpucmp::ptx
