#!/usr/bin/env python3
"""Tests the startup, hot/cold and measurement quality sections of scripts/report.py
(gpucmp_report/sections: startup.py, cold.py, quality.py) on synthetic Google Benchmark
JSON: startup and cold rows stay out of the pairs, PTX and best-variant tables; the
startup table (with CUDA_FORCE_PTX_JIT=1 rows kept apart), cold rows beside their hot
rows, the quality counts; then whole runs (--no-plots): the sections' REPORT.md text,
the sections omitted without their rows, and a startup-only input."""
import os
import sys
import unittest

from report_fixtures import (  # also puts scripts/ on sys.path
    GOOD, Work, cold, doc, full_suite, jit_suite, mm, quality, rows, startup_suite)
from gpucmp_report import analysis, load, names
from gpucmp_report.sections import cold as cold_sec, quality as quality_sec, startup as startup_sec


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


class SectionRuns(Work):
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

    def test_startup_only_input_is_a_report(self):
        proc, md, _ = self.run_report(self.write("startup.json", startup_suite()), "--no-plots",
                                      python=sys.executable)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("No benchmark was measured on both APIs", md)
        self.assertIn("## Startup: build, module load and first launch", md)
        self.assertNotIn("## Measured on one API only", md)
        self.assertNotIn("CUDA_FORCE_PTX_JIT=1", md)


if __name__ == "__main__":
    unittest.main()
