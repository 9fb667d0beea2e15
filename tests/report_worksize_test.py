#!/usr/bin/env python3
"""Tests the report's "Work-size tuning" section (sections/worksize.py, worksize.py,
worksize_figures.py) on synthetic gpucmp-bench JSON: a 2-D kernel (mmnaive) and a
1-D one (sort) on CUDA and OpenCL, each with a sweep of shapes and rule rows
(local:study*, driver, tuner): the best and worst shape, the OpenCL/CUDA ratio of
the bests, each rule's time / best and shapes measured, missing rules, that the
local rows enter no generic pair, and that the heat maps and curves are written
(reproducibly, and removed when a later report has no local rows).

The figures need matplotlib: the script runs under the first of this interpreter
and /usr/bin/python3 that imports it; with none, the figure tests skip and the
last line says so (CTest: skipped)."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "report.py")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
from gpucmp_report import analysis, cli, load, worksize  # noqa: E402
from gpucmp_report.sections import worksize as worksize_sec  # noqa: E402

CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-24"}
DASH = "\u2013"


def plot_python():
    """An interpreter that imports matplotlib, or None."""
    for exe in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import matplotlib"], capture_output=True, check=False).returncode == 0:
            return exe
    return None


PLOT_PYTHON = plot_python()
NO_MPL = "no python3 here imports matplotlib (install python3-matplotlib)"


def rows(name, ms, **counters):
    """Three repetitions of one benchmark around `ms` (median ms), Google Benchmark's shape."""
    full = f"{name}/iterations:10/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 3,
             "repetition_index": i, "threads": 1, "iterations": 10, "real_time": ms * f,
             "cpu_time": ms * f, "time_unit": "ms", "median_us": ms * 1e3, "cv": 0.001,
             "noise_met": 1.0, **counters}
            for i, f in enumerate((0.99, 1.0, 1.01))]


# 2-D mmnaive on a 16x16 global range: every (x, y) with x, y in 1..16 (25 shapes).
POW2 = [1, 2, 4, 8, 16]


def mm_ms(api, x, y):
    """CUDA: best 8x4 (10 ms); OpenCL: best 16x2 (12 ms); both worst at 1x1."""
    lx, ly = math.log2(x), math.log2(y)
    if api == "cuda":
        t = 10 + 2 * abs(lx - 3) + 1.5 * abs(ly - 2)
    else:
        t = 12 + 2 * abs(lx - 4) + 1.5 * abs(ly - 1)
    return t + (20 if (x, y) == (1, 1) else 0)


def sort_ms(api, x):
    """CUDA: best 128 (5 ms), worst 1 (8.5 ms); OpenCL: best 256 (4 ms), worst 1 (7.2 ms)."""
    lx = math.log2(x)
    return 5 + 0.5 * abs(lx - 7) if api == "cuda" else 4 + 0.4 * abs(lx - 8)


def local(x, y):
    return {"local_x": float(x), "local_y": float(y)}


def tuner(x, y, measured, candidates):
    return dict(local(x, y), tuner_candidates=float(candidates), tuner_measured=float(measured))


MM = "mmnaive/{api}/base/n:16/local:{spec}"
SORT = "sort/{api}/bitonic/n:1024/local:{spec}"


def suite():
    """The synthetic input: sweeps and rules of mmnaive and sort on both APIs, one
    CUDA-only local row (trapezoid), and a generic pair (matrixMul)."""
    out = rows("matrixMul/cuda/tile16/n:64", 1.0) + rows("matrixMul/opencl/tile16/n:64", 1.5)
    for api in ("cuda", "opencl"):
        for x in POW2:
            for y in POW2:
                if api == "opencl" and (x, y) == (2, 2):
                    continue  # not measured: a blank cell, 24 of 25 shapes
                out += rows(MM.format(api=api, spec=f"{x}x{y}"), mm_ms(api, x, y), **local(x, y))
        for x in (2 ** i for i in range(11)):
            out += rows(SORT.format(api=api, spec=x), sort_ms(api, x), **local(x, 1))
    out += rows(MM.format(api="cuda", spec="study-x"), mm_ms("cuda", 16, 4), **local(16, 4))
    out += rows(MM.format(api="cuda", spec="study-y"), mm_ms("cuda", 2, 16), **local(2, 16))
    out += rows(MM.format(api="cuda", spec="driver"), 11.0, **local(0, 0))
    out += rows(MM.format(api="cuda", spec="tuner"), 10.1, **tuner(8, 4, 2, 25))
    out += rows(MM.format(api="opencl", spec="study-x"), mm_ms("opencl", 16, 4), **local(16, 4))
    out += rows(MM.format(api="opencl", spec="driver"), 30.0, **local(0, 0))  # no study-y
    out += rows(MM.format(api="opencl", spec="tuner"), 13.0, **tuner(8, 8, 0, 25))
    out += rows(SORT.format(api="cuda", spec="study"), 5.5, **local(256, 1))
    out += rows(SORT.format(api="cuda", spec="driver"), 6.0, **local(0, 0))
    out += rows(SORT.format(api="cuda", spec="tuner"), 5.0, **tuner(128, 1, 1, 11))
    out += rows(SORT.format(api="opencl", spec="study"), 4.8, **local(64, 1))  # no tuner
    out += rows("trapezoid/cuda/base/items:1024/local:driver", 1.0, **local(0, 0))
    return {"context": CONTEXT, "benchmarks": out}


class Work(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_worksize_test_")
        self.path = self.write("ws.json", suite())

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, content):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f)
        return path

    def data(self):
        _, benches, _ = load.load_all([self.path])
        return analysis.Data(benches)

    def kernels(self):
        return {k.workload: k for k in worksize.kernels(self.data())}

    def report_md(self, *paths, out="out"):
        out_dir = os.path.join(self.tmp, out)
        self.assertEqual(cli.main(list(paths or [self.path]) + ["--no-plots", "--out-dir",
                                                                 out_dir], "x\n\nusage: x"), 0)
        with open(os.path.join(out_dir, "REPORT.md"), encoding="utf-8") as f:
            return f.read()


class Analysis(Work):
    def test_local_rows_are_kept_apart_and_enter_no_pair(self):
        data = self.data()
        self.assertEqual(len(data.local), 2 * 25 - 1 + 2 * 11 + 7 + 4 + 1)
        self.assertTrue(all(dict(b.params).get("local") for b in data.local))
        self.assertFalse([k for k in data.by_id if any(p[0] == "local" for p in k[3])])
        self.assertEqual([(p[0], p[1]) for p in analysis.pairs(data)], [("matrixMul", "tile16")])
        md = self.report_md()
        self.assertEqual(md.count("\n## Work-size tuning\n"), 1)
        head, tail = md.split("\n## Work-size tuning\n")
        for workload in ("mmnaive", "sort", "trapezoid"):
            self.assertNotIn(workload, head)  # no ratio, best, peak or one-API line
        self.assertNotIn("## Measured on one API only", md)  # trapezoid is CUDA only
        self.assertIn("| work-size tuning | 83 | 249 |", tail)  # measurement quality

    def test_best_worst_and_shape_counts_2d(self):
        k = self.kernels()["mmnaive"]
        self.assertEqual((k.dims, k.label, list(k.apis)), (2, "mmnaive base n=16",
                                                           ["cuda", "opencl"]))
        c, o = k.apis["cuda"], k.apis["opencl"]
        self.assertEqual((c.best[0], c.best[1].time, c.worst[0], c.worst[1].time),
                         ((8, 4), 10e6, (1, 1), 39e6))
        self.assertEqual((o.best[0], o.best[1].time, o.worst[0]), ((16, 2), 12e6, (1, 1)))
        self.assertEqual((len(c.shapes), len(o.shapes), c.candidates, o.candidates),
                         (25, 24, 25, 25))
        self.assertEqual((c.complete, o.complete), (True, False))
        self.assertAlmostEqual(k.ratio(), 1.2)
        self.assertAlmostEqual(c.over_best(c.worst[1]), 3.9)
        brute = min((mm_ms("cuda", x, y), (x, y)) for x in POW2 for y in POW2)
        self.assertEqual(brute, (c.best[1].time / 1e6, c.best[0]))

    def test_best_worst_1d(self):
        k = self.kernels()["sort"]
        c, o = k.apis["cuda"], k.apis["opencl"]
        self.assertEqual(k.dims, 1)
        self.assertEqual((c.best[0], c.worst[0], o.best[0], o.worst[0]),
                         ((128, 1), (1, 1), (256, 1), (1, 1)))
        self.assertAlmostEqual(k.ratio(), 0.8)
        self.assertEqual((c.candidates, o.candidates, len(o.shapes)), (11, None, 11))

    def test_rules_measured_counts_and_missing(self):
        ks = self.kernels()
        c, o = ks["mmnaive"].apis["cuda"], ks["mmnaive"].apis["opencl"]
        bench, shape = worksize.rule_row(c, "tuner", 2)
        self.assertEqual((shape, worksize.measured_count("tuner", bench)), ((8, 4), (2, 25)))
        self.assertAlmostEqual(c.over_best(bench), 1.01)
        bench, shape = worksize.rule_row(o, "tuner", 2)
        self.assertEqual((shape, worksize.measured_count("tuner", bench)), ((8, 8), (0, 25)))
        self.assertEqual(worksize.rule_row(o, "study-y", 2), (None, None))
        bench, shape = worksize.rule_row(c, "driver", 2)
        self.assertEqual((bench.time, shape, worksize.measured_count("driver", bench)),
                         (11e6, None, (0, None)))
        bench, shape = worksize.rule_row(c, "default", 2)
        self.assertEqual((bench.time, shape), (mm_ms("cuda", 16, 16) * 1e6, (16, 16)))
        self.assertEqual(worksize.rule_row(ks["sort"].apis["opencl"], "tuner", 1), (None, None))
        self.assertEqual(ks["mmnaive"].rule_names(),
                         ["study-x", "study-y", "driver", "tuner", "default"])
        summary = worksize.rule_summary(list(ks.values()), "cuda")
        self.assertEqual(sorted((k.workload, r, round(x, 3)) for x, k, r in summary["study"]),
                         [("mmnaive", "study-x", 1.2), ("mmnaive", "study-y", 1.7),
                          ("sort", "study", 1.1)])
        self.assertEqual(sorted((k.workload, round(x, 3)) for x, k, _ in summary["tuner"]),
                         [("mmnaive", 1.01), ("sort", 1.0)])

    def test_parse_spec(self):
        self.assertEqual(worksize.parse_spec("256"), ((256, 1), 1))
        self.assertEqual(worksize.parse_spec("32x8"), ((32, 8), 2))
        self.assertEqual(worksize.parse_spec("study-y"), (None, 2))
        self.assertEqual(worksize.parse_spec("tuner"), (None, None))

    def test_no_local_rows_no_section(self):
        plain = self.write("plain.json", {"context": CONTEXT, "benchmarks": rows(
            "matrixMul/cuda/tile16/n:64", 1.0) + rows("matrixMul/opencl/tile16/n:64", 1.5)})
        md = self.report_md(plain)
        self.assertNotIn("Work-size", md)
        self.assertNotIn("work-size", md)
        self.assertEqual(worksize_sec.worksize_section([]), [])


class Markdown(Work):
    def test_tables_and_text(self):
        md = self.report_md()
        lines = md.splitlines()
        for line in [
            "| mmnaive base n=16 | CUDA | 25 of 25 | 8x4 | 10 ms | 1x1 | 39 ms | 3.90 | 1 (x 8) |",
            "| mmnaive base n=16 | OpenCL | 24 of 25 | 16x2 | 12 ms | 1x1 | 41.5 ms | 3.46 | 1 "
            "(x 16) |",
            "| sort bitonic n=1024 | CUDA | 11 of 11 | 128 | 5 ms | 1 | 8.5 ms | 1.70 | 1 "
            "(x 128) |",
            "| sort bitonic n=1024 | OpenCL | 11 | 256 | 4 ms | 1 | 7.2 ms | 1.80 | 1 (x 256) |",
            "| mmnaive base n=16 | 10 ms at 8x4 | 12 ms at 16x2 | 1.20 |",
            "| sort bitonic n=1024 | 5 ms at 128 | 4 ms at 256 | 0.80 |",
            "| mmnaive base n=16 | CUDA | sweep (best) | 8x4 | 10 ms | 1.00 | 25 of 25 |",
            "| mmnaive base n=16 | CUDA | study-x | 16x4 | 12 ms | 1.20 | 0 |",
            "| mmnaive base n=16 | CUDA | driver | not known (driver) | 11 ms | 1.10 | 0 |",
            "| mmnaive base n=16 | CUDA | tuner | 8x4 | 10.1 ms | 1.01 | 2 of 25 |",
            "| mmnaive base n=16 | CUDA | default 16x16 | 16x16 | 15 ms | 1.50 | 0 |",
            f"| mmnaive base n=16 | OpenCL | study-y | {DASH} | {DASH} | {DASH} | {DASH} |",
            "| mmnaive base n=16 | OpenCL | tuner | 8x8 | 13 ms | 1.08 | 0 of 25 (model's first "
            "choice) |",
            f"| sort bitonic n=1024 | OpenCL | tuner | {DASH} | {DASH} | {DASH} | {DASH} |",
            "| sort bitonic n=1024 | OpenCL | study | 64 | 4.8 ms | 1.20 | 0 |",
            "| sort bitonic n=1024 | CUDA | default 256 | 256 | 5.5 ms | 1.10 | 0 |",
            "- CUDA, time / best: study rule: worst 1.70 (mmnaive base n=16, study-y), mean 1.33 "
            "over 3 rows; tuner: worst 1.01 (mmnaive base n=16, tuner), mean 1.00 over 2 rows.",
        ]:
            self.assertIn(line, lines)
        self.assertIn("Fewer shapes measured than the tuner counted legal, so the best is of the "
                      "shapes measured only: mmnaive base n=16 OpenCL (24 of 25).", md)
        self.assertIn("the study's figures (Tesla K20, its Tables 5/6): best 30.6 ms at many "
                      "shapes with x >= 32, worst 2353 ms at (1, 1) (worst / best 76.9). Ours, "
                      "mmnaive base n=16: CUDA best 10 ms at (8, 4) (x > y), worst 39 ms at "
                      "(1, 1) (worst / best 3.9)", md)
        self.assertNotIn("because", md.split("## Work-size tuning")[1])
        self.assertNotIn("fig-worksize", md)  # --no-plots


@unittest.skipUnless(PLOT_PYTHON, NO_MPL)
class Figures(Work):
    def run_report(self, path, out):
        out_dir = os.path.join(self.tmp, out)
        proc = subprocess.run([PLOT_PYTHON, SCRIPT, path, "--out-dir", out_dir],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out_dir, "REPORT.md"), encoding="utf-8") as f:
            return proc.stdout, f.read(), out_dir

    def test_figures_are_written_reproducibly_and_linked(self):
        expected = ["fig-worksize-mmnaive-cuda.png", "fig-worksize-mmnaive-opencl.png",
                    "fig-worksize-sort.png"]
        stdout, md, one = self.run_report(self.path, "one")
        _, _, two = self.run_report(self.path, "two")
        found = sorted(f for f in os.listdir(one) if f.startswith("fig-worksize-"))
        self.assertEqual(found, expected)  # trapezoid: no shape measured, no figure
        for name in expected:
            self.assertIn(f"]({name})", md)
            self.assertIn(name, stdout)
            with open(os.path.join(one, name), "rb") as a, open(os.path.join(two, name),
                                                                 "rb") as b:
                data = a.read()
                self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
                self.assertGreater(len(data), 5000)
                self.assertEqual(data, b.read(), name)

    def test_stale_worksize_figures_are_removed(self):
        _, _, out = self.run_report(self.path, "out")
        plain = self.write("plain.json", {"context": CONTEXT, "benchmarks": rows(
            "matrixMul/cuda/tile16/n:64", 1.0) + rows("matrixMul/opencl/tile16/n:64", 1.5)})
        _, md, out = self.run_report(plain, "out")
        self.assertEqual([f for f in os.listdir(out) if f.startswith("fig-worksize-")], [])
        self.assertNotIn("Work-size", md)


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    ok = result.wasSuccessful()
    if ok and PLOT_PYTHON is None:
        print(f"report_worksize_test: SKIPPED: the figure tests: {NO_MPL}")
    sys.exit(0 if ok else 1)
