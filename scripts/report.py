#!/usr/bin/env python3
"""Writes REPORT.md and PNG plots from gpucmp-bench result files.

The report re-asks the 2010 study's questions with the numbers in the files:
(1) OpenCL time over CUDA time per paired benchmark (the study's Fig. 5);
(2) the change of OpenCL time by each PTX optimization step (Fig. 6);
(3) CUDA against the best OpenCL variant of the same kernel (Fig. 7);
(4) bandwidth against transfer size per API and host-memory kind;
(5) fraction of peak (bandwidth or FP32) per kernel and API;
and a short text, generated from the numbers, on what has changed since 2010.
Where the input has such rows, also: (6) startup (OpenCL program build, CUDA
PTX module load and context, first-launch overhead) from the startup/ rows;
(7) hot against cold caches from the rows with the parameter cache:cold; and
(8) measurement quality (noise target, cv, clock and host/device flags).
With cross-run rows, ncu profiles, SASS or explanations beside the results:
(9) profiler counters, the compiler/runtime split per pair and why each gap
(scripts/report_gaps.py; explanations.json and *-ncu.json are not results).

Rows are matched by name with Google Benchmark's /iterations:N removed; when
several files hold the same benchmark, the later file wins, except that the
CUDA startup rows of a file run with CUDA_FORCE_PTX_JIT=1 (its context's
env.CUDA_FORCE_PTX_JIT) are kept apart and shown beside the others. Startup
rows (startup/<api>/<workload>-<variant>/<params>) and cold rows (parameter
cache:cold, or the counter cold=1 in older files without it) enter their own
sections only, never the pairs, ratios, peaks or bandwidth. A benchmark's time
is the median of its repetitions (the median aggregate where only aggregates
exist); its spread is half the min-max range of the repetitions relative to the
median (else the cv aggregate). Rows that errored or were skipped are listed
under "Not measured" with their reason, and so are the benchmarks a file's
context lists as skipped (gpucmp.skipped_benchmarks: newer files have no row
for them) that no file has a row for, counted per API and reason.

Pairs: the same workload, variant and parameters on cuda and opencl. Ratios are
OpenCL time / CUDA time: above 1, CUDA is faster. Vendor libraries (cublas,
clblast) are compared with each other only. PTX variants of an OpenCL kernel
are named <base>-<step> (ptx-O0, ptx-as-built, ptx-from-nvcc, auto-clean,
auto-unroll[-cse[-mad[-licm]]], hand-base, hand-unroll[-cse[-mad[-licm]]]).

usage: scripts/report.py RESULT.json [RESULT.json ...] [--out-dir DIR]
           [--title TEXT] [--no-plots]
       DIR defaults to results/<gpu> of this checkout (<gpu>: the context's
       device name in lower case with dashes, e.g. nvidia-h200).
exit: 0 report written; 2 unreadable or unusable input, bad options, or
      matplotlib missing (python3-matplotlib; --no-plots writes the text only)
"""
import argparse
import importlib.util
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (scripts/compare.py: the Google Benchmark JSON reader)
import report_gaps  # noqa: E402  (profiler counters, compiler/runtime split, why each gap)
import report_skips  # noqa: E402  (skipped benchmarks without a row, partial files' heading)

REPO = os.path.dirname(HERE)
WORKLOAD_ORDER = ["bandwidth", "matrixMul", "cp", "mriq", "mrifhd"]
APIS = ("cuda", "opencl")
VENDOR = {"cublas": "cuBLAS", "clblast": "CLBlast"}
RATIO_TICKS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]
BEST_MARGIN = 0.02  # the text names a PTX variant as faster than its source beyond this
MAX_SIZES_PER_VARIANT = 4  # more sizes (bandwidth): the table and Fig. 5 show the extremes
# OpenCL-only variants derived from a base kernel through its PTX.
CHAINS = {
    "auto": ["ptx-O0", "auto-clean", "auto-unroll", "auto-unroll-cse", "auto-unroll-cse-mad",
             "auto-unroll-cse-mad-licm", "auto-unroll-cse-mad-licm-align"],
    "hand": ["ptx-O0", "hand-base", "hand-unroll", "hand-unroll-cse", "hand-unroll-cse-mad",
             "hand-unroll-cse-mad-licm"],
}
STEPS = ["-O0", "clean", "unroll", "cse", "mad", "licm", "align"]  # what CHAINS[c][i] adds
PTX_CONTROLS = ["ptx-as-built", "ptx-align", "ptx-ftz", "ptx-shared32", "ptx-from-nvcc"]
# CUDA-only cross-run rows (cuda/cross_runners.h): read by report_gaps.py, never
# "measured on one API only".
CROSS_SUFFIXES = ("-opencl-ptx", "-ptx-jit", "-opencl-cubin")
PTX_SUFFIXES = sorted({s for chain in CHAINS.values() for s in chain} | set(PTX_CONTROLS),
                      key=lambda s: (-len(s), s))
# The 2010 study (Tesla C1060, CUDA 2.3), as quoted in DESIGN.md: OpenCL time
# over CUDA time, and the matrixMul PTX chain's change of time per step (%).
STUDY_2010_RATIO = {"bandwidth": (1.0, "no gap"), "matrixMul": (4.2, "4.2"),
                    "cp": (3.0, "~3"), "mriq": (19.0, "~19"), "mrifhd": (19.0, "~19")}
STUDY_2010_STEPS = {"unroll": -48.0, "cse": -40.0, "mad": 0.0, "licm": -20.0}
FIGURES = {"ratio": "fig-ratio.png", "ptx": "fig-ptx-steps.png", "best": "fig-best-opencl.png",
           "bandwidth": "fig-bandwidth.png", "peak": "fig-peak.png"}
API_LABEL = {"cuda": "CUDA", "opencl": "OpenCL"}
STARTUP = "startup"  # the workload part of startup/<api>/<workload>-<variant>/<params>
COLD_PARAM = ("cache", "cold")
JIT_ENV = "env.CUDA_FORCE_PTX_JIT"
JIT_PART = "CUDA_FORCE_PTX_JIT=1"  # appended to the key of such a file's CUDA startup rows
NONE = "\u2013"  # an empty cell of the startup, cold and quality tables
SLOW_SAMPLE = 2.0  # a startup sample this many times the median is named
QUALITY_FLAGS = [("clock_flag", "SM clock below 90% of max"),
                 ("host_device_flag", "host wall clock and device time differ by >2%")]
QUALITY_RANGES = [("sm_mhz_min", "lowest SM clock", "MHz"),
                  ("power_w_after", "power after", "W"),
                  ("temp_c_after", "temperature after", "\u00b0C")]
MAX_LISTED = 10  # flagged benchmarks listed by name up to this many, else counted
NOT_COUNTERS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                "repetitions", "repetition_index", "threads", "iterations", "real_time",
                "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "error_occurred",
                "error_message", "skipped", "skip_message", "label"}
CONTEXT_KEYS = [  # (context key, label) shown under "Device and software"
    ("cuda.device", "GPU (CUDA)"), ("opencl.device", "GPU (OpenCL)"),
    ("cuda.driver", "driver"), ("cuda.runtime_version", "CUDA runtime"),
    ("cuda.nvcc_version", "nvcc"), ("cuda.nvcc_flags", "nvcc flags"),
    ("opencl.platform_version", "OpenCL platform"), ("opencl.device_version", "OpenCL device"),
    ("opencl.c_version", "OpenCL C"), ("opencl.build_options", "OpenCL build options"),
    ("gpucmp.math", "math"), ("cuda.fp32_peak_gflops", "FP32 peak (GFLOP/s)"),
    ("cuda.dram_peak_gbps", "DRAM peak (GB/s)"), ("cuda.link_peak_gbps", "link peak (GB/s)"),
    ("gpucmp.timing", "timing"), ("gpucmp.sampling", "sampling"), ("gpucmp.cache", "caches"),
    (JIT_ENV, "CUDA_FORCE_PTX_JIT"),
]


class InputError(Exception):
    """Bad input: exit 2 with one line."""


def fail(message):
    print(f"report: error: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- input


class Bench:
    """One measured benchmark: median time (ns), spread, and counters.

    counters: each counter's median over the repetitions; reps: the counters of
    each repetition (one entry where the file has only aggregates); jit: a CUDA
    startup row of a file run with CUDA_FORCE_PTX_JIT=1."""

    def __init__(self, key, parts, path, times, counters, cv=None, reps=None, jit=False):
        self.key = key
        self.reps = reps if reps is not None else [counters]
        self.jit = jit
        self.workload, self.api, self.variant, self.params = parts
        self.path = path
        self.times = times
        self.time = statistics.median(times)
        self.tmin, self.tmax = min(times), max(times)
        self.n = len(times)
        if self.n >= 2 and self.time > 0:
            self.spread, self.spread_kind = (self.tmax - self.tmin) / 2 / self.time, "range"
        elif cv is not None:
            self.spread, self.spread_kind = cv, "cv"
        else:
            self.spread, self.spread_kind = None, None
        self.counters = counters

    @property
    def size(self):
        return size_key(self.params)


def parse_name(key):
    """(workload, api, variant, params) of a gpucmp name, or None.

    params: tuple of (name, value) in name order; Google Benchmark's own parts
    (manual_time, real_time, repeats:N, threads:N) are dropped."""
    parts = key.split("/")
    if len(parts) < 3 or parts[1] not in APIS:
        return None
    params = []
    for p in parts[3:]:
        if ":" not in p:
            continue  # manual_time, real_time, process_time
        name, _, value = p.partition(":")
        if name in ("iterations", "repeats", "threads", "min_time", "min_warmup_time"):
            continue
        params.append((name, value))
    return parts[0], parts[1], parts[2], tuple(params)


def size_key(params):
    """Orders sizes: the product of the numeric parameters, then the values."""
    product = 1.0
    values = []
    for _, v in params:
        try:
            x = float(v)
            product *= x
            values.append((0, x, ""))
        except ValueError:
            values.append((1, 0.0, v))
    return (product, tuple(values))


def workload_rank(workload):
    if workload in WORKLOAD_ORDER:
        return (WORKLOAD_ORDER.index(workload), "")
    return (len(WORKLOAD_ORDER), workload)


def split_variant(variant):
    """(base, ptx suffix) for a PTX-derived OpenCL variant, else (variant, None)."""
    for suffix in PTX_SUFFIXES:
        if variant.endswith("-" + suffix) and len(variant) > len(suffix) + 1:
            return variant[: -len(suffix) - 1], suffix
    return variant, None


def numeric_counters(row):
    return {k: float(v) for k, v in row.items() if k not in NOT_COUNTERS
            and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}


def measure(path, key, entry, jit=False):
    """A Bench from compare.load's entry, or None where it has no time."""
    parts = parse_name(key)
    if entry["rows"]:
        rows = entry["rows"]
        times = [compare.value_of(path, key, r, "real_time") for r in rows]
        times = [t for t in times if t is not None]
        cv = None
    else:
        rows = [entry["aggregates"][a] for a in ("median", "mean") if a in entry["aggregates"]][:1]
        times = [compare.value_of(path, key, rows[0], "real_time")] if rows else []
        times = [t for t in times if t is not None]
        cv_row = entry["aggregates"].get("cv")
        cv = cv_row.get("real_time") if cv_row else None
        cv = float(cv) if isinstance(cv, (int, float)) and math.isfinite(cv) else None
    if not times:
        return None
    counters = {}
    for name in sorted({k for r in rows for k in r if k not in NOT_COUNTERS}):
        values = [r[name] for r in rows if isinstance(r.get(name), (int, float))
                  and not isinstance(r.get(name), bool) and math.isfinite(r[name])]
        if values:
            counters[name] = statistics.median(values)
    reps = [numeric_counters(r) for r in rows]
    if not entry["rows"] and reps:
        # Aggregates only: one entry; a flag counts where any repetition had it (mean
        # above 0), the noise target where every one met it (mean 1).
        mean = numeric_counters(entry["aggregates"].get("mean", {}))
        for flag, _ in QUALITY_FLAGS:
            if flag in mean:
                reps[0][flag] = 1.0 if mean[flag] > 0 else 0.0
        if "noise_met" in mean:
            reps[0]["noise_met"] = 1.0 if mean["noise_met"] >= 1 else 0.0
    return Bench(key, parts, path, times, counters, cv, reps, jit)


def is_cold(bench):
    return COLD_PARAM in bench.params


def without_cache(params):
    return tuple(p for p in params if p[0] != COLD_PARAM[0])


def cold_key(key, entry):
    """The key of an older cold row named without cache:cold (its counter cold is 1),
    with /cache:cold after its last parameter; else key."""
    parsed = parse_name(key)
    if parsed is None or COLD_PARAM in parsed[3]:
        return key
    rows = entry["rows"] or [entry["aggregates"][a] for a in ("median", "mean")
                             if a in entry["aggregates"]][:1]
    if not any(numeric_counters(r).get("cold") == 1 for r in rows):
        return key
    parts = key.split("/")
    last = max([i for i, p in enumerate(parts) if i >= 3 and ":" in p], default=2)
    return "/".join(parts[: last + 1] + [":".join(COLD_PARAM)] + parts[last + 1:])


def load_all(paths):
    """(contexts [(path, context, rows)], {key: Bench}, not measured [(key, reason, path)])."""
    contexts = []
    latest = {}  # key -> (path, entry, jit); the later file wins
    for path in paths:
        try:
            context, entries = compare.load(path, ignore_iterations=True)
        except compare.InputError as e:
            raise InputError(str(e)) from e
        contexts.append((path, context, len(entries)))
        jit = str(context.get(JIT_ENV, "")).strip() == "1"
        for key, entry in entries.items():
            key = cold_key(key, entry)
            forced = jit and key.startswith(f"{STARTUP}/cuda/")
            if forced:  # kept beside the same row of a file without it
                key = f"{key}/{JIT_PART}"
            latest[key] = (path, entry, forced)
    benches, missing = {}, []
    for key in sorted(latest):
        path, entry, jit = latest[key]
        if parse_name(key) is None:
            continue  # not a gpucmp benchmark name
        if entry["skipped"]:
            missing.append((key, entry["skipped"], path))
            continue
        if entry["error"]:
            missing.append((key, entry["error"], path))
            continue
        try:
            bench = measure(path, key, entry, jit)
        except compare.InputError as e:
            raise InputError(str(e)) from e
        if bench is None:
            missing.append((key, "no real_time in its rows", path))
        else:
            benches[key] = bench
    return contexts, benches, missing


# ---------------------------------------------------------------- analysis


class Data:
    """The measured benchmarks, indexed for the report: by_id holds the kernel and
    transfer times (hot); startup and cold rows are apart and enter no pair."""

    def __init__(self, benches):
        self.by_id = {}  # (workload, api, variant, params) -> Bench
        self.startup, self.cold = [], []
        self.all = [benches[k] for k in sorted(benches)]
        for b in self.all:
            if b.workload == STARTUP:
                self.startup.append(b)
            elif is_cold(b):
                self.cold.append(b)
            else:
                self.by_id[(b.workload, b.api, b.variant, b.params)] = b

    def get(self, workload, api, variant, params):
        return self.by_id.get((workload, api, variant, params))

    def ids(self, api=None):
        return sorted((k for k in self.by_id if api is None or k[1] == api),
                      key=lambda k: (workload_rank(k[0]), k[2], size_key(k[3]), k[1]))


def ratio_of(cuda, opencl):
    """(OpenCL/CUDA time, lowest, highest) over the repetitions' extremes."""
    return (opencl.time / cuda.time, opencl.tmin / cuda.tmax, opencl.tmax / cuda.tmin)


def pairs(data):
    """Paired benchmarks [(workload, variant, params, cuda, opencl)], vendor and PTX
    variants excepted, in report order."""
    out = []
    for workload, _, variant, params in data.ids("cuda"):
        if variant in VENDOR or split_variant(variant)[1]:
            continue
        opencl = data.get(workload, "opencl", variant, params)
        if opencl is not None:
            out.append((workload, variant, params, data.get(workload, "cuda", variant, params),
                        opencl))
    return out


def shown_pairs(all_pairs):
    """Pairs of the table and Fig. 5: every size, or the smallest and largest where a
    variant has more than MAX_SIZES_PER_VARIANT sizes."""
    sizes = {}
    for p in all_pairs:
        sizes.setdefault((p[0], p[1]), []).append(p[2])
    out = []
    for p in all_pairs:
        s = sorted(sizes[(p[0], p[1])], key=size_key)
        if len(s) <= MAX_SIZES_PER_VARIANT or p[2] in (s[0], s[-1]):
            out.append(p)
    return out


def largest_pairs(all_pairs):
    """The pair of the largest size of each workload/variant."""
    best = {}
    for p in all_pairs:
        k = (p[0], p[1])
        if k not in best or size_key(p[2]) > size_key(best[k][2]):
            best[k] = p
    return [p for p in all_pairs if best[(p[0], p[1])] is p]


def ptx_bases(data):
    """{(workload, base): [params with any PTX-derived variant]}"""
    out = {}
    for workload, _, variant, params in data.ids("opencl"):
        base, suffix = split_variant(variant)
        if suffix:
            out.setdefault((workload, base), set()).add(params)
    return {k: sorted(v, key=size_key) for k, v in sorted(
        out.items(), key=lambda kv: (workload_rank(kv[0][0]), kv[0][1]))}


def most_varied(data, workload, base, sizes):
    """Of `sizes`, the one with the most PTX variants of `base` (the largest on a tie):
    the chains may be measured at one size only."""
    def count(params):
        return sum(1 for (w, api, v, p) in data.by_id if w == workload and api == "opencl"
                   and p == params and split_variant(v) != (v, None) and split_variant(v)[0] == base)
    return max(sizes, key=lambda p: (count(p), size_key(p)))


def chain_steps(data, workload, base, params, chain):
    """[(step, variant, Bench or None, change vs the previous step or None)] of a chain."""
    out = []
    prev = None
    for step, suffix in zip(STEPS, CHAINS[chain]):
        bench = data.get(workload, "opencl", f"{base}-{suffix}", params)
        change = None
        if bench is not None and prev is not None and prev.time > 0:
            change = bench.time / prev.time - 1
        out.append((step, f"{base}-{suffix}", bench, change))
        prev = bench
    return out


def ptx_analysis(data):
    """Per (workload, base) at the largest size with PTX variants: the controls and
    both chains. [{workload, base, params, cuda, source, controls, chains}]"""
    out = []
    for (workload, base), sizes in ptx_bases(data).items():
        params = most_varied(data, workload, base, sizes)
        controls = [(s, data.get(workload, "opencl", f"{base}-{s}", params))
                    for s in ["ptx-O0"] + PTX_CONTROLS]
        chains = {c: chain_steps(data, workload, base, params, c) for c in CHAINS}
        out.append({"workload": workload, "base": base, "params": params,
                    "cuda": data.get(workload, "cuda", base, params),
                    "source": data.get(workload, "opencl", base, params),
                    "controls": [(s, b) for s, b in controls if b is not None],
                    "chains": {c: steps for c, steps in chains.items()
                               if any(b is not None for _, _, b, _ in steps[1:])}})
    return out


def best_opencl(data):
    """CUDA against the fastest OpenCL variant of the same kernel (the source or one of
    its PTX variants), per CUDA kernel (transfers excepted), at the largest size where
    PTX variants exist (else the largest paired size).
    [(workload, variant, params, cuda, source, best)]"""
    bases = ptx_bases(data)
    out = []
    for workload, variant, params, cuda, source in largest_pairs(pairs(data)):
        if workload == "bandwidth":
            continue  # transfers have no kernel to vary
        sizes = [p for p in bases.get((workload, variant), [])
                 if data.get(workload, "cuda", variant, p)]
        if sizes:
            params = most_varied(data, workload, variant, sizes)
            cuda = data.get(workload, "cuda", variant, params)
            source = data.get(workload, "opencl", variant, params)
        candidates = [b for (w, api, v, p), b in data.by_id.items()
                      if w == workload and api == "opencl" and p == params
                      and (v == variant or (split_variant(v)[0] == variant
                                            and split_variant(v)[1] is not None))]
        if not candidates:
            continue
        best = min(candidates, key=lambda b: (b.time, b.variant))
        out.append((workload, variant, params, cuda, source, best))
    return out


def vendor_rows(data):
    """[(params, cuBLAS Bench or None, CLBlast Bench or None, tiled CUDA of the size)]"""
    sizes = sorted({k[3] for k in data.by_id if k[2] in VENDOR and k[0] == "matrixMul"},
                   key=size_key)
    out = []
    for params in sizes:
        tiled = [data.get("matrixMul", "cuda", v, params) for v in ("tile16", "tile32")]
        tiled = [b for b in tiled if b is not None]
        out.append((params, data.get("matrixMul", "cuda", "cublas", params),
                    data.get("matrixMul", "opencl", "clblast", params),
                    min(tiled, key=lambda b: b.time) if tiled else None))
    return out


def bandwidth_series(data):
    """{(direction, kind, api): [(bytes, GB/s)]} of the bandwidth workload."""
    out = {}
    for key in data.ids():
        workload, api, variant, params = key
        if workload != "bandwidth":
            continue
        b = data.by_id[key]
        nbytes = dict(params).get("bytes")
        try:
            nbytes = float(nbytes)
        except (TypeError, ValueError):
            continue
        rate = b.counters.get("GB/s")
        if rate is None and b.time > 0:
            rate = nbytes / b.time  # bytes per ns = GB/s
        direction, _, kind = variant.partition("-")
        out.setdefault((direction, kind, api), []).append((nbytes, rate))
    return {k: sorted(v) for k, v in sorted(out.items())}


def startup_split(variant):
    """(workload, variant) of a startup row's <workload>-<variant>."""
    workload, _, rest = variant.partition("-")
    return workload, rest


STARTUP_COLUMNS = [  # (key, API, variant suffix, counter)
    ("build_source", "opencl", None, "build_ms"),
    ("build_own_ptx", "opencl", "ptx-as-built", "build_ms"),
    ("build_nvcc_ptx", "opencl", "ptx-from-nvcc", "build_ms"),
    ("ptx_load", "cuda", None, "ptx_load_ms"),
    ("context", "cuda", None, "context_ms"),
]


def first_launch(bench):
    """(median first launch, slowest first launch or None) in ms of a startup row. The
    slowest is the row's max_us where the time is the first launch alone (no build)."""
    first = bench.counters.get("first_launch_ms")
    slowest = None
    if first is not None and "build_ms" not in bench.counters and "max_us" in bench.counters:
        slowest = bench.counters["max_us"] / 1e3
    return first, slowest


def startup_rows(data):
    """One entry per kernel (workload, base variant, params) of the startup rows:
    {workload, base, params, build_source, build_own_ptx, build_nvcc_ptx, ptx_load,
    context (ms or None), overhead: {api: first - second launch ms}, first, first_jit:
    (median, slowest) CUDA first launch without and with CUDA_FORCE_PTX_JIT=1 or None}"""
    index = {}
    for b in data.startup:
        workload, variant = startup_split(b.variant)
        index[(b.api, b.jit, workload, variant, b.params)] = b
    kernels = sorted({(w, split_variant(v)[0], p) for _, _, w, v, p in index},
                     key=lambda k: (workload_rank(k[0]), k[1], size_key(k[2])))
    out = []
    for workload, base, params in kernels:
        row = {"workload": workload, "base": base, "params": params}
        for name, api, suffix, counter in STARTUP_COLUMNS:
            b = index.get((api, False, workload, f"{base}-{suffix}" if suffix else base, params))
            row[name] = b.counters.get(counter) if b is not None else None
        row["overhead"] = {}
        for api in APIS:
            b = index.get((api, False, workload, base, params))
            if b is not None and {"first_launch_ms", "second_launch_ms"} <= set(b.counters):
                row["overhead"][api] = (b.counters["first_launch_ms"]
                                        - b.counters["second_launch_ms"])
        for name, jit in (("first", False), ("first_jit", True)):
            b = index.get(("cuda", jit, workload, base, params))
            row[name] = first_launch(b) if b is not None else None
            if row[name] is not None and row[name][0] is None:
                row[name] = None
        out.append(row)
    return out


def cold_rows(data):
    """[(cold Bench, hot Bench or None)] in report order: the hot row is the same
    name without cache:cold."""
    out = []
    for b in sorted(data.cold, key=lambda b: (workload_rank(b.workload), b.variant,
                                               size_key(without_cache(b.params)), b.api)):
        out.append((b, data.get(b.workload, b.api, b.variant, without_cache(b.params))))
    return out


def quality_groups(data):
    """[(name, [Bench])] of the rows with measurement counters: hot, cold, startup."""
    groups = [("kernels and transfers", [data.by_id[k] for k in data.ids()]),
              ("cold caches", [b for b, _ in cold_rows(data)]),
              ("startup", data.startup)]
    return [(name, benches) for name, benches in groups if benches]


# ---------------------------------------------------------------- formatting


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def fmt_bytes(n):
    n = float(n)
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n:g} B"


def fmt_params(params):
    return " ".join(fmt_bytes(v) if k == "bytes" else f"{k}={v}" for k, v in params)


def fmt_ratio(r):
    if r is None or not math.isfinite(r):
        return "-"
    return f"{r:.2f}" if r >= 0.095 else f"{r:.3f}"


def fmt_range(values):
    lo, hi = fmt_ratio(min(values)), fmt_ratio(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def fmt_pct(x, signed=True):
    if x is None:
        return "-"
    return f"{x * 100:+.1f}%" if signed else f"{x * 100:.1f}%"


def fmt_rate(b):
    if "GFLOP/s" in b.counters:
        g = b.counters["GFLOP/s"]
        return f"{g / 1000:.3g} TFLOP/s" if g >= 1000 else f"{g:.3g} GFLOP/s"
    if "GB/s" in b.counters:
        return f"{b.counters['GB/s']:.4g} GB/s"
    return ""


def fmt_bench(b, rate=True):
    """'16.89 ms ±0.1% (8.14 TFLOP/s)'"""
    if b is None:
        return "-"
    text = fmt_time(b.time)
    if b.spread is not None:
        text += f" ±{b.spread * 100:.2g}%" if b.spread_kind == "range" else \
            f" (cv {b.spread * 100:.2g}%)"
    r = fmt_rate(b) if rate else ""
    return f"{text} ({r})" if r else text


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def fmt_ms(ms):
    return NONE if ms is None else fmt_time(ms * 1e6)


def fmt_cv(cv):
    if cv is None:
        return NONE
    return f"{cv * 100:.0f}%" if cv >= 0.995 else f"{cv * 100:.2g}%"


def fmt_first(first):
    """'358 us' or '358 us (slowest 31.5 ms)' of (median, slowest) ms."""
    if first is None:
        return NONE
    median, slowest = first
    text = fmt_ms(median)
    if slowest is not None and median > 0 and slowest > SLOW_SAMPLE * median:
        text += f" (slowest {fmt_ms(slowest)})"
    return text


def short_name(bench):
    """The benchmark's name without Google Benchmark's parts (manual_time)."""
    parts = bench.key.split("/")
    return "/".join(p for i, p in enumerate(parts) if i < 3 or ":" in p or p == JIT_PART)


def fmt_peak(b):
    return "-" if b is None or "pct_peak" not in b.counters else f"{b.counters['pct_peak']:.1f}"


def label_of(workload, variant, params):
    return f"{workload} {variant} {fmt_params(params)}".strip()


def md_table(header, rows, right=()):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def slug(text):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "unknown-gpu"


# ---------------------------------------------------------------- figures


class Plotter:
    """Writes the PNG figures with matplotlib's Agg backend, reproducibly."""

    def __init__(self, out_dir):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        matplotlib.rcParams.update({
            "svg.hashsalt": "gpucmp", "font.size": 9, "axes.titlesize": 10,
            "figure.dpi": 100, "savefig.dpi": 100, "path.simplify": False,
        })
        self.plt = plt
        self.out_dir = out_dir
        cmap = matplotlib.colormaps["tab10"] if hasattr(matplotlib, "colormaps") else \
            plt.get_cmap("tab10")
        self.colors = [cmap(i) for i in range(10)]

    def save(self, fig, name):
        path = os.path.join(self.out_dir, name)
        fig.savefig(path, dpi=100, bbox_inches="tight", pad_inches=0.15,
                    metadata={"Software": None})
        self.plt.close(fig)
        return path

    def workload_color(self, workload):
        return self.colors[workload_rank(workload)[0] % 10] if workload in WORKLOAD_ORDER \
            else self.colors[(len(WORKLOAD_ORDER) + sum(map(ord, workload))) % 10]

    @staticmethod
    def ratio_limits(values):
        lo = min(min(values), 1.0)
        hi = max(max(values), 1.0)
        return lo / 1.8, hi * 1.8

    def ratio_bars(self, ax, labels, series, title):
        """Horizontal bars of OpenCL/CUDA ratios anchored at 1 on a log axis.

        series: [(legend or None, [ratio], [(lo, hi) or None], [color], hatch)]"""
        n = len(labels)
        height = 0.8 / len(series)
        all_values = [1.0]
        for si, (legend, ratios, ranges, colors, alpha) in enumerate(series):
            ys = [i - 0.4 + height * (si + 0.5) for i in range(n)]
            ax.barh(ys, [r - 1 for r in ratios], left=1, height=height * 0.9, color=colors,
                    alpha=alpha, label=legend, edgecolor="black", linewidth=0.4)
            for y, r, rng in zip(ys, ratios, ranges):
                if rng is not None and rng[1] > rng[0]:
                    ax.plot([rng[0], rng[1]], [y, y], color="black", linewidth=0.8)
                    all_values += [rng[0], rng[1]]
                all_values.append(r)
                end = max(r, rng[1]) if rng is not None and r >= 1 else \
                    (min(r, rng[0]) if rng is not None else r)
                right = r >= 0.995
                ax.text(end * (1.06 if right else 1 / 1.06), y, fmt_ratio(r),
                        va="center", ha="left" if right else "right", fontsize=7.5)
        ax.set_xscale("log")
        ax.set_xlim(*self.ratio_limits(all_values))
        ax.axvline(1.0, color="black", linewidth=1)
        ax.set_yticks(range(n))
        ax.set_yticklabels(labels)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlabel("OpenCL time / CUDA time (>1: CUDA faster, <1: OpenCL faster)")
        ax.set_title(title)
        ax.grid(axis="x", which="both", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
        import matplotlib.ticker as ticker
        ax.xaxis.set_major_locator(ticker.FixedLocator(RATIO_TICKS))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())

    def fig_ratio(self, shown):
        labels = [label_of(w, v, p) for w, v, p, _, _ in shown]
        ratios = [ratio_of(c, o) for _, _, _, c, o in shown]
        fig, ax = self.plt.subplots(figsize=(9, 1.2 + 0.28 * len(shown)))
        self.ratio_bars(ax, labels, [(None, [r[0] for r in ratios], [r[1:] for r in ratios],
                                      [self.workload_color(p[0]) for p in shown], 0.85)],
                        "CUDA against OpenCL, same kernel and launch geometry "
                        "(bar: median; line: range of repetitions)")
        return self.save(fig, FIGURES["ratio"])

    def fig_best(self, rows):
        labels = []
        for w, v, p, _, source, best in rows:
            near = source is not None and best is not source and \
                best.time >= source.time * (1 - BEST_MARGIN)
            labels.append(f"{label_of(w, v, p)}\nbest: "
                          + ("the source kernel" if best is source else best.variant)
                          + (f" (source within {BEST_MARGIN:.0%})" if near else ""))
        src = [(o.time / c.time) if o is not None else float("nan") for _, _, _, c, o, _ in rows]
        best = [b.time / c.time for _, _, _, c, _, b in rows]
        fig, ax = self.plt.subplots(figsize=(9, 1.4 + 0.55 * len(rows)))
        series = [(None, src, [None] * len(rows), ["0.75"] * len(rows), 1.0),
                  (None, best, [None] * len(rows),
                   [self.workload_color(r[0]) for r in rows], 0.9)]
        self.ratio_bars(ax, labels, series, "CUDA against the fastest OpenCL variant")
        from matplotlib.patches import Patch
        handles = [Patch(facecolor="0.75", edgecolor="black", linewidth=0.4),
                   Patch(facecolor=self.colors[1], edgecolor="black", linewidth=0.4)]
        ax.legend(handles, ["OpenCL source kernel",
                            "fastest OpenCL variant: the source or one of its PTX variants "
                            "(colour: workload)"],
                  loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=1, fontsize=8,
                  frameon=False)
        return self.save(fig, FIGURES["best"])

    def fig_ptx(self, analyses):
        from matplotlib.patches import Patch
        panels = [a for a in analyses if any(
            ch is not None for steps in a["chains"].values() for _, _, _, ch in steps[2:])]
        if not panels:
            return None
        cols = min(3, len(panels))
        rows = (len(panels) + cols - 1) // cols
        fig, axes = self.plt.subplots(rows, cols, figsize=(max(6.5, 4.4 * cols), 3.5 * rows),
                                      squeeze=False)
        steps = STEPS[2:]
        chain_names = sorted(CHAINS)
        legend = {}
        for idx, a in enumerate(panels):
            ax = axes[idx // cols][idx % cols]
            groups = [c for c in chain_names if c in a["chains"]]
            reference = a["workload"] == "matrixMul"
            width = 0.8 / (len(groups) + reference)
            values = [0.0]
            for gi, chain in enumerate(groups):
                ci = chain_names.index(chain)
                changes = {s: ch for s, _, _, ch in a["chains"][chain]}
                for i, step in enumerate(steps):
                    x = i - 0.4 + width * (gi + 0.5)
                    y = changes.get(step)
                    if y is None:
                        ax.text(x, 0, "n/a", ha="center", va="bottom", fontsize=6.5,
                                rotation=90, color="0.4")
                        continue
                    ax.bar(x, y * 100, width=width * 0.9, color=self.colors[ci],
                           edgecolor="black", linewidth=0.4)
                    ax.text(x, y * 100, f"{y * 100:+.1f}" if abs(y) < 0.095 else
                            f"{y * 100:+.0f}", ha="center",
                            va="bottom" if y >= 0 else "top", fontsize=6.5)
                    values.append(y * 100)
                legend[f"{chain} chain"] = Patch(facecolor=self.colors[ci], edgecolor="black",
                                                 linewidth=0.4)
            if reference:
                xs = [i - 0.4 + width * (len(groups) + 0.5) for i in range(len(steps))]
                studied = [(x, STUDY_2010_STEPS[s]) for x, s in zip(xs, steps)
                           if s in STUDY_2010_STEPS]  # align: a step the study did not need
                ys = [y for _, y in studied]
                ax.bar([x for x, _ in studied], ys, width=width * 0.9, color="white",
                       edgecolor="black", hatch="///", linewidth=0.6)
                values += ys
                legend["2010 study, matrixMul by hand (C1060)"] = Patch(
                    facecolor="white", edgecolor="black", hatch="///", linewidth=0.6)
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_xticks(range(len(steps)))
            ax.set_xticklabels([f"+{s}" for s in steps])
            lo, hi = min(values), max(values)
            pad = max(6.0, (hi - lo) * 0.12)
            ax.set_ylim(lo - pad, hi + pad)
            ax.set_title(f"{a['workload']} {a['base']}, {fmt_params(a['params'])}")
            ax.grid(axis="y", color="0.9", linewidth=0.6)
            ax.set_axisbelow(True)
            if idx % cols == 0:
                ax.set_ylabel("time change vs previous step (%)")
        for idx in range(len(panels), rows * cols):
            axes[idx // cols][idx % cols].set_visible(False)
        fig.suptitle("OpenCL PTX optimization steps, each against the previous one "
                     "(negative: faster)")
        fig.tight_layout(rect=(0, 0.06 if rows == 1 else 0.03, 1, 1))
        fig.legend(list(legend.values()), list(legend), loc="lower center", ncol=len(legend),
                   fontsize=8, frameon=False)
        return self.save(fig, FIGURES["ptx"])

    def fig_bandwidth(self, series):
        directions = sorted({d for d, _, _ in series},
                            key=lambda d: (["h2d", "d2h", "d2d"] + [d]).index(d))
        kinds = sorted({k for _, k, _ in series})
        fig, axes = self.plt.subplots(1, len(directions), figsize=(4.4 * len(directions), 3.8),
                                      squeeze=False)
        styles = {"cuda": ("-", "o"), "opencl": ("--", "s")}
        for ax, direction in zip(axes[0], directions):
            for (d, kind, api), points in series.items():
                if d != direction:
                    continue
                line, marker = styles.get(api, (":", "^"))
                ax.plot([p[0] for p in points], [p[1] for p in points], linestyle=line,
                        marker=marker, markersize=3, linewidth=1.2,
                        color=self.colors[kinds.index(kind) % 10],
                        label=f"{API_LABEL.get(api, api)} {kind or direction}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("transfer size")
            ax.set_title(direction + (" (read + write counted)" if direction == "d2d" else ""))
            ax.grid(which="major", color="0.88", linewidth=0.6)
            import matplotlib.ticker as ticker
            ax.xaxis.set_major_locator(ticker.LogLocator(base=2, numticks=40))
            lo = min(p[0] for (d, _, _), pts in series.items() if d == direction for p in pts)
            hi = max(p[0] for (d, _, _), pts in series.items() if d == direction for p in pts)
            ax.set_xticks([t for t in (4 ** i for i in range(0, 20)) if lo <= t <= hi])
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: fmt_bytes(v)
                                                              .replace(" ", "")))
            ax.xaxis.set_minor_formatter(ticker.NullFormatter())
            for tick in ax.get_xticklabels():
                tick.set_rotation(45)
                tick.set_ha("right")
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            ax.legend(fontsize=7, loc="lower right")
        axes[0][0].set_ylabel("GB/s (1e9 B/s)")
        fig.suptitle("Bandwidth against transfer size (solid: CUDA, dashed: OpenCL)")
        fig.tight_layout()
        return self.save(fig, FIGURES["bandwidth"])

    def fig_peak(self, entries):
        """entries: [(label, {api: pct})]"""
        n = len(entries)
        fig, ax = self.plt.subplots(figsize=(9, 1.3 + 0.34 * n))
        height = 0.4
        top = 0.0
        for ai, api in enumerate(APIS):
            ys = [i - 0.2 + height * ai for i in range(n)]
            vals = [e[1].get(api) for e in entries]
            ys_v = [(y, v) for y, v in zip(ys, vals) if v is not None]
            ax.barh([y for y, _ in ys_v], [v for _, v in ys_v], height=height * 0.9,
                    color=self.colors[ai], label=API_LABEL[api], edgecolor="black",
                    linewidth=0.4)
            for y, v in ys_v:
                ax.text(v + 0.8, y, f"{v:.1f}", va="center", fontsize=7)
                top = max(top, v)
        ax.set_yticks(range(n))
        ax.set_yticklabels([e[0] for e in entries])
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0, max(100.0, top) * 1.1)
        ax.axvline(100, color="0.5", linewidth=0.8, linestyle=":")
        ax.set_xlabel("% of peak (FP32 for compute kernels, DRAM or PCIe link for transfers)")
        ax.set_title("Fraction of peak per kernel and API")
        ax.grid(axis="x", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(loc="lower right", fontsize=8)
        return self.save(fig, FIGURES["peak"])


# ---------------------------------------------------------------- report


def peak_entries(data, all_pairs):
    """[(label, {api: pct_peak})] of the largest size of each pair and vendor library."""
    entries = []
    for w, v, p, c, o in largest_pairs(all_pairs):
        vals = {api: b.counters["pct_peak"] for api, b in (("cuda", c), ("opencl", o))
                if "pct_peak" in b.counters}
        if vals:
            entries.append((label_of(w, v, p), vals))
    vendor = vendor_rows(data)
    if vendor:
        params, cublas, clblast, _ = vendor[-1]
        vals = {api: b.counters["pct_peak"] for api, b in (("cuda", cublas), ("opencl", clblast))
                if b is not None and "pct_peak" in b.counters}
        if vals:
            entries.append((f"matrixMul cuBLAS/CLBlast {fmt_params(params)}", vals))
    return entries


def changed_text(data, all_pairs, analyses, best_rows):
    """The bullets of 'What changed since 2010', from the numbers."""
    out = []
    by_workload = {}
    for p in all_pairs:
        by_workload.setdefault(p[0], []).append(p)
    for workload in sorted(by_workload, key=workload_rank):
        ps = by_workload[workload]
        ratios = [ratio_of(c, o)[0] for _, _, _, c, o in ps]
        ref = STUDY_2010_RATIO.get(workload)
        ref_text = f" (2010: {ref[1]})" if ref else ""
        faster = sum(r > 1 for r in ratios)
        if workload == "bandwidth":
            big = largest_pairs(ps)
            small = [p for p in ps if size_key(p[2]) == min(size_key(q[2]) for q in ps)]
            rs = [ratio_of(c, o)[0] for _, _, _, c, o in small]
            same = len({p for _, _, p, _, _ in big}) == 1
            parts = ", ".join(f"{v}{'' if same else ' ' + fmt_params(p)} "
                              f"{fmt_ratio(ratio_of(c, o)[0])}" for _, v, p, c, o in big)
            out.append(f"- **bandwidth**{ref_text}: OpenCL/CUDA time at the largest transfer"
                       f"{f' ({fmt_params(big[0][2])})' if same else ''}: {parts}; at the "
                       f"smallest ({fmt_params(small[0][2])}): {fmt_range(rs)}.")
            off = [v for _, v, _, c, o in big if not 0.9 <= ratio_of(c, o)[0] <= 1.1]
            if not off:
                out.append("  Large transfers: OpenCL within 10% of CUDA on every kind, as in "
                           "2010.")
            else:
                out.append(f"  Large transfers: {len(big) - len(off)} of {len(big)} kinds within "
                           f"10% of CUDA, as in 2010; not {', '.join(off)}.")
            if min(rs) > 1.5:
                out.append(f"  Small transfers take {fmt_range(rs)}x the CUDA time through "
                           "OpenCL (a fixed cost per copy).")
            continue
        largest = largest_pairs(ps)
        if len({p for _, _, p, _, _ in largest}) == 1:
            parts = f"{fmt_params(largest[0][2])}: " + ", ".join(
                f"{v} {fmt_ratio(ratio_of(c, o)[0])}" for _, v, _, c, o in largest)
        else:
            parts = ", ".join(f"{v} {fmt_params(p)} {fmt_ratio(ratio_of(c, o)[0])}"
                              for _, v, p, c, o in largest)
        line = f"- **{workload}**{ref_text}: OpenCL/CUDA time at the largest size, {parts}"
        if len(ps) > len(largest):
            line += f"; over all {len(ps)} pairs {fmt_range(ratios)}"
        line += f". CUDA is faster in {faster} of {len(ps)} pairs."
        if ref and ref[0] > 1.5:
            if max(ratios) < ref[0] / 2:
                line += f" Every pair is below half the 2010 gap ({ref[1]})."
            else:
                kept = sum(r >= ref[0] / 2 for r in ratios)
                line += (f" {kept} of {len(ratios)} pairs {'keeps' if kept == 1 else 'keep'} at "
                         f"least half the 2010 gap ({ref[1]}).")
        out.append(line)
    for a in analyses:
        for chain, steps in sorted(a["chains"].items()):
            changes = [(s, ch) for s, _, _, ch in steps[1:] if ch is not None]
            if not changes:
                continue
            text = ", ".join(f"{s} {fmt_pct(ch)}" for s, ch in changes)
            line = (f"- PTX steps, {a['workload']} {a['base']} {fmt_params(a['params'])}, "
                    f"{chain} chain from ptx-O0: {text}")
            if a["workload"] == "matrixMul":
                line += " (2010, hand: " + ", ".join(
                    f"{s} {v:+.0f}%" for s, v in STUDY_2010_STEPS.items()) + ")"
            last = next((b for _, _, b, _ in reversed(steps) if b is not None), None)
            if last is not None and a["cuda"] is not None:
                line += (f"; the last step ({last.variant}) over CUDA: "
                         f"{fmt_ratio(last.time / a['cuda'].time)}")
            out.append(line + ".")
        for suffix, b in a["controls"]:
            if suffix == "ptx-from-nvcc" and a["cuda"] is not None:
                out.append(f"- nvcc's PTX of {a['workload']} {a['base']} loaded through OpenCL "
                           f"({fmt_params(a['params'])}): OpenCL/CUDA time "
                           f"{fmt_ratio(b.time / a['cuda'].time)}.")
    for w, v, p, c, o, best in best_rows:
        if o is not None and best.time < o.time * (1 - BEST_MARGIN):
            out.append(f"- {w} {v} {fmt_params(p)}: the fastest OpenCL variant is {best.variant}, "
                       f"OpenCL/CUDA {fmt_ratio(best.time / c.time)} (source kernel: "
                       f"{fmt_ratio(o.time / c.time)}).")
    vendor = [r for r in vendor_rows(data) if r[1] is not None and r[2] is not None]
    if vendor:
        params, cublas, clblast, _ = vendor[-1]
        out.append(f"- Vendor SGEMM, {fmt_params(params)}: CLBlast/cuBLAS time "
                   f"{fmt_ratio(clblast.time / cublas.time)} (different libraries, not one "
                   "kernel; no 2010 counterpart).")
    return out


def fmt_ms_range(values):
    lo, hi = fmt_ms(min(values)), fmt_ms(max(values))
    return lo if lo == hi else f"{lo} to {hi}"


def startup_section(data, contexts):
    """The lines of 'Startup: build, module load and first launch' ([] without rows)."""
    rows = startup_rows(data)
    if not rows:
        return []
    jit = any(r["first_jit"] for r in rows)
    samples = sorted({int(b.counters["samples"]) for b in data.startup if "samples" in b.counters})
    md = ["Each sample starts fresh (OpenCL: the program is built again; CUDA: the context is "
          "re-created, so the module loads again at the first launch); values are medians over "
          + (f"{samples[0]} samples" if len(samples) == 1 else "the samples")
          + ". OpenCL builds from source for the plain variant, from its own PTX "
          "(`-ptx-as-built`) or from nvcc's PTX (`-ptx-from-nvcc`) through "
          "`clCreateProgramWithBinary`. CUDA PTX module load: nvcc's PTX of the variant "
          "(precise-math variants only) loaded with `cudaLibraryLoadData` (the driver's JIT), "
          "not part of CUDA's startup; nor is creating the CUDA context. First-launch "
          "overhead: first launch minus second launch (host wall clock).", ""]
    header = ["kernel", "size", "OpenCL build from source",
              "OpenCL build from its own PTX (ptx-as-built)", "OpenCL build from nvcc's PTX",
              "CUDA PTX module load", "CUDA context", "first-launch overhead CUDA",
              "first-launch overhead OpenCL"]
    if jit:
        header += ["CUDA first launch", "CUDA first launch, CUDA_FORCE_PTX_JIT=1"]
    table = []
    for r in rows:
        line = [f"{r['workload']} {r['base']}".strip(), fmt_params(r["params"])]
        line += [fmt_ms(r[name]) for name, _, _, _ in STARTUP_COLUMNS]
        line += [fmt_ms(r["overhead"].get(api)) for api in APIS]
        if jit:
            line += [fmt_first(r["first"]), fmt_first(r["first_jit"])]
        table.append(line)
    md += md_table(header, table, right=tuple(range(2, len(header))))
    md.append("")

    def values(name):
        return [r[name] for r in rows if r[name] is not None]

    medians = []
    for name, label in (("build_source", "OpenCL build from source"),
                        ("build_own_ptx", "from its own PTX"),
                        ("build_nvcc_ptx", "from nvcc's PTX"),
                        ("ptx_load", "CUDA PTX module load (driver JIT)"),
                        ("context", "CUDA context creation")):
        if values(name):
            medians.append(f"{label} {fmt_ms(statistics.median(values(name)))} "
                           f"({plural(len(values(name)), 'kernel')})")
    text = []
    if medians:
        text.append("Median over kernels: " + "; ".join(medians) + ".")
    ratios = []
    for num, den, label in (("build_own_ptx", "build_source",
                             "the OpenCL build from its own PTX takes"),
                            ("build_source", "ptx_load",
                             "the OpenCL build from source takes")):
        rs = [r[num] / r[den] for r in rows if r[num] is not None and r[den]]
        if rs:
            other = "its build from source" if den == "build_source" else \
                "the CUDA PTX module load"
            ratios.append(f"{label} {fmt_range(rs)}x {other} ({plural(len(rs), 'kernel')})")
    if ratios:
        text.append("Per kernel, " + "; ".join(ratios) + ".")
    overheads = []
    for api in APIS:
        vs = [r["overhead"][api] for r in rows if api in r["overhead"]]
        if vs:
            overheads.append(f"{API_LABEL[api]} {fmt_ms(statistics.median(vs))} "
                             f"({fmt_ms_range(vs)}, {plural(len(vs), 'kernel')})")
    if overheads:
        text.append("First-launch overhead, median over kernels: " + "; ".join(overheads) + ".")
    if jit:
        files = [p for p, c, _ in contexts if str(c.get(JIT_ENV, "")).strip() == "1"]
        both = [r for r in rows if r["first"] and r["first_jit"]]
        line = "With CUDA_FORCE_PTX_JIT=1 (" + ", ".join(f"`{p}`" for p in files) + ")"
        if both:
            with_jit = statistics.median(r["first_jit"][0] for r in both)
            without = statistics.median(r["first"][0] for r in both)
            line += (f": median CUDA first launch {fmt_ms(with_jit)} against {fmt_ms(without)} "
                     f"without ({plural(len(both), 'kernel')})")
        slow = {}
        for name in ("first", "first_jit"):
            known = [r for r in rows if r[name] and r[name][1] is not None]
            hit = [r for r in known if r[name][0] > 0 and r[name][1] > SLOW_SAMPLE * r[name][0]]
            slow[name] = (known, hit)
        known, hit = slow["first_jit"]
        if known:
            line += (f"; its slowest sample is over {SLOW_SAMPLE:g}x the median in {len(hit)} of "
                     f"{len(known)} kernels")
            if hit:
                worst = max(hit, key=lambda r: r["first_jit"][1])
                line += (f" (up to {fmt_ms(worst['first_jit'][1])}, {worst['workload']} "
                         f"{worst['base']})")
            if slow["first"][0]:
                line += f", without it in {len(slow['first'][1])} of {len(slow['first'][0])}"
            line += (" (a cost that few samples pay shows in the slowest sample, not in "
                     "the median)")
        text.append(line + ".")
    return md + [" ".join(text)] if text else md


def cold_section(data):
    """The lines of 'Hot vs cold caches' ([] without cold rows)."""
    rows = cold_rows(data)
    if not rows:
        return []
    md = ["Cold: each sample is one launch after the L2 is flushed; hot: the same benchmark "
          "without `cache:cold` (launches batched, caches warm). Both are medians over the "
          "repetitions.", ""]
    table = []
    for cold, hot in rows:
        label = f"{cold.workload} {API_LABEL.get(cold.api, cold.api)} {cold.variant} " \
                f"{fmt_params(without_cache(cold.params))}".strip()
        table.append((label, fmt_bench(hot, False) if hot else NONE, fmt_bench(cold, False),
                      fmt_ratio(cold.time / hot.time) if hot and hot.time > 0 else NONE))
    md += md_table(["benchmark", "hot time", "cold time", "cold/hot"], table, right=(1, 2, 3))
    md.append("")
    by_workload = {}
    for cold, hot in rows:
        if hot is not None and hot.time > 0:
            by_workload.setdefault(cold.workload, []).append((cold.time / hot.time, cold))
    text = []
    if by_workload:
        parts = [f"{w} {fmt_range([r for r, _ in rs])} ({plural(len(rs), 'benchmark')})"
                 for w, rs in sorted(by_workload.items(), key=lambda kv: workload_rank(kv[0]))]
        text.append("Cold/hot time per workload: " + "; ".join(parts) + ".")
        ratio, worst = max((r for rs in by_workload.values() for r in rs), key=lambda r: r[0])
        text.append(f"Largest: {worst.workload} {API_LABEL.get(worst.api, worst.api)} "
                    f"{worst.variant} {fmt_params(without_cache(worst.params))}, "
                    f"{fmt_ratio(ratio)}.")
    lonely = sum(hot is None for _, hot in rows)
    if lonely:
        text.append(f"{lonely} of {len(rows)} cold rows have no hot row in the input "
                    f"(hot: {NONE}).")
    return md + [" ".join(text)]


def quality_section(data):
    """The lines of 'Measurement quality' ([] where no row has its counters)."""
    counters = {"samples", "cv", "noise_met"} | {f for f, _ in QUALITY_FLAGS} | \
        {c for c, _, _ in QUALITY_RANGES}
    groups = [(name, [b for b in benches if any(counters & set(r) for r in b.reps)])
              for name, benches in quality_groups(data)]
    groups = [(name, benches) for name, benches in groups if benches]
    if not groups:
        return []
    md = ["Per repetition (each a run of samples): whether it met the noise target, its cv "
          "(relative stddev of its samples), and its flags: clock_flag, the SM clock fell "
          "below 90% of max; host_device_flag, host wall clock and device time differ by more "
          "than 2% (batched runs).", ""]
    table, worst_cv = [], []
    for name, benches in groups:
        reps = [r for b in benches for r in b.reps]
        met = [r["noise_met"] for r in reps if "noise_met" in r]
        cvs = [(r["cv"], b) for b in benches for r in b.reps if "cv" in r]
        row = [name, len(benches), len(reps),
               f"{sum(m >= 0.5 for m in met)} of {len(met)}" if met else f"{NONE} (fixed samples)",
               fmt_cv(statistics.median(c for c, _ in cvs)) if cvs else NONE,
               fmt_cv(max(c for c, _ in cvs)) if cvs else NONE]
        for flag, _ in QUALITY_FLAGS:
            have = [r[flag] for r in reps if flag in r]
            row.append(str(sum(v >= 0.5 for v in have)) if have else NONE)
        table.append(row)
        if cvs:
            cv, b = max(cvs, key=lambda x: x[0])
            worst_cv.append(f"{name} `{short_name(b)}` ({fmt_cv(cv)})")
    md += md_table(["rows", "benchmarks", "repetitions", "noise target met", "median cv",
                    "max cv"] + [f"{f}=1" for f, _ in QUALITY_FLAGS], table,
                   right=tuple(range(1, 6 + len(QUALITY_FLAGS))))
    md.append("")
    lines = []
    if worst_cv:
        lines.append("- Largest cv: " + "; ".join(worst_cv) + ".")
    for name, benches in groups:
        missed = {}
        for b in benches:
            for r in b.reps:
                if "noise_met" in r:
                    total = missed.setdefault(b.workload, [0, 0])
                    total[0] += r["noise_met"] < 0.5
                    total[1] += 1
        missed = {w: t for w, t in missed.items() if t[0]}
        if missed:
            lines.append(f"- Noise target not met ({name}), repetitions per workload: " + ", ".join(
                f"{w} {t[0]} of {t[1]}" for w, t in sorted(
                    missed.items(), key=lambda kv: workload_rank(kv[0]))) + ".")
    everything = [b for _, benches in groups for b in benches]
    for flag, meaning in QUALITY_FLAGS:
        hit = [(b, sum(r.get(flag, 0) >= 0.5 for r in b.reps)) for b in everything]
        hit = [(b, n) for b, n in hit if n]
        if not hit:
            continue
        if len(hit) <= MAX_LISTED:
            items = []
            for b, n in hit:
                extra = f"{n} of {len(b.reps)} repetitions"
                low = [r["sm_mhz_min"] for r in b.reps if "sm_mhz_min" in r]
                if flag == "clock_flag" and low:
                    extra += f", lowest SM clock {min(low):g} MHz"
                ratio = b.counters.get("host/device")
                if flag == "host_device_flag" and ratio is not None:
                    extra += f", host/device {ratio:.3f}"
                items.append(f"`{short_name(b)}` ({extra})")
            lines.append(f"- {flag}=1 ({meaning}): " + "; ".join(items) + ".")
        else:
            per = {}
            for b, _ in hit:
                variants = per.setdefault(b.workload, {})
                variants[b.variant] = variants.get(b.variant, 0) + 1
            lines.append(f"- {flag}=1 ({meaning}): {plural(len(hit), 'benchmark')}: " + "; ".join(
                f"{w} {sum(vs.values())} (" + ", ".join(
                    f"{v} {n}" for v, n in sorted(vs.items(), key=lambda kv: (-kv[1], kv[0])))
                + ")" for w, vs in sorted(per.items(), key=lambda kv: workload_rank(kv[0])))
                + ".")
    if not any(r.get(f, 0) >= 0.5 for b in everything for r in b.reps for f, _ in QUALITY_FLAGS) \
            and any(f in r for b in everything for r in b.reps for f, _ in QUALITY_FLAGS):
        lines.append("- No repetition had " + " or ".join(f"{f}=1" for f, _ in QUALITY_FLAGS)
                     + ".")
    ranges = []
    for counter, label, unit in QUALITY_RANGES:
        vs = [r[counter] for b in everything for r in b.reps if counter in r]
        if vs:
            lo, hi = f"{min(vs):.4g}", f"{max(vs):.4g}"
            ranges.append(f"{label} ({counter}) {lo if lo == hi else f'{lo}-{hi}'} {unit}")
    if ranges:
        lines.append("- Over all repetitions: " + "; ".join(ranges) + ".")
    return md + lines


def write_report(args, contexts, benches, missing, plotter):
    data = Data(benches)
    all_pairs = pairs(data)
    shown = shown_pairs(all_pairs)
    analyses = ptx_analysis(data)
    best_rows = best_opencl(data)
    has_ptx_variants = any(split_variant(b.variant)[1] for b in data.by_id.values()
                           if b.api == "opencl")
    bw = bandwidth_series(data)
    peaks = peak_entries(data, all_pairs)
    device = next((c.get(k) for _, c, _ in contexts for k in ("cuda.device", "opencl.device")
                   if c.get(k)), "unknown GPU")
    title = args.title or f"gpucmp: CUDA against OpenCL on {device}"
    written = {}

    def figure(kind, *make_args):
        if plotter is None:
            return None
        result = getattr(plotter, f"fig_{kind}")(*make_args)
        if result:
            written[kind] = result
        return result

    for path in [os.path.join(args.out_dir, f) for f in FIGURES.values()]:
        if os.path.exists(path):
            os.remove(path)  # a figure this run omits must not linger from an earlier one

    md = [f"# {title}", ""]
    md += ["Generated by `scripts/report.py` from:", ""]
    md += md_table(["file", "date", "revision", "size preset", "benchmarks"],
                   [(f"`{p}`", c.get("date", "?"), c.get("gpucmp.revision", "?"),
                     c.get("gpucmp.size", "?"), n) for p, c, n in contexts], right=(4,))
    partial = [(p, c["gpucmp.partial"]) for p, c, _ in contexts if c.get("gpucmp.partial")]
    if partial:
        md += ["", report_skips.partial_heading([note for _, note in partial]), ""]
        md += [f"- `{p}`: {note}" for p, note in partial]
    md += ["", "When several files hold one benchmark (name without /iterations:N), the "
           "later file's rows are used" + ("; the CUDA startup rows of a file run with "
                                          "CUDA_FORCE_PTX_JIT=1 are kept apart (see Startup)"
                                          if any(b.jit for b in data.startup) else "") + ".",
           "", "## Device and software", ""]
    for key, label in CONTEXT_KEYS:
        values = []
        for p, c, _ in contexts:
            if key in c and str(c[key]).strip() not in [v for v, _ in values]:
                values.append((str(c[key]).strip(), p))
        if len(values) == 1:
            md.append(f"- {label}: {values[0][0]}")
        elif values:
            md.append(f"- {label}: " + "; ".join(f"{v} (`{p}`)" for v, p in values))
    md += ["", "## How to read it", "",
           "Times are device times per launch: the median of the repetitions (±: half their "
           "min-max range relative to the median; cv where a file has only aggregates). "
           "Ratios are **OpenCL time / CUDA time**: above 1, CUDA is faster; below 1, OpenCL "
           "is faster. Pairs are the same workload, variant and parameters on both APIs.", ""]

    md += ["## What changed since 2010 and what has not", ""]
    text = changed_text(data, all_pairs, analyses, best_rows)
    md += text if text else ["No paired benchmarks in the input."]
    md += ["", "2010 figures are those quoted in DESIGN.md (Tesla C1060, CUDA 2.3).", ""]

    md += ["## CUDA against OpenCL (Fig. 5 of the study)", ""]
    if shown:
        rows = []
        for w, v, p, c, o in shown:
            r, lo, hi = ratio_of(c, o)
            rows.append((w, v, fmt_params(p), fmt_bench(c), fmt_bench(o),
                         f"{fmt_ratio(r)} ({fmt_ratio(lo)}-{fmt_ratio(hi)})",
                         f"{fmt_peak(c)} / {fmt_peak(o)}"))
        md += md_table(["workload", "variant", "size", "CUDA", "OpenCL", "OpenCL/CUDA (range)",
                        "% peak CUDA / OpenCL"], rows, right=(3, 4, 5, 6))
        if len(shown) < len(all_pairs):
            md += ["", f"Variants with more than {MAX_SIZES_PER_VARIANT} sizes show their "
                   f"smallest and largest here ({len(all_pairs) - len(shown)} more pairs in the "
                   "input; bandwidth: every size in its figure below)."]
        if figure("ratio", shown):
            md += ["", f"![OpenCL time / CUDA time per paired benchmark]({FIGURES['ratio']})"]
    else:
        md += ["No benchmark was measured on both APIs: this section and Fig. 5 are omitted."]
    md.append("")

    md += ["## CUDA against the best OpenCL variant (Fig. 7 of the study)", ""]
    if best_rows and has_ptx_variants:
        rows = []
        for w, v, p, c, o, best in best_rows:
            rows.append((w, v, fmt_params(p), fmt_bench(c, False),
                         fmt_ratio(o.time / c.time) if o else "-", best.variant,
                         fmt_bench(best, False), fmt_ratio(best.time / c.time)))
        md += ["The fastest of the OpenCL source kernel and its PTX variants (same launch "
               "geometry and math; vendor libraries excluded), at the largest size where PTX "
               "variants were measured.", ""]
        md += md_table(["workload", "variant", "size", "CUDA", "source OpenCL/CUDA",
                        "best OpenCL variant", "its time", "best OpenCL/CUDA"], rows,
                       right=(3, 4, 6, 7))
        if figure("best", best_rows):
            md += ["", f"![CUDA against the best OpenCL variant]({FIGURES['best']})"]
    else:
        md += ["No PTX variants of OpenCL kernels in the input: the best OpenCL variant is the "
               "source kernel everywhere (see above); Fig. 7 is omitted."]
    md.append("")

    md += ["## PTX optimization steps (Fig. 6 of the study)", ""]
    if analyses:
        md += ["OpenCL PTX loaded back through `clCreateProgramWithBinary`. Both chains start "
               "from the `-cl-opt-disable` PTX (`ptx-O0`), clean it up (auto: gpucmp's "
               "`cleanup` pass; hand: `hand-base`) and add one optimization per step. "
               "\"vs previous\" is the change of time against the step before.", ""]
        for a in analyses:
            md += [f"### {a['workload']} {a['base']}, {fmt_params(a['params'])}", ""]
            cuda = a["cuda"]
            rows = [("CUDA", a["base"], fmt_bench(cuda, False), "-")]
            for name, b in [("OpenCL source", a["source"])] + [
                    (s, b) for s, b in a["controls"]]:
                if b is not None:
                    rows.append((name, b.variant, fmt_bench(b, False),
                                 fmt_ratio(b.time / cuda.time) if cuda else "-"))
            md += md_table(["kernel", "variant", "time", "OpenCL/CUDA"], rows, right=(2, 3))
            md.append("")
            chains = sorted(a["chains"])
            if chains:
                header = ["step"]
                for chain in chains:
                    header += [f"{chain}: time", f"{chain}: vs previous"]
                header += ["OpenCL/CUDA (" + ", ".join(chains) + ")"]
                if a["workload"] == "matrixMul":
                    header.append("2010 (hand)")
                rows = []
                for i, step in enumerate(STEPS):
                    row = [step if i == 0 else f"+{step}"]
                    over = []
                    for chain in chains:
                        steps = a["chains"][chain]  # the hand chain has no align step
                        _, _, b, ch = steps[i] if i < len(steps) else (None, None, None, None)
                        row += [fmt_bench(b, False), fmt_pct(ch)]
                        over.append(fmt_ratio(b.time / cuda.time) if b and cuda else "-")
                    row.append(" / ".join(over))
                    if a["workload"] == "matrixMul":
                        ref = STUDY_2010_STEPS.get(step)
                        row.append("-" if ref is None else f"{ref:+.0f}%")
                    rows.append(row)
                md += md_table(header, rows, right=tuple(range(1, len(header))))
            else:
                md += ["No chain variants (`-auto-*`, `-hand-*`) measured for this kernel."]
            md.append("")
        if figure("ptx", analyses):
            md += [f"![Change of OpenCL time per PTX step]({FIGURES['ptx']})", ""]
        elif plotter is not None:
            md += ["No optimization step (unroll, cse, mad, licm) was measured with its "
                   "previous step: Fig. 6 is omitted.", ""]
    else:
        md += ["No PTX variants (`<base>-ptx-O0`, `-auto-*`, `-hand-*`, ...) in the input: "
               "the table and Fig. 6 are omitted.", ""]

    md += ["## Bandwidth against transfer size", ""]
    if bw:
        rows = []
        for (d, kind, api), points in bw.items():
            rows.append((f"{d} {kind}".strip(), API_LABEL.get(api, api), len(points),
                         f"{points[0][1]:.4g} GB/s ({fmt_bytes(points[0][0])})",
                         f"{points[-1][1]:.4g} GB/s ({fmt_bytes(points[-1][0])})",
                         f"{max(p[1] for p in points):.4g} GB/s"))
        md += md_table(["transfer", "API", "sizes", "smallest", "largest", "best"], rows,
                       right=(2, 3, 4, 5))
        if figure("bandwidth", bw):
            md += ["", f"![Bandwidth against transfer size]({FIGURES['bandwidth']})"]
    else:
        md += ["No bandwidth rows in the input: this section and its figure are omitted."]
    md.append("")

    md += ["## Fraction of peak", ""]
    if peaks:
        md += ["`pct_peak` at the largest size of each pair: FP32 peak for compute kernels, "
               "DRAM or PCIe link peak for transfers (see the context's peak notes).", ""]
        md += md_table(["benchmark", "CUDA %", "OpenCL %"],
                       [(lbl, f"{v['cuda']:.1f}" if "cuda" in v else "-",
                         f"{v['opencl']:.1f}" if "opencl" in v else "-") for lbl, v in peaks],
                       right=(1, 2))
        if figure("peak", peaks):
            md += ["", f"![Fraction of peak per kernel and API]({FIGURES['peak']})"]
    else:
        md += ["No `pct_peak` counters in the input (no peak model for the device): omitted."]
    md.append("")

    vendor = vendor_rows(data)
    md += ["## Vendor libraries", ""]
    if vendor:
        rows = []
        for params, cublas, clblast, tiled in vendor:
            rows.append((fmt_params(params), fmt_bench(cublas), fmt_bench(clblast),
                         fmt_ratio(clblast.time / cublas.time) if cublas and clblast else "-",
                         f"{tiled.variant}: {fmt_ratio(tiled.time / cublas.time)}"
                         if tiled and cublas else "-"))
        md += ["SGEMM through each API's vendor-tuned library: different code, so not a "
               "pair; shown for scale.", ""]
        md += md_table(["size", "cuBLAS", "CLBlast", "CLBlast/cuBLAS",
                        "fastest tiled CUDA / cuBLAS"], rows, right=(1, 2, 3, 4))
    else:
        md += ["No cuBLAS or CLBlast rows in the input."]
    md.append("")

    md += report_gaps.sections(getattr(args, "side", None), data, all_pairs, contexts, globals())
    for title, lines in (("Startup: build, module load and first launch",
                          startup_section(data, contexts)),
                         ("Hot vs cold caches", cold_section(data)),
                         ("Measurement quality", quality_section(data))):
        if lines:
            md += [f"## {title}", ""] + lines + [""]

    variants = {(w, api, v) for (w, api, v, _) in data.by_id
                if v not in VENDOR and not split_variant(v)[1] and not v.endswith(CROSS_SUFFIXES)}
    single = sorted((k for k in variants if not any(
        (k[0], other, k[2]) in variants for other in APIS if other != k[1])),
        key=lambda k: (workload_rank(k[0]), k[2], k[1]))
    if single:
        md += ["## Measured on one API only", ""]
        md += [f"- {w} {API_LABEL.get(api, api)} {v}" for w, api, v in single]
        md.append("")

    md += ["## Not measured", ""]
    skipped = report_skips.skipped_groups(contexts, list(benches) + [k for k, _, _ in missing],
                                          JIT_PART)
    if missing:
        reasons = {}
        for key, reason, path in missing:
            reasons.setdefault(reason, []).append(key)
        md += md_table(["reason", "benchmarks"],
                       [(reason.replace("|", "\\|"), ", ".join(f"`{k}`" for k in keys[:8]) +
                         (f" and {len(keys) - 8} more" if len(keys) > 8 else ""))
                        for reason, keys in sorted(reasons.items())])
        md += [""] if skipped else []
    if skipped:
        md += report_skips.skipped_table(skipped, APIS, API_LABEL, md_table)
    if not missing and not skipped:
        md += ["Every benchmark in the input was measured (no error or skipped rows)."]
    md.append("")

    report_path = os.path.join(args.out_dir, "REPORT.md")
    compare.write_atomically(report_path, "\n".join(md).rstrip("\n") + "\n")
    return report_path, [written[k] for k in FIGURES if k in written]


# ---------------------------------------------------------------- command line


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(f"{message} (see --help)")


def parse_args(argv):
    p = Parser(prog="report.py", description=__doc__.split("\n\n")[0],
               epilog=__doc__[__doc__.index("usage:"):],
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", nargs="+", metavar="RESULT.json")
    p.add_argument("--out-dir", help="where REPORT.md and fig-*.png go (default: "
                   "results/<gpu> of this checkout)")
    p.add_argument("--title", help="the report's title")
    p.add_argument("--no-plots", action="store_true", help="write REPORT.md without figures")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if not args.no_plots and importlib.util.find_spec("matplotlib") is None:
        hint = ""
        if not os.path.realpath(sys.executable).startswith("/usr/bin/") and \
                os.path.exists("/usr/bin/python3"):
            hint = " (Debian's package serves /usr/bin/python3: try /usr/bin/python3 " \
                   "scripts/report.py)"
        fail(f"matplotlib is not importable by {sys.executable}: install python3-matplotlib "
             f"(scripts/setup.sh does), or pass --no-plots{hint}")
    args.results, args.side = report_gaps.split_inputs(args.results)
    try:
        contexts, benches, missing = load_all(args.results)
        args.side.load()
    except (InputError, report_gaps.InputError) as e:
        fail(str(e))
    if not benches:
        fail("no measured gpucmp benchmark (<workload>/<cuda|opencl>/<variant>/...) in "
             + ", ".join(args.results))
    if args.out_dir is None:
        devices = sorted({c.get(k) for _, c, _ in contexts for k in ("cuda.device",
                                                                     "opencl.device")
                          if c.get(k)})
        first = next((c.get(k) for _, c, _ in contexts for k in ("cuda.device", "opencl.device")
                      if c.get(k)), None)
        if first is None:
            fail("the context names no device (cuda.device/opencl.device): pass --out-dir")
        if len({slug(d) for d in devices}) > 1:
            print(f"report: warning: the inputs name several devices ({', '.join(devices)}); "
                  f"writing to results/{slug(first)}", file=sys.stderr)
        args.out_dir = os.path.join(REPO, "results", slug(first))
    try:
        os.makedirs(args.out_dir, exist_ok=True)
    except OSError as e:
        fail(f"{args.out_dir}: cannot create ({e.strerror or e})")
    plotter = None if args.no_plots else Plotter(args.out_dir)
    try:
        report_path, figures = write_report(args, contexts, benches, missing, plotter)
    except OSError as e:
        fail(f"{args.out_dir}: cannot write ({e.strerror or e})")
    print(f"report: wrote {report_path}" + (f" and {len(figures)} figures: "
                                             + ", ".join(os.path.basename(f) for f in figures)
                                             if figures else " (no figures)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
