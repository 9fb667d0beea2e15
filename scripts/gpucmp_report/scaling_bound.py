"""The bound a part's own kernel sets on "Scaling over GPUs": where the input has
one-step advection rows (one GPU, a step a launch; the suite part multigpu-parts) at a
judged problem's grid and at the grid of one of its parts on G GPUs (nx x ny/G: the
split's bands of whole 64-row blocks are equal at the judged grids), the whole
grid's step over the part's step is the speedup G GPUs could reach with an exchange
that cost nothing, for the variant fastest on one GPU at full length. Beside it, the
measured G-GPU speedup of the table above over that bound. The rows are each a
median of short batches, not a full-length run, which may run at other clocks."""
from .fmt import NONE, md_table
from .names import API_LABEL

TEXT = (
    "What a part's kernel costs alone: one GPU, one step a launch, at the judged grid and at "
    "the grid of one part of it on G GPUs (nx x ny/G), for the API's variant fastest on one "
    "GPU at full length. bound: the whole grid's step over the part's, the speedup G GPUs "
    "could reach if the halos cost nothing; reached: the table's measured G-GPU speedup over "
    "that bound. Medians of short batches, not full-length runs (which may run at other "
    "clocks, so reached can pass 100%).")


def fmt_us(seconds):
    return f"{seconds * 1e6:.4g} us"


def part_grid(nx, ny, gpus):
    """The grid of one part on `gpus` GPUs, where the split's parts are equal."""
    return (nx, ny // gpus) if ny % (64 * gpus) == 0 else None


def line(index, api, problem, counts, speedups):
    """The cells after the problem's name, or None where no part's step was measured."""
    _, nx, ny, steps = problem
    one = index.best(api, (nx, ny), steps, 1, "measured")
    whole = index.one("projected", api, one[2], (nx, ny), 1) if one else None
    if whole is None:
        return None
    cells, measured = [], False
    for gpus in counts:
        grid = part_grid(nx, ny, gpus)
        part = index.one("projected", api, one[2], grid, 1) if grid else None
        if part is None:
            cells += [NONE, NONE, NONE]
            continue
        measured = True
        bound = whole[0] / part[0]
        reached = speedups.get(gpus)
        cells += [fmt_us(part[0]), f"{bound:.2f}",
                  f"{reached / bound:.0%}" if reached is not None else NONE]
    if not measured:
        return None
    return [API_LABEL[api], f"`{one[2]}`", fmt_us(whole[0])] + cells


def table(index, problems, apis, counts, speedups):
    """The Markdown lines of the bound's table ([] without a part's one-step row).
    speedups: {(problem names, api): {gpus: measured speedup}}."""
    lines = []
    for problem in problems:
        for api in apis:
            cells = line(index, api, problem, counts, speedups.get((problem[0], api), {}))
            if cells:
                lines.append([problem[0]] + cells)
    if not lines:
        return []
    head = [h for g in counts for h in (f"one step, 1/{g} of the grid", f"bound, {g} GPUs",
                                        "reached")]
    return [TEXT, ""] + md_table(["problem", "API", "variant", "one step, whole grid", *head],
                                 lines, right=tuple(range(3, 4 + len(head)))) + [""]
