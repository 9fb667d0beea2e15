// Writes the unrolled copies of a counted loop (pass_unroll_match.h) in place
// of the loop. Internal to ptx/.
#pragma once
#include "ir.h"
#include "pass_unroll_match.h"
#include "pass_unroll_names.h"

namespace gpucmp::ptx {

struct UnrollPlan {
  int copies = 0;          // copies of the loop's statements, laid out one after another
  int test_copy = -1;      // the copy that keeps the conditional exit test (-1: none)
  int exit_copy = -1;      // the copy that leaves unconditionally, cut after its exit (-1: none)
  bool loop_back = false;  // the last copy's back edges go to the first copy's header
  // Each copy reads i as a constant (a mov of i0 + k*step into a fresh
  // register) and the updates go; i gets its final value once, at the exit,
  // when it is read after the loop.
  bool constant_induction = false;
};

// Full unroll: copies = passes + 1, exit_copy = passes (the last, partial pass).
// By a factor F: copies = F, test_copy = passes % F, loop_back.
// Registers written in the loop that are neither read before being written in
// an iteration nor read after the loop get fresh names in copies 1.. (so each
// copy's values are defined once); labels in copies 1.. get fresh names, and
// branches go to their own copy's labels, back edges to the next copy's header.
// Branches to the next statement and labels nothing branches to are dropped.
// Rebuilds the blocks.
void emit_unrolled(Function& f, const CountedLoop& loop, const UnrollPlan& plan,
                   RegisterPool& registers, LabelNamer& labels);

}  // namespace gpucmp::ptx
