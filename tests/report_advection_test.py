#!/usr/bin/env python3
"""Tests the report's "Semi-Lagrangian advection (GPU Challenge 2010)" section
(sections/advection.py) on synthetic gpucmp-bench JSON: the time per step, cells/s, GB/s
(8 bytes a cell) against each API's measured device copy and OpenCL/CUDA per grid; per
judged problem the totals projected from the per-step rows (`blocked` and the fastest
variant), the measured full-length time of a steps:N row, the multi-GPU rows
(gpus:<G>/exchange:<e>/over:<transport>, parameters read by key) and their speedup, a
pair of columns per GPU count (2 and 4), the rows of one variant and exchange over mpi,
host, p2p and p2p-copy kept apart and the fastest named, "not run" where an API has no
multi-GPU row; the nominal-peak fallback without a copy row; no section without
advection rows; and fig-advection.png (matplotlib only for the figure test)."""
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
from gpucmp_report import cli  # noqa: E402

DEVICE = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-24",
          "advection.launch": "one step (double-buffered f, FP32)"}
HAS_MPL = importlib.util.find_spec("matplotlib") is not None
TITLE = "## Semi-Lagrangian advection (GPU Challenge 2010)"
G2 = "nx:2048/ny:2048"  # problem 1: 2048 x 2048, 20480 steps (4194304 cells)
G4 = "nx:4096/ny:4096"  # problems 2 and 3: 4096 x 4096, 10240 steps
MPI = "over:mpi"


def rows(name, us, **counters):
    """Three repetitions of one benchmark around `us` microseconds (median: us)."""
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 3,
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": us * f,
             "cpu_time": us * f, "time_unit": "us", **counters}
            for i, f in enumerate((0.99, 1.0, 1.01))]


def copy_rows():
    """The device copy of 1 GiB: CUDA 4096 GB/s, OpenCL 4000 GB/s."""
    return (rows("bandwidth/cuda/d2d/bytes:1073741824", 500.0, **{"GB/s": 4096.0})
            + rows("bandwidth/opencl/d2d/bytes:1073741824", 500.0, **{"GB/s": 4000.0}))


def per_step_rows():
    """2048^2: CUDA weights 32.768 us a step (128 G cells/s, 1024 GB/s), blocked twice that;
    OpenCL weights 1.5x and blocked 1.25x CUDA's. 4096^2: CUDA weights 131.072 us, blocked
    262.144 us; OpenCL weights 1.5x."""
    return (rows(f"advection/cuda/weights/{G2}", 32.768, pct_peak=21.0)
            + rows(f"advection/cuda/blocked/{G2}", 65.536, pct_peak=10.5)
            + rows(f"advection/opencl/weights/{G2}", 49.152, pct_peak=14.0)
            + rows(f"advection/opencl/blocked/{G2}", 81.92, pct_peak=8.4)
            + rows(f"advection/cuda/weights/{G4}", 131.072)
            + rows(f"advection/cuda/blocked/{G4}", 262.144)
            + rows(f"advection/opencl/weights/{G4}", 196.608))


def full_suite():
    """Per-step rows, the copy rows, a full-length CUDA weights run of problem 1 (0.6 s),
    CUDA two-GPU rows: at 4096^2 per step (overlap 65.536 us, sync 80 us), at 2048^2 a
    full-length sync run of 0.4 s (its steps: after exchange:, read by key); no OpenCL
    two-GPU row."""
    return {"context": DEVICE, "benchmarks": per_step_rows() + copy_rows()
            + rows(f"advection/cuda/weights/{G2}/steps:20480", 600000.0)
            + rows(f"advection/cuda/weights/{G4}/gpus:2/exchange:overlap/{MPI}", 65.536)
            + rows(f"advection/cuda/weights/{G4}/gpus:2/exchange:sync/{MPI}", 80.0)
            + rows(f"advection/cuda/weights/{G2}/gpus:2/exchange:sync/steps:20480/{MPI}",
                   400000.0)}


def transport_suite():
    """P1 at full length: `async` on one GPU (CUDA 0.6 s, OpenCL 1.2 s) and, overlap, CUDA
    on 2 GPUs over mpi 0.5 s, host 0.45, p2p 0.3, p2p-copy 0.35, on 4 over p2p 0.2, mpi 0.25;
    OpenCL on 2 over mpi 1.0 s and host 0.9 s."""
    p1 = f"{G2}/steps:20480"
    many = [("cuda", 2, "mpi", 0.5), ("cuda", 2, "host", 0.45), ("cuda", 2, "p2p", 0.3),
            ("cuda", 2, "p2p-copy", 0.35), ("cuda", 4, "p2p", 0.2), ("cuda", 4, "mpi", 0.25),
            ("opencl", 2, "mpi", 1.0), ("opencl", 2, "host", 0.9)]
    return {"context": DEVICE, "benchmarks": per_step_rows() + copy_rows()
            + rows(f"advection/cuda/async/{p1}", 600000.0)
            + rows(f"advection/opencl/async/{p1}", 1200000.0)
            + [r for api, gpus, over, s in many for r in rows(
                f"advection/{api}/async/{p1}/gpus:{gpus}/exchange:overlap/over:{over}", s * 1e6)]}


def problem_row(md, problem, api):
    """The cells of a problem's line in "The judged problems against 2010"."""
    table = md.split("### The judged problems against 2010", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in table.split("\n") if line.startswith(f"| {problem} |")
             and f"| {api} |" in line]
    assert len(lines) == 1, (problem, api, lines)
    return [c.strip() for c in lines[0].strip("|").split("|")]


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_advection_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def report(self, content, plots=False):
        path = os.path.join(self.tmp, "in.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f)
        out = os.path.join(self.tmp, "out")
        args = [path, "--out-dir", out] + ([] if plots else ["--no-plots"])
        self.assertEqual(cli.main(args, "x\n\nusage: x"), 0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            return f.read()

    def test_per_step_table_against_the_copy(self):
        md = self.report(full_suite())
        self.assertEqual(md.count(f"\n{TITLE}\n"), 1)
        self.assertIn("read and write counted: CUDA 4096 GB/s, OpenCL 4000 GB/s", md)
        self.assertIn("8 bytes a cell a step", md)
        self.assertIn("- `advection.launch`: one step (double-buffered f, FP32)", md)
        self.assertIn("Grid 2048 x 2048 (4194304 cells):", md)
        self.assertIn("| `weights` | CUDA | 32.77 us ±1% | 128 G | 1024 | 25.0% | – |", md)
        self.assertIn("| `weights` | OpenCL | 49.15 us ±1% | 85.33 G | 682.7 | 17.1% | 1.500 |",
                      md)
        self.assertIn("| `blocked` (the paper's) | OpenCL | 81.92 us ±1% | 51.2 G | 409.6 "
                      "| 10.2% | 1.250 |", md)
        # The full-length and two-GPU rows are not per-step rows of one GPU.
        self.assertEqual(md.count("| `weights` | CUDA |"), 2)  # 2048^2 and 4096^2

    def test_problems_projected_measured_and_two_gpus(self):
        md = self.report(full_suite())
        # P1, CUDA: blocked 65.536 us x 20480 = 1.342 s, weights 0.6711 s projected, the
        # full-length run 0.6 s; two GPUs: the measured sync run, 0.4 s, speedup 0.6 / 0.4.
        self.assertEqual(problem_row(md, "P1", "CUDA"), [
            "P1", "2048 x 2048, 20480", "CUDA", "24.41 s", "1.342 s", "0.6711 s (`weights`)",
            "0.6 s (`weights`)", "12.03 s", "0.4 s (`weights`, sync over mpi, measured)", "1.50"])
        # P2, CUDA: two GPUs per step, overlap (65.536 us) faster than sync: projected
        # 0.6711 s against one GPU's projected 1.342 s.
        self.assertEqual(problem_row(md, "P2", "CUDA")[4:], [
            "2.684 s", "1.342 s (`weights`)", "not run", "22.58 s",
            "0.6711 s (`weights`, overlap over mpi, projected)", "2.00"])
        self.assertEqual(problem_row(md, "P3", "CUDA")[3], "48.78 s")
        # OpenCL ran no two-GPU row, no full-length row.
        self.assertEqual(problem_row(md, "P1", "OpenCL")[4:], [
            "1.678 s", "1.007 s (`weights`)", "not run", "12.03 s", "not run", "–"])
        # No row at 16384 x 4096: nothing of ours, the 2010 times stay.
        self.assertEqual(problem_row(md, "P4", "CUDA")[3:], [
            "73.33 s", "not run", "not run", "not run", "34.56 s", "not run", "–"])
        self.assertNotIn("No multi-GPU rows", md)
        self.assertIn("| 2010, 2 GPUs | 2 GPUs | 2-GPU speedup |\n", md)
        self.assertNotIn("No full-length rows", md)
        self.assertNotIn("fig-advection.png", md)  # --no-plots

    def test_without_two_gpu_or_full_length_rows_says_not_run(self):
        md = self.report({"context": DEVICE, "benchmarks": per_step_rows() + copy_rows()})
        self.assertIn("No multi-GPU rows (`gpus:<G>`) are in the input: the 2-GPU columns say "
                      "\"not run\".", md)
        self.assertNotIn("## Scaling over GPUs", md)
        self.assertIn("No full-length rows (`steps:<N>`) are in the input", md)
        row = problem_row(md, "P1", "CUDA")
        self.assertEqual(row[6], "not run")
        self.assertEqual(row[8:], ["not run", "–"])

    def test_without_copy_rows_the_nominal_peak(self):
        md = self.report({"context": DEVICE, "benchmarks": per_step_rows()})
        self.assertIn("no device copy row is loaded", md)
        self.assertIn("| `weights` | CUDA | 32.77 us ±1% | 128 G | 1024 | 21.0% (peak) | – |", md)
        self.assertIn("| `weights` | CUDA | 131.1 us ±1% | 128 G | 1024 | – | – |", md)

    def test_transports_and_four_gpus_are_kept_apart(self):
        # P1 at full length, `async` overlap: CUDA over mpi, host, p2p and p2p-copy on 2
        # GPUs, p2p and mpi on 4; OpenCL over mpi and host on 2 only.
        md = self.report(transport_suite())
        self.assertIn("| 2010, 2 GPUs | 2 GPUs | 2-GPU speedup | 4 GPUs | 4-GPU speedup |\n",
                      md)
        self.assertEqual(problem_row(md, "P1", "CUDA")[6:], [
            "0.6 s (`async`)", "12.03 s", "0.3 s (`async`, overlap over p2p, measured)", "2.00",
            "0.2 s (`async`, overlap over p2p, measured)", "3.00"])
        self.assertEqual(problem_row(md, "P1", "OpenCL")[8:], [
            "0.9 s (`async`, overlap over host, measured)", "1.33", "not run", "–"])
        # Every transport's row is a row of its own (none lost to another of the same key).
        runs = {(r.gpus, r.over): r.seconds for r in self.runs(transport_suite())
                if r.api == "cuda" and r.gpus > 1}
        self.assertEqual(runs, {(2, "mpi"): 0.5, (2, "host"): 0.45, (2, "p2p"): 0.3,
                                (2, "p2p-copy"): 0.35, (4, "p2p"): 0.2, (4, "mpi"): 0.25})

    def runs(self, content):
        """The section's Runs of a document, loaded as report.py loads it."""
        from gpucmp_report import load
        from gpucmp_report.analysis import Data
        from gpucmp_report.sections import advection
        path = os.path.join(self.tmp, "runs.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f)
        _, benches, _ = load.load_all([path])
        rep = type("Rep", (), {"data": Data(benches)})()
        return advection.advection_runs(rep)

    @unittest.skipUnless(HAS_MPL, "matplotlib missing: no figures")
    def test_figure(self):
        md = self.report(full_suite(), plots=True)
        self.assertIn("](fig-advection.png)", md)
        self.assertGreater(os.path.getsize(os.path.join(self.tmp, "out", "fig-advection.png")),
                           0)

    def test_no_advection_rows_no_section(self):
        for name, content in (
                ("plain", {"context": DEVICE, "benchmarks": rows("triad/cuda/base/n:1024", 1.0)
                           + copy_rows()}),
                ("unknown parameter", {"context": DEVICE, "benchmarks": rows(
                    f"advection/cuda/weights/{G2}/halo:3", 1.0)})):
            with self.subTest(name):
                md = self.report(content, plots=HAS_MPL)
                self.assertNotIn("Semi-Lagrangian", md)
                self.assertFalse(os.path.exists(os.path.join(self.tmp, "out",
                                                             "fig-advection.png")))


if __name__ == "__main__":
    unittest.main()
