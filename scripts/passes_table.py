#!/usr/bin/env python3
"""OpenCL against CUDA "as written" and "after gpucmp", one column pair per GPU.

For each main pair with the same math on both APIs, from each GPU's suite run
(scripts/suite.sh): CUDA's kernel as written against OpenCL's as written, and
against the fastest OpenCL row of the same run that gpucmp made of the same
kernel: a PTX pass on OpenCL's own PTX (`-ptx-<pass>`, the study's chains
`-auto-...`, advection's `async-ptx-cpasync` and `-nobar`), a source form (`aligned`,
advection's `ring`, its work-group copy as `cp.async` in NVIDIA inline PTX
`async-cpasync`, cp's atoms and MRI's k-values by value
`-byvalue`, atoms or k-values read a step ahead `-prefetch`, MRI's k-values
read as float4 `-vec4`) or a
build option (reduce's `pipeline-regcap40`, scan's `onepass-regcap64`). A candidate that a run does
not hold (a form added after it) is left out of that run's column. The 2010
study's ratio stands beside (Tesla C1060, CUDA 2.3; docs/DESIGN.md). A
candidate counts when it beats OpenCL as written by more than 2% (BEST_MARGIN
of the report); the last row is the geometric mean of each column. The
README holds the table between <!-- passes: RUN_DIR [RUN_DIR ...] --> and
<!-- /passes -->, and
tests/readme_tables_test.py checks that it is this script's output for those
folders, so that no number in it is typed by hand.

usage: scripts/passes_table.py RUN_DIR [RUN_DIR ...] [--check README]
  without --check: prints the table; with it: exit 1 when README's table
  between the markers is not the table of the folders it names
exit: 0 printed or equal; 1 README differs; 2 bad input (no such folder, a
      row's file or benchmark missing, README without the markers)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readme_block  # noqa: E402
from gbench_json import InputError  # noqa: E402
from gpucmp_report.names import BEST_MARGIN, STUDY_2010_RATIO  # noqa: E402
from headline import Run  # noqa: E402

MM, CP, MRI = "matrixMul/{api}/{v}/n:4096", "cp/{api}/{v}/grid:512/atoms:40000", \
    "{w}/{api}/{v}/numK:{k}/numX:{x}"
CHAINS = ["auto-unroll", "auto-unroll-cse", "auto-unroll-cse-mad", "auto-unroll-cse-mad-licm",
          "auto-unroll-cse-mad-licm-align"]


def mri(w, k, x):
    name = MRI.replace("{w}", w).replace("{k}", str(k)).replace("{x}", str(x))
    return ("parboil", name, "precise",
            [("variants", name, f"precise-{c}") for c in CHAINS + ["ptx-align"]]
            + [("parboil", name, "precise-prefetch")]
            + [("parboil", name, "precise-byvalue")]
            + [("parboil", name, "precise-vec4")])


def cp(variants):
    return [("parboil", CP, v) for v in variants]


# (label, part, name pattern, variant, [(part, pattern, OpenCL variant)]):
# the candidates "after gpucmp" are OpenCL rows of the same run; the CUDA row is
# always the variant as written.
ROWS = [
    ("matrixMul tile16, n=4096", "matrixmul", MM, "tile16",
     [("matrixmul", MM, "tile16-ptx-align"), ("matrixmul", MM, "tile16-aligned")]),
    ("matrixMul tile32, n=4096", "matrixmul", MM, "tile32",
     [("matrixmul", MM, "tile32-ptx-align"), ("matrixmul", MM, "tile32-aligned")]),
    ("cp unrollx8, IEEE divide and sqrt", "parboil", CP, "unrollx8-ieee",
     cp(["unrollx8-ieee-byvalue", "unrollx8-ieee-prefetch"])),
    ("cp unrollx8, fast math", "parboil", CP, "unrollx8-fast",
     cp(["unrollx8-fast-byvalue", "unrollx8-fast-prefetch", "unrollx8-fast-ptx-ftz",
         "unrollx8-fast-byvalue-ptx-ftz"])),
    ("mriq precise, 32^3 (numK 3072)", *mri("mriq", 3072, 32768)),
    ("mriq precise, 64^3 (numK 2048)", *mri("mriq", 2048, 262144)),
    ("mrifhd precise, 32^3 (numK 3072)", *mri("mrifhd", 3072, 32768)),
    ("mrifhd precise, 64^3 (numK 2048)", *mri("mrifhd", 2048, 262144)),
    ("lavamd, 50^3 boxes, AoS", "layout", "lavamd/{api}/{v}/boxes1d:50/layout:aos", "base",
     [("layout", "lavamd/{api}/{v}/boxes1d:50/layout:aos", "aligned")]),
    ("reduce pipeline 2^28 int32", "agpu", "reduce/{api}/{v}/type:int32/n:268435456",
     "pipeline", [("agpu", "reduce/{api}/{v}/type:int32/n:268435456", "pipeline-regcap40")]),
    ("scan onepass 2^28 int32, alpha 32", "agpu",
     "scan/{api}/{v}/type:int32/n:268435456/alpha:32", "onepass",
     [("agpu", "scan/{api}/{v}/type:int32/n:268435456/alpha:32", "onepass-regcap64")]),
    ("advection step 8192 x 16384, async", "advection", "advection/{api}/{v}/nx:8192/ny:16384",
     "async", [("advection", "advection/{api}/{v}/nx:8192/ny:16384", v)
               for v in ("ring", "async-cpasync", "async-ptx-cpasync", "async-ptx-cpasync-nobar")]),
]


def gpu_name(run_dir):
    path = os.path.join(run_dir, "manifest.json")
    try:
        with open(path, encoding="utf-8") as f:
            gpus = json.load(f)["gpus"]
        return gpus[0]["name"].replace("NVIDIA ", "").split()[0]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise InputError(f"{path}: no GPU name ({e})") from e


def pair(run, part, pattern, variant, candidates):
    """(as written, after, the variant that gives after or ""): a candidate counts
    only when it beats OpenCL as written by more than BEST_MARGIN (run-to-run
    noise otherwise), and only in a run that holds it."""
    cuda = run.median_s(part, pattern.format(api="cuda", v=variant))
    written = run.median_s(part, pattern.format(api="opencl", v=variant)) / cuda
    best, how = written, ""
    for cpart, cpattern, cvariant in candidates:
        name = cpattern.format(api="opencl", v=cvariant)
        if not run.has(cpart, name):
            continue  # a form the run predates
        r = run.median_s(cpart, name) / cuda
        if r < best and r < written * (1 - BEST_MARGIN):
            best, how = r, cvariant
    return written, best, how


def table(run_dirs):
    runs = [Run(d) for d in run_dirs]
    head = ["pair", "2010"]
    for d in run_dirs:
        g = gpu_name(d)
        head += [f"{g} as written", f"{g} after gpucmp"]
    lines = ["| " + " | ".join(head) + " |", "|---|---:|" + "---:|---:|" * len(runs)]
    logs = [[0.0, 0.0] for _ in runs]
    for label, part, pattern, variant, candidates in ROWS:
        ref = STUDY_2010_RATIO.get(pattern.split("/")[0])
        cells = [label, ref[1] if ref else "–"]
        for k, run in enumerate(runs):
            written, after, how = pair(run, part, pattern, variant, candidates)
            logs[k][0] += math.log(written)
            logs[k][1] += math.log(after)
            cells += [f"{written:.2f}", f"{after:.2f} (`{how}`)" if how else f"{after:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    geo = ["geometric mean", "–"]
    for w, a in logs:
        geo += [f"{math.exp(w / len(ROWS)):.2f}", f"{math.exp(a / len(ROWS)):.2f}"]
    lines.append("| " + " | ".join(geo) + " |")
    return lines


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    return readme_block.command("passes_table", __doc__, "passes", table, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
