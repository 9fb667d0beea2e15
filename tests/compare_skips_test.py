#!/usr/bin/env python3
"""Tests scripts/compare.py on skipped benchmarks: skipped rows, the context's skip
lists, partial files, and a real GPU-less run."""
import json
import os
import unittest

from compare_fixtures import (  # tests/, the script's own folder, is on sys.path
    POCL_RESULT, NAME, OTHER, H200, rows, report, NO_CUDA, NO_PTX, skip_context, CompareCase)


class CompareFiles(CompareCase):
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


if __name__ == "__main__":
    unittest.main()
