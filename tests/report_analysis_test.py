#!/usr/bin/env python3
"""Tests the analysis of scripts/report.py (gpucmp_report: names, load, analysis) in
process on synthetic Google Benchmark JSON: benchmark names, pairing, ratios with the
repetitions' range, PTX step changes, the best OpenCL variant, the later file winning,
aggregates-only input, and errors and skips kept as not measured."""
import unittest

from report_fixtures import Work, doc, full_suite, rows  # also puts scripts/ on sys.path
from gpucmp_report import analysis, fmt, load, names


class Analysis(Work):
    def test_names_parse(self):
        self.assertEqual(names.parse_name("cp/cuda/unrollx8/grid:512/atoms:40000/manual_time"),
                         ("cp", "cuda", "unrollx8", (("grid", "512"), ("atoms", "40000"))))
        self.assertEqual(names.parse_name("matrixMul/opencl/tile16/n:4096/repeats:3/real_time"),
                         ("matrixMul", "opencl", "tile16", (("n", "4096"),)))
        self.assertIsNone(names.parse_name("BM_memcpy/8"))
        self.assertEqual(names.split_variant("tile16-auto-unroll-cse"),
                         ("tile16", "auto-unroll-cse"))
        self.assertEqual(names.split_variant("tile16-hand-unroll-cse-mad-licm"),
                         ("tile16", "hand-unroll-cse-mad-licm"))
        self.assertEqual(names.split_variant("unrollx8-ieee"), ("unrollx8-ieee", None))
        self.assertEqual(fmt.slug("NVIDIA H200"), "nvidia-h200")
        self.assertEqual(fmt.slug("NVIDIA GeForce RTX 4090"), "nvidia-geforce-rtx-4090")

    def test_pairs_match_workload_variant_and_params_only(self):
        data, _ = self.data_of(full_suite())
        keys = [(w, v, fmt.fmt_params(p)) for w, v, p, _, _ in analysis.pairs(data)]
        self.assertIn(("matrixMul", "tile16", "n=1024"), keys)
        self.assertIn(("matrixMul", "tile16", "n=2048"), keys)
        self.assertIn(("cp", "unrollx8", "grid=512 atoms=40000"), keys)
        self.assertIn(("bandwidth", "h2d-pinned", "1 MiB"), keys)
        for _w, v, _ in keys:  # no vendor library, no PTX variant, no one-API kernel
            self.assertNotIn(v, ("cublas", "clblast", "h2d-mapped", "unrollx8-ieee"))
            self.assertIsNone(names.split_variant(v)[1])
        self.assertEqual(len(keys), 2 + 1 + 3 * 6)
        # report order: bandwidth, matrixMul, cp; sizes ascending
        self.assertEqual([k[0] for k in keys][:1] + [k[0] for k in keys][-1:],
                         ["bandwidth", "cp"])

    def test_rows_that_launch_differently_are_no_pair(self):
        key = "cp/{}/unrollx8-byvalue/grid:512/atoms:40000"
        tuned = "cp/{}/best/grid:512/atoms:40000/math:ieee"
        same = "cp/{}/unrollx8-ieee-byvalue/grid:512/atoms:40000"
        data, _ = self.data_of(doc(
            rows(key.format("cuda"), [2.0], {"atoms_per_launch": 256, "commands_per_launch": 158}),
            rows(key.format("opencl"), [1.0], {"atoms_per_launch": 1024,
                                               "commands_per_launch": 41}),
            rows(same.format("cuda"), [2.0], {"atoms_per_launch": 1024}),
            rows(same.format("opencl"), [2.0], {"atoms_per_launch": 1024}),
            rows(tuned.format("cuda"), [2.0], {"commands_per_launch": 21}),
            rows(tuned.format("opencl"), [1.0], {"atoms_per_launch": 1024,
                                                 "commands_per_launch": 41})))
        self.assertEqual([(w, v) for w, v, *_ in analysis.pairs(data)],
                         [("cp", "best"), ("cp", "unrollx8-ieee-byvalue")],
                         "tuned rows are each API's own best: exempt")
        (refused,) = analysis.unpaired(data)
        self.assertEqual(refused[:2], ("cp", "unrollx8-byvalue"))
        self.assertEqual(refused[3], [("atoms_per_launch", 256.0, 1024.0),
                                      ("commands_per_launch", 158.0, 41.0)])
        # a counter one row lacks is a difference too
        data, _ = self.data_of(doc(rows(key.format("cuda"), [2.0]),
                                   rows(key.format("opencl"), [1.0], {"atoms_per_launch": 1024})))
        self.assertEqual(analysis.pairs(data), [])
        self.assertEqual(analysis.unpaired(data)[0][3], [("atoms_per_launch", None, 1024.0)])

    def test_the_report_names_each_refused_pair_and_shows_no_ratio_of_it(self):
        key = "cp/{}/unrollx8-byvalue/grid:512/atoms:40000"
        path = self.write("r.json", doc(
            rows(key.format("cuda"), [2.0, 2.0, 2.0], {"atoms_per_launch": 256}),
            rows(key.format("opencl"), [1.0, 1.0, 1.0], {"atoms_per_launch": 1024})))
        proc, md, _ = self.run_report(path, "--no-plots")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("## Not paired: different launches", md)
        self.assertIn("- cp unrollx8-byvalue grid=512 atoms=40000: `atoms_per_launch` CUDA 256, "
                      "OpenCL 1024", md)
        self.assertNotIn("| cp | unrollx8-byvalue |", md)

    def test_ratio_is_opencl_over_cuda_with_repetition_range(self):
        data, _ = self.data_of(full_suite())
        cuda = data.get("matrixMul", "cuda", "tile16", (("n", "2048"),))
        opencl = data.get("matrixMul", "opencl", "tile16", (("n", "2048"),))
        self.assertAlmostEqual(cuda.time, 10.0e6)  # ms -> ns, the median of 3
        self.assertEqual(cuda.n, 3)
        self.assertAlmostEqual(cuda.spread, 0.02)  # half the range over the median
        r, lo, hi = analysis.ratio_of(cuda, opencl)
        self.assertAlmostEqual(r, 1.25)
        self.assertAlmostEqual(lo, 12.5 * 0.98 / (10 * 1.02))
        self.assertAlmostEqual(hi, 12.5 * 1.02 / (10 * 0.98))
        self.assertAlmostEqual(cuda.counters["GFLOP/s"], 2 * 2048 ** 3 / 10e-3 / 1e9)

    def test_ptx_step_changes(self):
        data, _ = self.data_of(full_suite())
        (a,) = analysis.ptx_analysis(data)
        self.assertEqual((a["workload"], a["base"], a["params"]),
                         ("matrixMul", "tile16", (("n", "2048"),)))
        self.assertEqual([s for s, _ in a["controls"]], ["ptx-O0", "ptx-as-built",
                                                         "ptx-from-nvcc"])
        auto = {step: ch for step, _, _, ch in a["chains"]["auto"]}
        self.assertIsNone(auto["-O0"])
        for step, expected in (("clean", -0.5), ("unroll", -0.48), ("cse", -0.4), ("mad", 0.0),
                               ("licm", -0.2)):
            self.assertAlmostEqual(auto[step], expected, msg=step)
        hand = {step: ch for step, _, _, ch in a["chains"]["hand"]}
        for step, expected in (("clean", -0.6), ("unroll", -0.25), ("cse", -0.2),
                               ("mad", -0.25), ("licm", -0.1)):
            self.assertAlmostEqual(hand[step], expected, msg=step)

    def test_missing_step_breaks_only_its_neighbours(self):
        suite = full_suite()
        suite["benchmarks"] = [r for r in suite["benchmarks"]
                               if "tile16-auto-unroll-cse/" not in r["name"]]
        data, _ = self.data_of(suite)
        (a,) = analysis.ptx_analysis(data)
        auto = {step: ch for step, _, _, ch in a["chains"]["auto"]}
        self.assertAlmostEqual(auto["unroll"], -0.48)
        self.assertIsNone(auto["cse"])
        self.assertIsNone(auto["mad"])  # its previous step is missing
        self.assertAlmostEqual(auto["licm"], -0.2)

    def test_best_opencl_variant_is_the_fastest_of_the_same_kernel(self):
        data, _ = self.data_of(full_suite())
        best = {(w, v): (fmt.fmt_params(p), b.variant)
                for w, v, p, _, _, b in analysis.best_opencl(data)}
        self.assertEqual(best[("matrixMul", "tile16")], ("n=2048", "tile16-ptx-from-nvcc"))
        self.assertEqual(best[("cp", "unrollx8")], ("grid=512 atoms=40000", "unrollx8"))
        self.assertNotIn("bandwidth", {w for w, _ in best})

    def test_later_file_wins_and_iterations_are_ignored(self):
        first = self.write("a.json", doc(rows("cp/cuda/base/grid:8/atoms:4", [5.0], iterations=20),
                                         rows("cp/opencl/base/grid:8/atoms:4", [5.0])))
        second = self.write("b.json", doc(rows("cp/cuda/base/grid:8/atoms:4", [2.0])))
        _, benches, _ = load.load_all([first, second])
        (cuda,) = [b for b in benches.values() if b.api == "cuda"]
        self.assertAlmostEqual(cuda.time, 2.0e6)
        self.assertEqual(cuda.path, second)

    def test_aggregates_only_use_the_median_and_cv(self):
        groups = [r for r in rows("cp/cuda/base/grid:8/atoms:4", [1.0, 2.0, 9.0])
                  if r["run_type"] == "aggregate"]
        data, _ = self.data_of(doc(groups))
        b = data.get("cp", "cuda", "base", (("grid", "8"), ("atoms", "4")))
        self.assertAlmostEqual(b.time, 2.0e6)
        self.assertEqual((b.spread_kind, b.spread), ("cv", 0.01))

    def test_errors_and_skips_are_not_measured_with_their_reason(self):
        data, missing = self.data_of(full_suite())
        reasons = {k: r for k, r, _ in missing}
        self.assertIn("validation failed", reasons["cp/opencl/unrollx8-ieee/grid:512/atoms:40000/"
                                                   "manual_time"])
        self.assertIn("CUDA unavailable", reasons["mriq/cuda/precise/numK:3072/numX:32768/"
                                                  "manual_time"])
        self.assertIsNone(data.get("cp", "opencl", "unrollx8-ieee",
                                   (("grid", "512"), ("atoms", "40000"))))


if __name__ == "__main__":
    unittest.main()
