"""Each API at its best: for every paired workload, the fastest validated row of
each API among that workload's own implementations of one problem with one math,
over the launch configurations the run measured (local sizes, data layouts,
scan's alpha), and their ratio. scripts/best_table.py prints it for suite runs
(the README's table), sections/at_best.py writes it into REPORT.md.

An API's best is the fastest of its own source forms and launch configurations,
as a user of that API could write or select them. Not its own code, so never
picked: the cross-runs (a row running the other API's compiler output, or the
other API's instruction written into this one's source), the controls (a kernel
changed to mimic the other API, or reloaded to check a path) and the vendor
libraries. gpucmp's PTX passes on OpenCL's own PTX (docs/studies/ptx-passes.md)
make OpenCL's code better through a tool no OpenCL user has: they are a column
of their own, never OpenCL's best. docs/studies/best-against-best.md says why."""
import math
from dataclasses import dataclass

from .names import BEST_MARGIN, CHAINS, TUNED

# The PTX passes that keep a kernel's math (every step of the 2010 study's chains
# after their -O0 start, gpucmp's align and shared32); ftz flushes denormals, so
# it is a pass of the fast-math family only.
SAME_MATH_PASSES = tuple(dict.fromkeys(
    s for chain in CHAINS.values() for s in chain if s != "ptx-O0")) + ("ptx-align",
                                                                       "ptx-shared32")
FREE = ("local",)  # a launch configuration every family may choose: the block / work-group


def passes(*bases, extra=()):
    """The names of gpucmp's same-math PTX variants of OpenCL's source variants `bases`."""
    return tuple(f"{b}-{p}" for b in bases for p in SAME_MATH_PASSES + tuple(extra))


@dataclass(frozen=True)
class Family:
    """One problem of one workload with one math: the rows each API may run it with.

    problem: its fixing parameters, in name order ("n:4096"); cuda, opencl: each
    API's own variants of it (the same math); ptx: gpucmp's PTX variants of
    OpenCL's; free: the parameters each API may choose besides its variant (a
    row without one is the default); part: the suite part whose file holds the
    rows; shape2d: local sizes are XxY; math_differs: where both APIs' rows are
    each API's default math and that differs (said in the label), kept out of
    the geometric mean."""
    label: str
    part: str
    workload: str
    problem: str
    cuda: tuple
    opencl: tuple
    ptx: tuple = ()
    free: tuple = FREE
    shape2d: bool = False
    math_differs: bool = False

    def params(self):
        return tuple(tuple(p.split(":", 1)) for p in self.problem.split("/"))

    def variants(self, api):
        return self.cuda if api == "cuda" else self.opencl


MM = ("tile16", "tile32", "tile16-aligned", "tile32-aligned")
CP, MRI = "grid:512/atoms:40000", ("numK:3072/numX:32768", "numK:2048/numX:262144")
ADVECTION = ("blocked", "branchy", "plain", "weights", "stream", "async", "ring")
GIB = "bytes:1073741824"
# trapezoid's integrand divides (4 / (1 + x^2)) and has no variant with one math
# on both: CUDA's default divides IEEE (FCHK and a slow path in its SASS), OpenCL's
# within 2.5 ulp (MUFU.RCP alone), as cp's default rows.
TRAPEZOID = "trapezoid 2^18 work-items, each API's default division (not the same math)"
WORKSIZE = (("mmnaive 1024 x 1024", "mmnaive", "n:1024", "base", True),
            ("bilinear 512^2 to 1024^2", "bilinear", "in:512/out:1024", "base", True),
            ("sort (bitonic) 2^18 floats", "sort", "n:262144", "bitonic", False),
            (TRAPEZOID, "trapezoid", "items:262144", "base", False))
CONVERSIONS = (("aos", "soa"), ("soa", "aos"), ("aos", "aosoa"), ("aosoa", "aos"))


def forms(*bases):
    """The source forms of cp's kernels `bases`: atoms by value, read a step ahead."""
    return tuple(f"{b}-{form}" for b in bases for form in ("byvalue", "prefetch"))


def _mri(workload):
    # precise-vec4: the k-values read as float4, an OpenCL source form;
    # precise-byvalue: the k-values passed by value (CUDA's __grid_constant__,
    # OpenCL's struct argument), each API's own form as cp's -byvalue.
    own = ("precise", "uniform-tile", "precise-prefetch", "precise-byvalue")
    opencl = own + ("precise-vec4",)
    return [Family(f"{workload} precise, {edge}^3 (numK {problem.split('/')[0][5:]})", "parboil",
                   workload, problem, own, opencl, passes("precise"))
            for edge, problem in zip((32, 64), MRI)]


# The table's rows, in order: every paired workload of the suite, at the
# problem the other tables use (the largest where they use none).
FAMILIES = [
    Family("matrixMul, n=4096", "matrixmul", "matrixMul", "n:4096", MM, MM, passes(*MM)),
    # Each API's default math differs for cp (CUDA rounds division and sqrt
    # correctly, OpenCL 1.2 allows ulps): OpenCL's default rows pair with no CUDA row.
    # The atoms by value (-byvalue: CUDA's __grid_constant__, OpenCL's struct
    # argument) and read a step ahead (-prefetch) are each API's own source forms.
    Family("cp, IEEE divide and sqrt", "parboil", "cp", CP,
           ("base", "unrollx8", "unrollx8-ieee") + forms("unrollx8", "unrollx8-ieee"),
           ("unrollx8-ieee",) + forms("unrollx8-ieee"), passes("unrollx8-ieee")),
    Family("cp, fast math", "parboil", "cp", CP,
           ("unrollx8-fast", "unrollx8-fast-ftz") + forms("unrollx8-fast"),
           ("unrollx8-fast", "unrollx8-fast-ftz") + forms("unrollx8-fast"),
           passes("unrollx8-fast", "unrollx8-fast-ftz", "unrollx8-fast-byvalue",
                  extra=("ptx-ftz",))),
    *_mri("mriq"), *_mri("mrifhd"),
    Family("lavamd, 50^3 boxes", "layout", "lavamd", "boxes1d:50", ("base", "aligned"),
           ("base", "aligned"), free=FREE + ("layout",)),
    Family("bodies, 2^26", "layout", "bodies", "n:67108864", ("base",), ("base",),
           free=FREE + ("layout",)),
    Family("heartwall, 100 frames", "layout", "heartwall", "frames:100", ("base",), ("base",),
           free=FREE + ("layout",)),
    *[Family(f"layoutconv {src} to {dst}, 12.5 M records of 12 words", "layout", "layoutconv",
             f"records:12500000/words:12/from:{src}/to:{dst}", ("base",), ("base",))
      for src, dst in CONVERSIONS],
    # pipeline-regcap40: OpenCL's pipeline built with -cl-nv-maxrregcount=40.
    Family("reduce 2^28 int32", "agpu", "reduce", "type:int32/n:268435456",
           ("tree", "cascading", "pipeline"),
           ("tree", "cascading", "pipeline", "pipeline-regcap40")),
    # onepass-regcap64: OpenCL's onepass built with -cl-nv-maxrregcount=64.
    Family("scan 2^28 int32", "agpu", "scan", "type:int32/n:268435456",
           ("alpha", "lookback", "onepass"), ("alpha", "lookback", "onepass", "onepass-regcap64"),
           free=FREE + ("alpha",)),
    # async-ptx-cpasync(-nobar): OpenCL's async after gpucmp's cpasync pass (and
    # each copy's own barrier removed).
    Family("advection step 8192 x 16384", "advection", "advection", "nx:8192/ny:16384",
           ADVECTION, ADVECTION + ("ring-vec4",),  # ring-vec4: an OpenCL source form
           ("async-ptx-cpasync", "async-ptx-cpasync-nobar")),
    Family("triad 2^27", "triad", "triad", "n:134217728", ("base",), ("base",)),
    Family("device copy 1 GiB", "bandwidth", "bandwidth", GIB, ("d2d",), ("d2d",)),
    *[Family(f"{d} copy 1 GiB", "bandwidth", "bandwidth", GIB, (f"{d}-pinned", f"{d}-pageable"),
             (f"{d}-pinned", f"{d}-pageable", f"{d}-mapped")) for d in ("h2d", "d2h")],
    *[Family(label, "worksize", w, p, (v,), (v,), shape2d=two_d, math_differs=label == TRAPEZOID)
      for label, w, p, v, two_d in WORKSIZE],
]

# What no family takes though both APIs ran it, and why (tests/best_table_test.py
# holds every row of the committed suite runs to a family or to this).
NOT_OWN = [  # (variant suffix, why)
    ("-opencl-ptx", "cross-run: OpenCL's PTX under CUDA"),
    ("-ptx-jit", "cross-run: nvcc's PTX through CUDA's driver JIT"),
    ("-ptx-from-nvcc", "cross-run: nvcc's PTX through OpenCL"),
    ("-cpasync", "cross-run: CUDA's cp.async written into OpenCL as inline PTX"),
    ("-cpasync-wait0", "cross-run: OpenCL's inline cp.async, every copy waited at each row"),
    ("-cpasync-4b", "cross-run: OpenCL's inline cp.async, 4 bytes a copy"),
    ("-cpasync-4b-wait0", "cross-run: OpenCL's inline cp.async, 4 bytes a copy, all waited"),
    ("-ptx-as-built", "control: OpenCL's own PTX reloaded"),
    ("-ptx-O0", "control: the -O0 start of gpucmp's PTX chains"),
    ("-ldg", "control: CUDA's kernel reading its inputs as OpenCL does"),
    ("-maxl1", "control: CUDA's kernel at the smallest shared-memory carveout"),
]
VENDOR = ("cublas", "clblast", "cub")  # reference rows of their own
INSTRUMENTS = ("startup", "ceiling")  # build and first launch; the roofline's ceilings
OPENCL_DEFAULT = "OpenCL's default math (division and sqrt within ulps), which no CUDA row has"
MRI_FAST = "fast math (MRI's rows here are precise, as in the other tables)"
OTHER_MATH = {  # (workload, variant, its PTX variants too): why no family takes it
    ("cp", "base", False): OPENCL_DEFAULT, ("cp", "unrollx8", True): OPENCL_DEFAULT,
    **{(w, v, False): MRI_FAST for w in ("mriq", "mrifhd")
       for v in ("fast", "uniform-tile-fast")},
    **{(w, "fast-prefetch", False): MRI_FAST for w in ("mriq", "mrifhd")},
    **{(w, "fast-byvalue", False): MRI_FAST for w in ("mriq", "mrifhd")},
    **{(w, "fast-vec4", False): MRI_FAST for w in ("mriq", "mrifhd")},
}


def left_out(workload, api, variant):
    """Why no family takes this variant of the workload on this API (None where one
    does, or where nothing says why: a variant the table has to be told of)."""
    if any(f.workload == workload and variant in f.variants(api) + (
            f.ptx if api == "opencl" else ()) for f in FAMILIES):
        return None
    if workload in INSTRUMENTS:
        return "an instrument, not a workload"
    if variant == TUNED:
        return "gpucmp-bench --tune: the fastest of the family's rows, measured again"
    if variant in VENDOR:
        return "vendor library: a reference row of its own"
    for suffix, why in NOT_OWN:
        if variant.endswith(suffix):
            return why
    for (w, v, derived), why in OTHER_MATH.items():
        if w == workload and (variant == v or (derived and variant.startswith(v + "-"))):
            return why
    return None


def takes(family, bench, variants):
    """Whether the bench is a row of the family among `variants`: the workload, a
    listed variant, and the problem's parameters once the free ones are set aside
    (a cold-cache, split or other cross-run parameter keeps a row out)."""
    if bench.workload != family.workload or bench.variant not in variants or bench.facts.is_cross:
        return False
    rest = tuple(p for p in bench.params if p[0] not in family.free)
    return sorted(rest) == sorted(family.params())


def fastest(family, benches, variants):
    """The fastest measured row of the family among `variants` (median time; a tie
    goes to the earlier variant of the list, then the name), or None. benches
    holds only validated rows: load_all leaves error and skipped rows out."""
    rows = [b for b in benches if takes(family, b, variants)]
    if not rows:
        return None
    return min(rows, key=lambda b: (b.time, variants.index(b.variant), b.key))


@dataclass
class Best:
    family: Family
    cuda: object    # Bench or None
    opencl: object  # Bench or None
    ptx: object     # the fastest of gpucmp's PTX variants, Bench or None

    @property
    def ratio(self):
        return self.opencl.time / self.cuda.time

    @property
    def after_passes(self):
        """(OpenCL/CUDA with gpucmp's PTX passes, the pass row where it beats
        OpenCL's own best by more than BEST_MARGIN, else None); (None, None)
        where no PTX variant of the family was measured."""
        if self.ptx is None:
            return None, None
        if self.ptx.time < self.opencl.time * (1 - BEST_MARGIN):
            return self.ptx.time / self.cuda.time, self.ptx
        return self.ratio, None


def best_of(benches, families=None):
    """[Best] of every family, in table order; an API's row None where it has none."""
    rows = list(benches.values()) if isinstance(benches, dict) else list(benches)
    cuda = [b for b in rows if b.api == "cuda"]
    opencl = [b for b in rows if b.api == "opencl"]
    return [Best(f, fastest(f, cuda, f.cuda), fastest(f, opencl, f.opencl),
                 fastest(f, opencl, f.ptx))
            for f in (FAMILIES if families is None else families)]


def _api_rows(best, api):
    return best.cuda if api == "cuda" else best.opencl


def missing_api(best):
    """'CUDA', 'OpenCL', 'CUDA and OpenCL' for a family without a row there, else None."""
    gone = [name for api, name in (("cuda", "CUDA"), ("opencl", "OpenCL"))
            if _api_rows(best, api) is None]
    return " and ".join(gone) or None


# ---------------------------------------------------------------- formatting


def fmt_time(ns):
    """'16.95 ms', '640.9 us' (headline.py's form)."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale or unit == "us":
            v = ns / scale
            return f"{v:.2f} {unit}" if v < 100 else f"{v:.1f} {unit}"
    return ""


def fmt_shape(bench, spec, shape2d):
    """The local size a row ran with: the shape it names, or what its rule chose."""
    x, y = bench.counters.get("local_x"), bench.counters.get("local_y")
    if x is None or spec[:1].isdigit():
        return spec
    if x == 0:
        return f"{spec} (the driver's choice)"
    shape = f"{x:.0f}x{y:.0f}" if shape2d or (y or 1) != 1 else f"{x:.0f}"
    return f"{spec} = {shape}"


def fmt_config(bench, family):
    """'`variant`' and the free parameters it chose: '`onepass`, alpha 32'."""
    parts = [f"`{bench.variant}`"]
    for name, value in bench.params:
        if name in family.free:
            if name == "local":
                value = fmt_shape(bench, value, family.shape2d)
            parts.append(f"{name} {value}")
    return ", ".join(parts)


def fmt_bench(bench):
    """The time, with ' *' where most repetitions ran at the launch floor."""
    return fmt_time(bench.time) + (" *" if bench.counters.get("launch_bound", 0) > 0.5 else "")


def fmt_after(best):
    ratio, row = best.after_passes
    if ratio is None:
        return "\u2013"
    return f"{ratio:.2f} (`{row.variant}`)" if row else f"{ratio:.2f}"


def cells(best):
    """[CUDA, its configuration, OpenCL, its configuration, OpenCL/CUDA, after passes]."""
    return [fmt_bench(best.cuda), fmt_config(best.cuda, best.family), fmt_bench(best.opencl),
            fmt_config(best.opencl, best.family), f"{best.ratio:.2f}", fmt_after(best)]


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


def geomean_cells(bests):
    """The geometric means of OpenCL/CUDA and of it after gpucmp's PTX passes (a
    family without PTX variants counts with its own ratio) over the families
    with one math on both APIs."""
    same = [b for b in bests if not b.family.math_differs]
    if not same:  # every family shown differs in its math: no mean to take
        return ["–", "–"]
    return [f"{geomean(b.ratio for b in same):.2f}",
            f"{geomean(b.after_passes[0] or b.ratio for b in same):.2f}"]


HEADER = ["CUDA at its best", "configuration", "OpenCL at its best", "configuration",
          "OpenCL/CUDA", "with gpucmp's PTX passes"]
