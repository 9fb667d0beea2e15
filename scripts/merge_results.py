#!/usr/bin/env python3
"""Merges gpucmp-bench JSON files of one machine and one revision into one.

Used when a suite is run in parts (e.g. one call per workload on a lent GPU
whose commands are time-limited). Refuses files whose device, driver or
revision differ: that would be a different experiment, not a part of this one.

usage: scripts/merge_results.py OUT.json IN.json [IN.json ...]
exit: 0 merged; 2 unreadable or mismatched input
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import NO_TIME_AGGREGATES, write_atomically  # noqa: E402  (no partial OUT.json)

MUST_MATCH = ("gpucmp.revision", "cuda.device", "cuda.driver", "opencl.device",
              "opencl.driver", "opencl.platform_version", "cuda.nvcc_flags",
              "opencl.build_options")


def fail(message):
    print(f"merge_results: error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror or e})")
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError (binary data)
        fail(f"{path}: not valid JSON ({e})")
    except RecursionError:
        fail(f"{path}: not a Google Benchmark JSON report (nested too deeply)")
    if not isinstance(data, dict) or not isinstance(data.get("context"), dict) \
            or not isinstance(data.get("benchmarks"), list):
        fail(f"{path}: not a Google Benchmark JSON report (no context object and "
             "benchmarks list)")
    for i, row in enumerate(data["benchmarks"]):
        check_row(path, i, row)
    return data


def check_row(path, i, row):
    """A row merge can carry: an object with a "name" and, but for complexity
    aggregates, a numeric "real_time"."""
    if not isinstance(row, dict) or not isinstance(row.get("name"), str):
        fail(f"{path}: benchmarks[{i}] is not an object with a \"name\"")
    if row.get("aggregate_name") in NO_TIME_AGGREGATES:
        return
    time = row.get("real_time")
    if isinstance(time, bool) or not isinstance(time, (int, float)):
        fail(f"{path}: benchmarks[{i}] '{row['name']}' has no numeric \"real_time\"")


def main(argv):
    if len(argv) < 3:
        fail("usage: merge_results.py OUT.json IN.json [IN.json ...]")
    out_path, in_paths = argv[1], argv[2:]
    parts = [load(p) for p in in_paths]
    merged = {"context": dict(parts[0]["context"]), "benchmarks": []}
    seen = set()
    for path, part in zip(in_paths, parts):
        for key in MUST_MATCH:
            a, b = merged["context"].get(key), part["context"].get(key)
            if a != b:
                fail(f"{path}: context '{key}' is '{b}', but '{a}' in {in_paths[0]}")
        names = {bench["name"] for bench in part["benchmarks"]}  # repetitions repeat a name
        for name in sorted(names & seen):
            fail(f"{path}: benchmark '{name}' appears in two inputs")
        seen |= names
        merged["benchmarks"].extend(part["benchmarks"])
    merged["context"]["gpucmp.merged_from"] = "; ".join(
        f"{p} ({part['context'].get('date', '?')})" for p, part in zip(in_paths, parts))
    try:
        write_atomically(out_path, json.dumps(merged, indent=2) + "\n")
    except OSError as e:
        fail(f"{out_path}: cannot write ({e.strerror or e})")
    print(f"merge_results: {len(merged['benchmarks'])} rows from {len(parts)} files -> {out_path}")


if __name__ == "__main__":
    main(sys.argv)
