#!/usr/bin/env python3
"""Writes the CUDA-against-OpenCL PTX/SASS report from a fixture folder.

The folder holds what `gpucmp-ptx dump` wrote for both APIs (cuda/ and
opencl/, as under tests/fixtures/ptx/gpu/<machine>/). For every paired kernel
it compares the hot loop (the loop with the most instructions, nested loops
included) of the
two compilers' PTX, the registers ptxas allocated, SASS totals, and answers the
2010 study's four questions from the counts:

  unrolled  the loop body repeats one pattern k > 1 times (PTX `unrolled_by`);
            a fully unrolled inner loop shows as its operations per iteration
  CSE       integer (address) instructions in the loop per memory load: lower
            means address arithmetic is shared between the accesses
  mad       fma.f32 against separate mul.f32 + add.f32 / sub.f32 in the loop
  LICM      parameter loads and instructions per source iteration inside the
            loop: invariant work left in the loop shows up in both

usage: scripts/ptx_report.py --gpucmp-ptx BUILD/gpucmp-ptx --fixtures DIR -o REPORT.md
exit: 0 written; 2 bad input (missing files, malformed PTX)
"""
import argparse
import json
import os
import re
import subprocess
import sys

# (workload row, CUDA file, CUDA kernel name contains, OpenCL file, OpenCL kernel)
PAIRS = [
    ("matrixMul tile16", "matrixmul.ptx", "matrixMulILi16", "matrixMul-tile16.ptx", "matrixMul"),
    ("matrixMul tile32", "matrixmul.ptx", "matrixMulILi32", "matrixMul-tile32.ptx", "matrixMul"),
    ("cp base", "cp.ptx", "cp_base", "cp-base.ptx", "cp_base"),
    ("cp unrollx8", "cp.ptx", "cp_unrollx8", "cp-unrollx8.ptx", "cp_unrollx8"),
    ("cp unrollx8 fast", "cp-fast.ptx", "cp_unrollx8", "cp-unrollx8-fast.ptx", "cp_unrollx8"),
    ("mriq ComputeQ", "mriq.ptx", "ComputeQ", "mriq-precise.ptx", "ComputeQ"),
    ("mriq ComputeQ fast", "mriq-fast.ptx", "ComputeQ", "mriq-fast.ptx", "ComputeQ"),
    ("mrifhd ComputeFH", "mrifhd.ptx", "ComputeFH", "mrifhd-precise.ptx", "ComputeFH"),
    ("mrifhd ComputeFH fast", "mrifhd-fast.ptx", "ComputeFH", "mrifhd-fast.ptx", "ComputeFH"),
]

LOADS = ("ld.global", "ld.shared", "ld.const", "ld.local", "ld.other")


def fail(message):
    print(f"ptx_report: error: {message}", file=sys.stderr)
    sys.exit(2)


def stats_of(tool, path, sass=None):
    cmd = [tool, "stats", "--json", path] + (["--sass", sass] if sass else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def pick(kernels, needle):
    exact = [k for k in kernels if k["name"] == needle]
    found = exact or [k for k in kernels if needle in k["name"]]
    if not found:
        fail(f"no kernel named like '{needle}' in {[k['name'] for k in kernels]}")
    return found[0]


def hot_loop(kernel):
    loops = kernel.get("loops", [])
    if not loops:
        return None
    return max(loops, key=lambda lp: lp["instructions"])


def ptxas_registers(path, kernel):
    """Registers ptxas allocated: OpenCL build log or CUDA cuobjdump -res-usage."""
    base = os.path.splitext(path)[0]
    if os.path.exists(base + ".log"):
        text = open(base + ".log", encoding="utf-8", errors="replace").read()
        m = re.search(r"entry function '" + re.escape(kernel) + r"'(?:(?!Compiling).)*?Used (\d+) "
                      r"registers", text, re.S)
        return int(m.group(1)) if m else None
    if os.path.exists(base + ".res-usage"):
        text = open(base + ".res-usage", encoding="utf-8", errors="replace").read()
        m = re.search(r"Function [^\n]*" + re.escape(kernel) + r"[^\n]*:\n\s*REG:(\d+)", text)
        return int(m.group(1)) if m else None
    return None


def sass_counts(stats_json, sass_path, kernel):
    if not sass_path or sass_path not in stats_json:
        return None
    funcs = stats_json[sass_path].get("functions", [])
    for f in funcs:
        if kernel in f.get("name", ""):
            return f.get("by_class", f.get("counts", {}).get("by_class", {}))
    return None


def describe(kernel, path, sass_json, sass_path):
    loop = hot_loop(kernel)
    c = loop["by_class"] if loop else {}
    loads = sum(c.get(k, 0) for k in LOADS)
    k = loop["unrolled_by"] if loop else 1
    return {
        "loop": loop is not None,
        "depth": loop["depth"] if loop else 0,
        "instructions": loop["instructions"] if loop else 0,
        "per_iter": (loop["instructions"] / k) if loop else 0,
        "unrolled_by": k,
        "fma": c.get("fma.f32", 0),
        "mul_add": c.get("mul.f32", 0) + c.get("add.f32", 0) + c.get("sub.f32", 0),
        "int": c.get("int.addr", 0),
        "loads": loads,
        "int_per_load": c.get("int.addr", 0) / loads if loads else 0.0,
        "ld_param": c.get("ld.param", 0),
        "sfu": c.get("sfu", 0),
        "divsqrt": c.get("div", 0) + c.get("sqrt", 0),
        "ld_const": c.get("ld.const", 0),
        "ptx_regs": sum(kernel.get("registers", {}).values()),
        "ptxas_regs": ptxas_registers(path, kernel["name"]),
        "sass": sass_counts(sass_json, sass_path, kernel["name"]),
    }


def fmt_regs(d):
    return f"{d['ptxas_regs'] if d['ptxas_regs'] is not None else '?'} ({d['ptx_regs']} virtual)"


def sass_cell(d, cls):
    return str(d["sass"].get(cls, 0)) if d["sass"] is not None else "-"


def answer(cu, cl):
    def both(fmt):
        return f"CUDA {fmt(cu)}, OpenCL {fmt(cl)}"
    unrolled = both(lambda d: (f"x{d['unrolled_by']}" if d["unrolled_by"] > 1 else
                               "no repeated body") + f" ({d['fma']} fma, {d['loads']} loads)")
    cse = both(lambda d: f"{d['int_per_load']:.2f} int ops/load")
    mad = both(lambda d: f"{d['fma']} fma, {d['mul_add']} mul/add")
    licm = both(lambda d: f"{d['per_iter']:.1f} instr/iteration, {d['ld_param']} ld.param")
    return unrolled, cse, mad, licm


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpucmp-ptx", required=True)
    ap.add_argument("--fixtures", required=True, help="folder with cuda/ and opencl/")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    for sub in ("cuda", "opencl"):
        if not os.path.isdir(os.path.join(args.fixtures, sub)):
            fail(f"{args.fixtures}: no {sub}/ folder")
    versions = os.path.join(args.fixtures, "VERSIONS.txt")
    header = open(versions, encoding="utf-8").read().strip() if os.path.exists(versions) else ""

    rows, questions, sass_rows = [], [], []
    for name, cu_file, cu_kernel, cl_file, cl_kernel in PAIRS:
        cu_path = os.path.join(args.fixtures, "cuda", cu_file)
        cl_path = os.path.join(args.fixtures, "opencl", cl_file)
        for p in (cu_path, cl_path):
            if not os.path.exists(p):
                fail(f"missing {p}")
        cu_sass = cu_path[:-4] + ".sass" if os.path.exists(cu_path[:-4] + ".sass") else None
        cl_sass = cl_path[:-4] + ".sass" if os.path.exists(cl_path[:-4] + ".sass") else None
        cu_json, cl_json = stats_of(args.gpucmp_ptx, cu_path, cu_sass), stats_of(
            args.gpucmp_ptx, cl_path, cl_sass)
        cu = describe(pick(cu_json[cu_path]["kernels"], cu_kernel), cu_path, cu_json, cu_sass)
        cl = describe(pick(cl_json[cl_path]["kernels"], cl_kernel), cl_path, cl_json, cl_sass)
        rows.append(f"| {name} | {cu['instructions']} / {cl['instructions']} | "
                    f"{cu['fma']} / {cl['fma']} | {cu['mul_add']} / {cl['mul_add']} | "
                    f"{cu['loads']} / {cl['loads']} | {cu['ld_const']} / {cl['ld_const']} | "
                    f"{cu['int']} / {cl['int']} | {cu['sfu']} / {cl['sfu']} | "
                    f"{cu['divsqrt']} / {cl['divsqrt']} | "
                    f"{fmt_regs(cu)} / {fmt_regs(cl)} |")
        q = answer(cu, cl)
        questions.append(f"| {name} | {q[0]} | {q[1]} | {q[2]} | {q[3]} |")
        sass_rows.append(
            f"| {name} | " + " | ".join(f"{sass_cell(cu, c)} / {sass_cell(cl, c)}" for c in
                                        ("fma.f32", "ld.global", "ld.const", "ld.shared", "sfu",
                                         "int.addr")) + " |")

    out = [
        "# CUDA against OpenCL: what the compilers emitted",
        "",
        "Generated by `scripts/ptx_report.py` from "
        f"`{os.path.relpath(args.fixtures, os.path.dirname(os.path.abspath(args.out)))}`"
        " (regenerate with `cmake --build build --target ptx-report`). Cells are CUDA / OpenCL.",
        "",
        "```", header, "```",
        "",
        "## Hot loop (the loop with the most PTX instructions, nested loops included)",
        "",
        "| kernel | instructions | fma.f32 | mul+add+sub f32 | loads | of which ld.const | "
        "integer ops | SFU (approx) | div+sqrt (IEEE) | registers: ptxas (PTX virtual) |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "## The 2010 study's four questions, answered from today's PTX",
        "",
        "| kernel | loop unrolled? | address arithmetic (CSE) | multiply-add fused? | "
        "loop-invariant work (LICM) |",
        "|---|---|---|---|---|",
        *questions,
        "",
        "## Whole-kernel SASS (offline ptxas for OpenCL's PTX; cuobjdump of the linked CUDA "
        "objects)",
        "",
        "| kernel | FFMA | LDG | LDC/ULDC | LDS | MUFU | integer |",
        "|---|---|---|---|---|---|---|",
        *sass_rows,
        "",
        "How to read it: counts are static instructions (PTX in the hot loop; SASS whole "
        "kernel), not executed ones. ptxas unrolls and fuses again, so a PTX-level difference "
        "can vanish in SASS; compare both levels. The answers are heuristics stated in "
        "`scripts/ptx_report.py`'s header.",
        "",
    ]
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"ptx_report: wrote {args.out}")


if __name__ == "__main__":
    main()
