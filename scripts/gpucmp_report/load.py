"""Loading and merging result files: one Bench per benchmark (median time, spread,
counters per repetition), the later file winning, cold rows named with cache:cold,
the CUDA startup rows of CUDA_FORCE_PTX_JIT=1 files kept apart, the split rows of
files naming other split devices kept apart, and the rows that were not measured
(errors, skips) with their reason. Each Bench keeps its row's label and the
variant's facts (variant_facts: from the label, else the name)."""
import math
import statistics

import gbench_json

from . import variant_facts
from .names import (COLD_PARAM, JIT_ENV, JIT_PART, QUALITY_FLAGS, SPLIT_DEVICES, SPLIT_PARAM,
                    SPLIT_RANKS, STARTUP, WORKLOADS_KEY, note_workload_order, parse_name,
                    reset_workload_order, size_key)

NOT_COUNTERS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                "repetitions", "repetition_index", "threads", "iterations", "real_time",
                "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "error_occurred",
                "error_message", "skipped", "skip_message", "label"}


class InputError(Exception):
    """Bad input: exit 2 with one line."""


class Bench:
    """One measured benchmark: median time (ns), spread, and counters.

    counters: each counter's median over the repetitions; reps: the counters of
    each repetition (one entry where the file has only aggregates); jit: a CUDA
    startup row of a file run with CUDA_FORCE_PTX_JIT=1; label: the row's label
    (how gpucmp-bench built the variant) or None; facts: variant_facts.Facts of
    the variant (from the label, else from the name); order: the place of its
    file among the inputs; split_devices: a split row's devices as its file's
    context names them (<api>.split_devices), else None."""

    def __init__(self, key, parts, path, times, counters, cv=None, reps=None, jit=False,
                 label=None):
        self.key = key
        self.label = label
        self.order = 0
        self.split_devices = None
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
        self.facts = variant_facts.of(self.variant, label)

    @property
    def size(self):
        return size_key(self.params)


def numeric_counters(row):
    return {k: float(v) for k, v in row.items() if k not in NOT_COUNTERS
            and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}


def measure(path, key, entry, jit=False):
    """A Bench from gbench_json.load's entry, or None where it has no time."""
    parts = parse_name(key)
    if entry["rows"]:
        rows = entry["rows"]
        times = [gbench_json.value_of(path, key, r, "real_time") for r in rows]
        times = [t for t in times if t is not None]
        cv = None
    else:
        rows = [entry["aggregates"][a] for a in ("median", "mean") if a in entry["aggregates"]][:1]
        times = [gbench_json.value_of(path, key, rows[0], "real_time")] if rows else []
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
    label = variant_facts.label_of_rows(entry["rows"] + [entry["aggregates"][a] for a in sorted(
        entry["aggregates"])])
    return Bench(key, parts, path, times, counters, cv, reps, jit, label)


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


def split_devices(key, context):
    """The context's <api>.split_devices of a split row (split:<spec>), else None; for a
    row split over MPI ranks (over:mpi), <api>.split_ranks: every rank's device."""
    parsed = parse_name(key)
    if parsed is None or not any(name == SPLIT_PARAM for name, _ in parsed[3]):
        return None
    over_mpi = ("over", "mpi") in parsed[3]
    devices = context.get((SPLIT_RANKS if over_mpi else SPLIT_DEVICES).format(api=parsed[1]))
    return (devices.strip() or None) if isinstance(devices, str) else None


def load_all(paths):
    """(contexts [(path, context, rows)], {key: Bench}, not measured [(key, reason, path)])."""
    contexts = []
    latest = {}  # key -> (path, entry, jit); the later file wins
    rank = {}  # path -> its place among the inputs
    reset_workload_order()
    for path in paths:
        rank[path] = len(rank)
        try:
            context, entries = gbench_json.load(path, ignore_iterations=True)
        except gbench_json.InputError as e:
            raise InputError(str(e)) from e
        contexts.append((path, context, len(entries)))
        note_workload_order(context.get(WORKLOADS_KEY, ""))
        jit = str(context.get(JIT_ENV, "")).strip() == "1"
        for key, entry in entries.items():
            key = cold_key(key, entry)
            forced = jit and key.startswith(f"{STARTUP}/cuda/")
            if forced:  # kept beside the same row of a file without it
                key = f"{key}/{JIT_PART}"
            devices = split_devices(key, context)
            if devices:  # kept beside the same row run on other devices (no ":" or "/")
                key = f"{key}/on " + devices.replace(":", ".").replace("/", "|")
            latest[key] = (path, entry, forced, devices)
            # A file without the stated order: its rows' own order (gpucmp-bench
            # writes them in registration order).
            note_workload_order(key.split("/", 1)[0])
    benches, missing = {}, []
    for key in sorted(latest):
        path, entry, jit, devices = latest[key]
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
        except gbench_json.InputError as e:
            raise InputError(str(e)) from e
        if bench is None:
            missing.append((key, "no real_time in its rows", path))
        else:
            bench.order = rank[path]
            bench.split_devices = devices
            benches[key] = bench
    return contexts, benches, missing


# ---------------------------------------------------------------- analysis
