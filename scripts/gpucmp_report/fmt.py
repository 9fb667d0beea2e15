"""Formatting numbers, names and Markdown tables for REPORT.md."""
import math
import re

from .names import JIT_PART

NONE = "\u2013"  # an empty cell of the startup, cold and quality tables


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


def launch_bound(b):
    """Whether most of the row's repetitions ran within 5% of its API's launch
    floor (gpucmp-bench's launch_bound counter): its time is a launch rate."""
    return b is not None and b.counters.get("launch_bound", 0) > 0.5


LAUNCH_BOUND_NOTE = ("`*` launch-bound: within 5% of its API's launch floor "
                     "(`ceiling/<api>/launch`, measured in the same run; counter "
                     "`launch_floor_us`): the time is how fast the API launches, not how "
                     "fast the kernel runs, and a ratio of two such rows compares launch paths.")


def fmt_bench(b, rate=True):
    """'16.89 ms ±0.1% (8.14 TFLOP/s)', with ' *' for a launch-bound row"""
    if b is None:
        return "-"
    text = fmt_time(b.time) + (" *" if launch_bound(b) else "")
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


def fmt_ms_range(values):
    lo, hi = fmt_ms(min(values)), fmt_ms(max(values))
    return lo if lo == hi else f"{lo} to {hi}"
