"""Startup: OpenCL program build, CUDA PTX module load and context, first-launch
overhead, from the startup/ rows (with CUDA_FORCE_PTX_JIT=1 files beside)."""
import statistics

from ..fmt import NONE, fmt_ms, fmt_ms_range, fmt_params, fmt_range, md_table, plural
from .. import variant_facts
from ..names import APIS, API_LABEL, JIT_ENV, size_key, workload_rank

SLOW_SAMPLE = 2.0  # a startup sample this many times the median is named


def startup_split(variant):
    """(workload, variant) of a startup row's <workload>-<variant>."""
    workload, _, rest = variant.partition("-")
    return workload, rest


STARTUP_COLUMNS = [  # (key, API, variant kind (variant_facts), counter)
    ("build_source", "opencl", None, "build_ms"),
    ("build_own_ptx", "opencl", "ptx-as-built", "build_ms"),
    ("build_nvcc_ptx", "opencl", "ptx-from-nvcc", "build_ms"),
    ("ptx_load", "cuda", None, "ptx_load_ms"),
    ("context", "cuda", None, "context_ms"),
]


def startup_facts(data, api, workload, variant):
    """The variant's facts: startup rows carry no label, so those of its timed rows
    where they have one (Data.labelled), else parsed from the name."""
    facts = data.labelled.get((workload, api, variant))
    return facts if facts is not None else variant_facts.from_name(variant)


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
    index = {}  # (api, jit, workload, base, PTX kind or None, params) -> Bench
    for b in data.startup:
        workload, variant = startup_split(b.variant)
        facts = startup_facts(data, b.api, workload, variant)
        base, kind = (facts.base, facts.kind) if facts.is_ptx else (variant, None)
        index[(b.api, b.jit, workload, base, kind, b.params)] = b
    kernels = sorted({(w, base, p) for _, _, w, base, _, p in index},
                     key=lambda k: (workload_rank(k[0]), k[1], size_key(k[2])))
    out = []
    for workload, base, params in kernels:
        row = {"workload": workload, "base": base, "params": params}
        for name, api, kind, counter in STARTUP_COLUMNS:
            b = index.get((api, False, workload, base, kind, params))
            row[name] = b.counters.get(counter) if b is not None else None
        row["overhead"] = {}
        for api in APIS:
            b = index.get((api, False, workload, base, None, params))
            if b is not None and {"first_launch_ms", "second_launch_ms"} <= set(b.counters):
                row["overhead"][api] = (b.counters["first_launch_ms"]
                                        - b.counters["second_launch_ms"])
        for name, jit in (("first", False), ("first_jit", True)):
            b = index.get(("cuda", jit, workload, base, None, params))
            row[name] = first_launch(b) if b is not None else None
            if row[name] is not None and row[name][0] is None:
                row[name] = None
        out.append(row)
    return out


def fmt_first(first):
    """'358 us' or '358 us (slowest 31.5 ms)' of (median, slowest) ms."""
    if first is None:
        return NONE
    median, slowest = first
    text = fmt_ms(median)
    if slowest is not None and median > 0 and slowest > SLOW_SAMPLE * median:
        text += f" (slowest {fmt_ms(slowest)})"
    return text


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


TITLE = "Startup: build, module load and first launch"


def section(rep):
    lines = startup_section(rep.data, rep.contexts)
    return [f"## {TITLE}", ""] + lines + [""] if lines else []
