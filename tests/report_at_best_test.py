#!/usr/bin/env python3
"""Tests the report's "Each API at its best" section (sections/at_best.py) on
synthetic suite runs: one row per family with both APIs' fastest own rows and
the configuration each ran with, a failed row never shown, PTX passes in their
own column, the geometric mean, the families without a row of one API named
below the table, no section without any complete family, and the same cells as
scripts/best_table.py prints for the same folder."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import best_fixtures as fx
from gpucmp_report import api_best, cli

SCRIPT = os.path.join(fx.REPO, "scripts", "best_table.py")
MM = next(f for f in api_best.FAMILIES if f.workload == "matrixMul")
SCAN = next(f for f in api_best.FAMILIES if f.workload == "scan")
NONE = "\u2013"


class AtBestSection(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_at_best_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def report(self, folder):
        """REPORT.md of the folder's part files, in the order of its manifest (as
        scripts/suite.py gives them)."""
        with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as f:
            parts = json.load(f)["parts"]
        files = [os.path.join(folder, p + ".json") for p in parts]
        out = os.path.join(self.tmp, "out-" + os.path.basename(folder))
        self.assertEqual(cli.main(files + ["--no-plots", "--out-dir", out], "x\n\nusage: x"), 0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            return f.read()

    def section(self, md):
        start = md.index("\n## Each API at its best\n")
        return md[start:md.index("\n## ", start + 1)]

    def test_rows_configurations_and_geometric_mean(self):
        parts = fx.baseline()
        parts["matrixmul"] += fx.row(fx.name(MM, "cuda", "tile32"), 0.8)
        parts["matrixmul"] += fx.failed(fx.name(MM, "opencl", "tile32"))
        parts["matrixmul"] += fx.row(fx.name(MM, "cuda", "tile32-opencl-ptx"), 0.1)
        parts["matrixmul"] += fx.row(fx.name(MM, "opencl", "tile16-ptx-align"), 0.8)
        parts["agpu"] += fx.row(f"scan/opencl/onepass/{SCAN.problem}/alpha:16", 0.9)
        md = self.report(fx.write_run(os.path.join(self.tmp, "run"), parts))
        text = self.section(md)
        self.assertEqual(md.count("## Each API at its best"), 1)
        self.assertLess(md.index("## CUDA against OpenCL"), md.index("## Each API at its best"))
        self.assertIn("| matrixMul, n=4096 | 800.0 us | `tile32` | 1.25 ms | `tile16` | 1.56 | "
                      "1.00 (`tile16-ptx-align`) |", text)
        self.assertIn(f"| {SCAN.label} | 1.00 ms | `alpha` | 900.0 us | `onepass`, alpha 16 | "
                      f"0.90 | {NONE} |", text)
        rows = [line for line in text.splitlines() if line.startswith("| ")][1:]
        self.assertEqual(len(rows), len(api_best.FAMILIES) + 1)
        same = sum(not f.math_differs for f in api_best.FAMILIES)  # the mean's rows
        geo = api_best.geomean([1.56, 0.9] + [1.25] * (same - 2))
        after = api_best.geomean([1.0, 0.9] + [1.25] * (same - 2))
        self.assertEqual(rows[-1], f"| geometric mean | {' | '.join([NONE] * 4)} | "
                                   f"{geo:.2f} | {after:.2f} |")
        self.assertNotIn("Not in these results", text)

    def test_a_family_without_one_api_is_named_below(self):
        gone = api_best.FAMILIES[-1]
        md = self.report(fx.write_run(os.path.join(self.tmp, "run"),
                                      fx.baseline(skip=(gone.label,))))
        text = self.section(md)
        self.assertNotIn(f"| {gone.label} |", text)
        self.assertIn(f"Not in these results (no validated row of one API): {gone.label} "
                      "(OpenCL).", text)

    def test_no_complete_family_no_section(self):
        folder = fx.write_run(os.path.join(self.tmp, "run"), {"matrixmul": fx.row(
            fx.name(MM, "cuda", "tile16"), 1.0) + fx.row("matrixMul/opencl/tile16/n:1024", 1.0)})
        self.assertNotIn("Each API at its best", self.report(folder))

    def test_the_same_cells_as_best_table(self):
        parts = fx.baseline()
        parts["matrixmul"] += fx.row(fx.name(MM, "opencl", "tile32-aligned"), 0.7)
        folder = fx.write_run(os.path.join(self.tmp, "run"), parts)
        section = [line for line in self.section(self.report(folder)).splitlines()
                   if line.startswith("| ")][1:]
        r = subprocess.run([sys.executable, SCRIPT, folder], capture_output=True, text=True,
                           check=False, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        # The script's cell: the section's ratio (starred where a time is) and
        # both configurations; its last row: the section's geometric mean.
        cells = [[c.strip() for c in line.strip("|").split("|")] for line in section]
        expected = []
        for c in cells[:-1]:
            star = " *" if c[1].endswith("*") or c[3].endswith("*") else ""
            expected.append(f"| {c[0]} | {c[5]}{star} ({c[2]} / {c[4]}) |")
        expected.append(f"| geometric mean | {cells[-1][5]} |")
        self.assertEqual(r.stdout.splitlines()[2:], expected)


if __name__ == "__main__":
    unittest.main()
