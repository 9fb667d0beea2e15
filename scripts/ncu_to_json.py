#!/usr/bin/env python3
"""Turns the CSV of scripts/profile_ncu.sh (Nsight Compute `--csv --page raw`, one
block per benchmark row) into the JSON that report.py reads.

Input: ncu's raw page: a header line ("ID","Process ID",...,"Kernel Name",...,
then one column per metric), a units line (empty cells under the fixed
columns), then one line per profiled kernel launch; values may carry thousands
separators ("1,234") or be "n/a". ncu's own lines (==PROF==, ==WARNING==, ...)
are skipped. profile_ncu.sh puts its own lines in front of each block:
`==GPUCMP== row <benchmark name>` (the row whose launches follow), and
once at the top `==GPUCMP== ncu <version>`, `==GPUCMP== gpu <name>`,
`==GPUCMP== date <YYYY-MM-DD>`, `==GPUCMP== metrics <m1,m2,...>`,
`==GPUCMP== option <text>`; `==GPUCMP== error <text>` after a block
records a row whose ncu run failed. The long format of the details page
("Metric Name","Metric Unit","Metric Value" columns) is read too.

Output (one JSON per run, committed as results/<gpu>/<date>-ncu.json):
  {"gpucmp_ncu": 1, "ncu_version", "gpu", "date", "metrics": [...],
   "units": {metric: unit after conversion}, "options": [...],
   "rows": {row name: {kernel name: {"metrics": {metric: value},
                                      "launches": N, "order": i,
                                      "grid": "(x, y, z)", "block": "(x, y, z)"}}},
   "errors": {row name: text}}
Row names are gpucmp names without /iterations:N and /manual_time. A metric's
value is the median over the kernel's profiled launches; times are converted
to ns and byte counts to bytes; order is the kernel's first launch in the row.

usage: scripts/ncu_to_json.py NCU.csv [-o OUT.json] [--ncu-version V] [--gpu NAME]
           [--date YYYY-MM-DD]
exit: 0 written; 2 unreadable input or no profiled kernel in it
"""
import argparse
import csv
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gbench_json import write_atomically  # noqa: E402  (no partial OUT.json on failure)

FORMAT = 1
MARK = "==GPUCMP=="
FIXED = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
         "Block Size", "Grid Size", "Device", "CC"]
LONG = ("Metric Name", "Metric Unit", "Metric Value")
TIME_NS = {"nsecond": 1, "ns": 1, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
           "second": 1e9, "s": 1e9}
BYTES = {"byte": 1, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "tbyte": 1e12,
         "kibyte": 1024, "mibyte": 1024 ** 2, "gibyte": 1024 ** 3}
DROP = re.compile(r"/(iterations:\d+|manual_time|real_time|process_time)(?=/|$)")


class InputError(Exception):
    """Bad input: exit 2 with one line."""


# gpucmp-bench's launch-floor probe (harness/launch_floor.cpp): it runs before
# each hot row's samples unless --launch-floor off.
PROBE_KERNEL = "ceiling_launch"

def row_name(name):
    """A gpucmp benchmark name without Google Benchmark's own parts."""
    return DROP.sub("", name.strip())


def number(text):
    """A float from an ncu cell ("1,234.5", "n/a" -> None)."""
    text = (text or "").strip().replace(",", "")
    if not text or text.lower() in ("n/a", "nan", "-"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def convert(value, unit):
    """(value, unit) with times in ns and byte counts in bytes."""
    u = (unit or "").strip()
    if u.lower() in TIME_NS or u in TIME_NS:
        return value * TIME_NS.get(u, TIME_NS.get(u.lower())), "ns"
    if u.lower() in BYTES:
        return value * BYTES[u.lower()], "byte"
    return value, u


class Collector:
    """Launches per row and kernel, in input order."""

    def __init__(self):
        self.rows = {}  # row -> kernel -> {"values": {m: [..]}, "launches", "order", ...}
        self.units = {}
        self.metrics = []
        self.meta = {"options": []}
        self.errors = {}
        self.pending = {}  # details page: (row, launch ID) -> one launch's metrics

    def launch(self, row, kernel, block, grid, values):
        kernels = self.rows.setdefault(row, {})
        k = kernels.setdefault(kernel, {"values": {}, "launches": 0, "order": len(kernels),
                                        "block": block, "grid": grid})
        k["launches"] += 1
        for metric, (value, unit) in values.items():
            if value is None:
                continue
            value, unit = convert(value, unit)
            self.units.setdefault(metric, unit)
            k["values"].setdefault(metric, []).append(value)
            if metric not in self.metrics:
                self.metrics.append(metric)

    def result(self):
        rows = {}
        for row, kernels in self.rows.items():
            if set(kernels) == {PROBE_KERNEL} and not row.startswith("ceiling/"):
                # Only gpucmp-bench's launch-floor probe was profiled, none of
                # the row's own kernels: a failed row, not its counters.
                self.errors[row] = (f"only the launch-floor probe ({PROBE_KERNEL}) was "
                                    "profiled: run gpucmp-bench with --launch-floor off")
                rows[row] = {}
                continue
            rows[row] = {}
            for name, k in kernels.items():
                rows[row][name] = {
                    "metrics": {m: statistics.median(v) for m, v in sorted(k["values"].items())},
                    "launches": k["launches"], "order": k["order"],
                    "grid": k["grid"], "block": k["block"]}
        listed = [m for m in self.meta.get("metrics", []) if m]
        return {"gpucmp_ncu": FORMAT,
                "ncu_version": self.meta.get("ncu", "unknown"),
                "gpu": self.meta.get("gpu", "unknown"),
                "date": self.meta.get("date", "unknown"),
                "metrics": listed or self.metrics,
                "units": dict(sorted(self.units.items())),
                "options": self.meta["options"],
                "rows": rows, "errors": self.errors}


def parse(lines, collector=None):
    """Reads profile_ncu.sh's CSV (or one plain ncu raw CSV) into a Collector."""
    c = collector or Collector()
    row = None
    header = units = None
    for number_, line in enumerate(lines, 1):
        line = line.rstrip("\r\n")
        if line.startswith(MARK):
            key, _, value = line[len(MARK):].strip().partition(" ")
            value = value.strip()
            if key == "row":
                row, header, units = row_name(value), None, None
                c.rows.setdefault(row, {})
            elif key == "error":
                if row is None:
                    raise InputError(f"line {number_}: '{MARK} error' before any row")
                c.errors[row] = value
            elif key == "metrics":
                c.meta["metrics"] = [m.strip() for m in value.split(",")]
            elif key == "option":
                c.meta["options"].append(value)
            else:
                c.meta[key] = value
            continue
        if not line.startswith('"'):
            continue  # ==PROF==, ==WARNING==, the application's own output
        cells = next(csv.reader([line]))
        if cells and cells[0] == "ID":
            header, units = cells, None
            if "Kernel Name" not in header:
                raise InputError(f"line {number_}: an ncu header without \"Kernel Name\"")
            continue
        if header is None:
            raise InputError(f"line {number_}: a CSV line before ncu's header line")
        if len(cells) != len(header):
            raise InputError(f"line {number_}: {len(cells)} cells under a header of "
                             f"{len(header)}")
        cell = dict(zip(header, cells))
        if not cell["ID"].strip() and units is None and not all(k in header for k in LONG):
            units = cell  # the raw page's units line
            continue
        target = row if row is not None else "(unnamed)"
        kernel = cell["Kernel Name"].strip()
        block, grid = cell.get("Block Size", ""), cell.get("Grid Size", "")
        if all(k in header for k in LONG):
            entry = c.pending.setdefault((target, cell["ID"]), {
                "kernel": kernel, "block": block, "grid": grid, "values": {}})
            entry["values"][cell["Metric Name"]] = (number(cell["Metric Value"]),
                                                    cell["Metric Unit"])
            continue
        values = {m: (number(v), (units or {}).get(m, "")) for m, v in cell.items()
                  if m not in FIXED and m not in LONG}
        c.launch(target, kernel, block, grid, values)
    _flush_long(c)
    return c


def _flush_long(c):
    """The details page's launches, one metric per line, in launch-ID order."""
    for (row, _), e in c.pending.items():
        c.launch(row, e["kernel"], e["block"], e["grid"], e["values"])
    c.pending = {}


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 2, like the input errors
        print(f"ncu_to_json: error: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def parse_args(argv):
    p = Parser(prog="ncu_to_json.py", description=__doc__.split("\n\n")[0],
                                epilog=__doc__[__doc__.index("usage:"):],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", metavar="NCU.csv")
    p.add_argument("-o", "--output", help="the JSON to write (default: stdout)")
    p.add_argument("--ncu-version")
    p.add_argument("--gpu")
    p.add_argument("--date")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    try:
        with open(args.csv, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "\0" in text:
            raise InputError(f"binary data (a NUL byte at offset {text.index(chr(0))}), "
                             "not ncu's CSV")
        c = parse(text.splitlines())
    except OSError as e:
        print(f"ncu_to_json: error: {args.csv}: cannot read ({e.strerror or e})", file=sys.stderr)
        return 2
    except (InputError, csv.Error) as e:
        print(f"ncu_to_json: error: {args.csv}: {e}", file=sys.stderr)
        return 2
    for key in ("ncu_version", "gpu", "date"):
        if getattr(args, key):
            c.meta[{"ncu_version": "ncu"}.get(key, key)] = getattr(args, key)
    doc = c.result()
    if not any(doc["rows"].values()):
        print(f"ncu_to_json: error: {args.csv}: no profiled kernel in it"
              + (f" ({len(doc['errors'])} rows failed)" if doc["errors"] else ""),
              file=sys.stderr)
        return 2
    text = json.dumps(doc, indent=1, sort_keys=False) + "\n"
    if args.output:
        try:
            write_atomically(args.output, text)
        except OSError as e:
            print(f"ncu_to_json: error: {args.output}: cannot write ({e.strerror or e})",
                  file=sys.stderr)
            return 2
        kernels = sum(len(k) for k in doc["rows"].values())
        print(f"ncu_to_json: wrote {args.output}: {len(doc['rows'])} rows, {kernels} kernels"
              + (f", {len(doc['errors'])} failed rows" if doc["errors"] else ""))
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
