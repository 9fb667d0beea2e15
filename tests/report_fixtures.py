"""The helpers shared by the report's tests (report_test.py, report_analysis_test.py,
report_sections_test.py, report_inputs_test.py; report_gaps_test.py uses plot_python):
synthetic Google Benchmark JSON rows and documents (matrixMul, bandwidth, cp, the PTX
chains, startup, cold and measurement-quality rows), the committed results' paths, and
Work, a TestCase with a scratch folder that runs scripts/report.py.

The figures need matplotlib (Debian: python3-matplotlib). It installs into the
system python3, which a pyenv or venv python3 on PATH can hide: the report runs
under the first of this interpreter and /usr/bin/python3 that imports it
(PLOT_PYTHON; None without one)."""
import contextlib
import io
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
from gpucmp_report import analysis, cli, load  # noqa: E402

H200 = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200",
        "cuda.driver": "580.159.04", "gpucmp.revision": "abc123", "date": "2026-11-22"}
# A real GPU-less run: 24 OpenCL rows on PoCL, 113 skipped benchmarks in its context only.
POCL_RESULT = os.path.join(HERE, "data_skips", "pocl-quick.json")
NO_CUDA = "no CUDA device (cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device))"
NO_PTX = "PTX variants need NVIDIA's OpenCL (the device is 'pthread-cpu, AMD')"
INTERRUPTED = "interrupted by SIGTERM after 3 benchmarks; the rest did not run"


def write_file(root, rel, content):
    """Writes `content` (text as it is, anything else as JSON) to root/rel, making its
    folders; returns the path."""
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content if isinstance(content, str) else json.dumps(content))
    return path


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


def section_text(md, title):
    """The text of REPORT.md's section `title` (its heading line), to the next section."""
    return md.split(title, 1)[1].split("\n## ", 1)[0]


def section_tables(md, title):
    """[{(first cell, second cell): [the cells after them]}] of the section's tables,
    in order."""
    out = []
    for block in section_text(md, title).split("\n\n"):
        lines = [line for line in block.split("\n") if line.startswith("| ")]
        if lines:
            cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[1:]]
            out.append({(c[0], c[1]): c[2:] for c in cells})
    return out


class SideInputCase(unittest.TestCase):
    """A section fed by a side file beside the results (jacobi.json,
    kernel-tuner.json, rodinia-heartwall.json): a temporary folder holding the
    results file RESULT, made by results(); report() writes REPORT.md from the
    inputs given and returns it; assert_bad_input() checks that a bad side file
    stops the report with one line naming it, exit 2."""
    RESULT = "run/results.json"

    def results(self):
        raise NotImplementedError

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix=type(self).__name__ + "_")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.result = write_file(self.tmp, self.RESULT, self.results())

    def write(self, rel, content):
        return write_file(self.tmp, rel, content)

    def report(self, *inputs, plots=False):
        out = os.path.join(self.tmp, "out")
        args = [*inputs, "--out-dir", out] + ([] if plots else ["--no-plots"])
        self.assertEqual(cli.main(args, "x\n\nusage: x"), 0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            return f.read()

    def assert_bad_input(self, path, words):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
            cli.main([self.result, path, "--out-dir", self.tmp, "--no-plots"], "x\n\nusage: x")
        self.assertEqual(e.exception.code, 2)
        lines = err.getvalue().strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith(f"report: error: {path}: "), lines[0])
        self.assertIn(words, lines[0])
