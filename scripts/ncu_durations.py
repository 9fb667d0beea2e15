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
    """{kernel: [ns, ...]} of the gpu__time_duration.sum rows in one ncu CSV."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise ValueError(f"{path}: no ncu CSV table (no line starting with \"ID\")")
    out = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = UNIT_NS.get(row.get("Metric Unit", ""))
        if unit is None:
            raise ValueError(f"{path}: unknown duration unit '{row.get('Metric Unit')}'")
        name = re.sub(r"\(.*$", "", row["Kernel Name"]).strip()
        value = float(row["Metric Value"].replace(",", ""))
        out.setdefault(name, []).append(value * unit)
    if not out:
        raise ValueError(f"{path}: no gpu__time_duration.sum rows")
    return out


def main(argv):
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    markdown = "--markdown" in argv
    if markdown:
        print("| file | kernel | launches | median us | min us |")
        print("|---|---|---:|---:|---:|")
    for path in files:
        try:
            table = durations(path)
        except (OSError, ValueError) as e:
            print(f"ncu_durations: error: {e}", file=sys.stderr)
            return 2
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
