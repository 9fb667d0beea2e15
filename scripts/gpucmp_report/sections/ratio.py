"""CUDA against OpenCL per paired benchmark (Fig. 5 of the study)."""
from ..analysis import ratio_of
from ..figures import FIGURES
from ..fmt import (LAUNCH_BOUND_NOTE, fmt_bench, fmt_params, fmt_peak, fmt_ratio, launch_bound,
                   md_table)
from ..names import MAX_SIZES_PER_VARIANT


def section(rep):
    all_pairs, shown, figure = rep.all_pairs, rep.shown, rep.figure
    md = ["## CUDA against OpenCL (Fig. 5 of the study)", ""]
    if shown:
        rows = []
        for w, v, p, c, o in shown:
            r, lo, hi = ratio_of(c, o)
            rows.append((w, v, fmt_params(p), fmt_bench(c), fmt_bench(o),
                         f"{fmt_ratio(r)} ({fmt_ratio(lo)}-{fmt_ratio(hi)})",
                         f"{fmt_peak(c)} / {fmt_peak(o)}"))
        md += md_table(["workload", "variant", "size", "CUDA", "OpenCL", "OpenCL/CUDA (range)",
                        "% peak CUDA / OpenCL"], rows, right=(3, 4, 5, 6))
        bound = [(c, o) for _, _, _, c, o in shown if launch_bound(c) or launch_bound(o)]
        if bound:
            md += ["", LAUNCH_BOUND_NOTE + f" {len(bound)} of {len(shown)} pairs shown have one."]
        if len(shown) < len(all_pairs):
            md += ["", f"Variants with more than {MAX_SIZES_PER_VARIANT} sizes show their "
                   f"smallest and largest here ({len(all_pairs) - len(shown)} more pairs in the "
                   "input; bandwidth: every size in its figure below)."]
        if figure("ratio", shown):
            md += ["", f"![OpenCL time / CUDA time per paired benchmark]({FIGURES['ratio']})"]
    else:
        md += ["No benchmark was measured on both APIs: this section and Fig. 5 are omitted."]
    md.append("")
    return md
