#!/usr/bin/env python3
"""Tests what scripts/report.py makes of unusual input files (whole runs, --no-plots):
partial files named with their note under the heading it implies, the benchmarks a
GPU-less run skipped (context keys only) listed as not measured by API and reason,
unless another file measured them (also on the committed PoCL run,
tests/data_skips/pocl-quick.json), and bad input: exit 2 with one line, no REPORT.md."""
import os
import sys
import unittest

from report_fixtures import (
    H200, INTERRUPTED, NO_CUDA, NO_PTX, POCL_RESULT, Work, doc, error_row, full_suite, mm,
    rows, skip_context)


class InputRuns(Work):
    def test_partial_files_are_named_with_their_note(self):
        ctx = dict(H200, **{"gpucmp.partial": "stopped by its 400 s timeout during cp"})
        proc, md, _ = self.run_report(
            self.write("part.json", doc(mm("cuda", "tile16", 1024, 2.0),
                                        mm("opencl", "tile16", 1024, 2.5), context=ctx)),
            self.write("whole.json", doc(mm("cuda", "tile32", 1024, 2.0))),
            "--no-plots", python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("Partial files", md)
        self.assertIn("part.json`: stopped by its 400 s timeout during cp", md)
        self.assertNotIn("whole.json`:", md)

    def test_partial_heading_follows_the_note(self):
        # Older files' notes (by hand) tell of a timeout; gpucmp-bench's own note of a
        # signal, which a timeout's SIGTERM writes too; journal_report.py's of a
        # process that died before its report.
        stopped = "Partial files (a run stopped by its timeout; only complete benchmarks kept):"
        interrupted = ("Partial files (a run interrupted by a signal or its timeout; only "
                       "complete benchmarks kept):")
        recovered = ("Partial files (a run that stopped before writing its report; the rows "
                     "that finished, recovered from its journal):")
        old_note = dict(H200, **{"gpucmp.partial": "stopped by its 400 s timeout during cp"})
        new_note = dict(H200, **{"gpucmp.partial": INTERRUPTED})
        # scripts/journal_report.py's note: the process died before its report.
        journal_note = dict(H200, **{"gpucmp.partial": "recovered from cp.json.journal.jsonl "
                                     "(exit code -9): 1 rows of benchmarks that finished"})
        headings = (stopped, interrupted, recovered)
        for contexts, heading in (([old_note], stopped), ([new_note], interrupted),
                                  ([old_note, new_note], interrupted),
                                  ([journal_note], recovered),
                                  ([new_note, journal_note], recovered)):
            with self.subTest(heading=heading, files=len(contexts)):
                paths = [self.write(f"part{i}.json", doc(mm("cuda", "tile16", 1024 << i, 2.0),
                                                         context=c))
                         for i, c in enumerate(contexts)]
                proc, md, _ = self.run_report(*paths, "--no-plots", python=sys.executable)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertIn(heading, md)
                for other in headings:
                    if other != heading:
                        self.assertNotIn(other, md)
                self.assertIn(f"part{len(contexts) - 1}.json`: "
                              + contexts[-1]["gpucmp.partial"], md)

    def test_context_skips_are_not_measured_by_api_and_reason_with_counts(self):
        cuda = [f"matrixMul/cuda/tile{t}/n:{n}" for t in (16, 32) for n in (256, 512, 1024,
                                                                          2048, 4096)]
        ptx = ["matrixMul/opencl/tile16-ptx-as-built/n:1024"]
        ctx = skip_context(cuda + ptx, f"cuda: {NO_CUDA} (10 benchmarks); opencl: {NO_PTX} "
                                       "(1 benchmark)")
        proc, md, _ = self.run_report(
            self.write("gpu-less.json", doc(mm("opencl", "tile16", 1024, 2.5), context=ctx)),
            "--no-plots", python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        section = md[md.index("## Not measured"):]
        self.assertNotIn("Every benchmark in the input was measured", section)
        self.assertNotIn("\n| reason | benchmarks |", section)  # no error or skipped row
        self.assertIn("| API | reason | benchmarks | names |", section)
        first = ", ".join(f"`{n}`" for n in sorted(cuda)[:8])
        self.assertIn(f"| CUDA | {NO_CUDA} | 10 | {first} and 2 more |", section)
        self.assertIn(f"| OpenCL | {NO_PTX} | 1 | `{ptx[0]}` |", section)
        self.assertLess(section.index("| CUDA |"), section.index("| OpenCL |"))

    def test_context_skips_that_a_file_measured_are_not_listed(self):
        skipped = "matrixMul/cuda/tile16/n:1024"
        gpu_less = doc(mm("opencl", "tile16", 1024, 2.5), context=skip_context(
            [skipped, "matrixMul/cuda/tile32/n:1024"], f"cuda: {NO_CUDA} (2 benchmarks)"))
        gpu = doc(mm("cuda", "tile16", 1024, 2.0))
        for order in (("gpu-less", "gpu"), ("gpu", "gpu-less")):
            with self.subTest(order=order):
                files = {"gpu-less": gpu_less, "gpu": gpu}
                proc, md, _ = self.run_report(*(self.write(f"{n}.json", files[n]) for n in order),
                                              "--no-plots", python=sys.executable)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                section = md[md.index("## Not measured"):]
                self.assertIn(f"| CUDA | {NO_CUDA} | 1 | `matrixMul/cuda/tile32/n:1024` |",
                              section)
                self.assertNotIn(f"`{skipped}`", section)

    def test_context_skips_beside_error_rows_and_none(self):
        ctx = skip_context(["cp/cuda/base/grid:8"], f"cuda: {NO_CUDA} (1 benchmark)")
        proc, md, _ = self.run_report(self.write("mixed.json", doc(
            mm("opencl", "tile16", 1024, 2.5),
            error_row("cp/opencl/base/grid:8", "validation failed: max_rel_err 0.5"),
            context=ctx)), "--no-plots", python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        section = md[md.index("## Not measured"):]
        self.assertIn("| validation failed: max_rel_err 0.5 | "
                      "`cp/opencl/base/grid:8/manual_time` |\n\nSkipped (no row;", section)
        self.assertIn(f"| CUDA | {NO_CUDA} | 1 | `cp/cuda/base/grid:8` |", section)
        # "none": nothing skipped, the sentence of a complete input.
        proc, md, _ = self.run_report(self.write("none.json", doc(
            mm("opencl", "tile16", 1024, 2.5), context=skip_context([], "none"))),
            "--no-plots", python=sys.executable, out="none")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("Every benchmark in the input was measured (no error or skipped rows).", md)
        self.assertNotIn("Skipped (no row;", md)

    @unittest.skipUnless(os.path.exists(POCL_RESULT), "tests/data_skips/pocl-quick.json missing")
    def test_real_gpu_less_run_lists_its_skips(self):
        proc, md, _ = self.run_report(POCL_RESULT, "--no-plots", python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        section = md[md.index("## Not measured"):]
        self.assertIn("| CUDA | no CUDA device (cudaGetDeviceCount: cudaErrorInsufficientDriver "
                      "(CUDA driver version is insufficient for CUDA runtime version)) | 44 | ",
                      section)
        self.assertIn("| OpenCL | PTX variants need NVIDIA's OpenCL (the device is "
                      "'pthread-skylake-avx512-AMD EPYC') | 69 | ", section)
        self.assertIn(" and 61 more |", section)

    def assert_exit_2(self, proc, *fragments):
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("report: error: "), lines[0])
        for fragment in fragments:
            self.assertIn(fragment, lines[0])

    def test_bad_input_is_exit_2_with_one_line(self):
        cases = {
            "broken.json": ("{not json", "not valid JSON"),
            "list.json": ("[1, 2]", "not a Google Benchmark JSON report"),
            "foreign.json": (doc(rows("BM_memcpy/8", [1.0])), "no measured gpucmp benchmark"),
            "errors.json": (doc(error_row("cp/cuda/base/grid:8/atoms:4", "boom")),
                            "no measured gpucmp benchmark"),
        }
        for name, (content, fragment) in cases.items():
            with self.subTest(name):
                proc, md, _ = self.run_report(self.write(name, content), "--no-plots",
                                              python=sys.executable)
                self.assert_exit_2(proc, name, fragment)
                self.assertIsNone(md)
        proc, _, _ = self.run_report(os.path.join(self.tmp, "absent.json"), "--no-plots",
                                     python=sys.executable)
        self.assert_exit_2(proc, "absent.json", "cannot read")
        proc, _, _ = self.run_report(self.write("ok.json", full_suite()), "--frobnicate",
                                     python=sys.executable)
        self.assert_exit_2(proc, "--frobnicate")


if __name__ == "__main__":
    unittest.main()
