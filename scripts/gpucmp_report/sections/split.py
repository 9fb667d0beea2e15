"""Work split across devices (after Takemoto et al., IPSJ 2015): per
device group, API and kernel, every split row (the rules and the fixed shares of
device 0) with the share given, its job time, time / the best row and the speedup
over the fastest single-device row; which rule came closest to the best; a figure
of job time against device 0's share. Facts only: no reason why a split wins."""
import os
import re

from ..fmt import NONE, fmt_time, md_table, plural
from ..split import api_label, groups, split_kernels
from ..split_figures import figure_names

TITLE = "Work split across devices"
INTRO = (
    "Rows with the parameter `split:<spec>` (after Takemoto et al., IPSJ "
    "2015): one kernel's work cut into contiguous blocks of rows (`axis:y`) or columns "
    "(`axis:x`), one block per device of the API's split group (the context's "
    "`cuda.split_devices` / `opencl.split_devices`, device 0 first; a device may be named "
    "twice), all devices at once. A row's time is one whole job, wall clock: each part's "
    "upload, `launches_per_job` kernel launches, each part's download; it is not comparable "
    "with the per-launch times above. `share:F` asks for the fraction F of the work on device "
    "0 (the rest shared equally by the others); the rules: `equal`; `pe`, in proportion to "
    "the devices' processing elements (CUs x lanes); `study-k`, the study's k model (two "
    "devices: the smaller gets its PE fraction x k, k 0.25, 0.75 or 1.25 by the kernel's "
    "operation count; halves when the PE ratio is closer than 2:3); `calibrated`, from a "
    "short probe of each device, transfers included: a fixed and a per-share cost per "
    "device, and the split whose slowest device finishes first (rows written before that "
    "rule, with `probe_launch_ms_*` counters, are the throughput-only rule: shares in "
    "proportion to each device's measured throughput). Shares are given in whole "
    "work-groups along the axis: the share given (the `share_0` counter) may differ from "
    "the share asked. Time: the median over the repetitions ± their standard deviation. "
    "Speedup: the time of the single-device row (`share:1`, or `share:0` of two devices: "
    "all the work on one device; the faster where both ran; a rule's row that gave one "
    "device everything where neither ran) / the row's time; above 1, the split is faster. "
    "Rows ending `over:mpi` ran one device per MPI rank (`mpirun -np N "
    "gpucmp-bench --split-over mpi`; their devices are the context's `<api>.split_ranks`, "
    "rank 0 first): their job also includes rank 0 sending each other rank its part's input "
    "and receiving its output through MPI. "
    "These rows enter this section and the measurement quality only.")


def fmt_ms(ns):
    return f"{ns / 1e6:.4g}"


def fmt_x(r):
    """A ratio: 2 decimals, whole numbers from 100, 2 significant digits below 0.095."""
    if r is None:
        return NONE
    return f"{r:.0f}" if r >= 100 else f"{r:.2f}" if r >= 0.095 else f"{r:.2g}"


def fmt_sd(ns):
    ms = ns / 1e6
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.2g}"


def fmt_share(s):
    return NONE if s is None else f"{s:.4g}"


def time_cell(row):
    return fmt_ms(row.time) + (f" ± {fmt_sd(row.sd)}" if row.sd is not None else "")


def single_text(k):
    s = k.single
    if s is None:
        return "no row ran on one device alone"
    return f"device {s.alone} alone (`{s.spec}`, {fmt_time(s.time)})"


def kernel_table(k):
    """The rows of one kernel, then who came closest to the best."""
    shares = k.device_count()
    share_head = "device 0's share given" if shares == 2 else \
        "shares given (" + " / ".join(f"device {i}" for i in range(shares)) + ")"
    alone = f"speedup vs device {k.single.alone} alone" if k.single else "speedup"
    rows = []
    for r in k.rows:
        given = fmt_share(r.share_0) if shares == 2 else " / ".join(
            fmt_share(s) for s in r.shares)
        if r.is_rule and r.alone is not None:
            given += f" (all on device {r.alone})"
        ratio = fmt_x(k.over_best(r)) + (" (best)" if r is k.best else "")
        rows.append((f"`{r.rule_text()}`" if r.is_rule else f"`{r.spec}`", given, time_cell(r),
                     r.bench.n, ratio, fmt_x(k.speedup(r))))
    launches = k.launches
    md = [f"#### {k.label}", "",
          (f"{launches} launches per job; " if launches else "") + "single device: "
          + single_text(k) + ".", ""]
    md += md_table(["split", share_head, "job time (ms)", "repetitions", "time / best", alone],
                   rows, right=(1, 2, 3, 4, 5))
    md += ["", closest_text(k)]
    return md


def closest_text(k):
    best = f"`{k.best.rule_text()}` ({fmt_time(k.best.time)})"
    c = k.closest
    if c is None:
        return f"Best: {best}. No rule row measured."
    alone = f", all the work on device {c.alone}" if c.alone is not None else ""
    if c is k.best:
        return f"Best: {best}, a rule: the closest rule is the best row{alone}."
    others = [r for r in k.rows if r.is_rule and r is not c and r.time == c.time]
    tie = (" (tied with " + ", ".join(f"`{r.rule_text()}`" for r in others) + ")") \
        if others else ""
    return (f"Best: {best}. Closest rule to it: `{c.rule_text()}`{tie}, time / best "
            f"{fmt_x(k.over_best(c))}, device 0's share given {fmt_share(c.share_0)}{alone}.")


def summary_table(kernels):
    rows = []
    for k in kernels:
        c = k.closest
        rows.append((api_label(k.api), device_names(k.devices), k.label,
                     f"device {k.single.alone}, {fmt_time(k.single.time)}" if k.single else NONE,
                     f"`{k.best.rule_text()}`, {fmt_time(k.best.time)}", fmt_x(k.speedup(k.best)),
                     f"`{c.rule_text()}`" if c else NONE,
                     fmt_x(k.over_best(c)) if c else NONE, fmt_x(k.speedup(c)) if c else NONE))
    return md_table(["API", "devices", "kernel", "single device", "best row",
                     "its speedup", "closest rule", "rule time / best", "rule speedup"], rows,
                    right=(5, 7, 8))


def device_names(devices):
    """"NVIDIA H200 + NVIDIA H200": the names without the API's index and the sizes."""
    if not devices:
        return NONE
    return " + ".join(re.sub(r" \(\d+ CUs x \d+ lanes\)$", "", d.split(" ", 1)[-1])
                      for d in devices)


def device_lines(devices, kernels):
    if not devices:
        n = max(k.device_count() for k in kernels)
        return [f"The file's context names no split devices ({plural(n, 'device')} by the "
                "rows' counters)."]
    out = [f"- device {i}: {d}" for i, d in enumerate(devices)]
    if len(set(devices)) < len(devices):
        out.append("- one device named more than once: its parts run on the same device")
    return out


def split_section(kernels, figure=None):
    """The lines of the section ([] without split rows); figure(kind, kernels) as
    Report.figure."""
    if not kernels:
        return []
    written = figure("split", kernels) if figure is not None else None
    names = {os.path.basename(p) for p in written or []}
    figs = {id(k): name for k, name in figure_names(kernels) if name in names}
    md = [INTRO, "", "### Summary", "",
          "Per kernel, API and device group: the single-device row, the best row, and the rule "
          "that came closest to it (speedups against the single device).", ""]
    md += summary_table(kernels) + [""]
    for api, _devices, klist in groups(kernels):
        devices = klist[0].devices
        md += [f"### {api_label(api)} on {len(devices)} devices: " + " + ".join(
            d.split(" ", 1)[-1] for d in devices) if devices else
            f"### {api_label(api)} on devices the context does not name", ""]
        md += ["Files: " + ", ".join(f"`{p}`" for p in dict.fromkeys(
            p for k in klist for p in k.files)) + ".", ""]
        md += device_lines(devices, klist) + [""]
        for k in klist:
            md += kernel_table(k) + [""]
            if id(k) in figs:
                md += [f"![work split: {k.label} {api_label(api)}]({figs[id(k)]})", ""]
    return md


def section(rep):
    lines = split_section(split_kernels(rep.data), rep.figure)
    return [f"## {TITLE}", ""] + lines if lines else []
