#!/usr/bin/env python3
"""Tests scripts/roofline.py on synthetic gpucmp-bench JSON: the ceilings come
from the suite's own ceiling and device-copy rows per API; a row with flop is
placed at flop / bytes under min(FMA, AI x DRAM), a row without flop against
the DRAM ceiling; rows without the counters are left out; missing ceilings or
no placed row are one line and exit 2."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "roofline.py")


def row(name, us, **counters):
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 2,
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": us,
             "cpu_time": us, "time_unit": "us", **counters} for i in range(2)]


CEILINGS = (row("ceiling/cuda/fma", 100.0, **{"GFLOP/s": 60000.0})
            + row("ceiling/cuda/l2", 100.0, **{"GB/s": 9000.0})
            + row("ceiling/cuda/shared", 100.0, **{"GB/s": 30000.0})
            + row("bandwidth/cuda/d2d/bytes:1073741824", 500.0, **{"GB/s": 4000.0}))


class Roofline(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, benchmarks):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"context": {}, "benchmarks": benchmarks}, f)
        return path

    def run_script(self, *args):
        r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                           check=False)
        return r.returncode, r.stdout, r.stderr

    def test_rows_are_placed_under_their_bound(self):
        ceilings = self.write("c.json", CEILINGS)
        # 1e9 flop over 1e8 bytes (AI 10, memory bound at 40000 GFLOP/s) in 50 us:
        # 20000 GFLOP/s, half of the bound. 1e9 bytes without flop in 500 us:
        # 2000 GB/s, half of DRAM. A row without counters is left out.
        results = self.write("r.json", row("k/cuda/a", 50.0, roofline_flop=1e9,
                                           roofline_bytes=1e8)
                             + row("k/cuda/b", 500.0, roofline_flop=0.0, roofline_bytes=1e9)
                             + row("k/cuda/c", 10.0))
        code, out, err = self.run_script(ceilings, results)
        self.assertEqual(code, 0, err)
        self.assertIn("| cuda | `k/cuda/a` | 10 | 2e+04 GFLOP/s | 4e+04 GFLOP/s | 50.0% "
                      "| memory |", out)
        self.assertIn("| cuda | `k/cuda/b` | 0 | 2000 GB/s | 4000 GB/s | 50.0% "
                      "| memory (no flop) |", out)
        self.assertNotIn("k/cuda/c", out)
        self.assertIn("| cuda | 60000 | 4000 | 9000 | 30000 |", out)

    def test_a_compute_bound_row_is_bounded_by_the_fma_ceiling(self):
        ceilings = self.write("c.json", CEILINGS)
        results = self.write("r.json", row("k/cuda/a", 100.0, roofline_flop=3e9,
                                           roofline_bytes=1e6))
        code, out, err = self.run_script(ceilings, results, "--out-png",
                                         os.path.join(self.tmp.name, "f.png"))
        self.assertEqual(code, 0, err)
        self.assertIn("| 6e+04 GFLOP/s | 50.0% | compute |", out)
        self.assertTrue(os.path.getsize(os.path.join(self.tmp.name, "f.png")) > 0)

    def test_ncu_dram_bytes_stand_beside_the_counted_bytes(self):
        ceilings = self.write("c.json", CEILINGS)
        results = self.write("r.json", row("k/cuda/b", 500.0, roofline_flop=0.0,
                                           roofline_bytes=1e9)
                             + row("k/cuda/c", 500.0, roofline_flop=0.0, roofline_bytes=2e9))
        # Row b: two kernels, 0.6e9 + 0.5e9 bytes (read + write) = 1.1 x counted.
        ncu = os.path.join(self.tmp.name, "n.json")
        with open(ncu, "w", encoding="utf-8") as f:
            json.dump({"gpucmp_ncu": 1, "rows": {"k/cuda/b": {
                "k1": {"metrics": {"dram__bytes_read.sum": 4e8, "dram__bytes_write.sum": 2e8}},
                "k2": {"metrics": {"dram__bytes_read.sum": 5e8, "dram__bytes_write.sum": 0}}}}},
                f)
        code, out, err = self.run_script(ceilings, results, "--ncu", ncu)
        self.assertEqual(code, 0, err)
        self.assertIn("| `k/cuda/b` | 1e+09 | 1.1e+09 | 1.100 |", out)
        self.assertNotIn("| `k/cuda/c` | 2e+09", out)  # no ncu row
        self.assertIn("1 rows: ncu / counted median 1.100", out)
        with open(ncu, "w", encoding="utf-8") as f:
            f.write("[]")
        code, _, err = self.run_script(ceilings, results, "--ncu", ncu)
        self.assertEqual(code, 2)
        self.assertIn("not a profile_ncu.sh JSON", err)

    def test_a_kernel_launched_twice_a_row_launch_counts_twice(self):
        ceilings = self.write("c.json", CEILINGS)
        results = self.write("r.json", row("k/cuda/b", 500.0, roofline_flop=0.0,
                                           roofline_bytes=1e9))
        # k1 once a row launch (2 launches profiled), k2 twice (4): 1e8 + 2 x 4e8.
        ncu = os.path.join(self.tmp.name, "n.json")
        with open(ncu, "w", encoding="utf-8") as f:
            json.dump({"gpucmp_ncu": 1, "rows": {"k/cuda/b": {
                "k1": {"launches": 2, "metrics": {"dram__bytes_read.sum": 1e8,
                                                  "dram__bytes_write.sum": 0}},
                "k2": {"launches": 4, "metrics": {"dram__bytes_read.sum": 3e8,
                                                  "dram__bytes_write.sum": 1e8}}}}}, f)
        code, out, err = self.run_script(ceilings, results, "--ncu", ncu)
        self.assertEqual(code, 0, err)
        self.assertIn("| `k/cuda/b` | 1e+09 | 9e+08 | 0.900 |", out)

    def test_missing_ceilings_are_one_line_and_exit_2(self):
        ceilings = self.write("c.json", row("ceiling/cuda/fma", 100.0, **{"GFLOP/s": 1.0}))
        results = self.write("r.json", row("k/cuda/a", 1.0, roofline_flop=1.0,
                                           roofline_bytes=1.0))
        code, _, err = self.run_script(ceilings, results)
        self.assertEqual(code, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("d2d", err)

    def test_no_placed_row_is_exit_2(self):
        ceilings = self.write("c.json", CEILINGS)
        results = self.write("r.json", row("k/cuda/c", 10.0))
        code, _, err = self.run_script(ceilings, results)
        self.assertEqual(code, 2)
        self.assertIn("no row carries roofline_flop", err)


if __name__ == "__main__":
    unittest.main()
