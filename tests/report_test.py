#!/usr/bin/env python3
"""Tests whole runs of scripts/report.py on synthetic Google Benchmark JSON files: the
REPORT.md tables and the figures (reproducible PNGs), sections and stale figures
omitted without their data, --no-plots; and runs it on the committed H200 results.
The analysis, the startup/hot-cold/quality sections and unusual input are tested in
report_analysis_test.py, report_sections_test.py and report_inputs_test.py; their
shared helpers are in report_fixtures.py.

The figures need matplotlib (Debian: python3-matplotlib). It installs into the
system python3, which a pyenv or venv python3 on PATH can hide: the script runs
under the first of this interpreter and /usr/bin/python3 that imports it. With
none, the figure tests skip and the last line says so (CTest: skipped)."""
import os
import sys
import unittest

from report_fixtures import (  # also puts scripts/ on sys.path
    NO_MPL, PLOT_PYTHON, REAL, REAL_STARTUP, Work, doc, full_suite, mm)
from gpucmp_report import figures


class WholeRuns(Work):
    @unittest.skipUnless(PLOT_PYTHON, NO_MPL)
    def test_full_report_tables_and_figures(self):
        proc, md, out = self.run_report(self.write("suite.json", full_suite()))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("report: wrote", proc.stdout)
        self.assertEqual(proc.stderr, "")
        # headline table: CUDA 10 ms, OpenCL 12.5 ms, ratio 1.25 with the repetitions' range
        self.assertIn("| matrixMul | tile16 | n=2048 | 10 ms ±2% (1.72 TFLOP/s) | "
                      "12.5 ms ±2% (1.37 TFLOP/s) | 1.25 (1.20-1.30) | 10.0 / 10.0 |", md)
        self.assertIn("| cp | unrollx8 | grid=512 atoms=40000 | 24.2 ms ±0.83% | "
                      "5.35 ms ±0.93% | 0.22 (0.22-0.23) |", md)
        # bandwidth: 6 sizes > 4: only the smallest and largest in the table
        self.assertIn("| bandwidth | h2d-pinned | 1 KiB |", md)
        self.assertIn("| bandwidth | h2d-pinned | 1 MiB |", md)
        self.assertNotIn("| bandwidth | h2d-pinned | 4 KiB |", md)
        # PTX steps: both chains, the 2010 reference, the controls
        self.assertIn("### matrixMul tile16, n=2048", md)
        self.assertIn("| +unroll | 26 ms ±2% | -48.0% | 30 ms ±2% | -25.0% | 2.60 / 3.00 "
                      "| -48% |", md)
        self.assertIn("| +mad | 15.6 ms ±2% | +0.0% | 18 ms ±2% | -25.0% | 1.56 / 1.80 | +0% |",
                      md)
        self.assertIn("| ptx-from-nvcc | tile16-ptx-from-nvcc | 10.1 ms ±2% | 1.01 |", md)
        self.assertIn("auto chain from ptx-O0: clean -50.0%, unroll -48.0%, cse -40.0%, mad +0.0%, "
                      "licm -20.0% (2010, hand: unroll -48%, cse -40%, mad +0%, licm -20%)", md)
        # best OpenCL variant, vendor libraries, one-API rows, not measured
        self.assertIn("| matrixMul | tile16 | n=2048 | 10 ms ±2% | 1.25 | tile16-ptx-from-nvcc |",
                      md)
        self.assertIn("| n=2048 | 1 ms ±2% (17.2 TFLOP/s) | 1.5 ms ±2% (11.5 TFLOP/s) | 1.50 |",
                      md)
        self.assertIn("- bandwidth OpenCL h2d-mapped", md)
        self.assertIn("- cp CUDA unrollx8-ieee", md)
        self.assertIn("validation failed: max_rel_err 0.5 > 1e-5", md)
        self.assertIn("skipped: CUDA unavailable: no CUDA device", md)
        self.assertIn("**matrixMul** (2010: 4.2): OpenCL/CUDA time at the largest size, "
                      "n=2048: tile16 1.25; over all 2 pairs 1.25. CUDA is faster in 2 of 2 "
                      "pairs. Every pair is below half the 2010 gap (4.2).", md)
        for name in figures.FIGURES.values():
            path = os.path.join(out, name)
            self.assertTrue(os.path.exists(path), name)
            self.assertIn(f"]({name})", md)
            with open(path, "rb") as f:
                head = f.read(8)
            self.assertEqual(head, b"\x89PNG\r\n\x1a\n", name)
            self.assertGreater(os.path.getsize(path), 5000, name)

    @unittest.skipUnless(PLOT_PYTHON, NO_MPL)
    def test_output_is_reproducible(self):
        path = self.write("suite.json", full_suite())
        self.run_report(path, out="one")
        self.run_report(path, out="two")
        names = sorted(os.listdir(os.path.join(self.tmp, "one")))
        self.assertEqual(names, sorted(["REPORT.md", *figures.FIGURES.values()]))
        for name in names:
            with open(os.path.join(self.tmp, "one", name), "rb") as a, \
                    open(os.path.join(self.tmp, "two", name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    @unittest.skipUnless(PLOT_PYTHON, NO_MPL)
    def test_missing_data_omits_sections_and_stale_figures(self):
        path = self.write("suite.json", full_suite())
        self.run_report(path)
        only_mm = doc(mm("cuda", "tile16", 1024, 2.0), mm("opencl", "tile16", 1024, 2.5))
        proc, md, out = self.run_report(self.write("mm.json", only_mm))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("No PTX variants", md)
        self.assertIn("the table and Fig. 6 are omitted", md)
        self.assertIn("Fig. 7 is omitted", md)
        self.assertIn("No bandwidth rows in the input", md)
        self.assertIn("No cuBLAS or CLBlast rows", md)
        self.assertIn("Every benchmark in the input was measured", md)
        self.assertEqual(sorted(os.listdir(out)), ["REPORT.md", "fig-peak.png", "fig-ratio.png"])

    @unittest.skipUnless(PLOT_PYTHON, NO_MPL)
    def test_controls_without_chains_omit_fig6(self):
        suite = doc(mm("cuda", "tile16", 1024, 2.0), mm("opencl", "tile16", 1024, 2.5),
                    mm("opencl", "tile16-ptx-O0", 1024, 40.0),
                    mm("opencl", "tile16-ptx-as-built", 1024, 2.5))
        proc, md, out = self.run_report(self.write("controls.json", suite))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("| ptx-O0 | tile16-ptx-O0 | 40 ms ±2% | 20.00 |", md)
        self.assertIn("No chain variants", md)
        self.assertIn("Fig. 6 is omitted", md)
        self.assertFalse(os.path.exists(os.path.join(out, figures.FIGURES["ptx"])))

    def test_no_plots_writes_the_text_only(self):
        proc, md, out = self.run_report(self.write("suite.json", full_suite()), "--no-plots",
                                        "--title", "Synthetic", python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(md.startswith("# Synthetic\n"))
        self.assertIn("| matrixMul | tile16 | n=2048 |", md)
        self.assertEqual(os.listdir(out), ["REPORT.md"])

    @unittest.skipUnless(PLOT_PYTHON and all(map(os.path.exists, REAL)),
                         "matplotlib or the committed H200 results missing")
    def test_committed_h200_results(self):
        proc, md, out = self.run_report(*REAL)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("# gpucmp: CUDA against OpenCL on NVIDIA H200", md)
        self.assertIn("| matrixMul | tile16 | n=8192 |", md)
        self.assertIn("| ptx-O0 | tile16-ptx-O0 |", md)
        self.assertIn("Fig. 6 is omitted", md)  # no chain variants measured yet
        for kind in ("ratio", "best", "bandwidth", "peak"):
            self.assertTrue(os.path.exists(os.path.join(out, figures.FIGURES[kind])), kind)

    @unittest.skipUnless(all(map(os.path.exists, REAL_STARTUP)),
                         "the committed H200 startup results missing")
    def test_committed_h200_startup_results(self):
        proc, md, _ = self.run_report(*REAL_STARTUP, "--no-plots", python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("## Startup: build, module load and first launch", md)
        self.assertIn("CUDA first launch, CUDA_FORCE_PTX_JIT=1", md)
        self.assertIn("| matrixMul tile16 | n=1024 |", md)
        self.assertIn("## Measurement quality", md)
        self.assertNotRegex(md, r"\| startup \| [a-zA-Z]")  # no startup pair
        self.assertNotIn("startup matrixMul", md)


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    ok = result.wasSuccessful()
    if ok and PLOT_PYTHON is None:
        print(f"report_test: SKIPPED: the figure tests: {NO_MPL}")
    sys.exit(0 if ok else 1)
