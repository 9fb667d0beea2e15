#!/usr/bin/env python3
"""Each API at its best: CUDA's fastest against OpenCL's fastest, per workload and GPU.

For each paired workload (the families of scripts/gpucmp_report/api_best.py:
one problem, one math, each API's own implementations of it), from each GPU's
suite run (scripts/suite.sh): the fastest validated CUDA row and the fastest
validated OpenCL row over every variant and launch configuration the run
measured (local size, data layout, scan's alpha): one row per workload, one
column per GPU, each cell OpenCL/CUDA and the configuration each needed
(CUDA's / OpenCL's). Cross-runs, controls, vendor libraries and gpucmp's PTX
passes are never an API's best (the REPORT's section "Each API at its best"
has each API's times and the passes' column). A ratio marked * has a row at
its API's launch floor. The last row is each GPU's geometric mean, of the
rows with one math on both APIs (a row labelled "not the same math" has only
each API's default math, as trapezoid's division). A workload whose part
the run did not hold (manifest.json's parts) reads "not run" and stays out of
that column's mean, which then says how many rows it is of; so does a
workload that no row of the run holds on either API (a run made before it).
A run folder is read as REPORT.md reads it: its parts' files in the order of
manifest.json, the later file's row winning, error and skipped rows left out.
The README holds the table between <!-- best: RUN_DIR [RUN_DIR ...] --> and
<!-- /best -->, and
tests/readme_tables_test.py checks that it is this script's output for those
folders, so that no number in it is typed by hand.

usage: scripts/best_table.py RUN_DIR [RUN_DIR ...] [--check README]
  without --check: prints the table; with it: exit 1 when README's table
  between the markers is not the table of the folders it names
exit: 0 printed or equal; 1 README differs; 2 bad input (no such folder, no
      manifest.json or part file, a family without a validated row on one
      API, README without the markers)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readme_block  # noqa: E402
from gbench_json import InputError  # noqa: E402
from gpucmp_report import api_best, load  # noqa: E402
from suite_parts.parts import PARTS  # noqa: E402

def manifest(run_dir):
    """(the GPU's short name, the part files in the suite's order, the parts
    that have one)."""
    path = os.path.join(run_dir, "manifest.json")
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
        gpu = m["gpus"][0]["name"].replace("NVIDIA ", "").split()[0]
        parts = [str(p) for p in m["parts"]]
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
        raise InputError(f"{path}: no GPU name and parts ({e})") from e
    # The parts that ran gpucmp-bench (the others' JSON are other tools' forms).
    bench = {p.name for p in PARTS if p.tool == "bench"}
    held = [p for p in parts
            if p in bench and os.path.isfile(os.path.join(run_dir, p + ".json"))]
    if not held:
        raise InputError(f"{run_dir}: no part's file (<part>.json) of {path}")
    return gpu, [os.path.join(run_dir, p + ".json") for p in held], held


def run_bests(run_dir):
    """(GPU name, [api_best.Best, or None where the run did not hold the family's
    part] of every family); InputError where a family of a part it held has no
    validated row on an API."""
    gpu, files, held = manifest(run_dir)
    try:
        _, benches, _ = load.load_all(files)
    except load.InputError as e:
        raise InputError(str(e)) from e
    # A family with no row on either API: its part ran without it (a run made
    # before the workload existed), as good as a part the run did not hold.
    bests = [b if b.family.part in held and api_best.missing_api(b) != "CUDA and OpenCL"
             else None for b in api_best.best_of(benches)]
    for b in bests:
        gone = api_best.missing_api(b) if b is not None else None
        if gone:
            f = b.family
            raise InputError(
                f"{run_dir}: no validated {gone} row of '{f.label}' ({f.part}.json: "
                f"{f.workload}/<api>/<variant>/{f.problem})")
    return gpu, bests


def cell(best):
    """'1.02 (`tile32` / `tile32-aligned`)': OpenCL/CUDA, then the configuration
    each API needed (CUDA's first); ' *' where either ran at its launch floor;
    'not run' where the run did not hold the family's part."""
    if best is None:
        return "not run"
    floor = any(b.counters.get("launch_bound", 0) > 0.5 for b in (best.cuda, best.opencl))
    configs = " / ".join(api_best.fmt_config(b, best.family) for b in (best.cuda, best.opencl))
    return f"{best.ratio:.2f}{' *' if floor else ''} ({configs})"


def mean_cell(bests):
    """The geometric mean of the rows the run held, with how many of all it is."""
    held = [b for b in bests if b is not None]
    mean = api_best.geomean_cells(held)[0]
    if len(held) == len(bests):
        return mean
    same = sum(1 for b in held if not b.family.math_differs)
    every = sum(1 for f in api_best.FAMILIES if not f.math_differs)
    return f"{mean} ({same} of {every} rows)"


def table(run_dirs):
    """One row per family, one column per GPU (the REPORT's section has each
    API's times)."""
    runs = [run_bests(d) for d in run_dirs]
    lines = ["| pair | " + " | ".join(gpu for gpu, _ in runs) + " |",
             "|---|" + "---|" * len(runs)]
    for i, family in enumerate(api_best.FAMILIES):
        lines.append("| " + " | ".join([family.label] + [cell(b[i]) for _, b in runs]) + " |")
    lines.append("| geometric mean | " + " | ".join(mean_cell(bests) for _, bests in runs)
                 + " |")
    return lines


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    return readme_block.command("best_table", __doc__, "best", table, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
