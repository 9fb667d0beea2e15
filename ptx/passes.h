// Optimization passes over the PTX IR: integer/float multiply-add fusion (mad),
// common-subexpression elimination over the dominator tree (cse) and
// loop-invariant code motion into existing preheaders (licm), the clean-up of
// -O0 PTX (cleanup: inline, promote-slots, copy-prop), loop unrolling
// (unroll), the alignment of .shared arrays (align), and two controls outside
// the study's chain: flush-to-zero (ftz) and 32-bit .shared addressing
// (shared32). They keep the printed PTX assemblable. pass_registry.h lists
// them by name.
#pragma once
#include <string>
#include <vector>

#include "ir.h"

namespace gpucmp::ptx {

struct PassReport {
  std::string pass;                // "mad", "cse", "licm", "align", ...
  int changed = 0;                 // instructions fused, removed or hoisted; align: declarations;
                                   // shared32: accesses
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

// Module-level clean-up of front-end -O0 PTX (clang -O0 as NVIDIA's OpenCL emits
// it with -cl-opt-disable), so that the other passes start from a 2010-like
// baseline rather than from stack code: pass_inline, pass_promote_slots and
// pass_copy_prop in this order (the registry's composite `cleanup`,
// pass_registry.h). Nothing else is optimized (no unrolling, no CSE, no
// fusion, no hoisting). `changed` is the sum of the three; the notes begin
// with "calls inlined: I, stack slots promoted: S, copies propagated: C",
// followed by the notes of each.
PassReport pass_cleanup(Module& m);

// cleanup's first step (`inline`): every call to a .func defined in the module
// is inlined (work-item builtins, sqrtf, sinf, ...), except into or of
// recursive functions (a note each); functions no longer called are removed.
// `changed` counts calls.
PassReport pass_inline(Module& m);

// cleanup's second step (`promote-slots`): every fixed-offset stack slot of
// the local depot (ld/st [%SP+k], [%SPL+k]) whose accesses all have one type
// and size becomes a register; the depot goes when none is left. Slots it
// cannot promote stay in memory, with a note. `changed` counts slots.
PassReport pass_promote_slots(Function& f);

// cleanup's third step (`copy-prop`): register-to-register copies inside basic
// blocks (those slot promotion makes) are removed by renaming. `changed`
// counts the movs removed.
PassReport pass_copy_prop(Function& f);

// Unrolls counted natural loops: induction register with a constant start, a
// constant step and a constant bound (or a bound provably divisible by the
// factor). Trip counts known and <= 32: fully unrolled; otherwise by `factor`
// when the trip count is provably divisible by it; else left alone with a note
// giving the reason.
PassReport pass_unroll(Function& f, int factor);

// Raises the alignment of .shared array declarations (module scope and
// function scope, as OpenCL puts its __local arrays in the .entry body) to 16
// bytes, so that the JIT may read them with 128-bit vector loads (LDS.128):
// only where the declaration is not .extern, every variable it declares has a
// known size that is a multiple of 16, and a function that refers to it
// reads or writes shared memory with ld/st.shared. It never lowers an
// alignment. `changed` counts declarations; a note names each variable raised
// (and each one kept, with the reason). .local arrays are left alone: in the
// PTX the suite loads they are the -O0 stack depot, which cleanup promotes.
PassReport pass_align(Module& m);

// Adds .ftz (flush denormals to zero) to every single-precision instruction
// whose PTX form takes it (add, sub, mul, fma, mad, div, rcp, sqrt, rsqrt,
// sin, cos, lg2, ex2, abs, neg, setp .f32): CUDA's --use_fast_math semantics
// on OpenCL's fast-math PTX, which keeps rsqrt.approx.f32 without .ftz.
// `changed` counts instructions. Not part of the study's chain.
PassReport pass_ftz(Function& f);

// Rewrites .shared accesses through 64-bit registers (NVIDIA's OpenCL PTX:
// mov.u64 %rd, tile; add.s64 ...; ld.shared.f32 %f, [%rd+64]) to 32-bit
// addresses, as nvcc emits them: a 64-bit register that only ever holds a
// .shared address (defined by mov of a .shared symbol and add/sub of offsets,
// read only as an access's base or by such a definition) is rebuilt in 32 bits
// (mov.u32 tile; add.s32, with mul.wide.s32 offsets as mul.lo.s32); any other
// access gets `cvt.u32.u64` of its base right before it. Exact, since a
// .shared window address fits in 32 bits. ld/st/atom/red on .shared and
// .shared::cta only. `changed` counts accesses; a function without 64-bit
// .shared addressing is left untouched. Not part of the study's chain.
PassReport pass_shared32(Module& m);

// Rewrites each copy loop (a loop of one basic block holding only register
// arithmetic and ld.global / st.shared pairs, each store storing what one load
// loaded, 4, 8 or 16 bytes) to cp.async.ca.shared.global, and puts
// cp.async.wait_all before every barrier, call, ret and exit of the function
// but the barrier the copy loop exits to (the copy's own): NVIDIA's OpenCL
// lowering of async_work_group_copy made asynchronous, its data waited for at
// the barrier of wait_group_events. `changed` counts copies; a note per
// function gives the loops, waits and copy barriers. Targets below sm_80 or
// PTX ISA 7.0 are left unchanged (a note says why). Not part of the study's
// chain.
PassReport pass_cpasync(Module& m);

// pass_cpasync, then each copy's own barrier removed (the one the copy loop
// exits to, which pass_cpasync leaves without a wait): OpenCL gives
// async_work_group_copy no barrier of its own, so a conforming program reads
// the copied data, and orders its other local memory, only by its own
// barriers, wait_group_events' among them. A control that prices the barrier
// NVIDIA's lowering adds to each copy. Notes as pass_cpasync's, with the
// barriers removed.
PassReport pass_cpasync_nobar(Module& m);

// The names of the registered passes (pass_registry.h) that are not a step of
// another, in the study's order: cleanup, unroll, cse, mad, licm, align, ftz,
// shared32, cpasync, cpasync-nobar. run_passes() also takes cleanup's steps (inline, promote-slots,
// copy-prop).
const std::vector<std::string>& known_passes();

// Runs the named passes of the registry (pass_registry.h; anything else throws
// std::invalid_argument naming the known ones) in order, each on every
// function with a body, rebuilding the basic blocks after each. Appends one
// report per pass (summed over the functions) to *reports when given. Returns
// a comment block describing the run, for the caller to put in front of the
// printed module. Unrolls by 4; pass_registry.h's overload takes the factor.
std::string run_passes(Module& m, const std::vector<std::string>& names,
                       bool allow_float_contraction, std::vector<PassReport>* reports);

// Number of instruction statements in a body.
int count_instructions(const Function& f);

}  // namespace gpucmp::ptx
