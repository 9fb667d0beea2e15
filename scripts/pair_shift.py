#!/usr/bin/env python3
"""Compares the OpenCL/CUDA ratio of every pair between two runs.

For each benchmark present on both APIs in both files (paired by name without
its api part, as the paired summary pairs them), the ratio OpenCL time / CUDA
time of the medians in each file, and how much it moved (after / before).
Prints the pairs that moved by more than the threshold, and a summary: how
many pairs, the median ratio of the pairs whose CUDA time is under 20 us in
each file, the OpenCL and CUDA rows under 10 us. Use it where the two runs
measure the same thing differently (a protocol change, a driver, a GPU); for
whether one row got slower, scripts/compare.py. Where a file's OpenCL rows were
built with added options (gpucmp-bench --cl-build-options) or set their kernels'
arguments otherwise (--cl-kernel-args; a file from before it set every argument
every launch), the summary says so.

usage: scripts/pair_shift.py BEFORE.json AFTER.json [--threshold 0.03] [--markdown OUT]
exit: 0 done; 2 bad input (unreadable file, no pair in common, bad options)
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_args  # noqa: E402
from gbench_json import InputError, gpucmp_name, load, samples, write_atomically  # noqa: E402

SHORT_US = 20.0  # "short" pairs: CUDA time under this
FAST_US = 10.0   # rows counted as fast


def fail(message):
    cli_args.fail("pair_shift", message)


def pair_times(path):
    """({pair key: {api: median seconds}} of the timed rows (no startup rows),
    the options gpucmp-bench added to every OpenCL build ("" none), when OpenCL
    set kernel arguments (None: no OpenCL context; absent: "every"))."""
    context, entries = load(path)
    pairs = {}
    for key, entry in entries.items():
        if entry["error"] or entry["skipped"]:
            continue
        parts = gpucmp_name(key).split("/")
        if len(parts) < 3 or parts[0] == "startup" or parts[1] not in ("cuda", "opencl"):
            continue
        times = samples(path, key, entry, "real_time")
        if times:
            pair = "/".join([parts[0]] + parts[2:])
            pairs.setdefault(pair, {})[parts[1]] = statistics.median(times) * 1e-9
    has_opencl = any(str(k).startswith("opencl.") for k in context)
    kernel_args = str(context.get("opencl.kernel_args", "every")) if has_opencl else None
    return pairs, str(context.get("opencl.user_build_options", "")), kernel_args


def shifts(before, after):
    """[(pair, before cuda s, before opencl s, before ratio, after ..., after/before)]."""
    rows = []
    for pair, b in before.items():
        a = after.get(pair, {})
        if all(api in b and api in a for api in ("cuda", "opencl")):
            rb, ra = b["opencl"] / b["cuda"], a["opencl"] / a["cuda"]
            rows.append((pair, b["cuda"], b["opencl"], rb, a["cuda"], a["opencl"], ra, ra / rb))
    return rows


def summary(rows, options=("", ""), kernel_args=(None, None)):
    short = [r for r in rows if r[1] * 1e6 < SHORT_US]
    lines = [f"{len(rows)} pairs in both runs"]
    if any(options):  # a cross-run: OpenCL built with other options (--cl-build-options)
        lines.append(f"OpenCL build options added: '{options[0] or 'none'}' before, "
                     f"'{options[1] or 'none'}' after")
    if None not in kernel_args and kernel_args[0] != kernel_args[1]:
        lines.append(f"OpenCL kernel arguments set (--cl-kernel-args): '{kernel_args[0]}' "
                     f"before, '{kernel_args[1]}' after")
    if short:
        lines.append(f"{len(short)} pairs with CUDA under {SHORT_US:g} us before: median "
                     f"OpenCL/CUDA {statistics.median(r[3] for r in short):.2f} before, "
                     f"{statistics.median(r[6] for r in short):.2f} after")
    for api, before_i, after_i in (("OpenCL", 2, 5), ("CUDA", 1, 4)):
        lines.append(f"{api} rows under {FAST_US:g} us: "
                     f"{sum(r[before_i] * 1e6 < FAST_US for r in rows)} before, "
                     f"{sum(r[after_i] * 1e6 < FAST_US for r in rows)} after")
    return lines


def markdown(rows, threshold):
    moved = [r for r in rows if abs(r[7] - 1) > threshold]
    md = [f"{len(moved)} of {len(rows)} pairs moved by more than {threshold * 100:g}%:", "",
          "| pair | CUDA before | OpenCL before | ratio before | CUDA after | OpenCL after | "
          "ratio after | after/before |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in moved:
        md.append(f"| {r[0]} | {r[1] * 1e6:.2f} us | {r[2] * 1e6:.2f} us | {r[3]:.2f} | "
                  f"{r[4] * 1e6:.2f} us | {r[5] * 1e6:.2f} us | {r[6]:.2f} | {r[7]:.2f} |")
    return md


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    p = cli_args.parser("pair_shift", __doc__)
    p.add_argument("before", metavar="BEFORE.json")
    p.add_argument("after", metavar="AFTER.json")
    p.add_argument("--threshold", type=float, default=0.03,
                   help="how far a ratio must move to be listed (default 0.03 = 3%%)")
    p.add_argument("--markdown", metavar="OUT", help="also write the summary and table to OUT")
    args = p.parse_args(argv)
    if not (0 <= args.threshold < 10):
        fail(f"--threshold must be a number in [0, 10), not {args.threshold}")
    try:
        (before, before_opts, before_args) = pair_times(args.before)
        (after, after_opts, after_args) = pair_times(args.after)
        rows = shifts(before, after)
    except InputError as e:
        fail(str(e))
    if not rows:
        fail(f"no pair (a benchmark on both CUDA and OpenCL) is in both {args.before} and "
             f"{args.after}")
    text = (summary(rows, (before_opts, after_opts), (before_args, after_args)) + [""]
            + markdown(rows, args.threshold))
    print("\n".join(text))
    if args.markdown:
        try:
            write_atomically(args.markdown, "\n".join(text) + "\n")
        except OSError as e:
            fail(f"{args.markdown}: cannot write ({e.strerror or e})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
