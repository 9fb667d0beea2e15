"""The names of gpucmp's benchmarks and the study's constants: workloads and their
order, APIs, vendor libraries, PTX variants (chains, controls, cross-run rows),
startup/cold rows, the 2010 figures; parsing and ordering benchmark names."""


# The workloads' order: gpucmp-bench's registration order, which every result
# file states in its context (gpucmp.workloads); load_all() sets it from the
# inputs (note_workload_order), and from a file without it, the order of its
# rows; the 2010 study's workloads come first. A workload no input names sorts
# after, by name.
_WORKLOAD_ORDER = []  # set by reset_workload_order() and note_workload_order()
WORKLOADS_KEY = "gpucmp.workloads"
APIS = ("cuda", "opencl")
VENDOR = {"cublas": "cuBLAS", "clblast": "CLBlast"}
BEST_MARGIN = 0.02  # the text names a PTX variant as faster than its source beyond this
MAX_SIZES_PER_VARIANT = 4  # more sizes (bandwidth): the table and Fig. 5 show the extremes
# OpenCL-only variants derived from a base kernel through its PTX: a chain's steps in
# order (the label's step= indexes them) and the controls (variant_facts reads a
# labelled row's kind from its label, an unlabelled one's from these suffixes).
CHAINS = {
    "auto": ["ptx-O0", "auto-clean", "auto-unroll", "auto-unroll-cse", "auto-unroll-cse-mad",
             "auto-unroll-cse-mad-licm", "auto-unroll-cse-mad-licm-align"],
    "hand": ["ptx-O0", "hand-base", "hand-unroll", "hand-unroll-cse", "hand-unroll-cse-mad",
             "hand-unroll-cse-mad-licm"],
}
STEPS = ["-O0", "clean", "unroll", "cse", "mad", "licm", "align"]  # what CHAINS[c][i] adds
PTX_CONTROLS = ["ptx-as-built", "ptx-align", "ptx-ftz", "ptx-shared32", "ptx-from-nvcc"]
# CUDA-only cross-run rows (cuda/cross_runners.h): read by sections/gaps.py, never
# "measured on one API only"; their names' suffixes are read only where a row has no
# label (from=opencl-ptx, from=ptx-jit).
CROSS_SUFFIXES = ("-opencl-ptx", "-ptx-jit", "-opencl-cubin")
PTX_SUFFIXES = sorted({s for chain in CHAINS.values() for s in chain} | set(PTX_CONTROLS),
                      key=lambda s: (-len(s), s))
# The 2010 study (Tesla C1060, CUDA 2.3), as quoted in docs/DESIGN.md: OpenCL time
# over CUDA time, and the matrixMul PTX chain's change of time per step (%).
STUDY_2010_RATIO = {"bandwidth": (1.0, "no gap"), "matrixMul": (4.2, "4.2"),
                    "cp": (3.0, "~3"), "mriq": (19.0, "~19"), "mrifhd": (19.0, "~19")}
STUDY_2010_STEPS = {"unroll": -48.0, "cse": -40.0, "mad": 0.0, "licm": -20.0}
API_LABEL = {"cuda": "CUDA", "opencl": "OpenCL"}
STARTUP = "startup"  # the workload part of startup/<api>/<workload>-<variant>/<params>
COLD_PARAM = ("cache", "cold")
LOCAL_PARAM = "local"  # local:<spec>: a row of the work-size study (sections/worksize.py)
SPLIT_PARAM = "split"  # split:<spec>: one kernel's work split across devices (sections/split.py)
SPLIT_DEVICES = "{api}.split_devices"  # the context key naming a split row's devices
SPLIT_RANKS = "{api}.split_ranks"  # the same over MPI ranks (over:mpi): rank<i>:<device> each
JIT_ENV = "env.CUDA_FORCE_PTX_JIT"
JIT_PART = "CUDA_FORCE_PTX_JIT=1"  # appended to the key of such a file's CUDA startup rows
QUALITY_FLAGS = [("clock_flag", "SM clock below 90% of max"),
                 ("host_device_flag", "host wall clock and device time differ by >2%")]


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


def reset_workload_order():
    """The 2010 study's workloads first, in its order (STUDY_2010_RATIO)."""
    _WORKLOAD_ORDER[:] = list(STUDY_2010_RATIO)


def note_workload_order(workloads):
    """Adds the comma-separated workloads, in their order, to the known order
    (the first to name a workload places it)."""
    for w in str(workloads).split(","):
        if w and w not in _WORKLOAD_ORDER:
            _WORKLOAD_ORDER.append(w)


def workload_order():
    return list(_WORKLOAD_ORDER)


def workload_rank(workload):
    if workload in _WORKLOAD_ORDER:
        return (_WORKLOAD_ORDER.index(workload), "")
    return (len(_WORKLOAD_ORDER), workload)


def split_variant(variant):
    """(base, ptx suffix) for a PTX-derived OpenCL variant, else (variant, None).

    Parsed from the name: the fallback of variant_facts for rows without a label
    (result files written before gpucmp-bench labelled its rows); a labelled row's
    base and kind come from its label."""
    for suffix in PTX_SUFFIXES:
        if variant.endswith("-" + suffix) and len(variant) > len(suffix) + 1:
            return variant[: -len(suffix) - 1], suffix
    return variant, None


def is_cold(bench):
    return COLD_PARAM in bench.params


def is_local(bench):
    return any(k == LOCAL_PARAM for k, _ in bench.params)


def is_split(bench):
    return any(k == SPLIT_PARAM for k, _ in bench.params)


def without_cache(params):
    return tuple(p for p in params if p[0] != COLD_PARAM[0])

TUNED = "best"  # the variant of gpucmp-bench --tune's rows (harness/tune_family.h)

# The report's figure files (figures.py writes them).
FIGURES = {"ratio": "fig-ratio.png", "ptx": "fig-ptx-steps.png", "best": "fig-best-opencl.png",
           "bandwidth": "fig-bandwidth.png", "peak": "fig-peak.png"}
# Kinds that write one figure per kernel (and API), or none: their files' pattern
# (worksize_figures, split_figures, layout_figures, roofline.py's figure).
FIGURE_PATTERNS = {"worksize": "fig-worksize-*.png", "split": "fig-split-*.png",
                   "layout": "fig-layout-*.png", "roofline": "fig-roofline.png",
                   "advection": "fig-advection.png", "scaling": "fig-scaling.png"}


reset_workload_order()
