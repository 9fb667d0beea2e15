"""Semi-Lagrangian advection (GPU Challenge 2010): the rows advection/<api>/<variant>/
nx:<NX>/ny:<NY>[/steps:<N>][/gpus:<G>[/halo_steps:<K>]/exchange:<sync|overlap>/over:<mpi|host|
p2p|p2p-copy|context>],
parameters read by key. A row without steps: times one step; with steps:N, one launch of N
steps. Per grid, each variant's time per step, cells/s, GB/s (8 bytes a cell) against the
same API's measured device copy, and OpenCL/CUDA; per judged problem, the total time
projected from the per-step rows (time per step x steps) and the measured full-length one
where a steps:N row has the problem's N, on one GPU and on each GPU count of the input (the
fastest over variant, exchange and transport, each named), beside the times reported in
2010; and fig-advection.png. Left out without advection rows. Run, Index and the problems
serve sections/scaling.py too."""
import roofline  # scripts/roofline.py (scripts/ is on sys.path, as for gbench_json)

from ..fmt import NONE, fmt_bench, md_table
from ..names import API_LABEL, APIS, FIGURE_PATTERNS, parse_name

TITLE = "Semi-Lagrangian advection (GPU Challenge 2010)"
WORKLOAD = "advection"
MAIN = "blocked"  # the paper's kernel
VARIANT_ORDER = ("blocked", "branchy", "plain", "weights", "stream", "async", "async-cpasync",
                 "async-cpasync-wait0", "async-cpasync-4b", "async-cpasync-4b-wait0",
                 "async-ptx-cpasync", "async-ptx-cpasync-nobar", "async-maxl1", "ring",
                 "ring-vec4")
# over: how the G parts trade halos; halo_steps:K, every K steps (2K rows each way)
KNOWN = {"nx", "ny", "steps", "gpus", "halo_steps", "exchange", "over"}
BYTES_PER_CELL = 8  # f read once and written once a step, FP32
NOT_RUN = "not run"
# GPU Challenge 2010's judged problems (nx, ny, steps) and the total times reported for them,
# in seconds on 1 GPU and on 2 GPUs (2010 hardware): Sudo et al., Tohoku team, GPU Challenge
# 2010 (Sudo et al., Tohoku team). Problems 2 and 3 are the same size, judged twice.
CHALLENGE_2010 = (  # (problem, nx, ny, steps, 1 GPU s, 2 GPUs s)
    ("P1", 2048, 2048, 20480, 24.41, 12.03),
    ("P2", 4096, 4096, 10240, 46.84, 22.58),
    ("P3", 4096, 4096, 10240, 48.78, 23.55),
    ("P4", 16384, 4096, 4096, 73.33, 34.56),
    ("P5", 8192, 16384, 2048, 72.82, 34.21),
)


class Run:
    """One advection row: its Bench and the parameters read by key."""

    def __init__(self, bench, params):
        self.bench, self.api, self.variant = bench, bench.api, bench.variant
        self.nx, self.ny = int(params["nx"]), int(params["ny"])
        self.steps = int(params.get("steps", 1))
        self.gpus = int(params.get("gpus", 1))
        self.exchange = params.get("exchange")
        # mpi (a rank a GPU), host, p2p, p2p-copy, context (one process); "<over> every K steps"
        # with halo_steps:K, so that each K is a configuration of its own
        self.over = params.get("over")
        if self.over and params.get("halo_steps", "1") != "1":
            self.over += f" every {params['halo_steps']} steps"
        self.seconds = bench.time / 1e9  # one launch: one step, or `steps` steps

    @property
    def grid(self):
        return self.nx, self.ny


def advection_runs(rep):
    """[Run] of the hot advection rows whose parameters this section knows."""
    out = []
    for b in rep.data.by_id.values():
        params = dict(b.params)
        numbers = [params.get("nx", ""), params.get("ny", ""), params.get("steps", "1"),
                   params.get("gpus", "1")]
        if b.workload == WORKLOAD and set(params) <= KNOWN and all(n.isdigit() for n in numbers):
            out.append(Run(b, params))
    return sorted(out, key=lambda r: r.bench.key)


def copy_bandwidth(rep):
    """{api: GB/s of the device copy of 1 GiB} of the loaded rows (roofline.py's DRAM ceiling)."""
    out = {}
    for api in APIS:
        b = rep.data.get(*parse_name(roofline.COPY_ROW.format(api=api)))
        if b is not None and b.counters.get("GB/s"):
            out[api] = b.counters["GB/s"]
    return out


def variant_rank(variant):
    return (VARIANT_ORDER.index(variant), "") if variant in VARIANT_ORDER else (99, variant)


def grid_text(grid):
    return f"{grid[0]} x {grid[1]}"


class Index:
    """The runs by (api, variant, grid, steps, gpus, exchange, over); totals of a problem.
    A configuration is (variant, exchange, over), "" for the one-GPU rows' last two."""

    def __init__(self, runs):
        self.runs = {(r.api, r.variant, r.grid, r.steps, r.gpus, r.exchange, r.over): r
                     for r in runs}

    def gpu_counts(self):
        """The numbers of GPUs above 1 of the runs, ascending."""
        return sorted({k[4] for k in self.runs if k[4] > 1})

    def configs(self, api, grid, gpus):
        """[(variant, exchange, over)] of the runs of this API, grid and number of GPUs."""
        return sorted({(k[1], k[5] or "", k[6] or "") for k in self.runs
                       if k[0] == api and k[2] == grid and k[4] == gpus},
                      key=lambda c: (variant_rank(c[0]), c[1], c[2]))

    def one(self, kind, api, variant, grid, steps, gpus=1, exchange="", over=""):
        """(seconds, kind) of `steps` steps, or None: "measured", the steps:N row of the
        problem's N; "projected", the per-step row times N."""
        key = (api, variant, grid, steps if kind == "measured" else 1, gpus, exchange or None,
               over or None)
        run = self.runs.get(key)
        if run is None:
            return None
        return (run.seconds if kind == "measured" else run.seconds * steps), kind

    def total(self, api, variant, grid, steps, gpus=1, exchange="", over=""):
        """The measured total where there is one, else the projected one, else None."""
        return (self.one("measured", api, variant, grid, steps, gpus, exchange, over)
                or self.one("projected", api, variant, grid, steps, gpus, exchange, over))

    def best(self, api, grid, steps, gpus, kind=None):
        """(seconds, kind, variant, exchange, over) of the fastest run, or None: among the
        measured full-length runs where one exists (or of `kind` only, where given)."""
        found = []
        for variant, exchange, over in self.configs(api, grid, gpus):
            t = self.one(kind, api, variant, grid, steps, gpus, exchange, over) if kind else \
                self.total(api, variant, grid, steps, gpus, exchange, over)
            if t is not None:
                found.append((t[0], t[1], variant, exchange, over))
        if kind is None and any(f[1] == "measured" for f in found):
            found = [f for f in found if f[1] == "measured"]
        return min(found) if found else None


def fmt_s(seconds):
    return f"{seconds:.4g} s"


def grid_table(runs, grid, copy):
    """The per-step table of one grid: a row per variant and API (1 GPU, per-step rows)."""
    mine = {(r.variant, r.api): r for r in runs if r.grid == grid and r.steps == 1
            and r.gpus == 1}
    rows = []
    for variant in sorted({v for v, _ in mine}, key=variant_rank):
        for api in APIS:
            r = mine.get((variant, api))
            if r is None:
                continue
            cells = r.nx * r.ny
            gbps = BYTES_PER_CELL * cells / r.seconds / 1e9
            pct = (f"{gbps / copy[api]:.1%}" if api in copy else
                   f"{r.bench.counters['pct_peak']:.1f}% (peak)"
                   if "pct_peak" in r.bench.counters else NONE)
            cuda = mine.get((variant, "cuda"))
            ratio = f"{r.seconds / cuda.seconds:.3f}" if api == "opencl" and cuda else NONE
            rows.append((f"`{variant}`" + (" (the paper's)" if variant == MAIN else ""),
                         API_LABEL[api], fmt_bench(r.bench, rate=False),
                         f"{cells / r.seconds / 1e9:.4g} G", f"{gbps:.4g}", pct, ratio))
    return md_table(["variant", "API", "time per step", "cells/s", "GB/s", "% of copy",
                     "OpenCL / CUDA"], rows, right=(2, 3, 4, 5, 6))


def config_text(exchange, over):
    """How a multi-GPU row ran: "overlap over p2p", "sync over mpi", ..."""
    return " over ".join(w for w in (exchange, over) if w)


def fmt_found(found, exchange=False, kind=False):
    """A total of Index.best: "<s> s (`variant`[, exchange over transport][, measured|
    projected])"."""
    if found is None:
        return NOT_RUN
    seconds, how, variant, exch, over = found
    how_ran = config_text(exch, over) if exchange else ""
    what = [f"`{variant}`"] + ([how_ran] if how_ran else []) + ([how] if kind else [])
    return f"{fmt_s(seconds)} ({', '.join(what)})"


def gpus_label(gpus):
    return f"{gpus} GPU" + ("s" if gpus > 1 else "")


def problem_rows(index, apis, counts):
    """The rows of the judged problems' table (a pair of columns per GPU count of
    `counts`), and {problem: {bar: (seconds, kind)}} of the figure."""
    rows, bars = [], {}
    for name, nx, ny, steps, one_2010, two_2010 in CHALLENGE_2010:
        grid = (nx, ny)
        bars[name] = {"2010, 1 GPU": (one_2010, "reported"),
                      "2010, 2 GPUs": (two_2010, "reported")}
        for api in apis:
            paper = index.one("projected", api, MAIN, grid, steps)
            best = index.best(api, grid, steps, 1, "projected")
            full = index.best(api, grid, steps, 1, "measured")
            if full or best:
                bars[name][f"{API_LABEL[api]}, 1 GPU"] = (full or best)[:2]
            cells = []
            for gpus in counts:
                many = index.best(api, grid, steps, gpus)
                speedup = NONE
                if many is not None:
                    one = index.total(api, many[2], grid, steps)  # same API, variant and grid
                    speedup = f"{one[0] / many[0]:.2f}" if one else NONE
                    bars[name][f"{API_LABEL[api]}, {gpus_label(gpus)}"] = many[:2]
                cells += [fmt_found(many, exchange=True, kind=True), speedup]
            rows.append((name, f"{nx} x {ny}, {steps}", API_LABEL[api], fmt_s(one_2010),
                         fmt_s(paper[0]) if paper else NOT_RUN, fmt_found(best),
                         fmt_found(full), fmt_s(two_2010), *cells))
    return rows, bars


INTRO = (
    "Rows `advection/<api>/<variant>/nx:<NX>/ny:<NY>`: the set problem of GPU Challenge 2010, "
    "2-D advection by the cubic semi-Lagrangian method. A row without `steps:` "
    "times one launch of one step; a row with `steps:<N>` times one launch of N steps (a "
    "full-length run); `gpus:<G>/exchange:<sync|overlap>/over:<transport>` rows split the grid "
    "in row bands over G GPUs: one MPI rank a GPU (`over:mpi`), or one process with a thread "
    "a GPU trading halos through the host (`over:host`), CUDA's peer stores (`over:p2p`) or "
    "peer copies (`over:p2p-copy`), or OpenCL's copies between buffers of one context over "
    "the GPUs (`over:context`). Time: the median of the repetitions. cells/s: nx x ny / "
    "time per step; GB/s: {bpc} bytes a cell a step (f read once and written once, FP32) / "
    "time per step; {copy}. OpenCL / CUDA: the same variant's times (above 1, CUDA is "
    "faster). `{main}` is the paper's kernel.")


def intro(rep, runs, copy):
    if copy:
        ref = ("% of copy: GB/s over the same API's measured device copy of 1 GiB (`"
               + roofline.COPY_ROW.replace("{api}", "<api>") + "`, read and write counted: "
               + ", ".join(f"{API_LABEL[a]} {copy[a]:.4g} GB/s" for a in APIS if a in copy)
               + ")")
        missing = [API_LABEL[a] for a in APIS if a not in copy and any(r.api == a for r in runs)]
        if missing:
            ref += (f"; for {', '.join(missing)}, with no copy row loaded, the rows' `pct_peak` "
                    "counter (% of the nominal DRAM peak, marked peak)")
    else:
        ref = ("% of copy: no device copy row is loaded, so the rows' `pct_peak` counter "
               "stands there: % of the nominal DRAM peak (`<api>.dram_peak_gbps`), marked peak")
    md = [INTRO.format(bpc=BYTES_PER_CELL, copy=ref, main=MAIN), ""]
    contexts = {path: c for path, c, _ in rep.contexts}
    for key in ("advection.launch", "advection.flow", "advection.initial"):
        values = sorted({str(contexts.get(r.bench.path, {}).get(key, "")).strip()
                         for r in runs} - {""})
        if values:
            md.append(f"- `{key}`: " + "; ".join(values))
    return md + ([""] if md[-1] else [])


PROBLEMS_TEXT = (
    "The challenge's five judged problems (nx x ny, steps; 2 and 3 are the same size, judged "
    "twice) against the times reported in 2010 on 2010 hardware (Sudo et al., Tohoku team, "
    "GPU Challenge 2010). Projected: time per step x steps, from the per-step rows of `{main}` "
    "(the paper's kernel) and of the fastest variant per API. Measured full-length: the "
    "fastest `steps:<N>` row of the problem's grid and N (one launch of N steps). G GPUs: the "
    "fastest row on G GPUs over variant, exchange and transport (named: `variant`, exchange "
    "over transport), measured where a full-length row exists, else projected; G-GPU "
    "speedup: the one-GPU time of the same API, variant and grid (measured where it has a "
    "full-length row, else projected) over it. Rows that failed validation are error rows "
    "(Not measured), never picked.")


def section(rep):
    runs = advection_runs(rep)
    if not runs:
        return []
    copy = copy_bandwidth(rep)
    md = [f"## {TITLE}", ""] + intro(rep, runs, copy)
    grids = sorted({r.grid for r in runs if r.steps == 1 and r.gpus == 1},
                   key=lambda g: (g[0] * g[1], g))
    if grids:
        md += ["### Time per step, one GPU", ""]
        for grid in grids:
            md += [f"Grid {grid_text(grid)} ({grid[0] * grid[1]} cells):", ""]
            md += grid_table(runs, grid, copy) + [""]
    index = Index(runs)
    apis = [a for a in APIS if any(r.api == a for r in runs)]
    counts = index.gpu_counts() or [2]  # without any, the column 2010 is compared with
    rows, bars = problem_rows(index, apis, counts)
    md += ["### The judged problems against 2010", "", PROBLEMS_TEXT.format(main=MAIN), ""]
    many = [h for g in counts for h in (gpus_label(g), f"{g}-GPU speedup")]
    md += md_table(["problem", "grid, steps", "API", "2010, 1 GPU",
                    f"`{MAIN}`, 1 GPU, projected", "fastest, 1 GPU, projected",
                    "measured full-length, 1 GPU", "2010, 2 GPUs", *many],
                   rows, right=tuple(range(3, 8 + len(many)))) + [""]
    if not index.gpu_counts():
        md += ["No multi-GPU rows (`gpus:<G>`) are in the input: the 2-GPU columns say "
               f"\"{NOT_RUN}\".", ""]
    if not any(r.steps > 1 for r in runs):
        md += ["No full-length rows (`steps:<N>`) are in the input: every time of ours above "
               "is projected from the time per step.", ""]
    if rep.figure("advection", [(p[0], p[1:4], bars[p[0]]) for p in CHALLENGE_2010]):
        md += ["![The judged problems: total time, 2010 against CUDA and OpenCL on one GPU "
               f"and more]({FIGURE_PATTERNS['advection']})", ""]
    return md
