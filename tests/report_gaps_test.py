#!/usr/bin/env python3
"""Tests the gap sections of scripts/report.py (scripts/gpucmp_report/sections/gaps.py,
counters.py, sass.py) and scripts/ncu_to_json.py on synthetic
input: the compiler/runtime split per pair (hand-computed ratios that multiply
to the total), a curated cause and "unexplained", the SASS mix differences of two
small SASS files (offline-ptxas SASS never used as OpenCL's), an ncu raw CSV
turned into JSON (units, thousands separators, n/a, medians, failed rows), the
counters table, side files not read as results, and a report without any of
this evidence unchanged (each GPU's latest suite run's REPORT.md regenerates byte for byte
where matplotlib is importable; else those two tests skip and the last line says so)."""
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SCRIPTS = os.path.join(REPO, "scripts")
REPORT = os.path.join(SCRIPTS, "report.py")
NCU_TO_JSON = os.path.join(SCRIPTS, "ncu_to_json.py")
sys.path.insert(0, SCRIPTS)

_spec = importlib.util.spec_from_file_location("ncu_to_json", NCU_TO_JSON)
ncu_to_json = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ncu_to_json)

CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200",
           "gpucmp.size": "standard", "date": "2026-11-23"}


from report_fixtures import plot_python, write_file  # noqa: E402  (tests/ is on sys.path as the script's dir)

PLOT_PYTHON = plot_python()


def row(name, ms):
    """One repetition of a benchmark: its time is exactly ms."""
    full = f"{name}/iterations:1/manual_time"
    return {"name": full, "run_name": full, "run_type": "iteration", "repetitions": 1,
            "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": ms,
            "cpu_time": ms, "time_unit": "ms"}


def doc(times, context=CONTEXT):
    return {"context": dict(context), "benchmarks": [row(n, t) for n, t in times.items()]}


BASE = {  # pairs without cross-run rows
    "matrixMul/cuda/tile16/n:4096": 10.0, "matrixMul/opencl/tile16/n:4096": 12.5,
    "matrixMul/cuda/tile32/n:4096": 10.0, "matrixMul/opencl/tile32/n:4096": 10.2,
    "cp/cuda/unrollx8/grid:512/atoms:40000": 24.0,
    "cp/opencl/unrollx8/grid:512/atoms:40000": 5.4,
}
CROSS = {  # tile16: every cross-run row; tile32: OpenCL's PTX under CUDA only
    "matrixMul/cuda/tile16-ptx-jit/n:4096": 10.2,
    "matrixMul/cuda/tile16-opencl-ptx/n:4096": 10.4,
    "matrixMul/cuda/tile16-opencl-cubin/n:4096": 12.0,
    "matrixMul/opencl/tile16-ptx-from-nvcc/n:4096": 12.3,
    "matrixMul/cuda/tile32-opencl-ptx/n:4096": 10.1,
}

from report_sass_test import CUDA_SASS, OPENCL_JIT_SASS, PTXAS_SASS  # noqa: E402

FIXED = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",' \
        '"Block Size","Grid Size","Device","CC"'
METRICS = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
           "smsp__inst_executed.sum", "smsp__pcsamp_warps_issue_stalled_long_scoreboard",
           "smsp__pcsamp_warps_issue_stalled_short_scoreboard",
           "smsp__pcsamp_warps_issue_stalled_mio_throttle",
           "smsp__pcsamp_warps_issue_stalled_barrier",
           "smsp__pcsamp_warps_issue_stalled_selected"]


def ncu_block(kernel, units, launches):
    """ncu --csv --page raw: header, units line, one line per launch."""
    head = FIXED + "," + ",".join(f'"{m}"' for m in METRICS)
    unit_line = ",".join(['""'] * 11 + [f'"{u}"' for u in units])
    lines = ["==PROF== Connected to process 4242 (build/gpucmp-bench)", head, unit_line]
    for i, values in enumerate(launches):
        lines.append(",".join(f'"{c}"' for c in [i, 4242, "gpucmp-bench", "127.0.0.1", kernel,
                                                  1, 7, "(16, 16, 1)", "(256, 256, 1)", 0,
                                                  "9.0"] + values))
    return lines + ["==PROF== Disconnected from process 4242"]


UNITS = ["msecond", "Mbyte", "byte", "%", "register/thread", "inst", "", "", "", "", ""]
NCU_CSV = "\n".join(
    ["==GPUCMP== ncu NVIDIA (R) Nsight Compute Command Line Profiler 2025.3.0.0",
     "==GPUCMP== gpu NVIDIA H200", "==GPUCMP== date 2026-11-23",
     "==GPUCMP== metrics " + ",".join(METRICS),
     "==GPUCMP== option ncu --csv --page raw",
     "==GPUCMP== row matrixMul/cuda/tile16/n:4096/iterations:1/manual_time"]
    + ncu_block("matrixMul", UNITS, [
        ["16.8", "537", "67,108,864", "98.5", "38", "1,000,000", "600", "300", "50", "50", "9"],
        ["17.0", "539", "67,108,864", "98.7", "38", "1,000,000", "600", "300", "50", "50", "9"],
        ["16.9", "n/a", "67,108,864", "98.6", "38", "1,000,000", "600", "300", "50", "50", "9"]])
    + ["==GPUCMP== row matrixMul/cuda/tile16-opencl-ptx/n:4096/iterations:1/manual_time"]
    + ncu_block("matrixMul", ["nsecond"] + UNITS[1:], [
        ["21,100,000", "540", "67,108,864", "97.0", "40", "1,500,000", "200", "700", "80",
         "20", "9"]])
    + ["==GPUCMP== row matrixMul/cuda/tile32-ptx-jit/n:4096/iterations:1/manual_time",
       "==PROF== No kernels were profiled.",
       "==GPUCMP== error rc=1 no kernel profiled"]) + "\n"

EXPLAINED = "OpenCL's driver JIT loads the tiles with scalar LDS where CUDA's uses LDS.128."
EXPLANATIONS = {"_note": "curated by hand", "matrixMul/tile16": {
    "cause": EXPLAINED, "evidence": "driver-JIT SASS; -opencl-ptx cross-run"}}


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_gaps_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, rel, content):
        return write_file(self.tmp, rel, content)

    def report(self, *paths, python=None, out="out"):
        out_dir = os.path.join(self.tmp, out)
        proc = subprocess.run([python or sys.executable, REPORT, *paths, "--out-dir", out_dir]
                              + ([] if python else ["--no-plots"]),
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out_dir, "REPORT.md"), encoding="utf-8") as f:
            return f.read()

    def ncu_json(self):
        csv_path = self.write("ncu-raw.csv", NCU_CSV)
        out = os.path.join(self.tmp, "res", "2026-11-23-ncu.json")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        proc = subprocess.run([sys.executable, NCU_TO_JSON, csv_path, "-o", out],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(out, encoding="utf-8") as f:
            return out, json.load(f)

    def full(self):
        """A results folder with every kind of evidence; the report's text."""
        self.write("res/suite.json", doc({**BASE, **CROSS}))
        self.write("res/explanations.json", EXPLANATIONS)
        self.write("res/sass/matrixmul.cuda.sass", CUDA_SASS)
        self.write("res/sass/matrixMul-tile16.opencl-jit.sass", OPENCL_JIT_SASS)
        self.write("res/sass/matrixMul-tile16.opencl-ptxas.sass", PTXAS_SASS)
        ncu_path, _ = self.ncu_json()
        # As a shell glob passes them: the side files among the results.
        return self.report(os.path.join(self.tmp, "res", "2026-11-23-ncu.json"),
                           os.path.join(self.tmp, "res", "explanations.json"),
                           os.path.join(self.tmp, "res", "suite.json"))


def section(md, title):
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", md, re.S | re.M)
    return m.group(1) if m else None


class Split(Case):
    def test_split_is_hand_computed_and_multiplies_to_the_total(self):
        md = self.full()
        split = section(md, "Compiler or runtime: the split per pair")
        self.assertIsNotNone(split, md)
        # tile16: O/C 12.5/10, J/C 10.2/10, X/J 10.4/10.2, O/X 12.5/10.4, K/X 12/10.4,
        # O/K 12.5/12, P/J 12.3/10.2, O/P 12.5/12.3.
        self.assertIn("| matrixMul | tile16 | n=4096 | 1.250 | 1.020 | 1.020 | 1.202 | 1.154 "
                      "| 1.042 | 1.206 | 1.016 |", split)
        self.assertAlmostEqual((10.2 / 10) * (10.4 / 10.2) * (12.5 / 10.4), 12.5 / 10)
        # tile32: only X: the front-end cell is X/C (front end and JIT together), marked.
        self.assertIn("| matrixMul | tile32 | n=4096 | 1.020 | - | 1.010* | 1.010 | - | - | - "
                      "| - |", split)
        self.assertNotIn("| cp |", split)  # no cross-run row: not in the table

    def test_why_each_gap_explained_unexplained_and_within_band(self):
        md = self.full()
        why = md[md.index("## Why each gap"):]
        tile16 = why[why.index("### matrixMul tile16"):why.index("### cp unrollx8")]
        self.assertIn("- n=4096: OpenCL/CUDA 1.250; split: JIT 1.020 × front end 1.020 × "
                      "OpenCL JIT+runtime 1.202 (OpenCL JIT 1.154 × runtime 1.042); checks: "
                      "ptx-from-nvcc/ptx-jit 1.206, OpenCL/ptx-from-nvcc 1.016.", tile16)
        self.assertIn(f"- Cause: {EXPLAINED} (evidence: driver-JIT SASS; -opencl-ptx "
                      "cross-run)", tile16)
        cp = why[why.index("### cp unrollx8"):]
        self.assertIn("- OpenCL/CUDA: grid=512 atoms=40000 0.225; split: no cross-run rows.",
                      cp)
        self.assertIn("- Cause: unexplained.", cp)
        self.assertIn("no driver-JIT SASS committed for cp unrollx8", cp)
        self.assertIn("- Counters: no ncu profile of this pair's CUDA rows.", cp)
        self.assertNotIn("### matrixMul tile32", why)  # 1.02: inside 0.95-1.05

    def test_a_suite_runs_folder_reads_the_gpus_curated_causes_above_it(self):
        # results/<gpu>/explanations.json beside results/<gpu>/<date>-<rev>/ (a suite
        # run: it has manifest.json); a folder that is no suite run does not look up.
        self.write("gpu/explanations.json", EXPLANATIONS)
        self.write("gpu/run/suite.json", doc({**BASE, **CROSS}))
        self.write("gpu/other/suite.json", doc({**BASE, **CROSS}))
        cause = f"- Cause: {EXPLAINED} (evidence: driver-JIT SASS; -opencl-ptx cross-run)"
        self.assertNotIn(cause, self.report(os.path.join(self.tmp, "gpu", "run", "suite.json")))
        self.write("gpu/run/manifest.json", {"revision": "abc1234"})
        self.assertIn(cause, self.report(os.path.join(self.tmp, "gpu", "run", "suite.json"),
                                         out="run"))
        self.assertNotIn(cause, self.report(os.path.join(self.tmp, "gpu", "other", "suite.json"),
                                            out="other"))

    def test_a_run_on_several_gpus_reads_its_gpus_causes_and_names_the_file(self):
        # results/<gpu>-x2/<run>/ has no explanations.json of its own: the one GPU's
        # folder's is read, and "Why each gap" says which file the causes came from.
        self.write("h200/explanations.json", EXPLANATIONS)
        self.write("h200-x2/run/suite.json", doc({**BASE, **CROSS}))
        self.write("h200-x2/run/manifest.json", {"revision": "abc1234"})
        self.write("a100-x2/run/suite.json", doc({**BASE, **CROSS}))
        self.write("a100-x2/run/manifest.json", {"revision": "abc1234"})
        cause = f"- Cause: {EXPLAINED} (evidence: driver-JIT SASS; -opencl-ptx cross-run)"
        md = self.report(os.path.join(self.tmp, "h200-x2", "run", "suite.json"), out="x2")
        self.assertIn(cause, md)
        self.assertIn("Causes from `" + os.path.join(self.tmp, "h200", "explanations.json")
                      + "`.", md)
        other = self.report(os.path.join(self.tmp, "a100-x2", "run", "suite.json"), out="a100")
        self.assertNotIn(cause, other)  # no a100/explanations.json: unexplained
        self.assertNotIn("Causes from", other)

    def test_sass_mix_is_the_cuda_cubin_against_the_driver_jit(self):
        md = self.full()
        tile16 = md[md.index("### matrixMul tile16"):]
        self.assertIn("- SASS CUDA: `matrixmul.cuda.sass` (cuobjdump -sass of gpucmp-bench "
                      "(nvcc 13.0)); 7 instructions in `_Z9matrixMulILi16EEvPfPKfS2_i`", tile16)
        self.assertIn("- SASS OpenCL: `matrixMul-tile16.opencl-jit.sass` (driver JIT (compute "
                      "cache), driver 580.159.04); 9 instructions in `matrixMul`", tile16)
        self.assertIn("- SASS mix, CUDA → OpenCL (largest differences): LDS 1 → 3 (+2), "
                      "IMAD.MOV.U32 0 → 1 (+1), LDS.128 1 → 0 (-1).", tile16)
        self.assertNotIn("HMMA", md)  # offline ptxas is never OpenCL's SASS

    def test_no_sass_folder_says_so(self):
        self.write("res/suite.json", doc({**BASE, **CROSS}))
        md = self.report(os.path.join(self.tmp, "res", "suite.json"))
        self.assertIn("- SASS: no driver-JIT SASS committed (no `sass/*.sass` beside the "
                      "results).", md)
        self.assertIn("No Nsight Compute profile", md)
        self.assertIn("- Cause: unexplained.", md)
        self.assertNotIn(EXPLAINED, md)


class Counters(Case):
    def test_ncu_csv_to_json(self):
        _, data = self.ncu_json()
        self.assertEqual(data["gpucmp_ncu"], 1)
        self.assertEqual(data["gpu"], "NVIDIA H200")
        self.assertEqual(data["date"], "2026-11-23")
        self.assertIn("Nsight Compute", data["ncu_version"])
        self.assertEqual(data["metrics"], METRICS)
        self.assertEqual(data["units"]["gpu__time_duration.sum"], "ns")
        self.assertEqual(data["units"]["dram__bytes_read.sum"], "byte")
        cuda = data["rows"]["matrixMul/cuda/tile16/n:4096"]["matrixMul"]
        self.assertEqual(cuda["launches"], 3)
        self.assertEqual(cuda["block"], "(16, 16, 1)")
        m = cuda["metrics"]
        self.assertAlmostEqual(m["gpu__time_duration.sum"], 16.9e6)  # median, ms -> ns
        self.assertAlmostEqual(m["dram__bytes_read.sum"], 538e6)  # n/a left out; Mbyte
        self.assertEqual(m["dram__bytes_write.sum"], 67108864)  # thousands separators
        self.assertEqual(m["launch__registers_per_thread"], 38)
        cross = data["rows"]["matrixMul/cuda/tile16-opencl-ptx/n:4096"]["matrixMul"]
        self.assertEqual(cross["metrics"]["gpu__time_duration.sum"], 21.1e6)
        self.assertEqual(data["rows"]["matrixMul/cuda/tile32-ptx-jit/n:4096"], {})
        self.assertEqual(data["errors"], {"matrixMul/cuda/tile32-ptx-jit/n:4096":
                                          "rc=1 no kernel profiled"})

    def test_a_row_of_the_launch_floor_probe_alone_is_an_error(self):
        c = ncu_to_json.Collector()
        c.meta["options"] = []
        values = {"gpu__time_duration.sum": (2.2, "usecond")}
        c.launch("cp/cuda/unrollx8/grid:512", "ceiling_launch", "(1, 1, 1)", "(1, 1, 1)", values)
        c.launch("ceiling/cuda/launch", "ceiling_launch", "(1, 1, 1)", "(1, 1, 1)", values)
        c.launch("mriq/cuda/precise", "ceiling_launch", "(1, 1, 1)", "(1, 1, 1)", values)
        c.launch("mriq/cuda/precise", "ComputeQ", "(256, 1, 1)", "(128, 1, 1)", values)
        doc = c.result()
        self.assertEqual(doc["rows"]["cp/cuda/unrollx8/grid:512"], {})
        self.assertIn("--launch-floor off", doc["errors"]["cp/cuda/unrollx8/grid:512"])
        self.assertIn("ceiling_launch", doc["rows"]["ceiling/cuda/launch"])
        self.assertIn("ComputeQ", doc["rows"]["mriq/cuda/precise"])
        self.assertEqual(list(doc["errors"]), ["cp/cuda/unrollx8/grid:512"])

    def test_ncu_details_page_and_bad_input(self):
        details = "\n".join([
            '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
            '"Block Size","Grid Size","Device","CC","Section Name","Metric Name",'
            '"Metric Unit","Metric Value"',
            '"0","1","b","h","k","1","7","(1, 1, 1)","(1, 1, 1)","0","9.0","s",'
            '"gpu__time_duration.sum","usecond","2.5"',
            '"0","1","b","h","k","1","7","(1, 1, 1)","(1, 1, 1)","0","9.0","s",'
            '"smsp__inst_executed.sum","inst","1,000"'])
        c = ncu_to_json.parse(details.splitlines())
        k = c.result()["rows"]["(unnamed)"]["k"]
        self.assertEqual(k["metrics"], {"gpu__time_duration.sum": 2500.0,
                                        "smsp__inst_executed.sum": 1000.0})
        empty = self.write("empty.csv", "==PROF== No kernels were profiled.\n")
        proc = subprocess.run([sys.executable, NCU_TO_JSON, empty], capture_output=True,
                              text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no profiled kernel", proc.stderr)
        with self.assertRaises(ncu_to_json.InputError):
            ncu_to_json.parse(['"0","1"'])

    def test_a_profile_of_the_launch_floor_probe_alone_is_left_out_and_named(self):
        sys.path.insert(0, SCRIPTS)
        from gpucmp_report import counters  # noqa: E402
        probe = {"ceiling_launch": {"metrics": {"gpu__time_duration.sum": 2240.0},
                                    "launches": 4, "order": 0}}
        path = self.write("res/2026-11-27-ncu.json", {
            "gpucmp_ncu": 1, "rows": {"matrixMul/cuda/tile16/n:4096": probe,
                                      "ceiling/cuda/launch": probe}})
        docs, rows = counters.load([path])
        self.assertEqual(list(rows), ["ceiling/cuda/launch"])
        md = "\n".join(counters.section(docs, {}, None, None, None, None, None))
        self.assertIn("left out, 1 rows: only the launch-floor probe (`ceiling_launch`)", md)
        self.assertEqual(counters.difference(rows, "matrixMul", "tile16", [("n", "4096")]),
                         ["- Counters: no ncu profile of this pair's CUDA rows."])

    def test_counters_table_and_difference(self):
        md = self.full()
        counters = section(md, "Profiler counters")
        self.assertIn("2026-11-23-ncu.json`: ncu NVIDIA (R) Nsight Compute Command Line "
                      "Profiler 2025.3.0.0, NVIDIA H200, 2026-11-23, 3 rows", counters)
        self.assertIn("not profiled: `matrixMul/cuda/tile32-ptx-jit/n:4096` (rc=1 no kernel "
                      "profiled)", counters)
        # Stalls: share of stalled samples, "selected" left out: 600/1000, 300/1000, ...
        self.assertIn("| tile16 | n=4096 | CUDA | `matrixMul` | 16.9 ms | 0.605 | 98.6 | 38 | "
                      "1e+06 | long_scoreboard 60%, short_scoreboard 30%, barrier 5% |", counters)
        self.assertIn("| tile16 | n=4096 | OpenCL's PTX under CUDA | `matrixMul` | 21.1 ms | "
                      "0.607 | 97.0 | 40 | 1.5e+06 | short_scoreboard 70%, long_scoreboard 20%, "
                      "mio_throttle 8% |", counters)
        self.assertIn("- n=4096: Counters, CUDA `matrixMul` → OpenCL's PTX under CUDA "
                      "`matrixMul` (longest kernel of each): duration 16.9 ms → 21.1 ms "
                      "(1.25x); instructions 1e+06 → 1.5e+06 (1.50x)", md)

    def test_bad_side_files_are_exit_2(self):
        self.write("res/suite.json", doc(BASE))
        bad = self.write("res/explanations.json", {"matrixMul/tile16": {"evidence": "x"}})
        proc = subprocess.run([sys.executable, REPORT, os.path.join(self.tmp, "res",
                                                                   "suite.json"),
                               "--no-plots", "--out-dir", os.path.join(self.tmp, "o")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("explanations.json", proc.stderr)
        os.remove(bad)
        self.write("res/x-ncu.json", {"benchmarks": []})
        proc = subprocess.run([sys.executable, REPORT, os.path.join(self.tmp, "res",
                                                                   "suite.json"),
                               "--no-plots", "--out-dir", os.path.join(self.tmp, "o")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("x-ncu.json: not a profile", proc.stderr)


def latest_run_reports():
    """The REPORT.md of each GPU's latest suite run (results/<gpu>/<date>-<rev>/ with
    manifest.json; a folder named -partial is no complete run)."""
    latest = {}
    for manifest in sorted(glob.glob(os.path.join(REPO, "results", "*", "*", "manifest.json"))):
        run = os.path.dirname(manifest)
        if run.endswith("-partial") or not os.path.isfile(os.path.join(run, "REPORT.md")):
            continue
        latest[os.path.dirname(run)] = os.path.join(run, "REPORT.md")
    return sorted(latest.values())


class Unchanged(Case):
    def test_without_evidence_the_report_is_unchanged(self):
        plain = self.report(self.write("a/suite.json", doc(BASE)), out="plain")
        for title in ("Profiler counters", "Compiler or runtime", "Why each gap"):
            self.assertNotIn(title, plain)
        # The same input with the gap sections switched off gives the same text.
        sys.path.insert(0, SCRIPTS)
        import report  # noqa: E402
        from gpucmp_report.sections import gaps  # noqa: E402
        saved = gaps.section
        gaps.section = lambda *a, **k: []
        try:
            out = os.path.join(self.tmp, "off")
            code = report.main([os.path.join(self.tmp, "a", "suite.json"), "--no-plots",
                                "--out-dir", out])
        finally:
            gaps.section = saved
        self.assertEqual(code, 0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            self.assertEqual(f.read(), plain)

    def test_committed_reports_regenerate(self):
        if PLOT_PYTHON is None:
            self.skipTest("no python3 here imports matplotlib")
        for committed in latest_run_reports():
            gpu = os.path.relpath(os.path.dirname(committed), REPO)
            with self.subTest(gpu):
                with open(committed, encoding="utf-8") as f:
                    text = f.read()
                # The inputs in the order of the report's own file table, then
                # the Nsight Compute profiles its counters section lists.
                files = re.findall(r"^\| `(results/[^`]+\.json)` \|", text, re.M)
                self.assertTrue(files)
                files += re.findall(r"^- `(results/[^`]+-ncu\.json)`: ", text, re.M)
                out = os.path.join(self.tmp, gpu.replace(os.sep, "_"))
                proc = subprocess.run([PLOT_PYTHON, REPORT, *files, "--out-dir", out],
                                      cwd=REPO, capture_output=True, text=True, check=False)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
                    self.assertEqual(f.read(), text)


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    ok = result.wasSuccessful()
    if ok and PLOT_PYTHON is None:
        print("report_gaps_test: SKIPPED: the regeneration of the committed reports "
              "(no python3 here imports matplotlib)")
    sys.exit(0 if ok else 1)
