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

class BadInput(Exception):
    pass


def tuned_choices(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") == "median":
            key = b["run_name"].rsplit("/iterations", 1)[0]
            out[key] = b.get("label", "").split(";")[0].removeprefix("tuned=")
    return out


def tuned_key(family, api, tuned):
    """The tuner's best row of the family's problem on `api`: the one row, or where
    the workload has a math parameter, the row whose math names OpenCL's first
    variant of the family (unrollx8-ieee: math:ieee; precise: math:precise)."""
    prefix = f"{family.workload}/{api}/best/{family.problem}"
    keys = [k for k in tuned if k == prefix or k.startswith(prefix + "/math:")]
    if len(keys) <= 1:
        return keys[0] if keys else None
    named = [k for k in keys if k.rsplit("math:", 1)[1] in family.opencl[0]]
    if len(named) != 1:
        raise BadInput(f"tune.json: {len(keys)} tuned rows of {prefix} and "
                       f"{len(named)} whose math names {family.opencl[0]}")
    return named[0]


def config(bench, family):
    free = [f"{k}:{v}" for k, v in bench.params if k in family.free and k != "local"]
    return "/".join([bench.variant] + free)


def main(run):
    try:
        with open(os.path.join(run, "manifest.json"), encoding="utf-8") as f:
            parts = json.load(f)["parts"]
        if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
            raise BadInput("manifest.json: parts is not a list of part names")
        files = [os.path.join(run, p + ".json") for p in parts if p not in ("tune", "sass")
                 and os.path.isfile(os.path.join(run, p + ".json"))]
        _, benches, _ = load.load_all(files)
        tuned = tuned_choices(os.path.join(run, "tune.json"))
    except (OSError, ValueError, KeyError, TypeError, load.InputError, BadInput) as e:
        print(f"compare.py: {run}: {e}", file=sys.stderr)
        return 2
    rows = list(benches.values()) if isinstance(benches, dict) else list(benches)
    try:
        keys = {(f.label, api): tuned_key(f, api, tuned) for f in api_best.FAMILIES
                for api in ("cuda", "opencl")}
    except BadInput as e:
        print(f"compare.py: {run}: {e}", file=sys.stderr)
        return 2
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
            key = keys[(family.label, api)]
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
