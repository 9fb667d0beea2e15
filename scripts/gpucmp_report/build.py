"""Runs the sections of REPORT.md over the loaded rows and writes the report."""
import glob
import os

import gbench_json

from . import sections
from .analysis import (Data, bandwidth_series, best_opencl, pairs, peak_entries, ptx_analysis,
                       shown_pairs)
from .names import FIGURE_PATTERNS, FIGURES


class Report:
    """What the sections read: the inputs, the analyses over them, and figure(),
    which draws one figure where plots are on and remembers the files written."""

    def __init__(self, args, contexts, benches, missing, plotter):
        self.args, self.contexts, self.benches, self.missing = args, contexts, benches, missing
        self.plotter = plotter
        self.data = data = Data(benches)
        self.all_pairs = pairs(data)
        self.shown = shown_pairs(self.all_pairs)
        self.analyses = ptx_analysis(data)
        self.best_rows = best_opencl(data)
        self.has_ptx_variants = any(b.facts.is_ptx for b in data.by_id.values()
                                    if b.api == "opencl")
        self.bw = bandwidth_series(data)
        self.peaks = peak_entries(data, self.all_pairs)
        self.written = {}  # figure kind -> path

    def figure(self, kind, *make_args):
        """The path of the figure written by plotter.fig_<kind>, or None (a list of
        paths, possibly empty, for a kind that writes several: worksize)."""
        if self.plotter is None:
            return None
        result = getattr(self.plotter, f"fig_{kind}")(*make_args)
        if result:
            self.written[kind] = result
        return result


def write_report(args, contexts, benches, missing, plotter):
    """Writes REPORT.md (and the figures) into args.out_dir: (its path, [figures])."""
    rep = Report(args, contexts, benches, missing, plotter)
    stale = [os.path.join(args.out_dir, f) for f in FIGURES.values()]
    for pattern in FIGURE_PATTERNS.values():
        stale += sorted(glob.glob(os.path.join(glob.escape(args.out_dir), pattern)))
    for path in stale:
        if os.path.exists(path):
            os.remove(path)  # a figure this run omits must not linger from an earlier one
    md = []
    for module in sections.SECTIONS:
        md += module.section(rep)
    report_path = os.path.join(args.out_dir, "REPORT.md")
    gbench_json.write_atomically(report_path, "\n".join(md).rstrip("\n") + "\n")
    written = [rep.written[k] for k in FIGURES if k in rep.written]
    for k in FIGURE_PATTERNS:
        written += rep.written.get(k, [])
    return report_path, written
