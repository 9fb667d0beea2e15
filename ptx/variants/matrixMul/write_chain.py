#!/usr/bin/env python3
"""Writes the hand-edited PTX chain of matrixMul (tile 16) in this folder.

The edits are made by hand, here, as text templates (a script only so that the
16 unrolled copies are not typed sixteen times); the .ptx files it writes are
committed and are what gpucmp-bench times (matrixMul/opencl/tile16-hand-*).
Each step is the previous file plus one optimization, as in the 2010 study:

  hand-base                 -cl-opt-disable PTX of opencl/sdk/matrixmul.cl
                            (driver 580.159.04, tests/fixtures/.../opencl-O0/
                            matrixMul-tile16-cloptdisable.ptx) cleaned up: stack
                            slots -> registers, work-item builtins and barrier
                            inlined, and clang's fma split into mul + add (a
                            front end that does not fuse). Loop rolled, every
                            address recomputed at each use, invariants in loops.
  hand-unroll               + the k loop (16 trips) fully unrolled; k is a
                            constant in each copy, so k*4 and k*64 are immediates.
  hand-unroll-cse           + common address arithmetic computed once: &As[ty][0],
                            &Bs[0][tx], ty*64, tx*4 shared; loads use [base+imm].
  hand-unroll-cse-mad       + mul.f32/add.f32 -> fma.rn.f32, mul.lo/add -> mad.lo.
  hand-unroll-cse-mad-licm  + the tile-loop invariants (&As[ty][tx], &Bs[ty][tx],
                            &As[ty][0], &Bs[0][tx]) hoisted into the preheader.

Usage: write_chain.py   (rewrites the five files next to it)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = ["base", "unroll", "unroll-cse", "unroll-cse-mad", "unroll-cse-mad-licm"]
WHAT = {
    "base": "the clean-up of the -O0 PTX (see write_chain.py): the 2010-like baseline",
    "unroll": "hand-base + the inner k loop fully unrolled (16 copies, k constant)",
    "unroll-cse": "hand-unroll + shared address arithmetic ([base+imm] loads)",
    "unroll-cse-mad": "hand-unroll-cse + mul/add fused (fma.rn.f32, mad.lo.s32)",
    "unroll-cse-mad-licm": "hand-unroll-cse-mad + tile-loop invariants hoisted",
}


def header(step):
    return f"""//
// gpucmp hand-edited PTX variant matrixMul/opencl/tile16-hand-{step}
// {WHAT[step]}.
// Written by ptx/variants/matrixMul/write_chain.py; kernel and arguments as
// opencl/sdk/matrixmul.cl with -DTILE=16.
//

.version 9.0
.target sm_90, texmode_independent
.address_size 64

.entry matrixMul(
\t.param .u64 .ptr .global .align 4 matrixMul_param_0,
\t.param .u64 .ptr .global .align 4 matrixMul_param_1,
\t.param .u64 .ptr .global .align 4 matrixMul_param_2,
\t.param .u32 matrixMul_param_3
)
{{
\t.reg .pred \t%p<5>;
\t.reg .f32 \t%f<8>;
\t.reg .b32 \t%r<41>;
\t.reg .b64 \t%rd<60>;
\t.reg .f32 \t%fa<16>;
\t.reg .f32 \t%fb<16>;
\t.reg .f32 \t%fm<16>;
\t.reg .b64 \t%ua<16>;
\t.reg .b64 \t%ub<16>;
\t.reg .b64 \t%uc<16>;
\t.reg .b64 \t%ud<16>;
\t.reg .b64 \t%ue<16>;
\t.reg .b64 \t%uf<16>;
\t.reg .b64 \t%ug<16>;
\t.reg .b64 \t%uh<16>;
\t.reg .b64 \t%ui<16>;
\t.reg .b64 \t%uj<16>;
\t.shared .align 4 .b8 \tmatrixMul_$_As[1024];
\t.shared .align 4 .b8 \tmatrixMul_$_Bs[1024];

"""


PROLOGUE = """\tld.param.u64 \t%rd1, [matrixMul_param_0];
\tld.param.u64 \t%rd2, [matrixMul_param_1];
\tld.param.u64 \t%rd3, [matrixMul_param_2];
\tld.param.u32 \t%r1, [matrixMul_param_3];
\t// tx = get_local_id(0), ty = get_local_id(1)
\tmov.u32 \t%r3, %tid.x;
\tmov.u32 \t%r4, %tid.y;
\t// row = get_group_id(1) * 16 + ty (get_group_id(1) = %envreg1 + %ctaid.y)
\tmov.b32 \t%r11, %envreg1;
\tmov.u32 \t%r12, %ctaid.y;
\tadd.s32 \t%r13, %r11, %r12;
\tcvt.s64.s32 \t%rd6, %r13;
\tmul.lo.s64 \t%rd7, %rd6, 16;
\tcvt.s64.s32 \t%rd8, %r4;
\tadd.s64 \t%rd9, %rd7, %rd8;
\tcvt.u32.u64 \t%r6, %rd9;
\t// col = get_group_id(0) * 16 + tx
\tmov.b32 \t%r14, %envreg0;
\tmov.u32 \t%r15, %ctaid.x;
\tadd.s32 \t%r16, %r14, %r15;
\tcvt.s64.s32 \t%rd10, %r16;
\tmul.lo.s64 \t%rd11, %rd10, 16;
\tcvt.s64.s32 \t%rd12, %r3;
\tadd.s64 \t%rd13, %rd11, %rd12;
\tcvt.u32.u64 \t%r8, %rd13;
\tmov.f32 \t%f1, 0f00000000;
\tmov.u32 \t%r9, 0;
"""

# Tile-loop invariants: ty*64, tx*4, &As[ty][tx], &Bs[ty][tx], &As[ty][0], &Bs[0][tx].
INVARIANTS = """\tcvt.s64.s32 \t%rd22, %r4;
\tshl.b64 \t%rd23, %rd22, 6;
\tmov.u64 \t%rd24, matrixMul_$_As;
\tadd.s64 \t%rd25, %rd24, %rd23;
\tcvt.s64.s32 \t%rd26, %r3;
\tshl.b64 \t%rd27, %rd26, 2;
\tadd.s64 \t%rd28, %rd25, %rd27;
\tmov.u64 \t%rd35, matrixMul_$_Bs;
\tadd.s64 \t%rd36, %rd35, %rd23;
\tadd.s64 \t%rd39, %rd36, %rd27;
\tadd.s64 \t%rd52, %rd35, %rd27;
"""


def tile_loads(cse, mad):
    a_index = ("\tmad.lo.s32 \t%r20, %r6, %r1, %r9;\n" if mad else
               "\tmul.lo.s32 \t%r18, %r6, %r1;\n\tadd.s32 \t%r20, %r18, %r9;\n")
    b_index = ("\tmad.lo.s32 \t%r30, %r26, %r1, %r8;\n" if mad else
               "\tmul.lo.s32 \t%r28, %r26, %r1;\n\tadd.s32 \t%r30, %r28, %r8;\n")
    a = ("\t// As[ty][tx] = A[row * n + t + tx]\n" + a_index +
         "\tadd.s32 \t%r22, %r20, %r3;\n\tcvt.s64.s32 \t%rd19, %r22;\n"
         "\tshl.b64 \t%rd20, %rd19, 2;\n\tadd.s64 \t%rd21, %rd2, %rd20;\n"
         "\tld.global.f32 \t%f2, [%rd21];\n")
    if not cse:
        a += ("\tcvt.s64.s32 \t%rd22, %r4;\n\tshl.b64 \t%rd23, %rd22, 6;\n"
              "\tmov.u64 \t%rd24, matrixMul_$_As;\n\tadd.s64 \t%rd25, %rd24, %rd23;\n"
              "\tcvt.s64.s32 \t%rd26, %r3;\n\tshl.b64 \t%rd27, %rd26, 2;\n"
              "\tadd.s64 \t%rd28, %rd25, %rd27;\n")
    a += "\tst.shared.f32 \t[%rd28], %f2;\n"
    b = ("\t// Bs[ty][tx] = B[(t + ty) * n + col]\n\tadd.s32 \t%r26, %r9, %r4;\n" + b_index +
         "\tcvt.s64.s32 \t%rd30, %r30;\n\tshl.b64 \t%rd31, %rd30, 2;\n"
         "\tadd.s64 \t%rd32, %rd3, %rd31;\n\tld.global.f32 \t%f3, [%rd32];\n")
    if not cse:
        b += ("\tcvt.s64.s32 \t%rd33, %r4;\n\tshl.b64 \t%rd34, %rd33, 6;\n"
              "\tmov.u64 \t%rd35, matrixMul_$_Bs;\n\tadd.s64 \t%rd36, %rd35, %rd34;\n"
              "\tcvt.s64.s32 \t%rd37, %r3;\n\tshl.b64 \t%rd38, %rd37, 2;\n"
              "\tadd.s64 \t%rd39, %rd36, %rd38;\n")
    b += "\tst.shared.f32 \t[%rd39], %f3;\n\tbar.sync \t0;\n"
    return a + b


def accumulate(a, b, m, mad):
    if mad:
        return f"\tfma.rn.f32 \t%f1, {a}, {b}, %f1;\n"
    return f"\tmul.f32 \t{m}, {a}, {b};\n\tadd.f32 \t%f1, %f1, {m};\n"


ROLLED_K_LOOP = """\tmov.u32 \t%r10, 0;
\tbra.uni \t$L__BB0_3;

$L__BB0_3:
\tsetp.lt.s32 \t%p3, %r10, 16;
\tnot.pred \t%p4, %p3;
\t@%p4 bra \t$L__BB0_6;
\tbra.uni \t$L__BB0_4;

$L__BB0_4:
\t// sum += As[ty][k] * Bs[k][tx]
\tcvt.s64.s32 \t%rd40, %r4;
\tshl.b64 \t%rd41, %rd40, 6;
\tmov.u64 \t%rd42, matrixMul_$_As;
\tadd.s64 \t%rd43, %rd42, %rd41;
\tcvt.s64.s32 \t%rd44, %r10;
\tshl.b64 \t%rd45, %rd44, 2;
\tadd.s64 \t%rd46, %rd43, %rd45;
\tld.shared.f32 \t%f4, [%rd46];
\tshl.b64 \t%rd47, %rd44, 6;
\tmov.u64 \t%rd48, matrixMul_$_Bs;
\tadd.s64 \t%rd49, %rd48, %rd47;
\tcvt.s64.s32 \t%rd50, %r3;
\tshl.b64 \t%rd51, %rd50, 2;
\tadd.s64 \t%rd52, %rd49, %rd51;
\tld.shared.f32 \t%f5, [%rd52];
""" + accumulate("%f4", "%f5", "%f6", False) + """\tbra.uni \t$L__BB0_5;

$L__BB0_5:
\tadd.s32 \t%r10, %r10, 1;
\tbra.uni \t$L__BB0_3;

$L__BB0_6:
"""


def unrolled_k(cse, mad):
    out = ""
    for k in range(16):
        a, b, m = f"%fa{k}", f"%fb{k}", f"%fm{k}"
        out += f"\t// k = {k}: sum += As[ty][{k}] * Bs[{k}][tx]\n"
        if cse:
            out += (f"\tld.shared.f32 \t{a}, [%rd25+{4 * k}];\n"
                    f"\tld.shared.f32 \t{b}, [%rd52+{64 * k}];\n")
        else:
            out += (f"\tcvt.s64.s32 \t%ua{k}, %r4;\n\tshl.b64 \t%ub{k}, %ua{k}, 6;\n"
                    f"\tmov.u64 \t%uc{k}, matrixMul_$_As;\n\tadd.s64 \t%ud{k}, %uc{k}, %ub{k};\n"
                    f"\tadd.s64 \t%ue{k}, %ud{k}, {4 * k};\n\tld.shared.f32 \t{a}, [%ue{k}];\n"
                    f"\tmov.u64 \t%uf{k}, matrixMul_$_Bs;\n\tadd.s64 \t%ug{k}, %uf{k}, {64 * k};\n"
                    f"\tcvt.s64.s32 \t%uh{k}, %r3;\n\tshl.b64 \t%ui{k}, %uh{k}, 2;\n"
                    f"\tadd.s64 \t%uj{k}, %ug{k}, %ui{k};\n\tld.shared.f32 \t{b}, [%uj{k}];\n")
        out += accumulate(a, b, m, mad)
    return out


def kernel(step):
    unroll, cse, mad, licm = ("unroll" in step, "cse" in step, "mad" in step, "licm" in step)
    body = PROLOGUE
    if licm:
        body += "\t// hoisted tile-loop invariants\n" + INVARIANTS
    body += "\tbra.uni \t$L__BB0_1;\n\n$L__BB0_1:\n"
    body += ("\tsetp.lt.s32 \t%p1, %r9, %r1;\n\tnot.pred \t%p2, %p1;\n"
             "\t@%p2 bra \t$L__BB0_8;\n\tbra.uni \t$L__BB0_2;\n\n$L__BB0_2:\n")
    if cse and not licm:
        body += INVARIANTS
    body += tile_loads(cse, mad)
    body += unrolled_k(cse, mad) if unroll else ROLLED_K_LOOP
    body += "\tbar.sync \t0;\n\tadd.s32 \t%r9, %r9, 16;\n\tbra.uni \t$L__BB0_1;\n\n$L__BB0_8:\n"
    body += ("\tmad.lo.s32 \t%r35, %r6, %r1, %r8;\n" if mad else
             "\tmul.lo.s32 \t%r33, %r6, %r1;\n\tadd.s32 \t%r35, %r33, %r8;\n")
    body += ("\tcvt.s64.s32 \t%rd15, %r35;\n\tshl.b64 \t%rd16, %rd15, 2;\n"
             "\tadd.s64 \t%rd17, %rd1, %rd16;\n\tst.global.f32 \t[%rd17], %f1;\n\tret;\n\n}\n")
    return header(step) + body


if __name__ == "__main__":
    for step in STEPS:
        path = os.path.join(HERE, f"tile16-hand-{step}.ptx")
        with open(path, "w") as f:
            f.write(kernel(step))
        print("wrote", path)
