"""The figure of the "Semi-Lagrangian advection" section: per judged problem of GPU
Challenge 2010, grouped bars of the total time (log axis, seconds): the times reported
in 2010 on one and two GPUs, and CUDA's and OpenCL's on one GPU and on each GPU count of
the input, each measured (a full-length run) or projected (time per step x steps,
hatched); missing ones omitted."""
import re

from .names import FIGURE_PATTERNS

NAME = FIGURE_PATTERNS["advection"]
# (bar, colour: a grey or an index into plotter.colors (tab10)), drawn first
FIXED = (("2010, 1 GPU", "0.45"), ("2010, 2 GPUs", "0.75"), ("CUDA, 1 GPU", 0),
         ("OpenCL, 1 GPU", 1))
# Each API's colours for its bars on 2, 4, 8, .. GPUs, in turn
MANY = {"CUDA": (9, 2, 4, 6), "OpenCL": (5, 3, 7, 8)}
HATCH = "///"  # projected


def bar_order(problems):
    """[(bar, colour)] of the bars some problem has: the fixed ones, then per GPU count
    above one (ascending) CUDA's and OpenCL's."""
    names = {b for _, _, bars in problems for b in bars}
    counts = sorted({int(m.group(1)) for b in names
                     for m in [re.fullmatch(r"\w+, (\d+) GPUs", b)] if m and
                     not b.startswith("2010")})
    many = [(f"{api}, {g} GPUs", colours[i % len(colours)]) for i, g in enumerate(counts)
            for api, colours in MANY.items()]
    return [(b, c) for b, c in FIXED + tuple(many) if b in names]


def advection_figure(plotter, problems):
    """problems: [(name, (nx, ny, steps), {bar: (seconds, "reported" | "measured" |
    "projected")})] -> [path], [] when no problem has a bar of ours."""
    from matplotlib.patches import Patch

    if not any(not b.startswith("2010") for _, _, bars in problems for b in bars):
        return []
    shown = bar_order(problems)
    width = 0.84 / len(shown)
    fig, ax = plotter.plt.subplots(figsize=(9.5, 4.6))
    kinds = set()
    for si, (bar, colour) in enumerate(shown):
        colour = plotter.colors[colour] if isinstance(colour, int) else colour
        for pi, (_, _, bars) in enumerate(problems):
            if bar not in bars:
                continue
            seconds, kind = bars[bar]
            kinds.add(kind)
            x = pi - 0.42 + width * (si + 0.5)
            ax.bar([x], [seconds], width * 0.92, color=colour, edgecolor="black",
                   linewidth=0.4, hatch=HATCH if kind == "projected" else None)
            ax.text(x, seconds * 1.08, f"{seconds:.3g}", ha="center", va="bottom",
                    rotation=90, fontsize=6.5)
    ax.set_yscale("log")
    lo = min(s for _, _, bars in problems for s, _ in bars.values())
    hi = max(s for _, _, bars in problems for s, _ in bars.values())
    ax.set_ylim(lo / 2.5, hi * 4)
    ax.set_xticks(range(len(problems)))
    ax.set_xticklabels([f"{name}\n{nx} x {ny}\n{steps} steps"
                        for name, (nx, ny, steps), _ in problems])
    ax.set_ylabel("total time (s)")
    ax.set_title("GPU Challenge 2010's judged problems: 2010 (as reported) against CUDA "
                 "and OpenCL (fastest variant, transport on several GPUs)")
    ax.grid(axis="y", which="both", color="0.9", linewidth=0.6)
    ax.set_axisbelow(True)
    handles = [Patch(facecolor=plotter.colors[c] if isinstance(c, int) else c,
                     edgecolor="black", linewidth=0.4) for _, c in shown]
    labels = [b for b, _ in shown]
    for kind, text, hatch in (("measured", "measured (full-length run)", None),
                              ("projected", "projected (time per step x steps)", HATCH)):
        if kind in kinds:
            handles.append(Patch(facecolor="white", edgecolor="black", linewidth=0.4,
                                 hatch=hatch))
            labels.append(text)
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=4,
              fontsize=8, frameon=False)
    return [plotter.save(fig, NAME)]
