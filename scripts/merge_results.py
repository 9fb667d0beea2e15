#!/usr/bin/env python3
"""Merges gpucmp-bench JSON files of one machine and one revision into one.

Used when a suite is run in parts (e.g. one call per workload on a lent GPU
whose commands are time-limited). Refuses files whose device, driver or
revision differ: that would be a different experiment, not a part of this one.

usage: scripts/merge_results.py OUT.json IN.json [IN.json ...]
exit: 0 merged; 2 unreadable or mismatched input
"""
import json
import sys

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
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: unreadable JSON ({e})")
    if not isinstance(data, dict) or "context" not in data or "benchmarks" not in data:
        fail(f"{path}: not a Google Benchmark JSON report (no context/benchmarks)")
    return data


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
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=2)
        f.write("\n")
    print(f"merge_results: {len(merged['benchmarks'])} rows from {len(parts)} files -> {out_path}")


if __name__ == "__main__":
    main(sys.argv)
