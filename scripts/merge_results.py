#!/usr/bin/env python3
"""Merges gpucmp-bench JSON files of one machine and one revision into one.

Used when a suite is run in parts (e.g. one call per workload on a lent GPU
whose commands are time-limited). Refuses files whose device, driver or
revision differ: that would be a different experiment, not a part of this one.

The context is the first file's, with gpucmp.merged_from added and, where a
part has them, gpucmp-bench's keys for benchmarks that left no row joined over
the parts: gpucmp.skipped_benchmarks (each name once, none that a part measured),
gpucmp.skipped_count and the per-API reasons of gpucmp.skipped recounted to match,
and gpucmp.partial ("<file>: <note>" for each part cut short).

usage: scripts/merge_results.py OUT.json IN.json [IN.json ...]
exit: 0 merged; 2 unreadable or mismatched input
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_args  # noqa: E402
from gbench_json import NO_TIME_AGGREGATES, write_atomically  # noqa: E402  (no partial OUT.json)
import gbench_json as gbench  # noqa: E402  (gpucmp-bench's skip list: names, reasons, counts)

SKIP_KEYS = (gbench.SKIPPED_KEY, gbench.SKIPPED_COUNT_KEY, gbench.SKIPPED_NAMES_KEY)

MUST_MATCH = ("gpucmp.revision", "cuda.device", "cuda.driver", "opencl.device",
              "opencl.driver", "opencl.platform_version", "cuda.nvcc_flags",
              "opencl.build_options")


def fail(message):
    cli_args.fail("merge_results", message)


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


def row_names(part):
    """The gpucmp names of a part's rows (aggregates and repetitions included)."""
    names = set()
    for row in part["benchmarks"]:
        run = row.get("run_name")
        if not isinstance(run, str):  # older Google Benchmark: the name, maybe + _<aggregate>
            run, aggregate = row["name"], row.get("aggregate_name")
            if isinstance(aggregate, str) and run.endswith("_" + aggregate):
                run = run[: -len(aggregate) - 1]
        names.add(gbench.gpucmp_name(run))
    return names


def part_skip_items(context, kept, dropped):
    """The part's gpucmp.skipped items [(api, reason, count)] less the `dropped`
    names (skipped here, but measured in a part or listed by an earlier one).
    gpucmp.skipped does not say which benchmark had which reason: an API with
    several reasons that lost names becomes one item naming them all, so that
    the counts stay true."""
    items = gbench.parse_skip_summary(context.get(gbench.SKIPPED_KEY))
    if items is None:  # not gpucmp-bench's form: kept as written, counted by its names
        text = str(context.get(gbench.SKIPPED_KEY, "")).strip()
        return [(None, text, len(kept))] if kept and text else []
    lost = {}  # api -> names dropped
    for name in dropped:
        lost[gbench.api_of(name)] = lost.get(gbench.api_of(name), 0) + 1
    out = []
    for api in dict.fromkeys(a for a, _, _ in items):
        reasons = [(r, n) for a, r, n in items if a == api]
        if not lost.get(api):
            out += [(api, r, n) for r, n in reasons]
        elif len(reasons) == 1:
            out.append((api, reasons[0][0], reasons[0][1] - lost[api]))
        else:
            out.append((api, " or ".join(r for r, _ in reasons),
                        sum(n for _, n in reasons) - lost[api]))
    return out


def merged_skips(parts):
    """The skip keys of the merged file ({} where no part has them): each skipped
    name once (the first part's), none that a part measured."""
    if not any(key in part["context"] for part in parts for key in SKIP_KEYS):
        return {}
    measured = set().union(*(row_names(part) for part in parts))
    names, items = [], []
    for part in parts:
        kept, dropped = [], []
        for name in gbench.skipped_names(part["context"]):
            (dropped if name in measured or name in names else kept).append(name)
        names += kept
        items += part_skip_items(part["context"], kept, dropped)
    totals = {}  # (api, reason) -> count, first seen first
    for api, reason, count in items:
        totals[(api, reason)] = totals.get((api, reason), 0) + count
    return {gbench.SKIPPED_KEY: gbench.skip_summary_text(
                [(api, reason, n) for (api, reason), n in totals.items()]),
            gbench.SKIPPED_COUNT_KEY: str(len(names)),
            gbench.SKIPPED_NAMES_KEY: gbench.SKIPPED_NAMES_SEP.join(names)}


def merged_partial(in_paths, parts):
    """gpucmp.partial of the merged file, naming each part cut short; None if none was."""
    notes = [f"{path}: {part['context'][gbench.PARTIAL_KEY]}"
             for path, part in zip(in_paths, parts) if part["context"].get(gbench.PARTIAL_KEY)]
    return "; ".join(notes) if notes else None


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    p = cli_args.parser("merge_results", __doc__)
    p.add_argument("out", metavar="OUT.json")
    p.add_argument("inputs", metavar="IN.json", nargs="+")
    args = p.parse_args(argv)
    out_path, in_paths = args.out, args.inputs
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
    merged["context"].update(merged_skips(parts))
    partial = merged_partial(in_paths, parts)
    if partial:
        merged["context"][gbench.PARTIAL_KEY] = partial
    merged["context"]["gpucmp.merged_from"] = "; ".join(
        f"{p} ({part['context'].get('date', '?')})" for p, part in zip(in_paths, parts))
    try:
        write_atomically(out_path, json.dumps(merged, indent=2) + "\n")
    except OSError as e:
        fail(f"{out_path}: cannot write ({e.strerror or e})")
    print(f"merge_results: {len(merged['benchmarks'])} rows from {len(parts)} files -> {out_path}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
