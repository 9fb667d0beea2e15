#!/usr/bin/env python3
"""The tuner's choices against the suite's own rows of the same run: per family
of the table "each API at its best" (scripts/gpucmp_report/api_best.py) and
API, the fastest row of the run's measured parts (every part but tune and
sass), how close its next row came (next / best, median times), and what
`gpucmp-bench --tune` chose for that problem in the run's tune.json ("tuned="
of its best row's label; "no tuned row" where the tuner has no family).

usage: compare.py RUN_DIR   (a suite folder with manifest.json and tune.json)
prints a Markdown table; exit 2 with one line on unreadable input."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from gpucmp_report import api_best, load  # noqa: E402

# The math parameter of the tuner's best rows, per family where the workload has one.
MATH = {"cp, IEEE divide and sqrt": "/math:ieee", "cp, fast math": "/math:fast"}


def tuned_choices(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") == "median":
            key = b["run_name"].rsplit("/iterations", 1)[0]
            out[key] = b.get("label", "").split(";")[0].removeprefix("tuned=")
    return out


def config(bench, family):
    free = [f"{k}:{v}" for k, v in bench.params if k in family.free and k != "local"]
    return "/".join([bench.variant] + free)


def main(run):
    try:
        with open(os.path.join(run, "manifest.json"), encoding="utf-8") as f:
            parts = json.load(f)["parts"]
        files = [os.path.join(run, p + ".json") for p in parts if p not in ("tune", "sass")
                 and os.path.isfile(os.path.join(run, p + ".json"))]
        _, benches, _ = load.load_all(files)
        tuned = tuned_choices(os.path.join(run, "tune.json"))
    except (OSError, ValueError, KeyError, load.InputError) as e:
        print(f"compare.py: {run}: {e}", file=sys.stderr)
        return 2
    rows = list(benches.values()) if isinstance(benches, dict) else list(benches)
    print("| pair | CUDA: the run's fastest | next / best | tuner | OpenCL: the run's fastest "
          "| next / best | tuner |")
    print("|---|---|---:|---|---|---:|---|")
    for family in api_best.FAMILIES:
        cells = []
        for api in ("cuda", "opencl"):
            ranked = sorted((b for b in rows if b.api == api
                             and api_best.takes(family, b, family.variants(api))),
                            key=lambda b: b.time)
            if not ranked:
                break
            nxt = f"{ranked[1].time / ranked[0].time:.3f}" if len(ranked) > 1 else "\u2013"
            math = MATH.get(family.label,
                            "/math:precise" if family.workload in ("mriq", "mrifhd") else "")
            key = f"{family.workload}/{api}/best/{family.problem}{math}"
            cells += [f"`{config(ranked[0], family)}`", nxt,
                      f"`{tuned[key]}`" if key in tuned else "no tuned row"]
        if len(cells) == 6:
            print(f"| {family.label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
