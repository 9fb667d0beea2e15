#!/usr/bin/env python3
"""Tests the report's "Work split across devices" section (sections/split.py,
split.py, split_figures.py) on synthetic gpucmp-bench JSON: an OpenCL GPU + CPU
pair (fixed shares of device 0 and the rules) and a CUDA pair of one GPU named
twice: each row's share given, job time ± standard deviation, time / best and
speedup over the single-device row, the rule closest to the best; that split
rows (which carry local:<shape> too) enter neither the work-size section nor any
pair; that the same row name run on other devices (another file's
split_devices) is kept apart while the later file wins within one device group;
that a file without split rows has no split section; and that the figures are
written (reproducibly, and removed when a later report has no split rows).

The figures need matplotlib: the script runs under the first of this interpreter
and /usr/bin/python3 that imports it; with none, the figure tests skip and the
last line says so (CTest: skipped)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "report.py")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
from gpucmp_report import analysis, cli, load, split, worksize  # noqa: E402
from gpucmp_report.sections import split as split_sec  # noqa: E402

GPU = "NVIDIA H200 (132 CUs x 128 lanes)"
CPU = "cpu-skylake-avx512-Intel(R) Xeon(R) Processor (16 CUs x 16 lanes)"
PAIR = f"opencl:1:0 {GPU}, opencl:0:0 {CPU}"
TWICE_CUDA = f"cuda:0 {GPU}, cuda:0 {GPU}"
TWICE_CL = f"opencl:1:0 {GPU}, opencl:1:0 {GPU}"
CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-24",
           "opencl.split_devices": PAIR, "cuda.split_devices": TWICE_CUDA}
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
    """Three repetitions of one benchmark around `ms` (median ms; standard deviation
    ms / 100), Google Benchmark's shape."""
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 3,
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": ms * f,
             "cpu_time": ms * f, "time_unit": "ms", "cv": 0.002, "noise_met": 1.0, **counters}
            for i, f in enumerate((0.99, 1.0, 1.01))]


MM = "mmnaive/opencl/base/n:1024/local:16x16/devices:2/split:{spec}/axis:y"
TRAP = "trapezoid/cuda/base/items:1024/local:256/devices:2/split:{spec}/axis:x"


def shares(s0, launches=10, **extra):
    return {"devices": 2.0, "launches_per_job": float(launches), "share_0": s0,
            "share_1": 1.0 - s0, **extra}


def suite():
    """OpenCL mmnaive on the GPU + CPU pair: best all on the GPU (share:1, 10 ms), the
    calibrated rule closest (11 ms); CUDA trapezoid on one GPU named twice: best the
    (older, throughput-only) calibrated rule (10 ms) against 20 ms on device 1 alone;
    one work-size row (local:8x8, no split)."""
    out = []
    for spec, ms, s0 in (("share:1", 10.0, 1.0), ("share:0.9", 30.0, 0.90625),
                         ("share:0.5", 100.0, 0.5)):
        out += rows(MM.format(spec=spec), ms, **shares(s0))
    out += rows(MM.format(spec="equal"), 90.0, **shares(0.5))
    out += rows(MM.format(spec="pe"), 28.0, **shares(0.984375))
    out += rows(MM.format(spec="study-k"), 29.0, **shares(0.984375, study_k=0.75))
    out += rows(MM.format(spec="calibrated"), 11.0, **shares(
        1.0, probe_fixed_ms_0=0.1, probe_all_ms_0=0.5, probe_fixed_ms_1=2.0, probe_all_ms_1=40.0,
        probe_launches=1.0))
    out += rows(TRAP.format(spec="share:0"), 20.0, **shares(0.0, 100))
    out += rows(TRAP.format(spec="share:0.5"), 12.0, **shares(0.5, 100))
    out += rows(TRAP.format(spec="equal"), 12.4, **shares(0.5, 100))
    out += rows(TRAP.format(spec="calibrated"), 10.0, **shares(
        0.55, 100, probe_launch_ms_0=0.01, probe_launch_ms_1=0.012, probe_launches=10.0))
    out += rows("mmnaive/opencl/base/n:16/local:8x8", 1.0, local_x=8.0, local_y=8.0)
    return {"context": CONTEXT, "benchmarks": out}


class Work(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_split_test_")
        self.path = self.write("split.json", suite())

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, content):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f)
        return path

    def data(self, *paths):
        _, benches, _ = load.load_all(list(paths or [self.path]))
        return analysis.Data(benches)

    def kernels(self, *paths):
        return split.split_kernels(self.data(*paths))

    def report_md(self, *paths, out="out"):
        out_dir = os.path.join(self.tmp, out)
        self.assertEqual(cli.main(list(paths or [self.path]) + ["--no-plots", "--out-dir",
                                                                 out_dir], "x\n\nusage: x"), 0)
        with open(os.path.join(out_dir, "REPORT.md"), encoding="utf-8") as f:
            return f.read()


class Analysis(Work):
    def test_split_rows_are_apart_from_local_rows_and_pairs(self):
        data = self.data()
        self.assertEqual(len(data.split), 11)
        self.assertEqual([b.key for b in data.local],
                         ["mmnaive/opencl/base/n:16/local:8x8/manual_time"])
        self.assertEqual([k.label for k in worksize.kernels(data)], ["mmnaive base n=16"])
        self.assertFalse(data.by_id)
        self.assertEqual(analysis.pairs(data), [])
        md = self.report_md()
        self.assertEqual(md.count("\n## Work split across devices\n"), 1)
        self.assertNotIn("split", md.split("\n## Work-size tuning\n")[1].split("\n## ")[0])
        self.assertNotIn("## Measured on one API only", md)
        self.assertIn("| work split | 11 | 33 |", md)  # measurement quality

    def test_groups_best_single_and_closest_rule(self):
        ks = self.kernels()
        self.assertEqual([(k.api, k.workload, k.devices) for k in ks],
                         [("cuda", "trapezoid", [f"cuda:0 {GPU}"] * 2),
                          ("opencl", "mmnaive", [f"opencl:1:0 {GPU}", f"opencl:0:0 {CPU}"])])
        trap, mm = ks
        self.assertEqual([r.spec for r in mm.rows], ["share:1", "share:0.9", "share:0.5", "equal",
                                                     "pe", "study-k", "calibrated"])
        self.assertEqual((mm.best.spec, mm.single.spec, mm.single.alone, mm.closest.spec),
                         ("share:1", "share:1", 0, "calibrated"))
        self.assertAlmostEqual(mm.over_best(mm.closest), 1.1)
        self.assertAlmostEqual(mm.speedup(mm.closest), 10 / 11)
        self.assertAlmostEqual(mm.rows[0].sd, 0.1e6)
        self.assertEqual((trap.best.spec, trap.single.spec, trap.single.alone, trap.closest.spec),
                         ("calibrated", "share:0", 1, "calibrated"))
        self.assertAlmostEqual(trap.speedup(trap.best), 2.0)
        self.assertAlmostEqual(trap.over_best(trap.rows[0]), 1.2)
        self.assertEqual(trap.closest.rule_text(), "calibrated (throughput only)")
        self.assertEqual(mm.closest.rule_text(), "calibrated")
        self.assertEqual(mm.rows[5].rule_text(), "study-k (k=0.75)")

    def test_parse_devices(self):
        self.assertEqual(split.parse_devices(PAIR), [f"opencl:1:0 {GPU}", f"opencl:0:0 {CPU}"])
        self.assertEqual(split.parse_devices(None), [])
        self.assertEqual(split.fixed_share("share:0.25"), 0.25)
        self.assertIsNone(split.fixed_share("equal"))

    def test_other_devices_kept_apart_later_file_wins_within_a_group(self):
        twice = self.write("twice.json", {"context": dict(CONTEXT, **{
            "opencl.split_devices": TWICE_CL}), "benchmarks": rows(
            MM.format(spec="share:0.5"), 6.0, **shares(0.5)) + rows(
            MM.format(spec="share:0"), 5.0, **shares(0.0))})
        later = self.write("later.json", {"context": CONTEXT, "benchmarks": rows(
            MM.format(spec="share:1"), 9.0, **shares(1.0))})
        ks = [k for k in self.kernels(self.path, twice, later) if k.api == "opencl"]
        self.assertEqual([k.devices[1] for k in ks], [f"opencl:0:0 {CPU}", f"opencl:1:0 {GPU}"])
        pair, same = ks
        self.assertEqual({r.spec: r.time / 1e6 for r in same.rows}, {"share:0.5": 6.0,
                                                                      "share:0": 5.0})
        self.assertEqual({r.spec: r.time / 1e6 for r in pair.rows}["share:0.5"], 100.0)
        self.assertEqual((pair.best.spec, pair.best.time / 1e6), ("share:1", 9.0))
        self.assertEqual(pair.files, [self.path, later])

    def test_rows_over_mpi_take_the_ranks_devices_and_stay_apart(self):
        ranks = f"rank0:opencl:1:0 {GPU}, rank1:opencl:0:0 {CPU}"
        mpi = self.write("mpi.json", {"context": dict(CONTEXT, **{
            "opencl.split_devices": f"opencl:1:0 {GPU}", "opencl.split_ranks": ranks}),
            "benchmarks": rows(MM.format(spec="share:1") + "/over:mpi", 10.5, **shares(1.0))
            + rows(MM.format(spec="share:0.5") + "/over:mpi", 120.0, **shares(0.5))})
        self.assertEqual(split.parse_devices(ranks),
                         [f"rank0:opencl:1:0 {GPU}", f"rank1:opencl:0:0 {CPU}"])
        ks = [k for k in self.kernels(self.path, mpi) if k.api == "opencl"]
        self.assertEqual(len(ks), 2)  # the in-process rows and the MPI rows, apart
        over = [k for k in ks if ("over", "mpi") in k.params]
        self.assertEqual(len(over), 1)
        self.assertEqual(over[0].devices, [f"rank0:opencl:1:0 {GPU}", f"rank1:opencl:0:0 {CPU}"])
        self.assertEqual({r.spec: r.time / 1e6 for r in over[0].rows},
                         {"share:1": 10.5, "share:0.5": 120.0})
        self.assertIn(f"- device 1: rank1:opencl:0:0 {CPU}", self.report_md(self.path, mpi))

    def test_no_split_rows_no_section(self):
        plain = self.write("plain.json", {"context": CONTEXT, "benchmarks": rows(
            "matrixMul/cuda/tile16/n:64", 1.0) + rows("matrixMul/opencl/tile16/n:64", 1.5)})
        md = self.report_md(plain)
        self.assertNotIn("Work split", md)
        self.assertNotIn("work split", md)
        self.assertEqual(split_sec.split_section([]), [])


class Markdown(Work):
    def test_tables_and_text(self):
        lines = self.report_md().splitlines()
        for line in [
            f"### OpenCL on 2 devices: {GPU} + {CPU}",
            f"- device 1: opencl:0:0 {CPU}",
            "10 launches per job; single device: device 0 alone (`share:1`, 10 ms).",
            "| split | device 0's share given | job time (ms) | repetitions | time / best | "
            "speedup vs device 0 alone |",
            "| `share:1` | 1 | 10 ± 0.1 | 3 | 1.00 (best) | 1.00 |",
            "| `share:0.9` | 0.9062 | 30 ± 0.3 | 3 | 3.00 | 0.33 |",
            "| `share:0.5` | 0.5 | 100 ± 1 | 3 | 10.00 | 0.10 |",
            "| `equal` | 0.5 | 90 ± 0.9 | 3 | 9.00 | 0.11 |",
            "| `pe` | 0.9844 | 28 ± 0.28 | 3 | 2.80 | 0.36 |",
            "| `study-k (k=0.75)` | 0.9844 | 29 ± 0.29 | 3 | 2.90 | 0.34 |",
            "| `calibrated` | 1 (all on device 0) | 11 ± 0.11 | 3 | 1.10 | 0.91 |",
            "Best: `share:1` (10 ms). Closest rule to it: `calibrated`, time / best 1.10, device "
            "0's share given 1, all the work on device 0.",
            "- one device named more than once: its parts run on the same device",
            "100 launches per job; single device: device 1 alone (`share:0`, 20 ms).",
            "| `share:0.5` | 0.5 | 12 ± 0.12 | 3 | 1.20 | 1.67 |",
            "| `share:0` | 0 | 20 ± 0.2 | 3 | 2.00 | 1.00 |",
            "| `equal` | 0.5 | 12.4 ± 0.12 | 3 | 1.24 | 1.61 |",
            "| `calibrated (throughput only)` | 0.55 | 10 ± 0.1 | 3 | 1.00 (best) | 2.00 |",
            "Best: `calibrated (throughput only)` (10 ms), a rule: the closest rule is the best "
            "row.",
            "| CUDA | NVIDIA H200 + NVIDIA H200 | trapezoid base items=1024 local=256 devices=2 "
            "axis=x | device 1, 20 ms | `calibrated (throughput only)`, 10 ms | 2.00 | "
            "`calibrated (throughput only)` | 1.00 | 2.00 |",
            "| OpenCL | NVIDIA H200 + cpu-skylake-avx512-Intel(R) Xeon(R) Processor | mmnaive base "
            "n=1024 local=16x16 devices=2 axis=y | device 0, 10 ms | `share:1`, 10 ms | 1.00 | "
            "`calibrated` | 1.10 | 0.91 |",
        ]:
            self.assertIn(line, lines)
        md = "\n".join(lines)
        self.assertNotIn("because", md.split("## Work split across devices")[1])
        self.assertNotIn("fig-split", md)  # --no-plots

    def test_no_single_device_row_or_rule(self):
        only = self.write("only.json", {"context": CONTEXT, "benchmarks": rows(
            MM.format(spec="share:0.5"), 4.0, **shares(0.5)) + rows(
            MM.format(spec="share:0.75"), 5.0, **shares(0.75))})
        md = self.report_md(only)
        self.assertIn("10 launches per job; single device: no row ran on one device alone.", md)
        self.assertIn("| `share:0.75` | 0.75 | 5 ± 0.05 | 3 | 1.25 | " + DASH + " |", md)
        self.assertIn("Best: `share:0.5` (4 ms). No rule row measured.", md)

    def test_single_device_row_is_the_fixed_share_one(self):
        """A rule that gave device 0 everything and ran faster than share:1 (noise) is
        compared with share:1, not taken as the single-device row; without share:1
        it is the single-device row."""
        rule = rows(MM.format(spec="calibrated"), 9.0, **shares(1.0))
        both = self.write("both.json", {"context": CONTEXT, "benchmarks": rule + rows(
            MM.format(spec="share:1"), 10.0, **shares(1.0)) + rows(
            MM.format(spec="share:0.5"), 12.0, **shares(0.5))})
        k, = self.kernels(both)
        self.assertEqual((k.single.spec, k.best.spec, k.closest.spec),
                         ("share:1", "calibrated", "calibrated"))
        self.assertAlmostEqual(k.speedup(k.best), 10 / 9)
        md = self.report_md(both)
        self.assertIn("| `calibrated` | 1 (all on device 0) | 9 ± 0.09 | 3 | 1.00 (best) | 1.11 |",
                      md)
        self.assertIn("Best: `calibrated` (9 ms), a rule: the closest rule is the best row, all "
                      "the work on device 0.", md)
        alone = self.write("alone.json", {"context": CONTEXT, "benchmarks": rule + rows(
            MM.format(spec="share:0.5"), 12.0, **shares(0.5))})
        k, = self.kernels(alone)
        self.assertEqual((k.single.spec, k.single.alone), ("calibrated", 0))
        self.assertAlmostEqual(k.speedup(k.rows[0]), 0.75)


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
        expected = ["fig-split-cuda-trapezoid.png", "fig-split-opencl-mmnaive.png"]
        stdout, md, one = self.run_report(self.path, "one")
        _, _, two = self.run_report(self.path, "two")
        self.assertEqual(sorted(f for f in os.listdir(one) if f.startswith("fig-split-")),
                         expected)
        for name in expected:
            self.assertIn(f"]({name})", md)
            self.assertIn(name, stdout)
            with open(os.path.join(one, name), "rb") as a, open(os.path.join(two, name),
                                                                 "rb") as b:
                data = a.read()
                self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
                self.assertGreater(len(data), 5000)
                self.assertEqual(data, b.read(), name)

    def test_stale_split_figures_are_removed(self):
        _, _, out = self.run_report(self.path, "out")
        plain = self.write("plain.json", {"context": CONTEXT, "benchmarks": rows(
            "matrixMul/cuda/tile16/n:64", 1.0) + rows("matrixMul/opencl/tile16/n:64", 1.5)})
        _, md, out = self.run_report(plain, "out")
        self.assertEqual([f for f in os.listdir(out) if f.startswith("fig-split-")], [])
        self.assertNotIn("Work split", md)


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    ok = result.wasSuccessful()
    if ok and PLOT_PYTHON is None:
        print(f"report_split_test: SKIPPED: the figure tests: {NO_MPL}")
    sys.exit(0 if ok else 1)
