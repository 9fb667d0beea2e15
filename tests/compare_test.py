#!/usr/bin/env python3
"""Tests scripts/compare.py: the Mann-Whitney U test, the skip-list reader, and
whole runs on synthetic Google Benchmark JSON: verdicts, names, filters, bad input."""
import json
import math
import subprocess
import sys
import unittest

from compare_fixtures import (  # tests/, the script's own folder, is on sys.path
    SCRIPT, compare, NAME, OTHER, H200, rows, report, NO_CUDA, NO_PTX, skip_context, series,
    CompareCase)


class MannWhitneyU(unittest.TestCase):
    def test_ranks_share_ties(self):
        self.assertEqual(compare.rank([10, 20, 20, 5]), [2.0, 3.5, 3.5, 1.0])

    def test_textbook_example_exact(self):
        # R's ?wilcox.test example (Hollander & Wolfe 1973, p. 69): W = 35 and
        # p = 0.1272 one-sided ("greater"), so 0.2544 two-sided.
        x = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46]
        y = [1.15, 0.88, 0.90, 0.74, 1.21]
        u, p, method = compare.mann_whitney_u(x, y)
        self.assertEqual((u, method), (35.0, "exact"))
        self.assertAlmostEqual(p, 0.2544, places=4)

    def test_exact_separated_samples(self):
        # All of x below all of y: one split of C(n1+n2, n1) is as extreme, times 2 sides.
        self.assertEqual(compare.mann_whitney_u([1, 2, 3], [4, 5, 6])[:2], (0.0, 2 / 20))
        _, p, _ = compare.mann_whitney_u([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        self.assertAlmostEqual(p, 2 / 252, places=12)
        _, p, _ = compare.mann_whitney_u(list(range(10)), list(range(10, 20)))
        self.assertAlmostEqual(p, 2 / 184756, places=15)

    def test_exact_with_ties_by_hand(self):
        # x = 1 2 2, y = 2 3 4: midranks 1, 3, 3 | 3, 5, 6; R1 = 7 = the smallest sum
        # possible, reached by 3 of the C(6, 3) = 20 splits (1 with two of the three 3s).
        u, p, method = compare.mann_whitney_u([1, 2, 2], [2, 3, 4])
        self.assertEqual((u, method), (1.0, "exact"))
        self.assertAlmostEqual(p, 2 * 3 / 20, places=12)

    def test_normal_approximation_with_tie_correction_by_hand(self):
        # Same samples: U1 = 1, mean n1 n2 / 2 = 4.5; one tie group of 3 gives
        # sum(t^3 - t) / (N (N - 1)) = 24 / 30, so var = 9/12 * (7 - 0.8) = 4.65;
        # z = (|1 - 4.5| - 0.5) / sqrt(4.65), p = erfc(z / sqrt 2) = 0.1642.
        u, p, method = compare.mann_whitney_u([1, 2, 2], [2, 3, 4], exact=False)
        self.assertEqual((u, method), (1.0, "normal"))
        self.assertAlmostEqual(p, math.erfc(3 / math.sqrt(4.65) / math.sqrt(2)), places=12)
        self.assertAlmostEqual(p, 0.1642, places=4)

    def test_normal_used_for_large_samples_and_close_to_exact(self):
        x, y = series(100, 12, 0.05), series(103, 15, 0.05)
        _, p_normal, method = compare.mann_whitney_u(x, y)
        self.assertEqual(method, "normal")
        _, p_exact, _ = compare.mann_whitney_u(x, y, exact=True)
        self.assertAlmostEqual(p_normal, p_exact, delta=0.01)

    def test_symmetric_and_identical_samples(self):
        x, y = [3.1, 2.9, 3.3, 3.0, 3.2], [3.4, 3.0, 3.6, 3.5, 3.7]
        self.assertAlmostEqual(compare.mann_whitney_u(x, y)[1], compare.mann_whitney_u(y, x)[1])
        self.assertEqual(compare.mann_whitney_u(x, x)[1], 1.0)
        self.assertEqual(compare.mann_whitney_u([1.0] * 6, [1.0] * 6, exact=False)[1], 1.0)


class SkipList(unittest.TestCase):
    """gpucmp-bench's skip keys: names and per-API reasons with counts."""

    def test_gpucmp_name_drops_google_benchmark_parts(self):
        self.assertEqual(compare.gpucmp_name(NAME), "matrixMul/cuda/tile16/n:1024")
        self.assertEqual(compare.gpucmp_name("cp/opencl/x/grid:8/atoms:4/repeats:3/"
                                             "threads:1/real_time"), "cp/opencl/x/grid:8/atoms:4")
        self.assertEqual(compare.gpucmp_name("BM_plain"), "BM_plain")

    def test_summary_with_punctuated_reasons_parses_and_round_trips(self):
        text = (f"cuda: {NO_CUDA} (44 benchmarks); opencl: {NO_PTX} (68 benchmarks), "
                "a; b: c, d (e) (1 benchmark)")
        items = compare.parse_skip_summary(text)
        self.assertEqual(items, [("cuda", NO_CUDA, 44), ("opencl", NO_PTX, 68),
                                 ("opencl", "a; b: c, d (e)", 1)])
        self.assertEqual(compare.skip_summary_text(items), text)

    def test_none_and_other_texts(self):
        self.assertEqual(compare.parse_skip_summary("none"), [])
        self.assertEqual(compare.skip_summary_text([]), "none")
        self.assertIsNone(compare.parse_skip_summary("the CUDA rows did not run"))
        self.assertIsNone(compare.parse_skip_summary(None))

    def test_context_skips_map_each_name_to_its_api_reason(self):
        ctx = skip_context(["a/cuda/x/n:1", "a/opencl/y-ptx-O0/n:1", "a/metal/z"],
                           f"cuda: {NO_CUDA} (1 benchmark); opencl: {NO_PTX} (1 benchmark)")
        self.assertEqual(compare.context_skips(ctx), {
            "a/cuda/x/n:1": NO_CUDA, "a/opencl/y-ptx-O0/n:1": NO_PTX,
            "a/metal/z": "reason not recorded"})
        self.assertEqual(compare.context_skips(H200), {})
        self.assertEqual(compare.context_skips(skip_context([], "none")), {})
        # A summary not in gpucmp-bench's form is given whole.
        self.assertEqual(compare.context_skips(skip_context(["a/cuda/x"], "no GPU")),
                         {"a/cuda/x": "no GPU"})


class CompareFiles(CompareCase):
    def test_identical_files_pass(self):
        data = report(rows(NAME, series(275, 10, 0.01)), rows(OTHER, series(7, 3, 0.02)))
        proc, result = self.run_compare(data, data)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("2 compared, 0 regressions, 0 improvements", proc.stdout)
        self.assertEqual(proc.stderr, "")
        self.assertEqual(self.bench(result)["verdict"], "same")
        self.assertEqual(self.bench(result)["p_value"], 1.0)

    def test_twenty_percent_slower_low_noise_is_a_regression(self):
        base = report(rows(NAME, series(275, 10, 0.005)), rows(OTHER, series(7, 10, 0.005)))
        cont = report(rows(NAME, series(330, 10, 0.005)), rows(OTHER, series(7, 10, 0.005)))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        line = self.line_of(proc, NAME)
        self.assertIn("REGRESSION", line)
        self.assertIn("+20.00%", line)
        self.assertIn("mann-whitney (exact)", line)
        self.assertIn("275 us", line)
        self.assertIn("same", self.line_of(proc, OTHER))
        self.assertIn("1 regressions", proc.stdout)
        self.assertIn("result: REGRESSION (exit 1)", proc.stdout)
        b = self.bench(result)
        self.assertAlmostEqual(b["p_value"], 2 / 184756)
        self.assertAlmostEqual(b["change"], 0.2)
        self.assertEqual(result["exit_code"], 1)

    def test_two_percent_slower_noisy_is_not_a_regression(self):
        base = report(rows(NAME, series(275, 10, 0.04)))
        cont = report(rows(NAME, series(275 * 1.02, 10, 0.04)))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["verdict"], "same")

    def test_large_change_within_noise_is_not_a_regression(self):
        # Medians 20% apart, but the samples overlap: U test p >= alpha.
        base = report(rows(NAME, [100, 60, 140, 80, 120, 95]))
        cont = report(rows(NAME, [120, 70, 150, 90, 130, 115]))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        b = self.bench(result)
        self.assertGreater(b["change"], 0.05)
        self.assertGreaterEqual(b["p_value"], 0.05)
        self.assertEqual(b["verdict"], "same")

    def test_improvement_is_reported_and_passes(self):
        proc, result = self.run_compare(report(rows(NAME, series(300, 8, 0.01))),
                                        report(rows(NAME, series(200, 8, 0.01))))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["verdict"], "improvement")
        self.assertIn("1 improvements", proc.stdout)

    def test_few_repetitions_use_the_threshold(self):
        base = report(rows(NAME, [100, 101, 99]), rows(OTHER, [50, 51]))
        cont = report(rows(NAME, [110, 111, 109]), rows(OTHER, [51.5, 52.5]))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        line = self.line_of(proc, NAME)
        self.assertIn("threshold", line)
        self.assertIn("REGRESSION", line)
        self.assertIn(" - ", line)  # no p-value
        self.assertIsNone(self.bench(result)["p_value"])
        self.assertEqual(self.bench(result, OTHER)["verdict"], "same")  # +3% < 5%
        proc, _ = self.run_compare(base, cont, "--threshold", "0.15")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_five_repetitions_on_one_side_only_use_the_threshold(self):
        proc, result = self.run_compare(report(rows(NAME, series(100, 10, 0.01))),
                                        report(rows(NAME, series(100, 4, 0.01))))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["test"], "threshold")

    def test_no_names_in_common_is_exit_2(self):
        proc, _ = self.run_compare(report(rows(NAME, [1, 2])), report(rows(OTHER, [1, 2])))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no benchmark names in common", proc.stderr)
        self.assertEqual(proc.stderr.count("\n"), 1)

    def test_names_differing_only_in_iterations(self):
        other_iterations = NAME.replace("iterations:20", "iterations:10")
        base, cont = report(rows(NAME, [1, 2])), report(rows(other_iterations, [1, 2]))
        proc, _ = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--ignore-iterations", proc.stderr)
        proc, result = self.run_compare(base, cont, "--ignore-iterations")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(result["benchmarks"][0]["name"],
                         "matrixMul/cuda/tile16/n:1024/manual_time")

    def test_names_in_one_file_only_are_listed_not_failed(self):
        base = report(rows(NAME, [1, 2]), rows(OTHER, [3, 4]))
        cont = report(rows(NAME, [1, 2]), rows("extra/new", [5]))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("only in baseline (1):\n  " + OTHER, proc.stdout)
        self.assertIn("only in contender (1):\n  extra/new", proc.stdout)
        self.assertEqual(result["only_in_baseline"], [OTHER])
        proc, _ = self.run_compare(base, cont, "--require-all")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--require-all", proc.stderr)

    def test_filter(self):
        base = report(rows(NAME, [100]), rows(OTHER, [100]))
        cont = report(rows(NAME, [100]), rows(OTHER, [200]))
        self.assertEqual(self.run_compare(base, cont)[0].returncode, 1)
        proc, result = self.run_compare(base, cont, "--filter", "^matrixMul/")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual([b["name"] for b in result["benchmarks"]], [NAME])
        self.assertEqual(result["only_in_baseline"], [])
        proc, _ = self.run_compare(base, cont, "--filter", "^nothing")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no benchmark names in common (after --filter)", proc.stderr)

    def test_unreadable_input_is_exit_2_with_the_file_named(self):
        good = report(rows(NAME, [1]))
        for bad, what in (("{not json", "not valid JSON"),
                          (json.dumps({"context": {}}), "no \"benchmarks\" list"),
                          (json.dumps([1, 2]), "no \"benchmarks\" list"),
                          (json.dumps({"benchmarks": [{"real_time": 1}]}), "benchmarks[0]"),
                          (json.dumps({"benchmarks": [{"name": NAME, "real_time": 1,
                                                       "time_unit": "fortnight"}]}),
                           "unknown time_unit 'fortnight'")):
            with self.subTest(what=what):
                proc, _ = self.run_compare(good, bad)
                self.assertEqual(proc.returncode, 2, proc.stdout)
                self.assertIn("contender.json", proc.stderr)
                self.assertIn(what, proc.stderr)
                self.assertEqual(proc.stderr.count("\n"), 1, proc.stderr)
                self.assertEqual(proc.stdout, "")

    def test_missing_file_is_exit_2(self):
        proc = subprocess.run([sys.executable, SCRIPT, "/nonexistent/base.json", SCRIPT],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("/nonexistent/base.json: cannot read", proc.stderr)

    def test_bad_arguments_are_exit_2(self):
        good = report(rows(NAME, [1]))
        for args in (("--alpha", "2"), ("--threshold", "-1"), ("--threshold", "x"),
                     ("--filter", "("), ("--frobnicate",),
                     ("--higher-is-better", "--lower-is-better")):
            with self.subTest(args=args):
                proc, _ = self.run_compare(good, good, *args)
                self.assertEqual(proc.returncode, 2, proc.stdout)
                self.assertTrue(proc.stderr.startswith("compare: error: "), proc.stderr)
        proc = subprocess.run([sys.executable, SCRIPT, "only-one.json"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)

    def test_contender_error_is_a_regression(self):
        base = report(rows(NAME, [100, 101, 99]), rows(OTHER, [5]))
        cont = report(rows(NAME, [0.0], aggregates=False, error_occurred=True,
                           error_message="validation failed: max_rel_err 0.5 > 1e-05"),
                      rows(OTHER, [5]))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("REGRESSION", self.line_of(proc, NAME))
        self.assertIn("contender error (baseline ran): validation failed", proc.stdout)
        self.assertIn("1 regressions (1 of them contender errors)", proc.stdout)
        self.assertEqual(result["summary"]["contender_errors"], 1)

    def test_baseline_error_is_reported_not_failed(self):
        base = report(rows(NAME, [0.0], aggregates=False, error_occurred=True,
                           error_message="clBuildProgram failed"), rows(OTHER, [5]))
        cont = report(rows(NAME, [100]), rows(OTHER, [5]))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("baseline error (contender ran): clBuildProgram failed", proc.stdout)
        self.assertEqual(self.bench(result)["verdict"], "error")


if __name__ == "__main__":
    unittest.main()
