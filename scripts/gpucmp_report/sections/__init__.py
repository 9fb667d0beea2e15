"""The sections of REPORT.md, one module each, in the order they are written.

Each module has section(rep) -> [Markdown lines] ([] to leave it out), where rep
is a gpucmp_report.build.Report: the inputs (args, contexts, benches, missing),
the analyses over them (data, all_pairs, shown, analyses, best_rows, bw, peaks)
and rep.figure(kind, ...) to draw a figure of figures.Plotter. A new study adds a
module here and one line to SECTIONS."""
from . import (advection, agpu, at_best, bandwidth, best, changed, cold, gaps, header,
               kernel_tuner, layout, not_measured, one_api, peak, ptx_steps, quality, ratio,
               rodinia_heartwall, roofline, scaling, split, startup, unpaired, vendor, worksize)

SECTIONS = [
    header,        # title, input files, device and software, how to read it
    changed,       # what changed since 2010 and what has not
    ratio,         # CUDA against OpenCL (Fig. 5)
    at_best,       # each API at its best: fastest own row against fastest, per workload
    best,          # CUDA against the best OpenCL variant (Fig. 7)
    ptx_steps,     # PTX optimization steps (Fig. 6)
    bandwidth,     # bandwidth against transfer size
    peak,          # fraction of peak
    vendor,        # vendor libraries
    gaps,          # profiler counters, compiler/runtime split, why each gap
    startup,       # startup: build, module load and first launch
    cold,          # hot vs cold caches
    worksize,      # work-size tuning: shapes, rules, heat maps (local:<spec> rows)
    kernel_tuner,  # Kernel Tuner's picks beside gpucmp's tuner, re-timed by gpucmp (side files)
    split,         # one kernel's work split across devices (split:<spec> rows)
    layout,        # data layouts: AoS, SoA, AoSoA and the conversions (layout:<l> rows)
    rodinia_heartwall,  # Rodinia's own heartwall beside gpucmp's heartwall rows (side file)
    agpu,          # reductions, scans, the AGPU model's predictions and CUB (reduce/, scan/)
    roofline,      # measured roofline (ceiling/ rows, roofline_flop/roofline_bytes counters)
    advection,     # semi-Lagrangian advection against GPU Challenge 2010 (advection/ rows)
    scaling,       # advection's judged problems over 1, 2, 4, .. GPUs beside NVIDIA's Jacobi
    quality,       # measurement quality
    unpaired,      # rows of both APIs that launch differently: no pair
    one_api,       # measured on one API only
    not_measured,  # errors, skips
]
