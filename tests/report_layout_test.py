#!/usr/bin/env python3
"""Tests the report's "Data layouts" section (sections/layout.py) on synthetic
gpucmp-bench JSON: the kernel rows per layout side by side with their ratios
to AoS, the conversions' round trips on the device and the host, the launches
after which a layout repays its conversion ("never" for no gain), and no
section for a file without layout rows."""
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
from gpucmp_report import cli  # noqa: E402

CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-24"}


def rows(name, us, **counters):
    """Three repetitions of one benchmark around `us` microseconds."""
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 3,
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": us * f,
             "cpu_time": us * f, "time_unit": "us", "max_rel_err": 0.0, **counters}
            for i, f in enumerate((0.99, 1.0, 1.01))]


def suite():
    """LavaMD at boxes1d 10 on CUDA: AoS 100 us, SoA 90 us, AoSoA 110 us; its
    conversions (100000 records of 4 words): 5 us each way on the device, 2 ms and
    3 ms on the host for SoA."""
    out = []
    for layout, us in (("aos", 100.0), ("soa", 90.0), ("aosoa", 110.0)):
        out += rows(f"lavamd/cuda/base/boxes1d:10/layout:{layout}", us)
    for (src, dst), host in ((("aos", "soa"), 2.0), (("soa", "aos"), 3.0),
                             (("aos", "aosoa"), 4.0), (("aosoa", "aos"), 4.0)):
        out += rows(f"layoutconv/cuda/base/records:100000/words:4/from:{src}/to:{dst}", 5.0,
                    host_convert_ms=host)
    return {"context": CONTEXT, "benchmarks": out}


class LayoutSection(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_layout_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def report(self, content):
        path = os.path.join(self.tmp, "in.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f)
        out = os.path.join(self.tmp, "out")
        self.assertEqual(cli.main([path, "--no-plots", "--out-dir", out], "x\n\nusage: x"), 0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            return f.read()

    def test_tables_and_break_even(self):
        md = self.report(suite())
        self.assertEqual(md.count("\n## Data layouts\n"), 1)
        self.assertIn("| lavamd | boxes1d=10 | CUDA | 100 us | 90 us | 110 us | 0.90 | 1.10 |", md)
        self.assertIn("| 100000 | 4 | CUDA | 10 us | 5 ms | 10 us | 8 ms |", md)
        # SoA gains 10 us a launch: its 10 us device round trip repays in 1 launch,
        # the host's 5 ms in 500; AoSoA gains nothing.
        self.assertIn("| boxes1d=10 | CUDA | soa | 10 us | 10 us | 1 | 500 |", md)
        self.assertIn("| boxes1d=10 | CUDA | aosoa | -10 us | 10 us | never | never |", md)

    def test_no_layout_rows_no_section(self):
        md = self.report({"context": CONTEXT,
                          "benchmarks": rows("triad/cuda/base/n:1024", 1.0)})
        self.assertNotIn("## Data layouts", md)


if __name__ == "__main__":
    unittest.main()
