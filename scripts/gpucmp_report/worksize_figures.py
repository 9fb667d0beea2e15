"""The work-size study's figures (after the study's Tables 5 and 6): a heat map of
time per shape for each 2-D kernel and API, a curve of time against local size
per API for each 1-D kernel; drawn by figures.Plotter.fig_worksize and saved
through Plotter.save (reproducible PNGs)."""
from .fmt import fmt_time, slug
from .worksize import api_label, fmt_shape

MAX_ANNOTATED = 144  # a heat map of at most this many cells has each cell's time written


def figure_names(kernels):
    """[(Kernel, api or None, file name)] in report order: a 2-D kernel has one
    figure per API with a shape measured (fig-worksize-<kernel>-<api>.png), a 1-D
    kernel one for its APIs (fig-worksize-<kernel>.png). <kernel> is the workload,
    with the variant and parameters where the workload has several kernels."""
    per_workload = {}
    for k in kernels:
        per_workload[k.workload] = per_workload.get(k.workload, 0) + 1
    out, used = [], set()
    for k in kernels:
        stem = slug(k.workload) if per_workload[k.workload] == 1 else \
            slug(f"{k.workload}-{k.variant}-" + "-".join(f"{n}-{v}" for n, v in k.params))
        while stem in used:
            stem += "-x"
        used.add(stem)
        if k.dims == 2:
            out += [(k, api, f"fig-worksize-{stem}-{slug(api)}.png")
                    for api, t in k.apis.items() if t.shapes]
        elif any(t.shapes for t in k.apis.values()):
            out.append((k, None, f"fig-worksize-{stem}.png"))
    return out


def worksize_figures(plotter, kernels):
    """Writes every figure of figure_names: [path]."""
    paths = []
    for kernel, api, name in figure_names(kernels):
        fig = heat_map(plotter, kernel, api) if api is not None else curves(plotter, kernel)
        paths.append(plotter.save(fig, name))
    return paths


def plain_log_labels(axis):
    """Log-axis labels as plain numbers (20, not 2 x 10^1), minor ones where
    matplotlib labels them."""
    import matplotlib.ticker as ticker
    axis.set_major_formatter(ticker.LogFormatter(labelOnlyBase=False))
    axis.set_minor_formatter(ticker.LogFormatter(labelOnlyBase=False))


def heat_map(plotter, kernel, api):
    """x on the horizontal axis, y on the vertical, one cell per measured shape
    (blank: not measured, e.g. over the work-group limit), colour: time in ms on a
    log scale; the best outlined."""
    import matplotlib
    import matplotlib.colors as colors
    import numpy as np
    from matplotlib.patches import Rectangle

    t = kernel.apis[api]
    xs = sorted({x for x, _ in t.shapes})
    ys = sorted({y for _, y in t.shapes})
    grid = np.full((len(ys), len(xs)), np.nan)
    for (x, y), b in t.shapes.items():
        grid[ys.index(y), xs.index(x)] = b.time / 1e6
    values = grid[np.isfinite(grid)]
    lo, hi = float(values.min()), float(values.max())
    if hi <= lo:
        lo, hi = lo / 1.1, hi * 1.1
    norm = colors.LogNorm(vmin=lo, vmax=hi)
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="white")
    fig, ax = plotter.plt.subplots(figsize=(max(5.0, 1.6 + 0.62 * len(xs)),
                                            max(3.6, 1.3 + 0.42 * len(ys))))
    image = ax.imshow(np.ma.masked_invalid(grid), origin="lower", cmap=cmap, norm=norm,
                      aspect="auto", interpolation="nearest")
    if grid.size <= MAX_ANNOTATED:
        for (x, y), b in sorted(t.shapes.items()):
            ms = b.time / 1e6
            ax.text(xs.index(x), ys.index(y), f"{ms:.3g}" if ms < 1000 else f"{ms:.0f}",
                    ha="center", va="center",
                    fontsize=6.5, color="white" if norm(ms) < 0.55 else "black")
    (bx, by), best = t.best
    ax.add_patch(Rectangle((xs.index(bx) - 0.5, ys.index(by) - 0.5), 1, 1, fill=False,
                           edgecolor="red", linewidth=2.0))
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([str(x) for x in xs])
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels([str(y) for y in ys])
    ax.set_xlabel("x: work-items along the contiguous dimension")
    ax.set_ylabel("y: work-items")
    bar = fig.colorbar(image, ax=ax)
    bar.set_label("time per launch (ms, log scale)")
    plain_log_labels(bar.ax.yaxis)
    ax.set_title(f"{kernel.label}, {api_label(api)}: {len(t.shapes)} shapes "
                 f"(blank: not measured or not legal)\noutlined: the best, "
                 f"{fmt_shape((bx, by), 2)} at {fmt_time(best.time)}")
    fig.tight_layout()
    return fig


def curves(plotter, kernel):
    """Time against local size (log2 axis), one line per API, the best point marked."""
    import matplotlib.ticker as ticker

    fig, ax = plotter.plt.subplots(figsize=(7.0, 3.8))
    ticks = set()
    for i, (api, t) in enumerate(kernel.apis.items()):
        if not t.shapes:
            continue
        points = sorted((x, b.time / 1e6) for (x, _), b in t.shapes.items())
        ticks.update(x for x, _ in points)
        color = plotter.colors[i % 10]
        ax.plot([x for x, _ in points], [ms for _, ms in points], marker="o", markersize=3.5,
                linewidth=1.2, color=color, label=api_label(api))
        (bx, _), best = t.best
        ax.plot([bx], [best.time / 1e6], marker="*", markersize=14, markerfacecolor="none",
                markeredgecolor=color, markeredgewidth=1.4, linestyle="none",
                label=f"{api_label(api)} best: {bx} at {fmt_time(best.time)}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(ticker.FixedLocator(sorted(ticks)))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    plain_log_labels(ax.yaxis)
    ax.set_xlabel("local size (work-items per group)")
    ax.set_ylabel("time per launch (ms, log scale)")
    ax.set_title(f"{kernel.label}: time against local size")
    ax.grid(which="major", color="0.88", linewidth=0.6)
    ax.legend(fontsize=7.5)
    fig.tight_layout()
    return fig
