#!/usr/bin/env python3
"""Tests scripts/compare.py's metrics: aggregates-only files, time units, rate
and cost counters, a different GPU, and a committed gpucmp result against itself."""
import os
import subprocess
import sys
import unittest

from compare_fixtures import (  # tests/, the script's own folder, is on sys.path
    SCRIPT, REAL_RESULT, NAME, rows, report, series, CompareCase)


class CompareFiles(CompareCase):
    def test_aggregates_only_file_uses_the_median(self):
        # --benchmark_report_aggregates_only: no iteration rows. The mean (150) is
        # off on purpose; the median (102) must be the sample.
        cont_rows = [r for r in rows(NAME, [100, 102, 248]) if r["run_type"] == "aggregate"]
        self.assertEqual(cont_rows[0]["aggregate_name"], "mean")
        base = report(rows(NAME, series(100, 10, 0.01)))
        proc, result = self.run_compare(base, report(cont_rows))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        b = self.bench(result)
        self.assertEqual((b["contender_n"], b["test"]), (1, "threshold"))
        self.assertAlmostEqual(b["contender_median"], 102e3)  # us -> ns
        # Without run_type/run_name (old Google Benchmark): name suffix _median.
        old = [{"name": f"{NAME}_median", "aggregate_name": "median", "real_time": 0.2,
                "time_unit": "ms"}]
        proc, result = self.run_compare(base, report(old))
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)  # 200 us vs 100 us
        self.assertEqual(self.bench(result)["contender_median"], 200e3)

    def test_time_units_are_normalized(self):
        base = report(rows(NAME, [1.5, 1.5, 1.5], time_unit="ms"))
        cont = report(rows(NAME, [1500.0, 1500.0, 1500.0], time_unit="us"))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["change"], 0.0)
        self.assertIn("1.5 ms", self.line_of(proc, NAME))

    def test_rate_counter_higher_is_better(self):
        base = report(rows(NAME, series(4000, 6, 0.002), counter="GB/s"))
        slower = report(rows(NAME, series(3200, 6, 0.002), counter="GB/s"))
        faster = report(rows(NAME, series(4800, 6, 0.002), counter="GB/s"))
        proc, result = self.run_compare(base, slower, "--metric", "GB/s")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertTrue(result["higher_is_better"])
        self.assertIn("GB/s", self.line_of(proc, NAME))
        self.assertIn("-20.00%", self.line_of(proc, NAME))
        proc, result = self.run_compare(base, faster, "--metric", "GB/s")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["verdict"], "improvement")
        proc, _ = self.run_compare(base, faster, "--metric", "GB/s", "--lower-is-better")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        # real_time is 100 in every row: no change in the default metric.
        self.assertEqual(self.run_compare(base, slower)[0].returncode, 0)

    def test_cost_counter_lower_is_better_and_override(self):
        base = report(rows(NAME, [7.0, 7.0], counter="ps_per_interaction"))
        cont = report(rows(NAME, [8.0, 8.0], counter="ps_per_interaction"))
        proc, _ = self.run_compare(base, cont, "--metric", "ps_per_interaction")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        proc, _ = self.run_compare(base, cont, "--metric", "ps_per_interaction",
                                   "--higher-is-better")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_missing_metric_is_exit_2(self):
        data = report(rows(NAME, [1, 2]))
        proc, _ = self.run_compare(data, data, "--metric", "GFLOP/s")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("metric 'GFLOP/s'", proc.stderr)

    def test_different_gpu_is_a_warning_only(self):
        base = report(rows(NAME, [100]))
        cont = report(rows(NAME, [100]), context={"cuda.device": "NVIDIA H100 80GB HBM3",
                                                  "opencl.device": "NVIDIA H200"})
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("compare: warning: different GPU: context 'cuda.device' is "
                      "'NVIDIA H200'", proc.stderr)
        self.assertNotIn("opencl.device", proc.stderr)
        self.assertEqual(len(result["warnings"]), 1)

    def test_different_opencl_build_options_are_a_warning(self):
        base = report(rows(NAME, [100]))
        cont = report(rows(NAME, [100]),
                      context={"opencl.user_build_options": "-cl-nv-maxrregcount=40"})
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("different OpenCL build options (--cl-build-options): 'none' in ",
                      proc.stderr)
        self.assertIn("'-cl-nv-maxrregcount=40' in ", proc.stderr)
        self.assertEqual(len(result["warnings"]), 1)
        proc, result = self.run_compare(cont, cont)
        self.assertEqual(result["warnings"], [])

    def test_opencl_kernel_args_set_differently_are_a_warning(self):
        # A file from before --cl-kernel-args set every argument every launch.
        old = report(rows(NAME, [100]), context={"opencl.device": "NVIDIA H200"})
        new = report(rows(NAME, [100]), context={"opencl.device": "NVIDIA H200",
                                                 "opencl.kernel_args": "changed"})
        proc, result = self.run_compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("OpenCL kernel arguments set differently (--cl-kernel-args): 'every' in ",
                      proc.stderr)
        self.assertEqual(len(result["warnings"]), 1)
        every = report(rows(NAME, [100]), context={"opencl.device": "NVIDIA H200",
                                                   "opencl.kernel_args": "every"})
        self.assertEqual(self.run_compare(old, every)[1]["warnings"], [])
        self.assertEqual(self.run_compare(new, new)[1]["warnings"], [])
        # A file without OpenCL rows says nothing of OpenCL's arguments.
        cuda_only = report(rows(NAME, [100]), context={"cuda.device": "NVIDIA H200"})
        self.assertEqual(self.run_compare(cuda_only, new)[1]["warnings"], [])

    def test_zero_baseline_median_still_writes_valid_json(self):
        proc, result = self.run_compare(report(rows(NAME, [0.0])), report(rows(NAME, [1.0])))
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["change"], "inf")

    @unittest.skipUnless(os.path.exists(REAL_RESULT), "committed H200 result not present")
    def test_real_gpucmp_result_against_itself(self):
        proc = subprocess.run([sys.executable, SCRIPT, REAL_RESULT, REAL_RESULT],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("276 compared, 0 regressions, 0 improvements", proc.stdout)
        self.assertEqual(proc.stderr, "")
        proc = subprocess.run([sys.executable, SCRIPT, REAL_RESULT, REAL_RESULT,
                               "--metric", "GB/s", "--filter", "^bandwidth/.*/d2d/"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("higher is better", proc.stdout)


if __name__ == "__main__":
    unittest.main()
