"""The PNG figures of REPORT.md (matplotlib, Agg backend, reproducible)."""
import os

from .analysis import ratio_of
from .fmt import fmt_bytes, fmt_params, fmt_ratio, label_of
from .names import (API_LABEL, APIS, BEST_MARGIN, CHAINS, FIGURE_PATTERNS, FIGURES, STEPS,
                    STUDY_2010_STEPS, workload_order)

RATIO_TICKS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]


class Plotter:
    """Writes the PNG figures with matplotlib's Agg backend, reproducibly."""

    def __init__(self, out_dir):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        matplotlib.rcParams.update({
            "svg.hashsalt": "gpucmp", "font.size": 9, "axes.titlesize": 10,
            "figure.dpi": 100, "savefig.dpi": 100, "path.simplify": False,
        })
        self.plt = plt
        self.out_dir = out_dir
        cmap = matplotlib.colormaps["tab10"] if hasattr(matplotlib, "colormaps") else \
            plt.get_cmap("tab10")
        self.colors = [cmap(i) for i in range(10)]

    def save(self, fig, name):
        path = os.path.join(self.out_dir, name)
        fig.savefig(path, dpi=100, bbox_inches="tight", pad_inches=0.15,
                    metadata={"Software": None})
        self.plt.close(fig)
        return path

    def workload_color(self, workload):
        known = workload_order()
        return self.colors[known.index(workload) % 10] if workload in known \
            else self.colors[(len(known) + sum(map(ord, workload))) % 10]

    @staticmethod
    def ratio_limits(values):
        lo = min(min(values), 1.0)
        hi = max(max(values), 1.0)
        return lo / 1.8, hi * 1.8

    def ratio_bars(self, ax, labels, series, title):
        """Horizontal bars of OpenCL/CUDA ratios anchored at 1 on a log axis.

        series: [(legend or None, [ratio], [(lo, hi) or None], [color], hatch)]"""
        n = len(labels)
        height = 0.8 / len(series)
        all_values = [1.0]
        for si, (legend, ratios, ranges, colors, alpha) in enumerate(series):
            ys = [i - 0.4 + height * (si + 0.5) for i in range(n)]
            ax.barh(ys, [r - 1 for r in ratios], left=1, height=height * 0.9, color=colors,
                    alpha=alpha, label=legend, edgecolor="black", linewidth=0.4)
            for y, r, rng in zip(ys, ratios, ranges):
                if rng is not None and rng[1] > rng[0]:
                    ax.plot([rng[0], rng[1]], [y, y], color="black", linewidth=0.8)
                    all_values += [rng[0], rng[1]]
                all_values.append(r)
                end = max(r, rng[1]) if rng is not None and r >= 1 else \
                    (min(r, rng[0]) if rng is not None else r)
                right = r >= 0.995
                ax.text(end * (1.06 if right else 1 / 1.06), y, fmt_ratio(r),
                        va="center", ha="left" if right else "right", fontsize=7.5)
        ax.set_xscale("log")
        ax.set_xlim(*self.ratio_limits(all_values))
        ax.axvline(1.0, color="black", linewidth=1)
        ax.set_yticks(range(n))
        ax.set_yticklabels(labels)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlabel("OpenCL time / CUDA time (>1: CUDA faster, <1: OpenCL faster)")
        ax.set_title(title)
        ax.grid(axis="x", which="both", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
        import matplotlib.ticker as ticker
        ax.xaxis.set_major_locator(ticker.FixedLocator(RATIO_TICKS))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(ticker.NullFormatter())

    def fig_ratio(self, shown):
        labels = [label_of(w, v, p) for w, v, p, _, _ in shown]
        ratios = [ratio_of(c, o) for _, _, _, c, o in shown]
        fig, ax = self.plt.subplots(figsize=(9, 1.2 + 0.28 * len(shown)))
        self.ratio_bars(ax, labels, [(None, [r[0] for r in ratios], [r[1:] for r in ratios],
                                      [self.workload_color(p[0]) for p in shown], 0.85)],
                        "CUDA against OpenCL, same kernel and launch geometry "
                        "(bar: median; line: range of repetitions)")
        return self.save(fig, FIGURES["ratio"])

    def fig_best(self, rows):
        labels = []
        for w, v, p, _, source, best in rows:
            near = source is not None and best is not source and \
                best.time >= source.time * (1 - BEST_MARGIN)
            labels.append(f"{label_of(w, v, p)}\nbest: "
                          + ("the source kernel" if best is source else best.variant)
                          + (f" (source within {BEST_MARGIN:.0%})" if near else ""))
        src = [(o.time / c.time) if o is not None else float("nan") for _, _, _, c, o, _ in rows]
        best = [b.time / c.time for _, _, _, c, _, b in rows]
        fig, ax = self.plt.subplots(figsize=(9, 1.4 + 0.55 * len(rows)))
        series = [(None, src, [None] * len(rows), ["0.75"] * len(rows), 1.0),
                  (None, best, [None] * len(rows),
                   [self.workload_color(r[0]) for r in rows], 0.9)]
        self.ratio_bars(ax, labels, series, "CUDA against the fastest OpenCL variant")
        from matplotlib.patches import Patch
        handles = [Patch(facecolor="0.75", edgecolor="black", linewidth=0.4),
                   Patch(facecolor=self.colors[1], edgecolor="black", linewidth=0.4)]
        ax.legend(handles, ["OpenCL source kernel",
                            "fastest OpenCL variant: the source or one of its PTX variants "
                            "(colour: workload)"],
                  loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=1, fontsize=8,
                  frameon=False)
        return self.save(fig, FIGURES["best"])

    def fig_ptx(self, analyses):
        from matplotlib.patches import Patch
        panels = [a for a in analyses if any(
            ch is not None for steps in a["chains"].values() for _, _, _, ch in steps[2:])]
        if not panels:
            return None
        cols = min(3, len(panels))
        rows = (len(panels) + cols - 1) // cols
        fig, axes = self.plt.subplots(rows, cols, figsize=(max(6.5, 4.4 * cols), 3.5 * rows),
                                      squeeze=False)
        steps = STEPS[2:]
        chain_names = sorted(CHAINS)
        legend = {}
        for idx, a in enumerate(panels):
            ax = axes[idx // cols][idx % cols]
            groups = [c for c in chain_names if c in a["chains"]]
            reference = a["workload"] == "matrixMul"
            width = 0.8 / (len(groups) + reference)
            values = [0.0]
            for gi, chain in enumerate(groups):
                ci = chain_names.index(chain)
                changes = {s: ch for s, _, _, ch in a["chains"][chain]}
                for i, step in enumerate(steps):
                    x = i - 0.4 + width * (gi + 0.5)
                    y = changes.get(step)
                    if y is None:
                        ax.text(x, 0, "n/a", ha="center", va="bottom", fontsize=6.5,
                                rotation=90, color="0.4")
                        continue
                    ax.bar(x, y * 100, width=width * 0.9, color=self.colors[ci],
                           edgecolor="black", linewidth=0.4)
                    ax.text(x, y * 100, f"{y * 100:+.1f}" if abs(y) < 0.095 else
                            f"{y * 100:+.0f}", ha="center",
                            va="bottom" if y >= 0 else "top", fontsize=6.5)
                    values.append(y * 100)
                legend[f"{chain} chain"] = Patch(facecolor=self.colors[ci], edgecolor="black",
                                                 linewidth=0.4)
            if reference:
                xs = [i - 0.4 + width * (len(groups) + 0.5) for i in range(len(steps))]
                studied = [(x, STUDY_2010_STEPS[s]) for x, s in zip(xs, steps)
                           if s in STUDY_2010_STEPS]  # align: a step the study did not need
                ys = [y for _, y in studied]
                ax.bar([x for x, _ in studied], ys, width=width * 0.9, color="white",
                       edgecolor="black", hatch="///", linewidth=0.6)
                values += ys
                legend["2010 study, matrixMul by hand (C1060)"] = Patch(
                    facecolor="white", edgecolor="black", hatch="///", linewidth=0.6)
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_xticks(range(len(steps)))
            ax.set_xticklabels([f"+{s}" for s in steps])
            lo, hi = min(values), max(values)
            pad = max(6.0, (hi - lo) * 0.12)
            ax.set_ylim(lo - pad, hi + pad)
            ax.set_title(f"{a['workload']} {a['base']}, {fmt_params(a['params'])}")
            ax.grid(axis="y", color="0.9", linewidth=0.6)
            ax.set_axisbelow(True)
            if idx % cols == 0:
                ax.set_ylabel("time change vs previous step (%)")
        for idx in range(len(panels), rows * cols):
            axes[idx // cols][idx % cols].set_visible(False)
        fig.suptitle("OpenCL PTX optimization steps, each against the previous one "
                     "(negative: faster)")
        fig.tight_layout(rect=(0, 0.06 if rows == 1 else 0.03, 1, 1))
        fig.legend(list(legend.values()), list(legend), loc="lower center", ncol=len(legend),
                   fontsize=8, frameon=False)
        return self.save(fig, FIGURES["ptx"])

    def fig_bandwidth(self, series):
        directions = sorted({d for d, _, _ in series},
                            key=lambda d: (["h2d", "d2h", "d2d"] + [d]).index(d))
        kinds = sorted({k for _, k, _ in series})
        fig, axes = self.plt.subplots(1, len(directions), figsize=(4.4 * len(directions), 3.8),
                                      squeeze=False)
        styles = {"cuda": ("-", "o"), "opencl": ("--", "s")}
        for ax, direction in zip(axes[0], directions):
            for (d, kind, api), points in series.items():
                if d != direction:
                    continue
                line, marker = styles.get(api, (":", "^"))
                ax.plot([p[0] for p in points], [p[1] for p in points], linestyle=line,
                        marker=marker, markersize=3, linewidth=1.2,
                        color=self.colors[kinds.index(kind) % 10],
                        label=f"{API_LABEL.get(api, api)} {kind or direction}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("transfer size")
            ax.set_title(direction + (" (read + write counted)" if direction == "d2d" else ""))
            ax.grid(which="major", color="0.88", linewidth=0.6)
            import matplotlib.ticker as ticker
            ax.xaxis.set_major_locator(ticker.LogLocator(base=2, numticks=40))
            lo = min(p[0] for (d, _, _), pts in series.items() if d == direction for p in pts)
            hi = max(p[0] for (d, _, _), pts in series.items() if d == direction for p in pts)
            ax.set_xticks([t for t in (4 ** i for i in range(0, 20)) if lo <= t <= hi])
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: fmt_bytes(v)
                                                              .replace(" ", "")))
            ax.xaxis.set_minor_formatter(ticker.NullFormatter())
            for tick in ax.get_xticklabels():
                tick.set_rotation(45)
                tick.set_ha("right")
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            ax.legend(fontsize=7, loc="lower right")
        axes[0][0].set_ylabel("GB/s (1e9 B/s)")
        fig.suptitle("Bandwidth against transfer size (solid: CUDA, dashed: OpenCL)")
        fig.tight_layout()
        return self.save(fig, FIGURES["bandwidth"])

    def fig_worksize(self, kernels):
        """The work-size heat maps (2-D) and curves (1-D): [path] (worksize_figures)."""
        from .worksize_figures import worksize_figures
        return worksize_figures(self, kernels)

    def fig_split(self, kernels):
        """Job time against device 0's share, per split kernel and API: [path] (split_figures)."""
        from .split_figures import split_figures
        return split_figures(self, kernels)

    def fig_layout(self, series):
        """LavaMD's time against boxes1d per API and layout: [path] (layout_figures)."""
        from .layout_figures import layout_figure
        return layout_figure(self, series)

    def fig_roofline(self, rows, roofs):
        """scripts/roofline.py's figure of the placed rows under the ceilings: [path]."""
        import roofline  # scripts/roofline.py (scripts/ is on sys.path, as for gbench_json)
        return [self.save(roofline.figure(self.plt, rows, roofs),
                          FIGURE_PATTERNS["roofline"])]

    def fig_advection(self, problems):
        """The judged problems' total times, 2010 against ours: [path] (advection_figures)."""
        from .advection_figures import advection_figure
        return advection_figure(self, problems)

    def fig_scaling(self, problems):
        """Speedup against GPU count per judged problem: [path] (scaling_figures)."""
        from .scaling_figures import scaling_figure
        return scaling_figure(self, problems)

    def fig_peak(self, entries):
        """entries: [(label, {api: pct})]"""
        n = len(entries)
        fig, ax = self.plt.subplots(figsize=(9, 1.3 + 0.34 * n))
        height = 0.4
        top = 0.0
        for ai, api in enumerate(APIS):
            ys = [i - 0.2 + height * ai for i in range(n)]
            vals = [e[1].get(api) for e in entries]
            ys_v = [(y, v) for y, v in zip(ys, vals) if v is not None]
            ax.barh([y for y, _ in ys_v], [v for _, v in ys_v], height=height * 0.9,
                    color=self.colors[ai], label=API_LABEL[api], edgecolor="black",
                    linewidth=0.4)
            for y, v in ys_v:
                ax.text(v + 0.8, y, f"{v:.1f}", va="center", fontsize=7)
                top = max(top, v)
        ax.set_yticks(range(n))
        ax.set_yticklabels([e[0] for e in entries])
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0, max(100.0, top) * 1.1)
        ax.axvline(100, color="0.5", linewidth=0.8, linestyle=":")
        ax.set_xlabel("% of peak (FP32 for compute kernels, DRAM or PCIe link for transfers)")
        ax.set_title("Fraction of peak per kernel and API")
        ax.grid(axis="x", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(loc="lower right", fontsize=8)
        return self.save(fig, FIGURES["peak"])


# ---------------------------------------------------------------- report
