#!/usr/bin/env python3
"""Tests scripts/worksize_retime.py on synthetic gpucmp-bench JSON: `top` picks
each API's best shapes by median (rules and other workloads ignored, shapes
shared by both APIs named once); `table` puts each rule against the best shape
of the same run, with the Mann-Whitney verdict (a rule 10% slower in every one
of 10 repetitions is distinguishable, one within the noise is not); bad input
is one line and exit 2."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "worksize_retime.py")


def reps(name, times_us):
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": len(times_us),
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": t,
             "cpu_time": t, "time_unit": "us"} for i, t in enumerate(times_us)]


def write(folder, name, benchmarks):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"context": {}, "benchmarks": benchmarks}, f)
    return path


def run(*args):
    r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                       check=False)
    return r.returncode, r.stdout, r.stderr


NOISE = [1.0, 1.01, 0.99, 1.02, 0.98, 1.005, 0.995, 1.015, 0.985, 1.0]


class WorksizeRetime(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_top_takes_each_apis_best_shapes(self):
        b = []
        for local, cuda, opencl in (("32", 20, 9), ("64", 12, 10), ("128", 11, 30),
                                    ("1024", 10, 40), ("tuner", 1, 1)):
            b += reps(f"trapezoid/cuda/base/items:4096/local:{local}", [cuda] * 3)
            b += reps(f"trapezoid/opencl/base/items:4096/local:{local}", [opencl] * 3)
        b += reps("sort/cuda/bitonic/n:4096/local:8", [0.5] * 3)  # another workload
        path = write(self.dir, "sweep.json", b)
        code, out, err = run("top", "--workload", "trapezoid", "--top", "2", path)
        self.assertEqual(code, 0, err)
        # CUDA: 1024, 128; OpenCL: 32, 64 (the rule row "tuner" is not a shape).
        self.assertEqual(out.strip(), "1024,128,32,64")

    def test_table_tests_each_rule_against_the_runs_best(self):
        b = []
        b += reps("mmnaive/cuda/base/n:1024/local:512x2", [100 * x for x in NOISE])
        b += reps("mmnaive/cuda/base/n:1024/local:32x4", [104 * x for x in NOISE])
        b += reps("mmnaive/cuda/base/n:1024/local:tuner", [100.2 * x for x in NOISE[::-1]])
        b += reps("mmnaive/cuda/base/n:1024/local:study-x", [110 * x for x in NOISE])
        path = write(self.dir, "retime.json", b)
        out_path = os.path.join(self.dir, "retime.md")
        code, _, err = run("table", path, "--out", out_path)
        self.assertEqual(code, 0, err)
        with open(out_path, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("| mmnaive base n:1024 | cuda | best shape 512x2 | 100 us |", text)
        study = next(line for line in text.splitlines() if "| study-x |" in line)
        self.assertIn("| 1.100 |", study)
        self.assertTrue(study.endswith("| yes |"), study)
        tuner = next(line for line in text.splitlines() if "| tuner |" in line)
        self.assertIn("| 1.002 |", tuner)
        self.assertTrue(tuner.endswith("| no |"), tuner)
        self.assertIn("Tuner: 1 of 1 kernel/API pairs within 3% of the best", text)
        self.assertIn("(10 repetitions per row)", text)

    def test_bad_input_is_one_line_and_exit_2(self):
        empty = write(self.dir, "empty.json", reps("mmnaive/cuda/base/n:1024/local:tuner", [1]))
        for args, needle in ((("table", empty), "no rows with local:<shape> beside a rule"),
                             (("table", os.path.join(self.dir, "none.json")), "cannot read"),
                             (("top", "--workload", "sort", empty), "no shape rows of sort")):
            code, out, err = run(*args)
            self.assertEqual(code, 2, (args, out, err))
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(needle, err)
        code, _, err = run("top", "--workload", "sort", "--top", "0", empty)
        self.assertEqual(code, 2, err)


if __name__ == "__main__":
    unittest.main()
