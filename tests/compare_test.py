#!/usr/bin/env python3
"""Tests scripts/compare.py: the Mann-Whitney U test, and whole runs on synthetic
Google Benchmark JSON files (plus one committed gpucmp result compared with itself)."""
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "compare.py")
REAL_RESULT = os.path.join(HERE, "..", "results", "nvidia-h200", "2026-11-22-foundation.json")
# A real GPU-less run: 24 OpenCL rows on PoCL, 113 skipped benchmarks in its context only.
POCL_RESULT = os.path.join(HERE, "data_skips", "pocl-quick.json")

_spec = importlib.util.spec_from_file_location("compare", SCRIPT)
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

NAME = "matrixMul/cuda/tile16/n:1024/iterations:20/manual_time"
OTHER = "bandwidth/opencl/d2d/bytes:1024/iterations:10/manual_time"
H200 = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200"}


def rows(name, values, time_unit="us", counter=None, aggregates=True, **extra):
    """Google Benchmark rows of one benchmark run with len(values) repetitions: one
    iteration row per value (counter: the values go to that counter instead of
    real_time), then the mean/median/stddev/cv aggregates as Google Benchmark writes them."""
    out = []
    for i, v in enumerate(values):
        row = {"name": name, "run_name": name, "run_type": "iteration",
               "repetitions": len(values), "repetition_index": i, "threads": 1,
               "iterations": 20, "real_time": 100.0 if counter else v, "cpu_time": 5.0,
               "time_unit": time_unit, **extra}
        if counter:
            row[counter] = v
        out.append(row)
    if aggregates and len(values) > 1:
        mean = sum(values) / len(values)
        stats = {"mean": mean, "median": sorted(values)[len(values) // 2],
                 "stddev": 0.0, "cv": 0.0}
        for agg, v in stats.items():
            row = {"name": f"{name}_{agg}", "run_name": name, "run_type": "aggregate",
                   "repetitions": len(values), "threads": 1, "aggregate_name": agg,
                   "aggregate_unit": "percentage" if agg == "cv" else "time",
                   "iterations": len(values), "real_time": 100.0 if counter else v,
                   "cpu_time": 5.0, "time_unit": time_unit}
            if counter:
                row[counter] = v
            out.append(row)
    return out


def report(*benchmark_rows, context=None):
    return {"context": dict(H200 if context is None else context),
            "benchmarks": [r for group in benchmark_rows for r in group]}


NO_CUDA = "no CUDA device (cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device))"
NO_PTX = "PTX variants need NVIDIA's OpenCL (the device is 'pthread-cpu, AMD')"


def skip_context(names, summary, context=None):
    """A context with gpucmp-bench's skip keys (harness/result_reporter.h) for names."""
    return dict(H200 if context is None else context, **{
        "gpucmp.skipped": summary, "gpucmp.skipped_count": str(len(names)),
        "gpucmp.skipped_benchmarks": ", ".join(names)})


def series(center, n, spread):
    """n values evenly spread over center * (1 +- spread)."""
    if n == 1:
        return [center]
    return [center * (1 - spread + 2 * spread * i / (n - 1)) for i in range(n)]


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


class CompareFiles(unittest.TestCase):
    def run_compare(self, baseline, contender, *args):
        """Runs compare.py on two reports (dicts, or raw text); returns (process, --json report)."""
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for label, data in (("baseline", baseline), ("contender", contender)):
                paths.append(os.path.join(d, f"{label}.json"))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    f.write(data if isinstance(data, str) else json.dumps(data))
            out = os.path.join(d, "out.json")
            proc = subprocess.run([sys.executable, SCRIPT, *paths, "--json", out, *args],
                                  capture_output=True, text=True, check=False)
            result = None
            if os.path.exists(out):
                with open(out, encoding="utf-8") as f:
                    result = json.load(f)
            return proc, result

    def line_of(self, proc, name):
        lines = [line for line in proc.stdout.splitlines() if line.startswith(name + " ")]
        self.assertEqual(len(lines), 1, proc.stdout)
        return lines[0]

    def bench(self, result, name=NAME):
        return next(b for b in result["benchmarks"] if b["name"] == name)

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

    def test_skipped_rows_are_shown_not_compared(self):
        # gpucmp-bench skips with error_occurred + "skipped: ..." (what Google
        # Benchmark writes for SkipWithMessage here); newer ones write "skipped": true.
        base = report(rows(NAME, [100]), rows(OTHER, [5]))
        cont = report(rows(NAME, [0.0], aggregates=False, error_occurred=True,
                           error_message="skipped: no CUDA device"),
                      rows(OTHER, [0.0], aggregates=False, skipped=True,
                           skip_message="not on this platform"))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("skipped", self.line_of(proc, NAME))
        self.assertIn("1 benchmark skipped in contender: skipped: no CUDA device", proc.stdout)
        self.assertEqual(result["summary"]["skipped"], 2)
        self.assertEqual(result["summary"]["compared"], 0)

    def test_context_skips_are_skipped_with_their_reason_not_only_in_one_file(self):
        # Newer gpucmp-bench: no row for a skipped benchmark, its name in the context.
        base = report(rows(NAME, [100]), rows(OTHER, [5]))
        cont = report(rows(OTHER, [5]), context=skip_context(
            ["matrixMul/cuda/tile16/n:1024"], f"cuda: {NO_CUDA} (1 benchmark)"))
        proc, result = self.run_compare(base, cont, "--require-all")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("skipped", self.line_of(proc, NAME))
        self.assertIn(f"1 benchmark skipped in contender: {NO_CUDA}", proc.stdout)
        self.assertEqual(self.bench(result)["message"], f"skipped in contender: {NO_CUDA}")
        self.assertEqual(result["only_in_baseline"], [])
        self.assertEqual(result["only_in_contender"], [])
        self.assertEqual(result["summary"]["skipped"], 1)
        self.assertEqual(result["summary"]["compared"], 1)

    def test_context_skips_of_the_baseline_name_the_contender_row(self):
        base = report(rows(OTHER, [5]), context=skip_context(
            ["matrixMul/cuda/tile16/n:1024"], f"cuda: {NO_CUDA} (1 benchmark)"))
        proc, result = self.run_compare(base, report(rows(NAME, [100]), rows(OTHER, [5])))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["message"], f"skipped in baseline: {NO_CUDA}")
        self.assertEqual(result["only_in_contender"], [])

    def test_context_skips_on_both_sides_and_beside_old_skipped_rows(self):
        skipped = "matrixMul/cuda/tile16/n:1024"
        new = report(rows(OTHER, [5]), context=skip_context(
            [skipped], f"cuda: {NO_CUDA} (1 benchmark)"))
        proc, result = self.run_compare(new, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result, skipped)["message"], f"skipped in both: {NO_CUDA}")
        # An older file's skipped row meets the newer file's context entry.
        old = report(rows(OTHER, [5]), rows(NAME, [0.0], aggregates=False, error_occurred=True,
                                            error_message="skipped: no CUDA device"))
        proc, result = self.run_compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.bench(result)["message"],
                         "skipped in both: skipped: no CUDA device")
        self.assertEqual(result["only_in_baseline"] + result["only_in_contender"], [])

    def test_context_skip_absent_from_the_other_file_is_only_in_its_file(self):
        # As an older file's skipped row was: the other file does not know the name.
        base = report(rows(OTHER, [5]), context=skip_context(
            ["matrixMul/cuda/tile16/n:1024"], f"cuda: {NO_CUDA} (1 benchmark)"))
        proc, result = self.run_compare(base, report(rows(OTHER, [5])))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(result["only_in_baseline"], ["matrixMul/cuda/tile16/n:1024"])
        self.assertEqual(result["summary"]["skipped"], 0)

    def test_filter_applies_to_context_skips(self):
        base = report(rows(NAME, [100]), rows(OTHER, [5]))
        cont = report(rows(OTHER, [5]), context=skip_context(
            ["matrixMul/cuda/tile16/n:1024"], f"cuda: {NO_CUDA} (1 benchmark)"))
        proc, result = self.run_compare(base, cont, "--filter", "^bandwidth/")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual([b["name"] for b in result["benchmarks"]], [OTHER])

    def test_only_context_skips_in_common_is_not_exit_2(self):
        # A CUDA-only baseline against a GPU-less contender: every name is skipped there.
        cont = report(rows(OTHER, [5]), context=skip_context(
            ["matrixMul/cuda/tile16/n:1024"], f"cuda: {NO_CUDA} (1 benchmark)"))
        proc, result = self.run_compare(report(rows(NAME, [100])), cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(result["summary"]["skipped"], 1)

    def test_an_api_with_several_reasons_gives_them_all(self):
        # gpucmp.skipped counts reasons per API but does not say whose is whose.
        names = ["matrixMul/opencl/tile16-ptx-as-built/n:1024", "cp/opencl/x/grid:8"]
        summary = f"opencl: {NO_PTX} (1 benchmark), no cp today (1 benchmark)"
        cont = report(rows(OTHER, [5]), context=skip_context(names, summary))
        base = report(rows(names[0] + "/iterations:20/manual_time", [1.0]), rows(OTHER, [5]))
        proc, result = self.run_compare(base, cont)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        message = self.bench(result, names[0] + "/iterations:20/manual_time")["message"]
        self.assertEqual(message, f"skipped in contender: one of: {NO_PTX} (1 benchmark), "
                                  "no cp today (1 benchmark)")

    def test_partial_file_is_a_warning(self):
        ctx = dict(H200, **{"gpucmp.partial": "interrupted by SIGTERM after 1 benchmark; "
                                              "the rest did not run"})
        proc, result = self.run_compare(report(rows(NAME, [100])),
                                        report(rows(NAME, [100]), context=ctx))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("contender.json is partial: interrupted by SIGTERM after 1 benchmark",
                      proc.stderr)
        self.assertEqual(len(result["warnings"]), 1)

    @unittest.skipUnless(os.path.exists(POCL_RESULT), "tests/data_skips/pocl-quick.json missing")
    def test_real_gpu_less_run_against_a_run_that_measured_its_skips(self):
        with open(POCL_RESULT, encoding="utf-8") as f:
            pocl = json.load(f)
        skipped = pocl["context"]["gpucmp.skipped_benchmarks"].split(", ")
        measured = [r for r in pocl["benchmarks"] if r["run_type"] == "iteration"]
        full = {"context": {k: v for k, v in pocl["context"].items()
                            if not k.startswith("gpucmp.skipped")},
                "benchmarks": measured + [dict(measured[0], name=f"{n}/iterations:1/manual_time",
                                               run_name=f"{n}/iterations:1/manual_time")
                                          for n in skipped]}
        proc, result = self.run_compare(full, pocl)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(result["summary"]["compared"], 24)
        self.assertEqual(result["summary"]["skipped"], 113)
        self.assertEqual(result["only_in_baseline"] + result["only_in_contender"], [])
        self.assertIn("44 benchmarks skipped in contender: no CUDA device (cudaGetDeviceCount: "
                      "cudaErrorInsufficientDriver (CUDA driver version is insufficient for "
                      "CUDA runtime version))", proc.stdout)
        self.assertIn("69 benchmarks skipped in contender: PTX variants need NVIDIA's OpenCL",
                      proc.stdout)

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
