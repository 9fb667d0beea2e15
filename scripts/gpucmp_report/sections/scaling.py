"""Scaling over GPUs: advection's judged problems at full length (the steps:N rows of
a problem's grid and N only, nothing projected) per problem and API: the fastest
one-GPU row (its variant), and for each GPU count of the input the fastest row on that
many GPUs over variant x exchange x transport (`over`), named, with its time, its
speedup over the same API's fastest one-GPU row and what its step costs over 1/G of
that one-GPU step. Beside them, where a jacobi.json of
scripts/jacobi_reference.py is among the inputs or beside the result files
(sections/gaps.py's side inputs, gpucmp_report/jacobi.py), NVIDIA's multi-GPU Jacobi
variants at the same grid, as many iterations as steps and the same GPU counts: the
median of their times and of their speedups over their own one-GPU solve. Problems
2 and 3 are one grid and length: one line. fig-scaling.png: speedup against GPU
count per problem, a line per API's fastest and per Jacobi variant, and the ideal.
Below the table, where one-step rows at a part's grid were run, the bound a part's
own kernel sets (gpucmp_report/scaling_bound.py). Left out without a multi-GPU
full-length row or a Jacobi row at a judged grid."""
from .. import jacobi as report_jacobi
from .. import scaling_bound
from ..fmt import NONE, md_table
from ..names import API_LABEL, APIS, FIGURE_PATTERNS
from .advection import CHALLENGE_2010, Index, advection_runs, config_text, fmt_s, gpus_label

TITLE = "Scaling over GPUs"
FAILED = "failed"


def problems():
    """[(names, nx, ny, steps)]: the judged problems, one entry per grid and length."""
    out = {}
    for name, nx, ny, steps, _, _ in CHALLENGE_2010:
        out.setdefault((nx, ny, steps), []).append(name)
    return [(", ".join(names), nx, ny, steps) for (nx, ny, steps), names in out.items()]


def jacobi_at(rep, nx, ny, steps):
    """({variant: {gpus: (seconds, speedup, runs, failed)}}, {variant: serial seconds})
    of the loaded jacobi.json rows at this grid and iteration count (the later file
    wins per variant)."""
    side = getattr(rep.args, "side", None)
    by, serial = {}, {}
    for doc in (side.jacobi if side is not None else []):
        medians, serials = report_jacobi.medians(doc.at(nx, ny, steps))
        by.update(medians)
        serial.update(serials)
    return by, serial


def fmt_config(found):
    seconds, _, variant, exchange, over = found
    return f"{fmt_s(seconds)} (" + " ".join(w for w in (f"`{variant}`", config_text(
        exchange, over)) if w) + ")"


def fmt_speedup(many, one, gpus, steps):
    """"<speedup> (<+/-us> us)": one / many, and what a step on `gpus` GPUs costs over
    1/gpus of a one-GPU step, in microseconds (the fixed cost of splitting)."""
    added = (many - one / gpus) / steps * 1e6
    return f"{one / many:.2f} ({added:+.1f} us)"


def api_line(index, api, grid, steps, counts):
    """(cells of the API's line, {gpus: speedup} of its fastest rows)."""
    one = index.best(api, grid, steps, 1, "measured")
    cells = [f"{fmt_s(one[0])} (`{one[2]}`)" if one else NONE]
    points = {1: 1.0} if one else {}
    for gpus in counts:
        many = index.best(api, grid, steps, gpus, "measured")
        speedup = one[0] / many[0] if one and many else None
        if speedup is not None:
            points[gpus] = speedup
        cells += [fmt_config(many) if many else NONE,
                  fmt_speedup(many[0], one[0], gpus, steps) if speedup is not None else NONE]
    return cells, points


def jacobi_line(runs, serial, counts, steps):
    """(cells of one Jacobi variant's line, {gpus: median speedup})."""
    cells = [f"{fmt_s(serial)} (its own one-GPU solve)" if serial else NONE]
    points = {1: 1.0} if serial else {}
    for gpus in counts:
        seconds, speedup, n, failed = runs.get(gpus, (None, None, 0, 0))
        if n == 0:
            cells += [NONE, NONE]
            continue
        if seconds is None:
            cells += [f"{FAILED} ({n} of {n})", NONE]
            continue
        points[gpus] = speedup
        note = f"median of {n - failed}" + (f"; {failed} of {n} {FAILED}" if failed else "")
        added = f" ({(seconds - serial / gpus) / steps * 1e6:+.1f} us)" if serial else ""
        cells += [f"{fmt_s(seconds)} ({note})", f"{speedup:.2f}{added}"]
    return cells, points


TEXT = (
    "Each judged problem at full length (`steps:<N>` rows of its grid and N; nothing "
    "projected). 1 GPU: the API's fastest one-GPU row (its variant). G GPUs: the fastest "
    "row on G GPUs over variant, exchange and transport (`over`: `mpi`, a rank a GPU; "
    "`host`, `p2p`, `p2p-copy`, `context`, one process), named `variant` exchange over transport; "
    "speedup: the API's fastest one-GPU time over it (another variant's, where another is "
    "fastest on one GPU), and in brackets what its step costs over 1/G of that one-GPU step "
    "(G-GPU time minus one-GPU time / G, over the steps: the fixed cost of the split, what "
    "keeps the speedup under G). Rows that failed validation are error rows (Not measured), "
    "never picked.")
JACOBI_TEXT = (
    "Jacobi `<variant>`: NVIDIA's multi-GPU Jacobi solver ({repo}{commit}; the 4-neighbour mean, "
    "FP32, the norm once, at the first iteration) at the same grid, as many iterations as steps "
    "and the same GPUs ({files}): the median of its runs' times and of their speedups, each "
    "run's own one-GPU solve of the same problem (its `runtime_serial`, in the same process) "
    "over its time (in brackets, as above, from the medians); 1 GPU: the median of those "
    "one-GPU solves. It moves 8 bytes a cell an "
    "iteration, as advection does, with a lighter stencil: a yardstick for the halo "
    "exchange, not for the kernel.")


def section(rep):
    index = Index(advection_runs(rep))
    apis = [a for a in APIS if any(k[0] == a for k in index.runs)]
    lines, figure = [], []
    counts = set()
    for _, nx, ny, steps in problems():
        counts |= {g for g in index.gpu_counts() for a in apis
                   if index.best(a, (nx, ny), steps, g, "measured")}
        by, _ = jacobi_at(rep, nx, ny, steps)
        counts |= {g for runs in by.values() for g in runs if g > 1}
    counts = sorted(counts)
    if not counts:
        return []
    docs = getattr(getattr(rep.args, "side", None), "jacobi", [])
    speedups = {}
    for names, nx, ny, steps in problems():
        series = {}
        head = [names, f"{nx} x {ny}, {steps}"]
        for api in apis:
            cells, points = api_line(index, api, (nx, ny), steps, counts)
            if any(c != NONE for c in cells):
                lines.append(head + [API_LABEL[api]] + cells)
                series[f"{API_LABEL[api]} (fastest)"] = points
                speedups[(names, api)] = points
        by, serial = jacobi_at(rep, nx, ny, steps)
        for variant in sorted(by):
            cells, points = jacobi_line(by[variant], serial.get(variant), counts, steps)
            lines.append(head + [f"Jacobi `{variant}`"] + cells)
            series[f"Jacobi {variant}"] = points
        if any(len(p) > 1 for p in series.values()):
            figure.append((names, (nx, ny, steps), series))
    many = [h for g in counts for h in (gpus_label(g), f"{g}-GPU speedup")]
    md = [f"## {TITLE}", "", TEXT, ""]
    if docs:
        ref = docs[-1].reference
        commit = f" at {str(ref['commit'])[:12]}" if ref.get("commit") else ""
        files = ", ".join(f"`{d.path}`" + (f", {d.reference['gpu']}" if d.reference.get("gpu")
                                             else "") for d in docs)
        md += [JACOBI_TEXT.format(repo=ref.get("repo", "NVIDIA/multi-gpu-programming-models"),
                                  commit=commit, files=files), ""]
    md += md_table(["problem", "grid, steps", "API or program", "1 GPU", *many], lines,
                   right=tuple(range(3, 4 + len(many)))) + [""]
    md += scaling_bound.table(index, problems(), apis, counts, speedups)
    if rep.figure("scaling", figure):
        md += [f"![Speedup against GPU count per judged problem]({FIGURE_PATTERNS['scaling']})",
               ""]
    return md
