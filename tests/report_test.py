#!/usr/bin/env python3
"""Tests scripts/report.py on synthetic Google Benchmark JSON files: pairing, ratios,
PTX step changes, the REPORT.md tables, the figures (reproducible PNGs), omitted
sections, and bad input (exit 2); the startup, hot/cold and measurement quality
sections, and that startup and cold rows stay out of the pairs. Also runs it on
the committed H200 results.

The figures need matplotlib (Debian: python3-matplotlib). It installs into the
system python3, which a pyenv or venv python3 on PATH can hide: the script runs
under the first of this interpreter and /usr/bin/python3 that imports it. With
none, the figure tests skip and the last line says so (CTest: skipped)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "report.py")
RESULTS = os.path.join(HERE, "..", "results", "nvidia-h200")
REAL = [os.path.join(RESULTS, f"2026-11-22-{part}.json")
        for part in ("foundation", "parboil", "ptx-controls")]
REAL_STARTUP = [os.path.join(RESULTS, f"2026-11-22-{part}.json")
                for part in ("suite-matrixmul", "startup", "startup-cuda-ptx-jit")]

sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
from gpucmp_report import analysis, figures, fmt, load, names  # noqa: E402
from gpucmp_report.sections import (  # noqa: E402
    cold as cold_sec, quality as quality_sec, startup as startup_sec)

H200 = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200",
        "cuda.driver": "580.159.04", "gpucmp.revision": "abc123", "date": "2026-11-22"}
# A real GPU-less run: 24 OpenCL rows on PoCL, 113 skipped benchmarks in its context only.
POCL_RESULT = os.path.join(HERE, "data_skips", "pocl-quick.json")
NO_CUDA = "no CUDA device (cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device))"
NO_PTX = "PTX variants need NVIDIA's OpenCL (the device is 'pthread-cpu, AMD')"
INTERRUPTED = "interrupted by SIGTERM after 3 benchmarks; the rest did not run"


def plot_python():
    """An interpreter that imports matplotlib, or None."""
    for exe in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import matplotlib"], capture_output=True, check=False).returncode == 0:
            return exe
    return None


PLOT_PYTHON = plot_python()
NO_MPL = "no python3 here imports matplotlib (install python3-matplotlib)"


def rows(name, values, counters=None, time_unit="ms", aggregates=True, iterations=10):
    """The rows of one benchmark with len(values) repetitions (times in time_unit),
    then Google Benchmark's aggregates. counters: {name: value} on every row."""
    full = f"{name}/iterations:{iterations}/manual_time"
    out = []
    for i, v in enumerate(values):
        out.append({"name": full, "run_name": full, "run_type": "iteration",
                    "repetitions": len(values), "repetition_index": i, "threads": 1,
                    "iterations": iterations, "real_time": v, "cpu_time": v,
                    "time_unit": time_unit, **(counters or {})})
    if aggregates and len(values) > 1:
        mean = sum(values) / len(values)
        for agg, v in (("mean", mean), ("median", sorted(values)[len(values) // 2]),
                       ("stddev", 0.0), ("cv", 0.01)):
            out.append({"name": f"{full}_{agg}", "run_name": full, "run_type": "aggregate",
                        "repetitions": len(values), "threads": 1, "aggregate_name": agg,
                        "aggregate_unit": "percentage" if agg == "cv" else "time",
                        "iterations": len(values), "real_time": v, "cpu_time": v,
                        "time_unit": time_unit, **(counters or {})})
    return out


def error_row(name, message, skipped=False):
    full = f"{name}/iterations:1/manual_time"
    row = {"name": full, "run_name": full, "run_type": "iteration", "repetitions": 1,
           "repetition_index": 0, "threads": 1, "iterations": 0, "real_time": 0,
           "cpu_time": 0, "time_unit": "ms"}
    if skipped:
        row.update(skipped=True, skip_message=message)
    else:
        row.update(error_occurred=True, error_message=message)
    return [row]


def doc(*groups, context=None):
    return {"context": dict(H200 if context is None else context),
            "benchmarks": [r for g in groups for r in g]}


# The PTX chains of matrixMul tile16 at n:2048 (ms): auto follows the 2010 study's
# steps exactly (-48%, -40%, 0%, -20% after the clean-up); hand differs.
AUTO = {"ptx-O0": 100.0, "auto-clean": 50.0, "auto-unroll": 26.0, "auto-unroll-cse": 15.6,
        "auto-unroll-cse-mad": 15.6, "auto-unroll-cse-mad-licm": 12.48}
HAND = {"hand-base": 40.0, "hand-unroll": 30.0, "hand-unroll-cse": 24.0,
        "hand-unroll-cse-mad": 18.0, "hand-unroll-cse-mad-licm": 16.2}


def mm(api, variant, n, ms, spread=0.02):
    flop = 2 * n ** 3
    return rows(f"matrixMul/{api}/{variant}/n:{n}", [ms * (1 - spread), ms, ms * (1 + spread)],
                {"GFLOP/s": flop / (ms * 1e-3) / 1e9, "pct_peak": 10.0})


def full_suite():
    """Every kind of row the report uses."""
    groups = [mm("cuda", "tile16", 1024, 2.0), mm("opencl", "tile16", 1024, 2.5),
              mm("cuda", "tile16", 2048, 10.0), mm("opencl", "tile16", 2048, 12.5),
              mm("cuda", "cublas", 2048, 1.0), mm("opencl", "clblast", 2048, 1.5),
              mm("opencl", "tile16-ptx-as-built", 2048, 12.4),
              mm("opencl", "tile16-ptx-from-nvcc", 2048, 10.1)]
    groups += [mm("opencl", f"tile16-{s}", 2048, t) for s, t in {**AUTO, **HAND}.items()]
    for api, base in (("cuda", 2.0), ("opencl", 6.0)):
        for kind in ("h2d-pinned", "h2d-pageable", "d2d"):
            for i, nbytes in enumerate((1024, 4096, 16384, 65536, 262144, 1048576)):
                us = base + nbytes / 50e3 * (1 + i / 10)
                groups.append(rows(f"bandwidth/{api}/{kind}/bytes:{nbytes}", [us, us, us],
                                   {"GB/s": nbytes / (us * 1e3), "pct_peak": 50.0},
                                   time_unit="us"))
    groups.append(rows("bandwidth/opencl/h2d-mapped/bytes:1024", [9.0], {"GB/s": 0.11},
                       time_unit="us"))
    groups += [rows("cp/cuda/unrollx8/grid:512/atoms:40000", [24.0, 24.4, 24.2]),
               rows("cp/opencl/unrollx8/grid:512/atoms:40000", [5.3, 5.4, 5.35]),
               rows("cp/cuda/unrollx8-ieee/grid:512/atoms:40000", [24.0]),
               error_row("cp/opencl/unrollx8-ieee/grid:512/atoms:40000",
                         "validation failed: max_rel_err 0.5 > 1e-5"),
               error_row("mriq/cuda/precise/numK:3072/numX:32768",
                         "skipped: CUDA unavailable: no CUDA device", skipped=True)]
    return doc(*groups)


def skip_context(names, summary, **extra):
    """H200's context with gpucmp-bench's skip keys (harness/result_reporter.h)."""
    return dict(H200, **{"gpucmp.skipped": summary, "gpucmp.skipped_count": str(len(names)),
                         "gpucmp.skipped_benchmarks": ", ".join(names)}, **extra)


def startup(api, kernel, params, first, second, build=None, context=None, ptx=None,
            max_us=None, repetitions=1):
    """A startup/ row: one run (iterations:1), or repetitions with aggregates. Times in ms."""
    counters = {"first_launch_ms": first, "second_launch_ms": second, "samples": 5.0,
                "cv": 0.05}
    for name, value in (("build_ms", build), ("context_ms", context), ("ptx_load_ms", ptx)):
        if value is not None:
            counters[name] = value
    total_us = ((build or 0.0) + first) * 1e3
    counters.update(min_us=total_us * 0.95, max_us=max_us or total_us * 1.05)
    return rows(f"startup/{api}/{kernel}/{params}", [total_us] * repetitions, counters,
                time_unit="us", iterations=1)


def startup_suite(repetitions=1):
    """Startup rows of two kernels on both APIs (one with its PTX builds) and one on CUDA."""
    r = repetitions
    return doc(
        startup("opencl", "matrixMul-tile16", "n:1024", 0.5, 0.3, build=80.0, repetitions=r),
        startup("opencl", "matrixMul-tile16-ptx-as-built", "n:1024", 0.45, 0.3, build=20.0,
                repetitions=r),
        startup("opencl", "matrixMul-tile16-ptx-from-nvcc", "n:1024", 0.45, 0.3, build=24.0,
                repetitions=r),
        startup("cuda", "matrixMul-tile16", "n:1024", 0.4, 0.3, context=100.0, ptx=40.0,
                repetitions=r),
        startup("opencl", "cp-unrollx8", "grid:512/atoms:40000", 6.0, 5.5, build=120.0,
                repetitions=r),
        startup("cuda", "cp-unrollx8", "grid:512/atoms:40000", 25.0, 24.8, context=110.0,
                ptx=60.0, repetitions=r),
        startup("cuda", "mriq-fast", "numK:3072/numX:32768", 0.3, 0.2, context=105.0,
                repetitions=r))


def jit_suite():
    """CUDA startup rows of a run with CUDA_FORCE_PTX_JIT=1: one sample paid a 31 ms JIT."""
    return doc(startup("cuda", "matrixMul-tile16", "n:1024", 0.38, 0.3, context=101.0, ptx=30.0,
                       max_us=31000.0),
               startup("cuda", "cp-unrollx8", "grid:512/atoms:40000", 25.0, 24.8, context=99.0,
                       ptx=61.0),
               context={**H200, "env.CUDA_FORCE_PTX_JIT": "1"})


def cold(api, variant, n, ms, old_style=False):
    """A cold matrixMul row: cache:cold in the name (old_style: the counter cold=1 only)."""
    name = f"matrixMul/{api}/{variant}/n:{n}" + ("" if old_style else "/cache:cold")
    return rows(name, [ms * 0.98, ms, ms * 1.02], {"cold": 1.0, "GFLOP/s": 1.0,
                                                   "pct_peak": 99.0})


def quality(row_sets):
    """Sets per-repetition counters: row_sets [(rows, [{counter: value} per repetition])]."""
    out = []
    for group, reps in row_sets:
        it = iter(reps)
        for r in group:
            if r["run_type"] == "iteration":
                r.update(next(it))
        out.append(group)
    return out


GOOD = {"noise_met": 1.0, "cv": 0.002, "clock_flag": 0.0, "host_device_flag": 0.0,
        "sm_mhz_min": 1980.0, "power_w_after": 200.0, "temp_c_after": 40.0}


class Work(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, content):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def run_report(self, *args, python=None, out="out"):
        out_dir = os.path.join(self.tmp, out)
        proc = subprocess.run([python or PLOT_PYTHON or sys.executable, SCRIPT, *args,
                               "--out-dir", out_dir], capture_output=True, text=True,
                              check=False)
        md = None
        if os.path.exists(os.path.join(out_dir, "REPORT.md")):
            with open(os.path.join(out_dir, "REPORT.md"), encoding="utf-8") as f:
                md = f.read()
        return proc, md, out_dir

    def data_of(self, content):
        _, benches, missing = load.load_all([self.write("in.json", content)])
        return analysis.Data(benches), missing


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


class StartupColdQuality(Work):
    def test_startup_rows_enter_no_pair_ptx_or_best_table(self):
        self.assertEqual(names.parse_name("startup/cuda/matrixMul-tile16/n:1024/manual_time"),
                         ("startup", "cuda", "matrixMul-tile16", (("n", "1024"),)))
        suite = full_suite()
        suite["benchmarks"] += startup_suite()["benchmarks"]
        data, _ = self.data_of(suite)
        self.assertEqual(len(data.startup), 7)
        self.assertNotIn("startup", {k[0] for k in data.by_id})
        self.assertEqual(len(analysis.pairs(data)), 2 + 1 + 3 * 6)
        self.assertEqual([(a["workload"], a["base"]) for a in analysis.ptx_analysis(data)],
                         [("matrixMul", "tile16")])
        self.assertNotIn("startup", {r[0] for r in analysis.best_opencl(data)})
        self.assertFalse(any("startup" in label for label, _ in
                             analysis.peak_entries(data, analysis.pairs(data))))

    def test_startup_table_values(self):
        data, _ = self.data_of(startup_suite())
        rows = {(r["workload"], r["base"]): r for r in startup_sec.startup_rows(data)}
        self.assertEqual(list(rows), [("matrixMul", "tile16"), ("cp", "unrollx8"),
                                      ("mriq", "fast")])
        mm = rows[("matrixMul", "tile16")]
        self.assertEqual((mm["build_source"], mm["build_own_ptx"], mm["build_nvcc_ptx"],
                          mm["ptx_load"], mm["context"]), (80.0, 20.0, 24.0, 40.0, 100.0))
        self.assertAlmostEqual(mm["overhead"]["cuda"], 0.1)
        self.assertAlmostEqual(mm["overhead"]["opencl"], 0.2)
        self.assertIsNone(mm["first_jit"])
        mriq = rows[("mriq", "fast")]
        self.assertEqual((mriq["build_source"], mriq["ptx_load"]), (None, None))
        self.assertEqual(list(mriq["overhead"]), ["cuda"])

    def test_startup_aggregates_only_are_read_like_the_other_rows(self):
        suite = startup_suite(repetitions=3)
        suite["benchmarks"] = [r for r in suite["benchmarks"] if r["run_type"] == "aggregate"]
        data, _ = self.data_of(suite)
        rows = {(r["workload"], r["base"]): r for r in startup_sec.startup_rows(data)}
        self.assertEqual(rows[("matrixMul", "tile16")]["build_source"], 80.0)
        self.assertEqual(rows[("cp", "unrollx8")]["ptx_load"], 60.0)

    def test_forced_ptx_jit_rows_are_kept_beside_the_others_in_either_order(self):
        normal = self.write("startup.json", startup_suite())
        jit = self.write("jit.json", jit_suite())
        for paths in ([normal, jit], [jit, normal]):
            with self.subTest(first=os.path.basename(paths[0])):
                _, benches, _ = load.load_all(paths)
                data = analysis.Data(benches)
                rows = {(r["workload"], r["base"]): r for r in startup_sec.startup_rows(data)}
                mm = rows[("matrixMul", "tile16")]
                self.assertAlmostEqual(mm["first"][0], 0.4)
                self.assertAlmostEqual(mm["first_jit"][0], 0.38)
                self.assertAlmostEqual(mm["first_jit"][1], 31.0)
                # the context and PTX load of the file without CUDA_FORCE_PTX_JIT
                self.assertEqual((mm["context"], mm["ptx_load"]), (100.0, 40.0))
                self.assertIsNone(rows[("mriq", "fast")]["first_jit"])
                jit_rows = [b for b in data.startup if b.jit]
                self.assertEqual(len(jit_rows), 2)
                self.assertTrue(all(b.path == jit for b in jit_rows))

    def test_cold_rows_enter_no_pair_and_meet_their_hot_rows(self):
        suite = full_suite()
        suite["benchmarks"] += [r for g in (cold("cuda", "tile16", 2048, 10.5),
                                            cold("opencl", "tile16", 2048, 13.75),
                                            cold("cuda", "tile32", 2048, 9.0))
                                for r in g]
        data, _ = self.data_of(suite)
        self.assertEqual(len(analysis.pairs(data)), 2 + 1 + 3 * 6)
        self.assertEqual(data.get("matrixMul", "cuda", "tile16", (("n", "2048"),)).time, 10e6)
        self.assertEqual(analysis.best_opencl(data)[0][3].time, 10e6)
        self.assertNotIn(99.0, [v for _, vals in analysis.peak_entries(data, analysis.pairs(data))
                                for v in vals.values()])
        got = [(c.api, c.variant, h.time if h else None, c.time)
               for c, h in cold_sec.cold_rows(data)]
        self.assertEqual(got, [("cuda", "tile16", 10e6, 10.5e6), ("opencl", "tile16", 12.5e6,
                                                                   13.75e6),
                               ("cuda", "tile32", None, 9e6)])

    def test_old_cold_rows_without_cache_cold_in_the_name_do_not_replace_hot_ones(self):
        hot = self.write("hot.json", doc(mm("cuda", "tile16", 2048, 10.0)))
        old = self.write("cold.json", doc(cold("cuda", "tile16", 2048, 11.0, old_style=True)))
        _, benches, _ = load.load_all([hot, old])
        data = analysis.Data(benches)
        self.assertEqual(data.get("matrixMul", "cuda", "tile16", (("n", "2048"),)).time, 10e6)
        ((c, h),) = cold_sec.cold_rows(data)
        self.assertEqual(c.params, (("n", "2048"), ("cache", "cold")))
        self.assertEqual((c.time, h.time), (11e6, 10e6))

    def test_quality_counts_repetitions(self):
        flagged = dict(GOOD, cv=0.004, clock_flag=1.0, sm_mhz_min=1500.0)
        noisy = dict(GOOD, noise_met=0.0, cv=0.05, host_device_flag=1.0, power_w_after=300.0,
                     temp_c_after=50.0)
        groups = quality([
            (mm("cuda", "tile16", 1024, 2.0), [GOOD] * 3),
            (mm("opencl", "tile16", 1024, 2.5), [dict(GOOD, cv=0.004), flagged,
                                                  dict(GOOD, cv=0.004)]),
            (rows("bandwidth/cuda/h2d-pinned/bytes:1024", [2.0, 2.0, 2.0],
                  {"GB/s": 0.5, "host/device": 1.04}, time_unit="us"), [noisy] * 3)])
        data, _ = self.data_of(doc(*groups))
        md = "\n".join(quality_sec.quality_section(data))
        self.assertIn("| kernels and transfers | 3 | 9 | 6 of 9 | 0.4% | 5% | 1 | 3 |", md)
        self.assertIn("- clock_flag=1 (SM clock below 90% of max): "
                      "`matrixMul/opencl/tile16/n:1024` (1 of 3 repetitions, lowest SM clock "
                      "1500 MHz).", md)
        self.assertIn("- host_device_flag=1 (host wall clock and device time differ by >2%): "
                      "`bandwidth/cuda/h2d-pinned/bytes:1024` (3 of 3 repetitions, host/device "
                      "1.040).", md)
        self.assertIn("- Noise target not met (kernels and transfers), repetitions per "
                      "workload: bandwidth 3 of 3.", md)
        self.assertIn("lowest SM clock (sm_mhz_min) 1500-1980 MHz; power after (power_w_after) "
                      "200-300 W; temperature after (temp_c_after) 40-50 \u00b0C.", md)

    def test_quality_counts_many_flags_per_workload_and_reads_aggregates(self):
        groups = quality([(rows(f"bandwidth/cuda/d2d/bytes:{2 ** i}", [2.0] * 3,
                                {"GB/s": 1.0}, time_unit="us"),
                           [dict(GOOD, clock_flag=1.0)] * 3) for i in range(10, 21)])
        agg = quality([(rows("cp/cuda/base/grid:8/atoms:4", [5.0, 5.0, 5.0]),
                        [GOOD, dict(GOOD, clock_flag=1.0, noise_met=0.0), GOOD])])[0]
        for r in agg:  # Google Benchmark's aggregates: the mean of each counter
            if r["run_type"] == "aggregate":
                r.update(GOOD, clock_flag=1 / 3, noise_met=2 / 3)
        groups.append([r for r in agg if r["run_type"] == "aggregate"])
        data, _ = self.data_of(doc(*groups))
        md = "\n".join(quality_sec.quality_section(data))
        self.assertIn("- clock_flag=1 (SM clock below 90% of max): 12 benchmarks: bandwidth 11 "
                      "(d2d 11); cp 1 (base 1).", md)
        self.assertIn("| kernels and transfers | 12 | 34 | 33 of 34 |", md)
        self.assertNotIn("No repetition had", md)

    def test_quality_section_needs_its_counters(self):
        data, _ = self.data_of(full_suite())
        self.assertEqual(quality_sec.quality_section(data), [])
        self.assertEqual(cold_sec.cold_section(data), [])
        self.assertEqual(startup_sec.startup_section(data, []), [])


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

    def test_startup_cold_and_quality_sections(self):
        suite = full_suite()
        suite["benchmarks"] += [r for g in (cold("cuda", "tile16", 2048, 10.5),
                                            cold("opencl", "tile16", 2048, 13.75),
                                            cold("cuda", "tile32", 2048, 9.0))
                                for r in g]
        suite["benchmarks"] += startup_suite()["benchmarks"]
        for r in suite["benchmarks"]:
            if r["name"].startswith("matrixMul/cuda/tile16/n:1024/") and \
                    r["run_type"] == "iteration":
                r.update(GOOD)
        proc, md, _ = self.run_report(self.write("suite.json", suite),
                                      self.write("jit.json", jit_suite()), "--no-plots",
                                      python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotRegex(md, r"\| startup \| [a-zA-Z]")  # no startup pair
        self.assertNotIn("startup ", md.split("## Startup")[0].split("## Device")[1])
        self.assertIn("the CUDA startup rows of a file run with CUDA_FORCE_PTX_JIT=1 are kept "
                      "apart", md)
        self.assertIn("| kernel | size | OpenCL build from source | OpenCL build from its own PTX "
                      "(ptx-as-built) | OpenCL build from nvcc's PTX | CUDA PTX module load | "
                      "CUDA context | first-launch overhead CUDA | first-launch overhead OpenCL "
                      "| CUDA first launch | CUDA first launch, CUDA_FORCE_PTX_JIT=1 |", md)
        self.assertIn("| matrixMul tile16 | n=1024 | 80 ms | 20 ms | 24 ms | 40 ms | 100 ms | "
                      "100 us | 200 us | 400 us | 380 us (slowest 31 ms) |", md)
        self.assertIn("| mriq fast | numK=3072 numX=32768 | \u2013 | \u2013 | \u2013 | \u2013 | "
                      "105 ms | 100 us | \u2013 | 300 us | \u2013 |", md)
        self.assertIn("Median over kernels: OpenCL build from source 100 ms (2 kernels); from "
                      "its own PTX 20 ms (1 kernel); from nvcc's PTX 24 ms (1 kernel); CUDA PTX "
                      "module load (driver JIT) 50 ms (2 kernels); CUDA context creation 105 ms "
                      "(3 kernels).", md)
        self.assertIn("Per kernel, the OpenCL build from its own PTX takes 0.25x its build from "
                      "source (1 kernel); the OpenCL build from source takes 2.00x the CUDA PTX "
                      "module load (2 kernels).", md)
        self.assertIn("First-launch overhead, median over kernels: CUDA 100 us (100 us to "
                      "200 us, 3 kernels); OpenCL 350 us (200 us to 500 us, 2 kernels).", md)
        self.assertIn("With CUDA_FORCE_PTX_JIT=1 (", md)
        self.assertIn("median CUDA first launch 12.69 ms against 12.7 ms without (2 kernels); "
                      "its slowest sample is over 2x the median in 1 of 2 kernels (up to 31 ms, "
                      "matrixMul tile16), without it in 0 of 3", md)
        # hot vs cold
        self.assertIn("## Hot vs cold caches", md)
        self.assertIn("| matrixMul CUDA tile16 n=2048 | 10 ms ±2% | 10.5 ms ±2% | 1.05 |", md)
        self.assertIn("| matrixMul OpenCL tile16 n=2048 | 12.5 ms ±2% | 13.75 ms ±2% | 1.10 |",
                      md)
        self.assertIn("| matrixMul CUDA tile32 n=2048 | \u2013 | 9 ms ±2% | \u2013 |", md)
        self.assertIn("Cold/hot time per workload: matrixMul 1.05-1.10 (2 benchmarks). Largest: "
                      "matrixMul OpenCL tile16 n=2048, 1.10. 1 of 3 cold rows have no hot row", md)
        self.assertNotIn("cache=cold", md.split("## Hot vs cold")[0])
        # measurement quality: only the rows that carry its counters
        self.assertIn("| kernels and transfers | 1 | 3 | 3 of 3 | 0.2% | 0.2% | 0 | 0 |", md)
        self.assertIn("| startup | 9 | 9 | \u2013 (fixed samples) | 5% | 5% | \u2013 | \u2013 |",
                      md)
        self.assertIn("- No repetition had clock_flag=1 or host_device_flag=1.", md)
        self.assertLess(md.index("## Startup"), md.index("## Hot vs cold"))
        self.assertLess(md.index("## Hot vs cold"), md.index("## Measurement quality"))

    def test_sections_are_omitted_without_their_rows(self):
        proc, md, _ = self.run_report(self.write("suite.json", full_suite()), "--no-plots",
                                      python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for title in ("## Startup", "## Hot vs cold", "## Measurement quality"):
            self.assertNotIn(title, md)
        self.assertNotIn("CUDA_FORCE_PTX_JIT", md)

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
        # signal, which a timeout's SIGTERM writes too.
        stopped = "Partial files (a run stopped by its timeout; only complete benchmarks kept):"
        interrupted = ("Partial files (a run interrupted by a signal or its timeout; only "
                       "complete benchmarks kept):")
        old_note = dict(H200, **{"gpucmp.partial": "stopped by its 400 s timeout during cp"})
        new_note = dict(H200, **{"gpucmp.partial": INTERRUPTED})
        for contexts, heading in (([old_note], stopped), ([new_note], interrupted),
                                  ([old_note, new_note], interrupted)):
            with self.subTest(heading=heading, files=len(contexts)):
                paths = [self.write(f"part{i}.json", doc(mm("cuda", "tile16", 1024 << i, 2.0),
                                                         context=c))
                         for i, c in enumerate(contexts)]
                proc, md, _ = self.run_report(*paths, "--no-plots", python=sys.executable)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                other = interrupted if heading == stopped else stopped
                self.assertIn(heading, md)
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

    def test_startup_only_input_is_a_report(self):
        proc, md, _ = self.run_report(self.write("startup.json", startup_suite()), "--no-plots",
                                      python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("No benchmark was measured on both APIs", md)
        self.assertIn("## Startup: build, module load and first launch", md)
        self.assertNotIn("## Measured on one API only", md)
        self.assertNotIn("CUDA_FORCE_PTX_JIT=1", md)

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
