#!/usr/bin/env python3
"""Tests the report's "Scaling over GPUs" section (sections/scaling.py) on synthetic
gpucmp-bench JSON and a jacobi.json of scripts/jacobi_reference.py: per judged problem
(full-length rows only; problems 2 and 3 on one line) and API, the fastest one-GPU row
and, per GPU count (2 and 4), the fastest row over variant x exchange x transport, named,
with its speedup over the API's fastest one-GPU row, an error row never picked; NVIDIA's
Jacobi variants' median time and speedup at the same grid and GPU count, their failed
runs counted; jacobi.json found beside the results or given as an argument, never read
as results, and a bad one exit 2 with one line; no section without multi-GPU rows; the
figure's series and fig-scaling.png (matplotlib only for the figure file)."""
import importlib.util
import os
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
from gpucmp_report import jacobi, load  # noqa: E402
from gpucmp_report.analysis import Data  # noqa: E402
from gpucmp_report.sections import scaling  # noqa: E402

from report_advection_test import DEVICE, rows  # noqa: E402
from report_fixtures import SideInputCase  # noqa: E402

HAS_MPL = importlib.util.find_spec("matplotlib") is not None
TITLE = "## Scaling over GPUs"
P1 = "nx:2048/ny:2048/steps:20480"
P2 = "nx:4096/ny:4096/steps:10240"
COMMIT = "9a600f5ea8f5e53614e30b7b36e9136107178dd8"


def full(api, variant, params, seconds, gpus=None, exchange="overlap", over=None):
    tail = f"/gpus:{gpus}/exchange:{exchange}/over:{over}" if gpus else ""
    return rows(f"advection/{api}/{variant}/{params}{tail}", seconds * 1e6)


def error(name, message):
    full_name = f"{name}/iterations:1/manual_time"
    return [{"name": full_name, "run_name": full_name, "run_type": "iteration",
             "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 0,
             "real_time": 0, "cpu_time": 0, "time_unit": "us", "error_occurred": True,
             "error_message": message}]


def results():
    """P1: CUDA async 0.6 s, stream 0.7 on one GPU; on 2, async over p2p 0.33, blocked over
    mpi 0.4, async over host 0.5; on 4, async over p2p 0.2, stream over mpi 0.25. OpenCL
    stream 1.0 s, on 2 over host 0.8. P2: CUDA async 1.2 s, on 2 over mpi 0.7, on 4 over p2p
    an error. A per-step two-GPU row (not full-length: never in the table)."""
    return {"context": DEVICE, "benchmarks": (
        full("cuda", "async", P1, 0.6) + full("cuda", "stream", P1, 0.7)
        + full("cuda", "async", P1, 0.33, 2, over="p2p")
        + full("cuda", "blocked", P1, 0.4, 2, over="mpi")
        + full("cuda", "async", P1, 0.5, 2, over="host")
        + full("cuda", "async", P1, 0.2, 4, over="p2p")
        + full("cuda", "stream", P1, 0.25, 4, over="mpi")
        + full("opencl", "stream", P1, 1.0) + full("opencl", "stream", P1, 0.8, 2, over="host")
        + full("cuda", "async", P2, 1.2) + full("cuda", "async", P2, 0.7, 2, over="mpi")
        + error(f"advection/cuda/async/{P2}/gpus:4/exchange:overlap/over:p2p",
                "max_rel_err 0.5 above the tolerance")
        + rows("advection/cuda/async/nx:2048/ny:2048/gpus:2/exchange:overlap/over:p2p", 10.0))}


def jrow(variant, problem, gpus, repetition, seconds=None, serial=None, nx=2048,
         iterations=20480):
    ny = nx
    out = {"variant": variant, "problem": problem, "nx": nx, "ny": ny, "iterations": iterations,
           "gpus": gpus, "repetition": repetition}
    if seconds is None:
        return {**out, "error": "no csv line (a wrong result prints none): ERROR: a[1] ..."}
    return {**out, "seconds": seconds, "serial_seconds": serial, "speedup": serial / seconds}


def jacobi_doc():
    """P1: nccl_overlap on 2 GPUs 0.30/0.32/0.31 s (one GPU 0.58/0.60/0.59), on 4
    0.17/0.18/0.16 (0.6 each); multi_threaded_p2p on 2 0.29, failed, 0.31 (0.6, 0.62), on 4
    failed thrice. P2: nccl_overlap on 2 0.5 s (1.0). A row at another grid, left out."""
    p2p, nccl = "multi_threaded_p2p", "nccl_overlap"
    return {"reference": {"repo": "NVIDIA/multi-gpu-programming-models", "commit": COMMIT,
                          "gpu": "NVIDIA H100 80GB HBM3", "gpus_here": 4},
            "rows": [jrow(nccl, "P1", 2, i, s, t) for i, (s, t) in
                     enumerate(((0.30, 0.58), (0.32, 0.60), (0.31, 0.59)))]
            + [jrow(nccl, "P1", 4, i, s, 0.6) for i, s in enumerate((0.17, 0.18, 0.16))]
            + [jrow(p2p, "P1", 2, 0, 0.29, 0.6), jrow(p2p, "P1", 2, 1),
               jrow(p2p, "P1", 2, 2, 0.31, 0.62)]
            + [jrow(p2p, "P1", 4, i) for i in range(3)]
            + [jrow(nccl, "P2", 2, 0, 0.5, 1.0, nx=4096, iterations=10240),
               jrow(nccl, "P9", 2, 0, 0.1, 9.0, nx=1024, iterations=10)]}


def table(md):
    """{(problem, API or program): [cells after those]} of the section's table."""
    part = md.split(TITLE, 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in part.split("\n"):
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| P"):
            out[(cells[0], cells[2])] = cells[3:]
    return out


class Section(SideInputCase):
    def results(self):
        return results()

    def test_fastest_per_gpu_count_beside_jacobi_found_beside_the_results(self):
        path = self.write("run/jacobi.json", jacobi_doc())
        md = self.report(self.result)
        self.assertEqual(md.count(f"\n{TITLE}\n"), 1)
        self.assertIn("| problem | grid, steps | API or program | 1 GPU | 2 GPUs | 2-GPU speedup "
                      "| 4 GPUs | 4-GPU speedup |", md)
        self.assertIn(f"(NVIDIA/multi-gpu-programming-models at {COMMIT[:12]};", md)
        self.assertIn(f"(`{path}`, NVIDIA H100 80GB HBM3)", md)
        self.assertEqual(table(md), {
            # In brackets: (0.33 - 0.6 / 2) / 20480 steps = 1.46 us a step; (0.2 - 0.6 / 4)
            # / 20480 = 2.44 us.
            ("P1", "CUDA"): ["0.6 s (`async`)", "0.33 s (`async` overlap over p2p)",
                             "1.82 (+1.5 us)", "0.2 s (`async` overlap over p2p)",
                             "3.00 (+2.4 us)"],
            ("P1", "OpenCL"): ["1 s (`stream`)", "0.8 s (`stream` overlap over host)",
                               "1.25 (+14.6 us)", "–", "–"],
            ("P1", "Jacobi `multi_threaded_p2p`"): [
                "0.61 s (its own one-GPU solve)", "0.3 s (median of 2; 1 of 3 failed)",
                "2.03 (-0.2 us)", "failed (3 of 3)", "–"],
            ("P1", "Jacobi `nccl_overlap`"): [
                "0.6 s (its own one-GPU solve)", "0.31 s (median of 3)", "1.90 (+0.5 us)",
                "0.17 s (median of 3)", "3.53 (+1.0 us)"],
            # Problems 2 and 3: one line; the 4-GPU error row is not picked; OpenCL ran none.
            ("P2, P3", "CUDA"): ["1.2 s (`async`)", "0.7 s (`async` overlap over mpi)",
                                 "1.71 (+9.8 us)", "–", "–"],
            ("P2, P3", "Jacobi `nccl_overlap`"): [
                "1 s (its own one-GPU solve)", "0.5 s (median of 1)", "2.00 (+0.0 us)", "–",
                "–"]})
        self.assertNotIn("fig-scaling.png", md)  # --no-plots

    def test_the_bound_a_parts_kernel_sets(self):
        # One step of CUDA async (P1's fastest on one GPU) at 2048^2, 2048 x 1024 and
        # 2048 x 512; OpenCL's stream at 2048^2 only (no part's step: no line); a part's
        # step of another variant (not the fastest at full length: not used).
        doc = results()
        doc["benchmarks"] += (rows("advection/cuda/async/nx:2048/ny:2048", 11.0)
                              + rows("advection/cuda/async/nx:2048/ny:1024", 8.8)
                              + rows("advection/cuda/async/nx:2048/ny:512", 8.0)
                              + rows("advection/cuda/stream/nx:2048/ny:1024", 1.0)
                              + rows("advection/opencl/stream/nx:2048/ny:2048", 18.0))
        md = self.report(self.write("bound/results.json", doc))
        section = md.split(TITLE, 1)[1].split("\n## ", 1)[0]
        self.assertIn("| problem | API | variant | one step, whole grid | one step, 1/2 of the "
                      "grid | bound, 2 GPUs | reached | one step, 1/4 of the grid | bound, 4 GPUs "
                      "| reached |", section)
        # bound 11 / 8.8 = 1.25 on two GPUs (measured 1.82: 145%), 11 / 8 = 1.375 on four
        # (measured 3.00: 218%).
        self.assertIn("| P1 | CUDA | `async` | 11 us | 8.8 us | 1.25 | 145% | 8 us | 1.38 | 218% |",
                      section)
        self.assertNotIn("| P1 | OpenCL | `stream` |", section)
        self.assertNotIn("| P2, P3 | CUDA |", section)  # no one-step rows at P2's grids

    def test_no_bound_without_a_parts_step(self):
        md = self.report(self.result)
        self.assertNotIn("What a part's kernel costs alone", md)

    def test_jacobi_given_as_an_argument_is_no_result_file(self):
        path = self.write("elsewhere/jacobi.json", jacobi_doc())
        md = self.report(self.result, path)
        self.assertIn(("P1", "Jacobi `nccl_overlap`"), table(md))
        self.assertNotIn(f"| `{path}` |", md)  # not among the result files

    def test_without_jacobi_the_gpucmp_lines_alone(self):
        md = self.report(self.result)
        self.assertNotIn("Jacobi", md.split(TITLE, 1)[1])
        self.assertEqual(sorted(table(md)), [("P1", "CUDA"), ("P1", "OpenCL"),
                                             ("P2, P3", "CUDA")])

    def test_no_section_without_multi_gpu_rows(self):
        one = self.write("one/results.json", {"context": DEVICE, "benchmarks": full(
            "cuda", "async", P1, 0.6) + rows("advection/cuda/async/nx:2048/ny:2048/gpus:2/"
                                             "exchange:overlap/over:p2p", 10.0)})
        self.assertNotIn(TITLE, self.report(one))

    def test_a_bad_jacobi_json_is_one_line_and_exit_2(self):
        good = jacobi_doc()
        no_time = dict(good, rows=[{k: v for k, v in good["rows"][0].items()
                                    if k != "seconds"}])
        for name, content, words in (
                ("not json", "{", "not valid JSON"),
                ("no rows", {"reference": {}}, "not a jacobi.json of scripts/jacobi_reference"),
                ("no seconds", no_time, "rows[0]: \"seconds\" is not a positive number"),
                ("gpus text", dict(good, rows=[dict(good["rows"][0], gpus="2")]),
                 "rows[0]: \"gpus\" is not a whole number")):
            with self.subTest(name):
                path = self.write("bad/jacobi.json", content)
                self.assert_bad_input(path, words)

    def test_the_figures_series(self):
        _, benches, _ = load.load_all([self.result])
        drawn = []
        rep = types.SimpleNamespace(
            data=Data(benches),
            args=types.SimpleNamespace(side=types.SimpleNamespace(jacobi=jacobi.load(
                [self.write("run/jacobi.json", jacobi_doc())]))),
            figure=lambda kind, *a: drawn.append((kind, *a)) or ["fig-scaling.png"])
        md = scaling.section(rep)
        self.assertIn("![Speedup against GPU count per judged problem](fig-scaling.png)", md)
        (kind, problems), = drawn
        self.assertEqual(kind, "scaling")
        self.assertEqual([(p[0], p[1]) for p in problems],
                         [("P1", (2048, 2048, 20480)), ("P2, P3", (4096, 4096, 10240))])
        p1 = problems[0][2]
        self.assertEqual(sorted(p1), ["CUDA (fastest)", "Jacobi multi_threaded_p2p",
                                      "Jacobi nccl_overlap", "OpenCL (fastest)"])
        self.assertEqual(sorted(p1["CUDA (fastest)"]), [1, 2, 4])
        self.assertAlmostEqual(p1["CUDA (fastest)"][4], 3.0)
        self.assertAlmostEqual(p1["Jacobi nccl_overlap"][4], 0.6 / 0.17)
        self.assertEqual(sorted(p1["Jacobi multi_threaded_p2p"]), [1, 2])  # 4: all failed

    @unittest.skipUnless(HAS_MPL, "matplotlib missing: no figures")
    def test_figure_file(self):
        self.write("run/jacobi.json", jacobi_doc())
        md = self.report(self.result, plots=True)
        self.assertIn("](fig-scaling.png)", md)
        self.assertGreater(os.path.getsize(os.path.join(self.tmp, "out", "fig-scaling.png")), 0)


if __name__ == "__main__":
    unittest.main()
