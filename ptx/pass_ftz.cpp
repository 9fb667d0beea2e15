// pass_ftz(): flush-to-zero on single-precision arithmetic (passes.h).
//
// Why: nvcc's --use_fast_math implies -ftz=true and its PTX says so
// (rsqrt.approx.ftz.f32, add.ftz.f32, ...); NVIDIA's OpenCL PTX under
// -cl-fast-relaxed-math, and with -cl-denorms-are-zero too (measured on the
// H200, driver 580), keeps rsqrt.approx.f32 without .ftz, and the JIT then
// adds a denormal test and scaling to every rsqrt. The pass gives OpenCL's
// PTX CUDA's fast-math denormal semantics, to price that difference alone.
#include <set>
#include <string>

#include "passes.h"

namespace gpucmp::ptx {
namespace {

// f32 instructions whose PTX syntax takes .ftz right before .sat, or before
// the type when there is no .sat: op{.rnd|.approx|.full}{.ftz}{.sat}.f32 and
// setp.cmp{.ftz}.f32.
const std::set<std::string>& ftz_opcodes() {
  static const std::set<std::string> ops = {"add", "sub",  "mul",   "fma", "mad", "div",
                                            "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2",
                                            "ex2", "abs",  "neg",   "setp"};
  return ops;
}

}  // namespace

PassReport pass_ftz(Function& f) {
  PassReport r{"ftz", 0, {}};
  for (Statement& s : f.body) {
    if (s.kind != Statement::Kind::Instruction) continue;
    Instruction& in = s.instruction;
    if (!ftz_opcodes().count(in.opcode) || in.type() != "f32" || in.has_modifier("ftz")) continue;
    auto& mods = in.modifiers;
    auto at = mods.end() - 1;  // the type
    for (auto it = mods.begin(); it != mods.end(); ++it)
      if (*it == "sat") at = it;
    mods.insert(at, "ftz");
    ++r.changed;
  }
  return r;
}

}  // namespace gpucmp::ptx
