#!/usr/bin/env python3
"""Tests scripts/pair_shift.py on synthetic Google Benchmark JSON: the ratios,
the pairs listed past the threshold, the summary counts, and bad input."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "pair_shift.py")


def row(name, us):
    full = name + "/iterations:1/manual_time"
    return {"name": full, "run_name": full, "run_type": "iteration", "repetitions": 1,
            "repetition_index": 0, "iterations": 1, "real_time": us, "cpu_time": 1.0,
            "time_unit": "us"}


def report(times, context=None):
    """times: {benchmark name with its api: microseconds}"""
    return {"context": context or {}, "benchmarks": [row(n, t) for n, t in times.items()]}


class PairShift(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def write(self, name, content):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_ratios_and_the_pairs_that_moved(self):
        before = self.write("b.json", report({
            "triad/cuda/base/n:1": 4.0, "triad/opencl/base/n:1": 12.0,      # 3.00
            "mm/cuda/tile16/n:2": 100.0, "mm/opencl/tile16/n:2": 125.0,     # 1.25
            "only/cuda/x/n:3": 1.0,
            "startup/cuda/mm-tile16/n:2": 5.0, "startup/opencl/mm-tile16/n:2": 50.0}))
        after = self.write("a.json", report({
            "triad/cuda/base/n:1": 4.0, "triad/opencl/base/n:1": 4.4,       # 1.10
            "mm/cuda/tile16/n:2": 100.0, "mm/opencl/tile16/n:2": 126.0,     # 1.26: 0.8%
            "startup/cuda/mm-tile16/n:2": 5.0, "startup/opencl/mm-tile16/n:2": 5.0}))
        md = os.path.join(self.dir, "shift.md")
        r = self.run_script(before, after, "--markdown", md)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 pairs in both runs", r.stdout)
        self.assertIn("1 pairs with CUDA under 20 us before: median OpenCL/CUDA 3.00 before, "
                      "1.10 after", r.stdout)
        self.assertIn("OpenCL rows under 10 us: 0 before, 1 after", r.stdout)
        self.assertIn("1 of 2 pairs moved by more than 3%", r.stdout)
        self.assertIn("| triad/base/n:1 | 4.00 us | 12.00 us | 3.00 | 4.00 us | 4.40 us | 1.10 | "
                      "0.37 |", r.stdout)
        self.assertNotIn("| mm/tile16", r.stdout)
        self.assertNotIn("startup", r.stdout)
        self.assertNotIn("build options", r.stdout)
        with open(md) as f:
            self.assertEqual(f.read(), r.stdout)

    def test_a_cross_run_with_added_opencl_build_options_says_so(self):
        times = {"mm/cuda/tile16/n:2": 100.0, "mm/opencl/tile16/n:2": 125.0}
        before = self.write("b.json", report(times))
        after = self.write("a.json", report(times, {
            "opencl.user_build_options": "-cl-nv-maxrregcount=40"}))
        r = self.run_script(before, after)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("OpenCL build options added: 'none' before, '-cl-nv-maxrregcount=40' "
                      "after", r.stdout)

    def test_opencl_arguments_set_otherwise_says_so(self):
        times = {"mm/cuda/tile16/n:2": 100.0, "mm/opencl/tile16/n:2": 125.0}
        old = self.write("b.json", report(times, {"opencl.device": "NVIDIA H200"}))
        new = self.write("a.json", report(times, {"opencl.device": "NVIDIA H200",
                                                  "opencl.kernel_args": "changed"}))
        r = self.run_script(old, new)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("OpenCL kernel arguments set (--cl-kernel-args): 'every' before, "
                      "'changed' after", r.stdout)
        self.assertNotIn("kernel arguments", self.run_script(new, new).stdout)
        cuda_only = self.write("c.json", report(times))
        self.assertNotIn("kernel arguments", self.run_script(cuda_only, new).stdout)

    def test_bad_input_is_one_line_and_exit_2(self):
        good = self.write("g.json", report({"t/cuda/b/n:1": 1.0, "t/opencl/b/n:1": 2.0}))
        other = self.write("o.json", report({"u/cuda/b/n:1": 1.0, "u/opencl/b/n:1": 2.0}))
        cases = [
            [good, self.write("bad.json", "{not json")],
            [good, os.path.join(self.dir, "missing.json")],
            [good, other],                       # no pair in common
            [good, good, "--threshold", "-1"],
            [good, good, "--threshold", "nan"],
            [good, good, "--bogus"],
        ]
        for args in cases:
            with self.subTest(args=args[1:]):
                r = self.run_script(*args)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertTrue(r.stderr.startswith("pair_shift: error: "), r.stderr)


if __name__ == "__main__":
    unittest.main()
