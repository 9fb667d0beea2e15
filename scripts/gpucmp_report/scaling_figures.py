"""The figure of the "Scaling over GPUs" section: one panel per judged problem,
speedup over one GPU against the number of GPUs (both axes log 2), a line per API's
fastest rows and per Jacobi variant of NVIDIA's (dashed), and the ideal (speedup =
GPUs, dotted)."""
from .names import API_LABEL, FIGURE_PATTERNS

NAME = FIGURE_PATTERNS["scaling"]
API_COLOURS = {f"{label} (fastest)": i for i, label in enumerate(API_LABEL.values())}
JACOBI_COLOURS = (2, 4, 6, 8, 9, 3, 5, 7)  # indexes into plotter.colors (tab10), in turn


def scaling_figure(plotter, problems):
    """problems: [(name, (nx, ny, steps), {series: {gpus: speedup}})] -> [path], []
    when no series has a point beyond one GPU."""
    from matplotlib.ticker import FormatStrFormatter

    problems = [p for p in problems if any(len(s) > 1 for s in p[2].values())]
    if not problems:
        return []
    jacobi = sorted({s for _, _, series in problems for s in series if s not in API_COLOURS})
    colours = {**{k: plotter.colors[v] for k, v in API_COLOURS.items()},
               **{s: plotter.colors[JACOBI_COLOURS[i % len(JACOBI_COLOURS)]]
                  for i, s in enumerate(jacobi)}}
    fig, axes = plotter.plt.subplots(1, len(problems), figsize=(3.2 * len(problems) + 0.6, 3.6),
                                     squeeze=False)
    top = max(g for _, _, series in problems for s in series.values() for g in s)
    ticks = [1 << k for k in range(top.bit_length()) if 1 << k <= top]
    for ax, (name, (nx, ny, steps), series) in zip(axes[0], problems):
        ax.plot(ticks, ticks, color="0.6", linestyle=":", linewidth=1, label="ideal")
        for label in sorted(series, key=lambda s: (s not in API_COLOURS, s)):
            points = sorted(series[label].items())
            ax.plot([g for g, _ in points], [s for _, s in points], marker="o", markersize=4,
                    color=colours[label], linestyle="-" if label in API_COLOURS else "--",
                    linewidth=1.4, label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(t) for t in ticks])
        ax.set_xlim(ticks[0] / 1.2, ticks[-1] * 1.2)
        ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.set_title(f"{name}: {nx} x {ny}, {steps} steps", fontsize=9)
        ax.set_xlabel("GPUs")
        ax.grid(which="both", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
    axes[0][0].set_ylabel("speedup over one GPU")
    handles, labels = {}, []
    for ax in axes[0]:
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in handles:
                handles[label] = h
                labels.append(label)
    fig.legend([handles[label] for label in labels], labels, loc="lower center",
               bbox_to_anchor=(0.5, -0.08), ncol=min(len(labels), 5), fontsize=8, frameon=False)
    fig.suptitle("Advection's judged problems over GPUs" + (" beside NVIDIA's Jacobi"
                                                            if jacobi else ""), fontsize=10)
    return [plotter.save(fig, NAME)]
