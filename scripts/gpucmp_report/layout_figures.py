"""The figure of the "Data layouts" section: LavaMD's kernel time against boxes1d,
one line per API and layout, with the study's Tesla K20 times at 70^3 beside."""

NAME = "fig-layout-lavamd.png"
STUDY_K20_70 = {"aos": 84.2, "soa": 39.1}  # seconds, Yamanaka 2014, Tesla K20, as reported
MARKERS = {"aos": "o", "soa": "s", "aosoa": "^"}
STYLES = {"cuda": "-", "opencl": "--"}


def layout_figure(plotter, series):
    """series: {(api, layout): [(boxes1d, seconds)]} -> [path], [] when empty."""
    if not series:
        return []
    fig, ax = plotter.plt.subplots(figsize=(7, 4.2))
    for i, ((api, layout), points) in enumerate(sorted(series.items())):
        points = sorted(points)
        ax.plot([b for b, _ in points], [t for _, t in points], STYLES.get(api, "-"),
                marker=MARKERS.get(layout, "x"), color=plotter.colors[i % 10], linewidth=1,
                markersize=4, label=f"{'CUDA' if api == 'cuda' else 'OpenCL'} {layout}")
    for layout, seconds in STUDY_K20_70.items():
        ax.plot([70], [seconds], MARKERS[layout], color="0.3", markersize=7, fillstyle="none",
                label=f"study, K20, {layout} (as reported)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("boxes1d (boxes1d^3 boxes of 100 particles)")
    ax.set_ylabel("kernel time per launch (s)")
    ax.set_title("LavaMD by layout of its particles in global memory")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return [plotter.save(fig, NAME)]
