#!/usr/bin/env python3
"""Median kernel duration per kernel name from ncu's default CSV output
(`ncu --metrics gpu__time_duration.sum --csv PROGRAM`), one line per file and
kernel: how results/<gpu>/<date>-origin/ compares gpucmp's kernels with the
programs they port (Parboil, cuda-samples) run on the same GPU and inputs.

Usage: scripts/ncu_durations.py FILE.csv... [--markdown]
Exit 0, or 2 for a file that is missing or holds no duration rows.
"""
import csv
import io
import re
import statistics
import sys

UNIT_NS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6}


def durations(path):
    """{kernel: [ns, ...]} of the gpu__time_duration.sum rows in one ncu CSV.

    Raises ValueError naming path and the problem for anything else."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror or e})") from e
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise ValueError(f"{path}: no ncu CSV table (no line starting with \"ID\")")
    out = {}
    try:
        rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
    except csv.Error as e:  # e.g. a NUL byte
        raise ValueError(f"{path}: not an ncu CSV table ({e})") from e
    for number, row in enumerate(rows, start + 2):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = UNIT_NS.get(row.get("Metric Unit") or "")
        if unit is None:
            raise ValueError(f"{path}: line {number}: unknown duration unit "
                             f"'{row.get('Metric Unit')}'")
        kernel, text = row.get("Kernel Name"), row.get("Metric Value")
        if kernel is None or text is None:
            raise ValueError(f"{path}: line {number}: no \"Kernel Name\" or \"Metric Value\" "
                             "cell")
        try:
            value = float(text.replace(",", ""))
        except ValueError as e:
            raise ValueError(f"{path}: line {number}: duration '{text}' is not a number") from e
        name = re.sub(r"\(.*$", "", kernel).strip()
        out.setdefault(name, []).append(value * unit)
    if not out:
        raise ValueError(f"{path}: no gpu__time_duration.sum rows")
    return out


def fail(message):
    print(f"ncu_durations: error: {message}", file=sys.stderr)
    return 2


def main(argv):
    files = [a for a in argv if not a.startswith("--")]
    unknown = [a for a in argv if a.startswith("--") and a != "--markdown"]
    if unknown:
        return fail(f"unknown option {unknown[0]} (usage: ncu_durations.py FILE.csv... "
                    "[--markdown])")
    if not files:
        return fail("no input (usage: ncu_durations.py FILE.csv... [--markdown])")
    # Every file is read before anything is printed: a bad one gives its one
    # error line and no half-printed table.
    try:
        tables = [(path, durations(path)) for path in files]
    except ValueError as e:
        return fail(e)
    markdown = "--markdown" in argv
    if markdown:
        print("| file | kernel | launches | median us | min us |")
        print("|---|---|---:|---:|---:|")
    for path, table in tables:
        for kernel, ns in table.items():
            med, low = statistics.median(ns) / 1e3, min(ns) / 1e3
            name = path.rsplit("/", 1)[-1]
            if markdown:
                print(f"| {name} | `{kernel}` | {len(ns)} | {med:.2f} | {low:.2f} |")
            else:
                print(f"{name}\t{kernel}\t{len(ns)}\t{med:.2f}\t{low:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
