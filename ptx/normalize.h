// Canonical form for comparing two compilers' PTX: what differs only in
// numbering or debug noise becomes identical text.
#pragma once
#include "ir.h"

namespace gpucmp::ptx {

// Per function: renames the registers of every range-declared class (%r, %rd,
// %f, %p, ...) to %r1, %r2, ... in order of first use and resizes the .reg
// declarations to match; renames labels to $L__1, $L__2, ... in order of
// definition (references follow). Drops comments, .loc/.file directives,
// .section .debug_* blocks, the `debug` target that requires them, and labels
// nothing refers to (debug labels like $L__tmp3). Names of kernels,
// parameters and variables stay.
// Idempotent.
void normalize(Module& m);

void normalize(Function& f);

}  // namespace gpucmp::ptx
