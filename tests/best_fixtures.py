"""Synthetic suite runs for the "each API at its best" tests (best_table_test.py,
report_at_best_test.py): rows of three repetitions, a run folder with
manifest.json and one file per suite part, and the committed suite runs."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "scripts"))  # as the scripts do
from gpucmp_report import api_best  # noqa: E402

CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-28"}
# The latest full suite run of each single-GPU kind (the README's tables).
COMMITTED = [os.path.join(REPO, "results", gpu, "2026-11-27-f31dd4c")
             for gpu in ("nvidia-h200", "nvidia-h100-80gb-hbm3")]
# Later runs of some parts (with the source forms that close compiler gaps).
LATER = [os.path.join(REPO, "results", "nvidia-h200", "2026-11-28-152a1e3")]


def row(name, ms, **counters):
    """Three repetitions of one benchmark around `ms` milliseconds."""
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 3,
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": ms * f,
             "cpu_time": ms * f, "time_unit": "ms", "max_rel_err": 0.0, **counters}
            for i, f in enumerate((0.99, 1.0, 1.01))]


def failed(name, message="validation failed: max_rel_err 0.5 over 1e-05"):
    """A row that failed validation: Google Benchmark's error row, time 0."""
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 1,
             "repetition_index": 0, "threads": 1, "iterations": 0, "real_time": 0.0,
             "cpu_time": 0.0, "time_unit": "ms", "error_occurred": True,
             "error_message": message}]


def name(family, api, variant, extra=""):
    return f"{family.workload}/{api}/{variant}/{family.problem}{extra}"


def baseline(skip=()):
    """{part: [rows]}: each family's first variant on each API, CUDA at 1 ms and
    OpenCL at 1.25 ms (every ratio 1.25); families labelled in skip have no
    OpenCL row."""
    parts = {}
    for f in api_best.FAMILIES:
        parts.setdefault(f.part, [])
        parts[f.part] += row(name(f, "cuda", f.cuda[0]), 1.0)
        if f.label not in skip:
            parts[f.part] += row(name(f, "opencl", f.opencl[0]), 1.25)
    return parts


def write_run(folder, parts, gpu="NVIDIA H200", order=None):
    """A suite run's folder: manifest.json naming the GPU and the parts (in
    `order`, else the parts' own), and <part>.json for each."""
    os.makedirs(folder, exist_ok=True)
    order = list(parts) if order is None else order
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"gpus": [{"name": gpu}], "parts": order}, f)
    for part, rows in parts.items():
        with open(os.path.join(folder, part + ".json"), "w", encoding="utf-8") as f:
            json.dump({"context": CONTEXT, "benchmarks": rows}, f)
    return folder
