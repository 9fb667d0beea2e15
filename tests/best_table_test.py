#!/usr/bin/env python3
"""Tests "each API at its best" (scripts/gpucmp_report/api_best.py and
scripts/best_table.py) on synthetic suite runs: each family's fastest validated
row per API is picked, over its variants and its free parameters (local size,
layout, alpha), and the configuration shown is the one it ran with; rows that
failed validation or were skipped, cross-runs, controls, vendor libraries, cold
and other-size rows are never picked; gpucmp's PTX passes are a column of their
own, never OpenCL's best; the geometric mean; bad input (no folder, no
manifest, no part file, a family without an API's row) is one line and exit 2.
And on the committed suite runs: every row is in a family or is left out for a
stated reason, and the table prints."""
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import best_fixtures as fx
import best_table
from gpucmp_report import api_best, load

SCRIPT = os.path.join(fx.REPO, "scripts", "best_table.py")
FAMILY = {f.label: f for f in api_best.FAMILIES}
MM = FAMILY["matrixMul, n=4096"]


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=fx.REPO, capture_output=True,
                          text=True, check=False, timeout=120)


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="best_table_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def bests(self, *groups):
        """{family label: Best} of the rows of `groups`, loaded as the report loads them."""
        folder = fx.write_run(os.path.join(self.tmp, "run"),
                              {"a": [r for g in groups for r in g]})
        _, benches, _ = load.load_all([os.path.join(folder, "a.json")])
        return {b.family.label: b for b in api_best.best_of(benches)}


class Selection(Case):
    def test_the_fastest_validated_row_of_each_api(self):
        b = self.bests(*[fx.row(fx.name(MM, api, v), ms) for api, v, ms in (
            ("cuda", "tile16", 20.0), ("cuda", "tile16-aligned", 17.0), ("cuda", "tile32", 18.0),
            ("opencl", "tile16", 21.0), ("opencl", "tile16-aligned", 16.9),
            ("opencl", "tile32-aligned", 18.5))])[MM.label]
        self.assertEqual((b.cuda.variant, b.opencl.variant), ("tile16-aligned", "tile16-aligned"))
        self.assertAlmostEqual(b.ratio, 16.9 / 17.0)
        self.assertEqual(api_best.cells(b)[:5], ["17.00 ms", "`tile16-aligned`", "16.90 ms",
                                                 "`tile16-aligned`", "0.99"])

    def test_rows_that_failed_or_were_skipped_are_never_picked(self):
        skipped = fx.failed(fx.name(MM, "opencl", "tile32"), "skipped: over the device limit")
        skipped[0].update(error_occurred=False, skipped=True, skip_message="over the limit")
        b = self.bests(fx.row(fx.name(MM, "cuda", "tile16"), 20.0),
                       fx.failed(fx.name(MM, "cuda", "tile32")),
                       fx.row(fx.name(MM, "opencl", "tile16"), 25.0),
                       fx.failed(fx.name(MM, "opencl", "tile16-aligned")), skipped)[MM.label]
        self.assertEqual((b.cuda.variant, b.opencl.variant), ("tile16", "tile16"))
        # A family whose only row of an API failed has no row there.
        b = self.bests(fx.row(fx.name(MM, "cuda", "tile16"), 20.0),
                       fx.failed(fx.name(MM, "opencl", "tile16")))[MM.label]
        self.assertIsNone(b.opencl)
        self.assertEqual(api_best.missing_api(b), "OpenCL")

    def test_cross_runs_controls_vendor_cold_and_other_sizes_are_never_picked(self):
        cp_ieee, adv = FAMILY["cp, IEEE divide and sqrt"], FAMILY["advection step 8192 x 16384"]
        fast = [(MM, "cuda", v) for v in ("tile16-opencl-ptx", "tile16-ptx-jit", "cublas")]
        fast += [(MM, "opencl", v) for v in ("tile16-ptx-from-nvcc", "clblast",
                                             "tile16-ptx-as-built", "tile16-ptx-O0")]
        fast += [(cp_ieee, "cuda", "unrollx8-ldg"), (cp_ieee, "opencl", "unrollx8"),
                 (cp_ieee, "opencl", "base"), (adv, "cuda", "async-maxl1"),
                 (cp_ieee, "opencl", "unrollx8-byvalue"), (adv, "opencl", "async-cpasync")]
        fast += [(adv, "opencl", v) for v in ("async-cpasync-wait0", "async-cpasync-4b",
                                              "async-cpasync-4b-wait0")]
        groups = [fx.row(fx.name(f, api, v), 0.5) for f, api, v in fast]
        groups += [fx.row(fx.name(MM, api, "tile16", "/cache:cold"), 0.5) for api in
                   ("cuda", "opencl")]
        groups += [fx.row(f"matrixMul/{api}/tile16/n:1024", 0.5) for api in ("cuda", "opencl")]
        for f, v in ((MM, "tile16"), (cp_ieee, "unrollx8-ieee"), (adv, "async")):
            groups += [fx.row(fx.name(f, "cuda", v), 2.0), fx.row(fx.name(f, "opencl", v), 3.0)]
        bests = self.bests(*groups)
        for f, v in ((MM, "tile16"), (cp_ieee, "unrollx8-ieee"), (adv, "async")):
            b = bests[f.label]
            self.assertEqual((b.cuda.variant, b.opencl.variant, b.cuda.time, b.opencl.time),
                             (v, v, 2e6, 3e6), f.label)
        for f, api, v in fast:
            self.assertIsNotNone(api_best.left_out(f.workload, api, v), v)
        self.assertIn("--tune", api_best.left_out("matrixMul", "cuda", "best"))

    def test_each_apis_own_source_forms_and_build_options_are_its_own(self):
        cp_ieee, reduce = FAMILY["cp, IEEE divide and sqrt"], FAMILY["reduce 2^28 int32"]
        own = [(cp_ieee, "cuda", "unrollx8-ieee", 2.0), (cp_ieee, "cuda", "unrollx8-byvalue", 1.5),
               (cp_ieee, "opencl", "unrollx8-ieee", 3.0),
               (cp_ieee, "opencl", "unrollx8-ieee-byvalue", 1.6),
               (reduce, "cuda", "pipeline", 2.0), (reduce, "opencl", "pipeline", 2.5),
               (reduce, "opencl", "pipeline-regcap40", 2.1)]
        bests = self.bests(*[fx.row(fx.name(f, api, v), ms) for f, api, v, ms in own])
        for f, cuda, opencl in ((cp_ieee, "unrollx8-byvalue", "unrollx8-ieee-byvalue"),
                                (reduce, "pipeline", "pipeline-regcap40")):
            b = bests[f.label]
            self.assertEqual((b.cuda.variant, b.opencl.variant), (cuda, opencl), f.label)

    def test_mri_by_value_is_a_candidate_of_the_precise_family_on_both_apis(self):
        for w in ("mriq", "mrifhd"):
            mri = FAMILY[f"{w} precise, 32^3 (numK 3072)"]
            rows = [(api, v, ms) for api in ("cuda", "opencl")
                    for v, ms in (("precise", 2.0), ("precise-prefetch", 1.8),
                                  ("precise-byvalue", 1.5 if api == "cuda" else 1.6))]
            b = self.bests(*[fx.row(fx.name(mri, api, v), ms) for api, v, ms in rows])[mri.label]
            self.assertEqual((b.cuda.variant, b.opencl.variant),
                             ("precise-byvalue", "precise-byvalue"), w)
            for api in ("cuda", "opencl"):  # fast math: no MRI family takes it
                self.assertEqual(api_best.left_out(w, api, "fast-byvalue"), api_best.MRI_FAST)

    def test_a_labelled_cross_run_is_never_picked_whatever_its_name(self):
        cross = fx.row(fx.name(MM, "cuda", "tile32"), 0.5)
        for r in cross:
            r["label"] = "from=opencl-ptx; base=tile32"
        b = self.bests(cross, fx.row(fx.name(MM, "cuda", "tile16"), 2.0),
                       fx.row(fx.name(MM, "opencl", "tile16"), 3.0))[MM.label]
        self.assertEqual(b.cuda.variant, "tile16")

    def test_ptx_passes_are_a_column_of_their_own(self):
        own = [fx.row(fx.name(MM, "cuda", "tile16"), 10.0),
               fx.row(fx.name(MM, "opencl", "tile16"), 12.5)]
        b = self.bests(*own, fx.row(fx.name(MM, "opencl", "tile16-ptx-align"), 10.0),
                       fx.row(fx.name(MM, "opencl", "tile16-auto-unroll-cse"), 11.0))[MM.label]
        self.assertEqual(b.opencl.variant, "tile16")
        self.assertEqual(b.after_passes, (1.0, b.ptx))
        self.assertEqual(b.ptx.variant, "tile16-ptx-align")
        self.assertEqual(api_best.cells(b)[4:], ["1.25", "1.00 (`tile16-ptx-align`)"])
        # Within the 2% margin: not named, the ratio stays OpenCL's own.
        b = self.bests(*own, fx.row(fx.name(MM, "opencl", "tile16-ptx-align"), 12.4))[MM.label]
        self.assertEqual(api_best.cells(b)[4:], ["1.25", "1.25"])
        # None measured.
        b = self.bests(*own)[MM.label]
        self.assertEqual(api_best.cells(b)[4:], ["1.25", "\u2013"])

    def test_free_parameters_and_the_configuration_shown(self):
        mm, sort = FAMILY["mmnaive 1024 x 1024"], FAMILY["sort (bitonic) 2^18 floats"]
        scan, lavamd = FAMILY["scan 2^28 int32"], FAMILY["lavamd, 50^3 boxes"]
        bests = self.bests(
            fx.row(fx.name(mm, "cuda", "base", "/local:16x16"), 0.40),
            fx.row(fx.name(mm, "cuda", "base", "/local:tuner"), 0.32, local_x=512, local_y=2),
            fx.row(fx.name(mm, "opencl", "base", "/local:32x8"), 0.35),
            fx.row(fx.name(mm, "opencl", "base", "/local:driver"), 0.33, local_x=0, local_y=1),
            fx.row(fx.name(sort, "cuda", "bitonic", "/local:driver"), 0.6, local_x=1024,
                   local_y=1, launch_bound=1.0),
            fx.row(fx.name(sort, "cuda", "bitonic", "/local:64"), 0.7),
            fx.row(fx.name(sort, "opencl", "bitonic", "/local:32"), 0.75, local_x=32, local_y=1),
            *[fx.row(f"scan/{api}/{v}/type:int32/n:268435456/alpha:{a}", ms)
              for api, v, a, ms in (("cuda", "onepass", 32, 0.64), ("cuda", "onepass", 8, 0.7),
                                    ("cuda", "alpha", 32, 0.9), ("opencl", "onepass", 16, 0.7),
                                    ("opencl", "lookback", 32, 0.69))],
            fx.row("scan/cuda/cub/type:int32/n:268435456", 0.5),
            *[fx.row(f"lavamd/{api}/{v}/boxes1d:50/layout:{layout}", ms)
              for api, v, layout, ms in (("cuda", "base", "soa", 41.0), ("cuda", "base", "aos", 42),
                                         ("opencl", "base", "aos", 45.0),
                                         ("opencl", "aligned", "aosoa", 42.1))])
        self.assertEqual(api_best.cells(bests[mm.label])[:4], [
            "320.0 us", "`base`, local tuner = 512x2", "330.0 us",
            "`base`, local driver (the driver's choice)"])
        self.assertEqual(api_best.cells(bests[sort.label])[:4], [
            "600.0 us *", "`bitonic`, local driver = 1024", "750.0 us", "`bitonic`, local 32"])
        self.assertEqual(api_best.cells(bests[scan.label])[:4], [
            "640.0 us", "`onepass`, alpha 32", "690.0 us", "`lookback`, alpha 32"])
        self.assertEqual(api_best.cells(bests[lavamd.label])[:4], [
            "41.00 ms", "`base`, layout soa", "42.10 ms", "`aligned`, layout aosoa"])

    def test_geometric_mean(self):
        bests = list(self.bests(fx.row(fx.name(MM, "cuda", "tile16"), 1.0),
                                fx.row(fx.name(MM, "opencl", "tile16"), 4.0),
                                fx.row(fx.name(MM, "opencl", "tile16-ptx-align"), 1.0),
                                fx.row("triad/cuda/base/n:134217728", 1.0),
                                fx.row("triad/opencl/base/n:134217728", 0.25)).values())
        shown = [b for b in bests if not api_best.missing_api(b)]
        self.assertEqual(len(shown), 2)
        self.assertEqual(api_best.geomean_cells(shown), ["1.00", f"{math.sqrt(0.25):.2f}"])

    def test_a_row_of_each_apis_default_math_is_shown_and_left_out_of_the_mean(self):
        trapezoid = next(f for f in api_best.FAMILIES if f.workload == "trapezoid")
        self.assertTrue(trapezoid.math_differs)
        self.assertIn("not the same math", trapezoid.label)
        bests = self.bests(fx.row(fx.name(MM, "cuda", "tile16"), 1.0),
                           fx.row(fx.name(MM, "opencl", "tile16"), 2.0),
                           fx.row(fx.name(trapezoid, "cuda", "base", "/local:64"), 1.0),
                           fx.row(fx.name(trapezoid, "opencl", "base", "/local:64"), 0.5))
        shown = [b for b in bests.values() if not api_best.missing_api(b)]
        self.assertEqual(len(shown), 2)
        self.assertEqual(api_best.geomean_cells(shown), ["2.00", "2.00"])
        # Only rows of differing math (a run of the work-size kernels alone):
        # no mean, and no crash.
        alone = [b for b in shown if b.family.math_differs]
        self.assertEqual(api_best.geomean_cells(alone), ["–", "–"])


class Script(Case):
    def test_a_complete_run_prints_every_family_and_the_geometric_means(self):
        parts = fx.baseline()
        parts["matrixmul"] += fx.row(fx.name(MM, "opencl", "tile16-aligned"), 0.5)
        h200 = fx.write_run(os.path.join(self.tmp, "h200"), parts)
        h100 = fx.write_run(os.path.join(self.tmp, "h100"), fx.baseline(),
                            gpu="NVIDIA H100 80GB HBM3")
        r = run(h200, h100)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        n = len(api_best.FAMILIES)
        self.assertEqual(len(lines), 2 + n + 1)
        self.assertEqual(lines[0], "| pair | H200 | H100 |")
        self.assertTrue(lines[2].startswith(
            "| matrixMul, n=4096 | 0.50 (`tile16` / `tile16-aligned`) | "), lines[2])
        same = n - 1  # trapezoid's row, each API's default division, is left out
        geo = f"{math.exp((math.log(0.5) + (same - 1) * math.log(1.25)) / same):.2f}"
        self.assertEqual(lines[-1], f"| geometric mean | {geo} | 1.25 |")

    def test_the_later_part_wins_as_in_the_report(self):
        parts = fx.baseline()
        parts["agpu"] += fx.row("bandwidth/opencl/d2d/bytes:1073741824", 2.0)
        run_dir = fx.write_run(os.path.join(self.tmp, "run"), parts,
                               order=["bandwidth", "agpu"] + [p for p in parts
                                                              if p not in ("bandwidth", "agpu")])
        r = run(run_dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("| device copy 1 GiB | 2.00 (`d2d` / `d2d`) |", r.stdout)

    def test_a_part_the_run_did_not_hold_reads_not_run_and_stays_out_of_the_mean(self):
        parts = fx.baseline()
        del parts["triad"]
        r = run(fx.write_run(os.path.join(self.tmp, "no-triad"), parts), fx.write_run(
            os.path.join(self.tmp, "h100"), fx.baseline(), gpu="NVIDIA H100 80GB HBM3"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("| triad 2^27 | not run | 1.25 (`base` / `base`) |", r.stdout)
        every = sum(1 for f in api_best.FAMILIES if not f.math_differs)
        mean = r.stdout.splitlines()[-1]
        self.assertIn(f"({every - 1} of {every} rows)", mean)
        self.assertEqual(mean.count(" of "), 1, mean)

    def test_bad_input_is_one_line_and_exit_2(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        no_parts = fx.write_run(os.path.join(self.tmp, "no-parts"), {}, order=["matrixmul"])
        gone = FAMILY["advection step 8192 x 16384"]
        no_opencl = fx.write_run(os.path.join(self.tmp, "no-opencl"),
                                 fx.baseline(skip=(gone.label,)))
        plain = os.path.join(self.tmp, "plain.md")
        with open(plain, "w", encoding="utf-8") as f:
            f.write("# no table\n")
        for args, says in (
                ([os.path.join(self.tmp, "absent")], "no such folder"),
                ([empty], "manifest.json"),
                ([no_parts], "no part's file"),
                ([no_opencl], f"no validated OpenCL row of '{gone.label}' (advection.json"),
                ([fx.write_run(os.path.join(self.tmp, "ok"), fx.baseline()), "--check", plain],
                 "markers")):
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(says, r.stderr)
                self.assertTrue(r.stderr.startswith("best_table: error: "), r.stderr)
                self.assertEqual(r.stdout, "")


class Committed(unittest.TestCase):
    def test_every_row_is_in_a_family_or_left_out_for_a_reason(self):
        for run_dir in fx.COMMITTED + fx.LATER:
            _, files, _ = best_table.manifest(run_dir)
            _, benches, _ = load.load_all(files)
            for b in benches.values():
                with self.subTest(run=run_dir, row=b.key):
                    listed = any(b.workload == f.workload and b.variant in f.variants(b.api)
                                 + (f.ptx if b.api == "opencl" else ())
                                 for f in api_best.FAMILIES)
                    self.assertTrue(listed or api_best.left_out(
                        b.workload, b.api, b.variant), "in no family and not said why")

    def test_the_committed_runs_print(self):
        r = run(*fx.COMMITTED)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "| pair | H200 | H100 |")
        body = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
        self.assertEqual(len(body), len(api_best.FAMILIES) + 1)
        for cells in body:
            for cell in cells[1:]:
                if cell == "not run":  # a workload added after those runs
                    self.assertEqual(cells[0], "heartwall, 100 frames")
                    continue
                self.assertTrue(0.3 < float(cell.split()[0]) < 5, cells)


if __name__ == "__main__":
    unittest.main()
