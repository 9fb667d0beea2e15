"""Nsight Compute counters for report.py: reads the JSON of scripts/ncu_to_json.py
(results/<gpu>/<date>-ncu.json) and writes the "Profiler counters" tables and the
counter differences of "Why each gap".

ncu cannot see NVIDIA's OpenCL kernels: OpenCL's code is profiled through the
cross-run row cuda/<variant>-opencl-ptx (OpenCL's PTX, JIT-compiled and run by
CUDA), shown beside the CUDA row cuda/<variant> and, where present,
cuda/<variant>-ptx-jit (nvcc's PTX JIT-compiled by the driver)."""
import json
import re

DURATION = "gpu__time_duration.sum"
DRAM = ("dram__bytes_read.sum", "dram__bytes_write.sum")
OCCUPANCY = "sm__warps_active.avg.pct_of_peak_sustained_active"
REGS = "launch__registers_per_thread"
INSTRUCTIONS = "smsp__inst_executed.sum"
STALL = [re.compile(r"^smsp__pcsamp_warps_issue_stalled_(\w+)$"),
         re.compile(r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$")]
NOT_STALLS = {"selected"}  # a sampled warp that issued: not a stall
CROSS = [("", "CUDA"), ("-ptx-jit", "nvcc's PTX, driver JIT"),
         ("-opencl-ptx", "OpenCL's PTX under CUDA")]
NONE = "\u2013"
# gpucmp-bench's launch-floor probe (harness/launch_floor.cpp), run before
# each hot row's samples unless --launch-floor off.
PROBE_KERNEL = "ceiling_launch"


class InputError(Exception):
    pass


def read_json(path):
    """The JSON document of `path`; InputError naming the file when unreadable or not JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror or e})") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not valid JSON ({e})") from e


def load(paths):
    """(docs [(path, doc)], {row name: {kernel: entry}}); a later file wins per row."""
    docs, rows = [], {}
    for path in paths:
        doc = read_json(path)
        if not isinstance(doc, dict) or "gpucmp_ncu" not in doc \
                or not isinstance(doc.get("rows"), dict):
            raise InputError(f"{path}: not a profile of scripts/ncu_to_json.py "
                             "(no \"gpucmp_ncu\" and \"rows\")")
        docs.append((path, doc))
        for name, kernels in doc["rows"].items():
            if isinstance(kernels, dict) and kernels:
                if probe_only(name, kernels):
                    continue  # section() names them
                rows[name] = kernels
    return docs, rows


def probe_only(name, kernels):
    """Whether a row's profile holds gpucmp-bench's launch-floor probe alone
    (profiles made without --launch-floor off): not the row's own counters."""
    return set(kernels) == {PROBE_KERNEL} and not name.startswith("ceiling/")


def row_key(workload, variant, params, api="cuda"):
    return "/".join([workload, api, variant] + [f"{k}:{v}" for k, v in params])


def ordered(kernels):
    return sorted(kernels.items(), key=lambda kv: (kv[1].get("order", 0), kv[0]))


def main_kernel(kernels):
    """(name, entry) of the kernel with the longest duration."""
    return max(kernels.items(), key=lambda kv: (kv[1].get("metrics", {}).get(DURATION, 0),
                                                -kv[1].get("order", 0)))


def stalls(metrics):
    """{reason: share of the stalled samples}, largest first."""
    counts = {}
    for name, value in metrics.items():
        for pattern in STALL:
            m = pattern.match(name)
            if m and m.group(1) not in NOT_STALLS and not name.endswith("_not_issued") \
                    and value is not None:
                counts[m.group(1)] = counts.get(m.group(1), 0) + value
    total = sum(counts.values())
    if total <= 0:
        return []
    return sorted(((r, v / total) for r, v in counts.items()), key=lambda x: (-x[1], x[0]))


def fmt_ns(ns):
    if ns is None:
        return NONE
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def dram_gb(metrics):
    parts = [metrics.get(m) for m in DRAM]
    return None if all(p is None for p in parts) else sum(p or 0 for p in parts) / 1e9


def fmt_num(x, fmt="{:.3g}"):
    return NONE if x is None else fmt.format(x)


def fmt_stalls(metrics, top=3):
    s = stalls(metrics)[:top]
    return ", ".join(f"{r} {share * 100:.0f}%" for r, share in s) if s else NONE


def cells(entry):
    m = entry.get("metrics", {})
    return [fmt_ns(m.get(DURATION)), fmt_num(dram_gb(m)),
            fmt_num(m.get(OCCUPANCY), "{:.1f}"), fmt_num(m.get(REGS), "{:.0f}"),
            fmt_num(m.get(INSTRUCTIONS), "{:.4g}"), fmt_stalls(m)]


def groups(rows, parse_name, size_key):
    """{workload: [(variant, params, [(label, row name, kernels)])]} for each main
    CUDA row (a variant without a cross-run suffix) in the profile, or a cross-run
    row whose main row is missing."""
    bases = {}
    for name in rows:
        parsed = parse_name(name)
        if parsed is None or parsed[1] != "cuda":
            continue
        workload, _, variant, params = parsed
        base = variant
        for suffix, _ in CROSS[1:]:
            if variant.endswith(suffix) and len(variant) > len(suffix):
                base = variant[: -len(suffix)]
        bases.setdefault(workload, set()).add((base, params))
    out = {}
    for workload, keys in bases.items():
        for base, params in sorted(keys, key=lambda k: (k[0], size_key(k[1]))):
            runs = [(label, row_key(workload, base + suffix, params))
                    for suffix, label in CROSS]
            runs = [(label, key, rows[key]) for label, key in runs if key in rows]
            out.setdefault(workload, []).append((base, params, runs))
    return out


def section(docs, rows, parse_name, size_key, workload_rank, fmt_params, md_table):
    """Markdown lines of "Profiler counters" (no heading)."""
    if not docs:
        return ["No Nsight Compute profile (`<date>-ncu.json` from `scripts/profile_ncu.sh`) "
                "beside the results: no counters."]
    md = []
    for path, doc in docs:
        opts = "; ".join(f"`{o}`" for o in doc.get("options", []))
        md.append(f"- `{path}`: ncu {doc.get('ncu_version', '?')}, {doc.get('gpu', '?')}, "
                  f"{doc.get('date', '?')}, {len(doc.get('rows', {}))} rows"
                  + (f"; {opts}" if opts else ""))
        errors = doc.get("errors") or {}
        if errors:
            md.append("  - not profiled: " + "; ".join(f"`{r}` ({e})"
                                                        for r, e in sorted(errors.items())))
        probed = sorted(r for r, k in doc.get("rows", {}).items()
                        if isinstance(k, dict) and k and probe_only(r, k))
        if probed:
            md.append(f"  - left out, {len(probed)} rows: only the launch-floor probe "
                      f"(`{PROBE_KERNEL}`) was profiled, none of the row's own kernels "
                      "(a profile made without `--launch-floor off`)")
    md += ["", "Per kernel, the median over its profiled launches. OpenCL's code appears "
           "through `cuda/<variant>-opencl-ptx` (OpenCL's PTX with its `%envreg` reads set to "
           "0, JIT-compiled and launched by the CUDA driver): ncu sees no NVIDIA OpenCL "
           "kernel. Occupancy: achieved, % of peak warps; stalls: share of the sampled "
           "stalled warps (PC sampling).", ""]
    header = ["variant", "size", "run", "kernel", "duration", "DRAM GB", "occupancy %",
              "regs", "instructions", "top stalls"]
    for workload, entries in sorted(groups(rows, parse_name, size_key).items(),
                                    key=lambda kv: workload_rank(kv[0])):
        table = []
        for base, params, runs in entries:
            for label, _key, kernels in runs:
                for kname, entry in ordered(kernels):
                    table.append([base, fmt_params(params), label, f"`{kname}`"] + cells(entry))
        md += [f"### {workload}", ""] + md_table(header, table, right=(4, 5, 6, 7, 8)) + [""]
    return md


def difference(rows, workload, variant, params):
    """Markdown lines on the counters of cuda/<variant> against its -opencl-ptx row."""
    cuda = rows.get(row_key(workload, variant, params))
    cross = rows.get(row_key(workload, variant + "-opencl-ptx", params))
    if cuda is None and cross is None:
        return ["- Counters: no ncu profile of this pair's CUDA rows."]
    if cuda is None or cross is None:
        which = f"cuda/{variant}" if cuda is None else f"cuda/{variant}-opencl-ptx"
        return [f"- Counters: no ncu profile of `{which}`."]
    (cn, c), (on, o) = main_kernel(cuda), main_kernel(cross)
    cm, om = c.get("metrics", {}), o.get("metrics", {})

    def ratio(a, b):
        return f"{b / a:.2f}x" if a and b is not None else NONE

    parts = [f"duration {fmt_ns(cm.get(DURATION))} → {fmt_ns(om.get(DURATION))} "
             f"({ratio(cm.get(DURATION), om.get(DURATION))})",
             f"instructions {fmt_num(cm.get(INSTRUCTIONS), '{:.4g}')} → "
             f"{fmt_num(om.get(INSTRUCTIONS), '{:.4g}')} "
             f"({ratio(cm.get(INSTRUCTIONS), om.get(INSTRUCTIONS))})",
             f"DRAM {fmt_num(dram_gb(cm))} → {fmt_num(dram_gb(om))} GB",
             f"occupancy {fmt_num(cm.get(OCCUPANCY), '{:.1f}')} → "
             f"{fmt_num(om.get(OCCUPANCY), '{:.1f}')}%",
             f"regs {fmt_num(cm.get(REGS), '{:.0f}')} → {fmt_num(om.get(REGS), '{:.0f}')}",
             f"top stalls {fmt_stalls(cm)} → {fmt_stalls(om)}"]
    return [f"- Counters, CUDA `{cn}` → OpenCL's PTX under CUDA `{on}` (longest kernel of "
            "each): " + "; ".join(parts) + "."]
