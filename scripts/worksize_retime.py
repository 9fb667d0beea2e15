#!/usr/bin/env python3
"""The tuner against the exhaustive best, both timed in one run.

A sweep's best shape is the minimum of many noisy medians, so it is biased low
(the winner's curse), and a rule re-timed in another process meets another
clock and driver state: on kernels of 5 to 700 us the two differ by more than
the 3% the tuner is judged by. This script narrows the sweep to its few best
shapes per API, which the device script re-times beside the rules in one
process, repetitions in random order (--benchmark_enable_random_interleaving);
then the best of those shapes is the exhaustive best of that run.

  worksize_retime.py top --workload W [--top K] SWEEP.json...
      the K best shapes of each API of workload W (by median), comma-separated
      (the argument of --<workload>-local)
  worksize_retime.py table RETIME.json [--out FILE]
      per kernel and API: the best re-timed shape, each rule's median against
      it, the spread of both and a two-sided Mann-Whitney test (p < 0.05: the
      rule is distinguishable from the best), as Markdown

Exit 2 with one line on unreadable input or a file with no such rows."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gbench_json import InputError, load, write_atomically  # noqa: E402
from mann_whitney import mann_whitney_u  # noqa: E402

ALPHA = 0.05
US_PER_UNIT = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def split_name(run_name):
    """(kernel label, api, local spec) of 'w/api/variant/p:v/local:S/...', or None."""
    parts = [p for p in run_name.split("/") if p]
    if len(parts) < 3:
        return None
    local = next((p.split(":", 1)[1] for p in parts if p.startswith("local:")), None)
    if local is None:
        return None
    params = [p for p in parts[3:] if ":" in p and not p.startswith(("local:", "iterations:"))]
    return " ".join([parts[0], parts[2]] + params), parts[1], local


def per_row_times(path):
    """{(kernel, api): {local spec: [real_time in us of each repetition]}}."""
    _, entries = load(path)
    rows = {}
    for name, entry in entries.items():
        parsed = split_name(name)
        if parsed is None:
            continue
        kernel, api, spec = parsed
        times = [r["real_time"] * US_PER_UNIT[r.get("time_unit", "ns")] for r in entry["rows"]]
        if times:
            rows.setdefault((kernel, api), {})[spec] = times
    return rows


def is_shape(spec):
    return spec.replace("x", "").isdigit()


def top(args):
    best = {}
    for path in args.sweeps:
        for (kernel, api), specs in per_row_times(path).items():
            if not kernel.startswith(args.workload + " "):
                continue
            for spec, times in specs.items():
                if is_shape(spec):
                    best.setdefault(api, {})[spec] = statistics.median(times)
    if not best:
        raise InputError(f"no shape rows of {args.workload} in {', '.join(args.sweeps)}")
    chosen = []
    for api in sorted(best):
        for spec in sorted(best[api], key=best[api].get)[:args.top]:
            if spec not in chosen:
                chosen.append(spec)
    print(",".join(chosen))


def fmt_us(t):
    return f"{t:.4g} us"


def spread(times):
    lo, hi = min(times), max(times)
    return f"{(hi - lo) / statistics.median(times):.1%}"


def table(args):
    rows = per_row_times(args.retime)
    lines = ["| kernel | API | row | median | spread (max-min)/median | time / best | "
             "Mann-Whitney p | distinguishable |", "|---|---|---|---:|---:|---:|---:|---|"]
    summary = []
    for (kernel, api), specs in sorted(rows.items()):
        shapes = {s: t for s, t in specs.items() if is_shape(s)}
        if not shapes:
            continue
        best_spec = min(shapes, key=lambda s: statistics.median(shapes[s]))
        best = shapes[best_spec]
        lines.append(f"| {kernel} | {api} | best shape {best_spec} | "
                     f"{fmt_us(statistics.median(best))} | {spread(best)} | 1.00 | | |")
        for spec, times in sorted(specs.items()):
            if is_shape(spec):
                continue
            ratio = statistics.median(times) / statistics.median(best)
            _, p, _ = mann_whitney_u(times, best)
            lines.append(f"| {kernel} | {api} | {spec} | {fmt_us(statistics.median(times))} | "
                         f"{spread(times)} | {ratio:.3f} | {p:.3g} | "
                         f"{'yes' if p < ALPHA else 'no'} |")
            if spec == "tuner":
                summary.append((ratio, p, kernel, api))
    if len(lines) == 2:
        raise InputError(f"{args.retime}: no rows with local:<shape> beside a rule")
    reps = len(next(iter(next(iter(rows.values())).values())))
    text = ["Each rule's median against the best shape re-timed in the same run "
            f"({reps} repetitions per row); p: two-sided Mann-Whitney test of the rule's "
            f"repetitions against the best's (below {ALPHA}: distinguishable).", ""] + lines + [""]
    if summary:
        worst = max(summary)
        within = sum(r <= 1.03 for r, *_ in summary)
        text.append(f"Tuner: {within} of {len(summary)} kernel/API pairs within 3% of the best; "
                    f"worst {worst[0]:.3f} ({worst[2]}, {worst[3]}, p = {worst[1]:.3g}).")
    out = "\n".join(text) + "\n"
    if args.out:
        write_atomically(args.out, out)
    else:
        sys.stdout.write(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("top", help="the best shapes of a sweep")
    p.add_argument("--workload", required=True)
    p.add_argument("--top", type=int, default=3)
    p.add_argument("sweeps", nargs="+")
    p = sub.add_parser("table", help="rules against the best re-timed shape")
    p.add_argument("retime")
    p.add_argument("--out")
    args = parser.parse_args()
    if args.command == "top" and args.top < 1:
        parser.error("--top must be at least 1")
    try:
        top(args) if args.command == "top" else table(args)
    except InputError as e:
        print(f"worksize_retime.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
