#!/usr/bin/env python3
"""launch_overlap's table: per kernel (the ceiling's launch and launch-spin-<s>
rows) and API, the time a launch back to back (median over the RUNS
processes of each row's median) beside the kernel's time alone (the median
launch_us of the --launch-gaps process), each also as its difference from the
launch row's: where the back-to-back difference follows the alone one, the
API's launches hide none of the kernel's time; where it stays near 0, they
hide it.

usage: table.py OUT RUNS  (reads OUT/b2b-<k>.json, k = 1..RUNS, and OUT/alone.json)
exit: 0 printed; 1 a file unreadable or a row missing."""
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


def main(argv):
    out, runs = argv[1], int(argv[2])
    try:
        b2b = [medians(f"{out}/b2b-{k}.json", "real_time") for k in range(1, runs + 1)]
        floors = [medians(f"{out}/b2b-{k}.json", "launch_floor_us") for k in range(1, runs + 1)]
        alone = medians(f"{out}/alone.json", "launch_us")
    except (OSError, ValueError, KeyError) as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 1
    variants = sorted({v for run in b2b for (_, v) in run}, key=steps)
    cell = {}
    for api in APIS:
        for v in variants:
            times = [run[(api, v)] for run in b2b if (api, v) in run]
            if not times or (api, v) not in alone:
                print(f"table.py: no {api} {v} row in every file", file=sys.stderr)
                return 1
            cell[(api, v)] = (statistics.median(times), alone[(api, v)])
    floor = {api: statistics.median(f[(api, v)] for f in floors for v in variants
                                    if (api, v) in f) for api in APIS}
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
