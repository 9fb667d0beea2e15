#!/usr/bin/env python3
"""launch_overlap's table: per kernel (the ceiling's launch and launch-spin-<s>
rows) and API, the time a launch back to back (median over the RUNS
processes of each row's median) beside the kernel's time alone (the median
launch_us of the --launch-gaps process), each also as its difference from the
launch row's: where the back-to-back difference follows the alone one, the
API's launches hide none of the kernel's time; where it stays near 0, they
hide it.

usage: table.py OUT RUNS  (reads OUT/b2b-<k>.json, k = 1..RUNS, and OUT/alone.json)
exit: 0 printed; 2 with one line on bad input (a file unreadable, a row or
counter missing from one of them)."""
import json
import statistics
import sys

APIS = ("cuda", "opencl")


def medians(path, key):
    """{(api, variant): the median row's `key`} of a gpucmp-bench JSON."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") != "median" or key not in b:
            continue
        _, api, variant = b["run_name"].split("/")[:3]
        out[(api, variant)] = float(b[key])
    return out


def steps(variant):
    return 0 if variant == "launch" else int(variant.rsplit("-", 1)[1])


class BadInput(Exception):
    pass


def need(table, key, path):
    if key not in table:
        raise BadInput(f"{path}: no median row of {key[0]} {key[1]} with its counter")
    return table[key]


def main(argv):
    if len(argv) != 3 or not argv[2].isdigit() or int(argv[2]) < 1:
        print("usage: table.py OUT RUNS (RUNS a whole number from 1)", file=sys.stderr)
        return 2
    out, runs = argv[1], int(argv[2])
    paths = [f"{out}/b2b-{k}.json" for k in range(1, runs + 1)]
    try:
        b2b = [medians(p, "real_time") for p in paths]
        floors = [medians(p, "launch_floor_us") for p in paths]
        alone = medians(f"{out}/alone.json", "launch_us")
        variants = sorted({v for run in b2b for (_, v) in run}, key=steps)
        if "launch" not in variants:
            raise BadInput(f"{paths[0]}: no launch row, the differences' reference")
        cell = {}
        for api in APIS:
            for v in variants:
                times = [need(run, (api, v), p) for run, p in zip(b2b, paths)]
                cell[(api, v)] = (statistics.median(times),
                                  need(alone, (api, v), f"{out}/alone.json"))
        floor = {api: statistics.median(need(f, (api, v), p) for f, p in zip(floors, paths)
                                        for v in variants) for api in APIS}
    except (OSError, ValueError, KeyError, TypeError, BadInput) as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 2
    print("Time a launch in us: back to back (b2b, median of the runs' medians) "
          "and alone (launch_us, --launch-gaps); in brackets the difference from "
          "the launch row's. Floors probed before the rows, median: "
          + ", ".join(f"{api} {floor[api]:.2f} us" for api in APIS) + ".\n")
    print("| FMA steps | CUDA alone | CUDA b2b | OpenCL alone | OpenCL b2b | OpenCL/CUDA b2b |")
    print("|---:|---:|---:|---:|---:|---:|")
    for v in variants:
        row = [str(steps(v))]
        for api in APIS:
            b, a = cell[(api, v)]
            b0, a0 = cell[(api, "launch")]
            row += [f"{a:.2f} ({a - a0:+.2f})", f"{b:.2f} ({b - b0:+.2f})"]
        row.append(f"{cell[('opencl', v)][0] / cell[('cuda', v)][0]:.3f}")
        print("| " + " | ".join(row) + " |")
    # Each process on its own: how far the launch-bound rows move between them.
    print("\nEach process's back-to-back medians in us (CUDA / OpenCL, their ratio), "
          "and in brackets each API's difference from that process's launch row:\n")
    print("| FMA steps | " + " | ".join(f"run {k}" for k in range(1, runs + 1)) + " |")
    print("|---:|" + "---|" * runs)
    for v in variants:
        cells = []
        for run in b2b:
            c, o = run[("cuda", v)], run[("opencl", v)]
            c0, o0 = run[("cuda", "launch")], run[("opencl", "launch")]
            cells.append(f"{c:.2f} / {o:.2f}, {o / c:.3f} ({c - c0:+.2f} / {o - o0:+.2f})")
        print(f"| {steps(v)} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
