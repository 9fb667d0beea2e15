"""CUDA against the best OpenCL variant of the same kernel (Fig. 7 of the study)."""
from ..figures import FIGURES
from ..fmt import fmt_bench, fmt_params, fmt_ratio, md_table


def section(rep):
    best_rows, has_ptx_variants, figure = rep.best_rows, rep.has_ptx_variants, rep.figure
    md = ["## CUDA against the best OpenCL variant (Fig. 7 of the study)", ""]
    if best_rows and has_ptx_variants:
        rows = []
        for w, v, p, c, o, best in best_rows:
            rows.append((w, v, fmt_params(p), fmt_bench(c, False),
                         fmt_ratio(o.time / c.time) if o else "-", best.variant,
                         fmt_bench(best, False), fmt_ratio(best.time / c.time)))
        md += ["The fastest of the OpenCL source kernel and its PTX variants (same launch "
               "geometry and math; vendor libraries excluded), at the largest size where PTX "
               "variants were measured.", ""]
        md += md_table(["workload", "variant", "size", "CUDA", "source OpenCL/CUDA",
                        "best OpenCL variant", "its time", "best OpenCL/CUDA"], rows,
                       right=(3, 4, 6, 7))
        if figure("best", best_rows):
            md += ["", f"![CUDA against the best OpenCL variant]({FIGURES['best']})"]
    else:
        md += ["No PTX variants of OpenCL kernels in the input: the best OpenCL variant is the "
               "source kernel everywhere (see above); Fig. 7 is omitted."]
    md.append("")
    return md
