"""Shared by the tests of scripts/compare.py (compare_test.py, compare_skips_test.py,
compare_metrics_test.py): synthetic Google Benchmark JSON and a case that runs
compare.py on two reports."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "compare.py")
REAL_RESULT = os.path.join(HERE, "..", "results", "nvidia-h200", "2026-11-22-foundation.json")
# A real GPU-less run: 24 OpenCL rows on PoCL, 113 skipped benchmarks in its context only.
POCL_RESULT = os.path.join(HERE, "data_skips", "pocl-quick.json")

_spec = importlib.util.spec_from_file_location("compare", SCRIPT)
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

NAME = "matrixMul/cuda/tile16/n:1024/iterations:20/manual_time"
OTHER = "bandwidth/opencl/d2d/bytes:1024/iterations:10/manual_time"
H200 = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200"}


def rows(name, values, time_unit="us", counter=None, aggregates=True, **extra):
    """Google Benchmark rows of one benchmark run with len(values) repetitions: one
    iteration row per value (counter: the values go to that counter instead of
    real_time), then the mean/median/stddev/cv aggregates as Google Benchmark writes them."""
    out = []
    for i, v in enumerate(values):
        row = {"name": name, "run_name": name, "run_type": "iteration",
               "repetitions": len(values), "repetition_index": i, "threads": 1,
               "iterations": 20, "real_time": 100.0 if counter else v, "cpu_time": 5.0,
               "time_unit": time_unit, **extra}
        if counter:
            row[counter] = v
        out.append(row)
    if aggregates and len(values) > 1:
        mean = sum(values) / len(values)
        stats = {"mean": mean, "median": sorted(values)[len(values) // 2],
                 "stddev": 0.0, "cv": 0.0}
        for agg, v in stats.items():
            row = {"name": f"{name}_{agg}", "run_name": name, "run_type": "aggregate",
                   "repetitions": len(values), "threads": 1, "aggregate_name": agg,
                   "aggregate_unit": "percentage" if agg == "cv" else "time",
                   "iterations": len(values), "real_time": 100.0 if counter else v,
                   "cpu_time": 5.0, "time_unit": time_unit}
            if counter:
                row[counter] = v
            out.append(row)
    return out


def report(*benchmark_rows, context=None):
    return {"context": dict(H200 if context is None else context),
            "benchmarks": [r for group in benchmark_rows for r in group]}


NO_CUDA = "no CUDA device (cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device))"
NO_PTX = "PTX variants need NVIDIA's OpenCL (the device is 'pthread-cpu, AMD')"


def skip_context(names, summary, context=None):
    """A context with gpucmp-bench's skip keys (harness/result_reporter.h) for names."""
    return dict(H200 if context is None else context, **{
        "gpucmp.skipped": summary, "gpucmp.skipped_count": str(len(names)),
        "gpucmp.skipped_benchmarks": ", ".join(names)})


def series(center, n, spread):
    """n values evenly spread over center * (1 +- spread)."""
    if n == 1:
        return [center]
    return [center * (1 - spread + 2 * spread * i / (n - 1)) for i in range(n)]


class CompareCase(unittest.TestCase):
    def run_compare(self, baseline, contender, *args):
        """Runs compare.py on two reports (dicts, or raw text); returns (process, --json report)."""
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for label, data in (("baseline", baseline), ("contender", contender)):
                paths.append(os.path.join(d, f"{label}.json"))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    f.write(data if isinstance(data, str) else json.dumps(data))
            out = os.path.join(d, "out.json")
            proc = subprocess.run([sys.executable, SCRIPT, *paths, "--json", out, *args],
                                  capture_output=True, text=True, check=False)
            result = None
            if os.path.exists(out):
                with open(out, encoding="utf-8") as f:
                    result = json.load(f)
            return proc, result

    def line_of(self, proc, name):
        lines = [line for line in proc.stdout.splitlines() if line.startswith(name + " ")]
        self.assertEqual(len(lines), 1, proc.stdout)
        return lines[0]

    def bench(self, result, name=NAME):
        return next(b for b in result["benchmarks"] if b["name"] == name)
