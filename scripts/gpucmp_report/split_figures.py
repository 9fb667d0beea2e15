"""The work-split figures (after the study's Figs. 2-4): per split kernel, API and
device group, the job time against device 0's share of the work: the share:F rows
as a curve at the share each was given, the rules' rows as points at theirs, the
fastest single-device row as a line; drawn through figures.Plotter.save
(reproducible PNGs)."""
from .fmt import fmt_time, slug
from .split import api_label

WIDE = 4.0  # a log time axis where the slowest row is this many times the fastest
MARKERS = ["s", "^", "D", "v", "P", "X", "h"]
MAX_NAME = 90  # a device's name in the title is cut to this many characters


def figure_names(kernels):
    """[(SplitKernel, file name)] in report order, for the kernels of 2 rows or
    more: fig-split-<api>-<kernel>[-<group>].png; <kernel> is the workload, with the
    variant and parameters where the workload has several kernels in the group;
    <group> numbers the API's device groups where it has several."""
    groups = {}  # api -> [devices]
    for k in kernels:
        names = groups.setdefault(k.api, [])
        if k.devices not in names:
            names.append(k.devices)
    per_workload = {}
    for k in kernels:
        key = (k.api, tuple(k.devices), k.workload)
        per_workload[key] = per_workload.get(key, 0) + 1
    out, used = [], set()
    for k in kernels:
        if len(k.rows) < 2:
            continue
        stem = slug(k.workload) if per_workload[(k.api, tuple(k.devices), k.workload)] == 1 else \
            slug(f"{k.workload}-{k.variant}-" + "-".join(f"{n}-{v}" for n, v in k.params))
        stem = f"{slug(k.api)}-{stem}"
        if len(groups[k.api]) > 1:
            stem += f"-g{groups[k.api].index(k.devices) + 1}"
        while stem in used:
            stem += "-x"
        used.add(stem)
        out.append((k, f"fig-split-{stem}.png"))
    return out


def split_figures(plotter, kernels):
    """Writes every figure of figure_names: [path]."""
    return [plotter.save(curve(plotter, k), name) for k, name in figure_names(kernels)]


def short(name):
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 3] + "..."


def curve(plotter, kernel):
    """Time (ms) against device 0's share given: the fixed shares joined by a line
    (bars: standard deviation over the repetitions), each rule a marker, the best
    outlined with a star, the fastest single device a dashed line."""
    import matplotlib.ticker as ticker

    fig, ax = plotter.plt.subplots(figsize=(7.4, 4.2))
    ms = [r.time / 1e6 for r in kernel.rows]
    fixed = sorted((r for r in kernel.rows if not r.is_rule and r.share_0 is not None),
                   key=lambda r: (r.share_0, r.time))
    if fixed:
        ax.errorbar([r.share_0 for r in fixed], [r.time / 1e6 for r in fixed],
                    yerr=[(r.sd or 0) / 1e6 for r in fixed], marker="o", markersize=4,
                    linewidth=1.2, capsize=2.5, color=plotter.colors[0],
                    label="share:F rows (at the share given)")
    rules = [r for r in kernel.rows if r.is_rule and r.share_0 is not None]
    for i, r in enumerate(rules):
        ax.errorbar([r.share_0], [r.time / 1e6], yerr=[(r.sd or 0) / 1e6],
                    marker=MARKERS[i % len(MARKERS)], markersize=8, linestyle="none",
                    capsize=2.5, color=plotter.colors[(i + 1) % 10], alpha=0.85,
                    label=f"{r.rule_text()}: {fmt_time(r.time)} at {r.share_0:.3g}")
    best = kernel.best
    if best.share_0 is not None:
        ax.plot([best.share_0], [best.time / 1e6], marker="*", markersize=17,
                markerfacecolor="none", markeredgecolor="red", markeredgewidth=1.3,
                linestyle="none", label=f"best: {best.rule_text()}, {fmt_time(best.time)}")
    single = kernel.single
    if single is not None:
        ax.axhline(single.time / 1e6, color="0.45", linewidth=0.9, linestyle="--",
                   label=f"device {single.alone} alone: {fmt_time(single.time)}")
    if max(ms) > WIDE * min(ms):
        ax.set_yscale("log")
        narrow = max(ms) < 30 * min(ms)  # every minor tick labelled, else 2 and 5 only
        ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(ticker.FuncFormatter(
            lambda v, _: f"{v:g}" if narrow or f"{v:.0e}"[0] in "25" else ""))
        ax.set_ylabel("job time (ms, log scale)")
    else:
        ax.set_ylabel("job time (ms)")
    ax.set_xlim(-0.04, 1.04)
    rest = "the rest on device 1" if kernel.device_count() == 2 else \
        "the rest shared by the others"
    ax.set_xlabel(f"device 0's share of the work, as given ({rest})")
    names = "\n".join(f"device {i}: {short(kernel.device_name(i))}"
                      for i in range(kernel.device_count()))
    launches = kernel.launches
    per_job = f", {launches} launches per job" if launches else ""
    ax.set_title(f"{kernel.label}, {api_label(kernel.api)}: job time against the split"
                 f"{per_job}\n{names}", fontsize=8.5)
    ax.grid(which="major", color="0.88", linewidth=0.6)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig
