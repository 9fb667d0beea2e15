"""Work-size tuning (after Takemoto et al., IPSJ 2015): per kernel and API
the best and worst of the shapes measured, the rules (the study's, the driver's,
gpucmp's tuner, the default shape) against the best, the study's own figures,
heat maps (2-D) and curves (1-D). Facts only: no reason why a shape wins."""
import os

from ..fmt import NONE, fmt_ratio, fmt_time, md_table, plural
from ..names import APIS
from ..worksize import (DEFAULT_SHAPE, NEAR_BEST, STUDY_2015, api_label, fmt_shape, kernels,
                        measured_count, rule_row, rule_summary, summary_text)
from ..worksize_figures import figure_names

TITLE = "Work-size tuning"
INTRO = (
    "Rows with the parameter `local:<spec>` (after Takemoto et al., IPSJ 2015): "
    "one kernel launched with different work-group (OpenCL) / block (CUDA) shapes. Shapes "
    "are written x by y work-items (2-D; x is the contiguous dimension) or as the group "
    "size (1-D). A shape row is one of the sweep (every legal shape) or a fixed shape; "
    "rules: `study` (1-D) / `study-x`, `study-y` (2-D), the study's rule; `driver`, the "
    "API's own choice (OpenCL: a NULL local size, whose shape the host does not learn; "
    "CUDA, which has no such choice: the occupancy API's block size as a dividing shape); "
    "`query`, the size the API suggests for the kernel as a shape (CUDA: the occupancy API; "
    "OpenCL: the kernel's work-group size rounded down to its preferred multiple); "
    "`tuner`, gpucmp's tuner (harness/local_choice.h: from the model's first choice, a hill "
    "climb that times at most a tenth of the legal shapes; with a budget of one it times "
    "none). These rows enter this section and the measurement quality only: no "
    "pair, ratio, best-variant or peak above.")


def fmt_measured(tuning):
    n = len(tuning.shapes)
    return f"{n} of {tuning.candidates}" if tuning.candidates is not None else str(n)


def near_text(tuning):
    near = tuning.near_best()
    if not near:
        return NONE
    xs = sorted({x for x, _ in near})
    span = str(xs[0]) if xs[0] == xs[-1] else f"{xs[0]}-{xs[-1]}"
    return f"{len(near)} (x {span})"


def best_table(klist):
    rows = []
    for k in klist:
        for api, t in k.apis.items():
            if t.best is None:
                rows.append((k.label, api_label(api), 0) + (NONE,) * 6)
                continue
            (bs, b), (ws, w) = t.best, t.worst
            rows.append((k.label, api_label(api), fmt_measured(t), fmt_shape(bs, k.dims),
                         fmt_time(b.time), fmt_shape(ws, k.dims), fmt_time(w.time),
                         fmt_ratio(t.over_best(w)), near_text(t)))
    md = md_table(["kernel", "API", "shapes measured", "best shape", "best time", "worst shape",
                   "worst time", "worst / best", f"within {NEAR_BEST:.0%} of best (x range)"],
                  rows, right=(2, 4, 6, 7, 8))
    incomplete = [f"{k.label} {api_label(api)} ({fmt_measured(t)})" for k in klist
                  for api, t in k.apis.items() if t.best is not None and t.candidates is not None
                  and not t.complete]
    unknown = sum(t.best is not None and t.candidates is None for k in klist
                  for t in k.apis.values())
    notes = []
    if incomplete:
        notes.append("Fewer shapes measured than the tuner counted legal, so the best is of "
                     "the shapes measured only: " + "; ".join(incomplete) + ".")
    if unknown:
        notes.append(f"{plural(unknown, 'kernel/API')} without a tuner row: the number of "
                     "legal shapes is not in the input, so whether the sweep was exhaustive is "
                     "not known.")
    return md + ([""] + [" ".join(notes)] if notes else [])


def api_table(klist):
    rows = []
    for k in klist:
        c, o = k.apis.get("cuda"), k.apis.get("opencl")
        if c is None or o is None:
            continue
        cell = [NONE if t.best is None else f"{fmt_time(t.best[1].time)} at "
                f"{fmt_shape(t.best[0], k.dims)}" for t in (c, o)]
        rows.append((k.label, *cell, fmt_ratio(k.ratio()) if k.ratio() else NONE))
    if not rows:
        return []
    return ["Best shape of each API (ratio OpenCL best / CUDA best: above 1, CUDA's best "
            "is faster; each API at its own best shape):", ""] + md_table(
        ["kernel", "CUDA best", "OpenCL best", "OpenCL / CUDA"], rows, right=(1, 2, 3))


def study_text(klist):
    lines = []
    for k in klist:
        s = STUDY_2015.get(k.workload)
        if s is None:
            continue
        theirs = f"best {s['best_ms']:g} ms at {s['best_at']}"
        if "worst_ms" in s:
            theirs += (f", worst {s['worst_ms']:g} ms at {s['worst_at']} (worst / best "
                       f"{s['worst_ms'] / s['best_ms']:.1f})")
        ours = []
        for api, t in k.apis.items():
            if t.best is None:
                continue
            (bx, by), b = t.best
            (wx, wy), w = t.worst
            where = "y > x" if by > bx else ("y = x" if by == bx else "x > y")
            text = f"{api_label(api)} best {fmt_time(b.time)} at ({bx}, {by}) ({where})"
            text += f", worst {fmt_time(w.time)} at ({wx}, {wy}) (worst / best " \
                    f"{w.time / b.time:.1f})"
            one = t.shapes.get((1, 1))
            if one is not None and (wx, wy) != (1, 1):
                text += f", (1, 1) {fmt_time(one.time)}"
            ours.append(text)
        lines.append(f"- {s['kernel']}: the study's figures (Tesla K20, its Tables 5/6): "
                     f"{theirs}. Ours, {k.label}: " + ("; ".join(ours) if ours else
                                                       "no shape measured") + ".")
    if not lines:
        return []
    return ["The study's own figures (measured on a Tesla K20, not on the device above) "
            "beside ours, shapes as (x, y):", ""] + lines


def rules_table(klist):
    rows = []
    for k in klist:
        for api, t in k.apis.items():
            if t.best is not None:
                rows.append((k.label, api_label(api), "sweep (best)", fmt_shape(t.best[0], k.dims),
                             fmt_time(t.best[1].time), "1.00", fmt_measured(t)))
            for rule in k.rule_names():
                bench, shape = rule_row(t, rule, k.dims)
                name = f"default {fmt_shape(DEFAULT_SHAPE[k.dims], k.dims)}" \
                    if rule == "default" else rule
                if bench is None:
                    if rule != "default":
                        rows.append((k.label, api_label(api), name) + (NONE,) * 4)
                    continue
                count = measured_count(rule, bench)
                shown = fmt_shape(shape, k.dims) if shape else "not known (driver)" \
                    if rule == "driver" else NONE
                measured = f"{count[0]} of {count[1]}" if count[1] is not None else str(count[0])
                if rule == "tuner" and count[0] == 0:
                    measured += " (model's first choice)"
                ratio = t.over_best(bench)
                rows.append((k.label, api_label(api), name, shown, fmt_time(bench.time),
                             fmt_ratio(ratio) if ratio is not None else NONE, measured))
    md = ["Each rule's row against the best shape of the same kernel and API (time / best: "
          "1.00 is the best; below 1, the rule's own row ran faster than the sweep's best). "
          f"A rule without a row: {NONE}. The default shape is listed where its row was "
          "measured.", ""]
    md += md_table(["kernel", "API", "rule", "shape", "time", "time / best", "shapes measured"],
                   rows, right=(4, 5, 6))
    summary = []
    for api in sorted({a for k in klist for a in k.apis},
                      key=lambda a: (APIS.index(a) if a in APIS else len(APIS), a)):
        s = rule_summary(klist, api)
        parts = [f"{name} {text}" for name, text in (
            ("study rule:", summary_text(s["study"])), ("tuner:", summary_text(s["tuner"])))
            if text]
        if parts:
            summary.append(f"- {api_label(api)}, time / best: " + "; ".join(parts) + ".")
    return md + ([""] + summary if summary else [])


def worksize_section(klist, figure=None):
    """The lines of the section ([] without local rows); figure(kind, kernels) as
    Report.figure."""
    if not klist:
        return []
    md = [INTRO, "", "### Best and worst shape", ""]
    md += best_table(klist) + [""]
    cross = api_table(klist)
    md += cross + ([""] if cross else [])
    study = study_text(klist)
    md += study + ([""] if study else [])
    md += ["### Rules against the best shape", ""] + rules_table(klist) + [""]
    written = figure("worksize", klist) if figure is not None else None
    if written:
        names = {os.path.basename(p) for p in written}
        md += ["### Figures", "",
               "2-D kernels: time per shape, one map per API (x across, y up; blank: not "
               "measured, e.g. over the device's 1024 work-items per group; outlined: the "
               "best). 1-D kernels: time against local size, one line "
               "per API (star: the best).", ""]
        for k, api, name in figure_names(klist):
            if name in names:
                what = f"{k.label} {api_label(api)}" if api else k.label
                md += [f"![work-size: {what}]({name})", ""]
    return md


def section(rep):
    lines = worksize_section(kernels(rep.data), rep.figure)
    return [f"## {TITLE}", ""] + lines if lines else []
