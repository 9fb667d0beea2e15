"""Bandwidth against transfer size per API and host-memory kind."""
from ..figures import FIGURES
from ..fmt import fmt_bytes, md_table
from ..names import API_LABEL


def section(rep):
    bw, figure = rep.bw, rep.figure
    md = ["## Bandwidth against transfer size", ""]
    if bw:
        rows = []
        for (d, kind, api), points in bw.items():
            rows.append((f"{d} {kind}".strip(), API_LABEL.get(api, api), len(points),
                         f"{points[0][1]:.4g} GB/s ({fmt_bytes(points[0][0])})",
                         f"{points[-1][1]:.4g} GB/s ({fmt_bytes(points[-1][0])})",
                         f"{max(p[1] for p in points):.4g} GB/s"))
        md += md_table(["transfer", "API", "sizes", "smallest", "largest", "best"], rows,
                       right=(2, 3, 4, 5))
        if figure("bandwidth", bw):
            md += ["", f"![Bandwidth against transfer size]({FIGURES['bandwidth']})"]
    else:
        md += ["No bandwidth rows in the input: this section and its figure are omitted."]
    md.append("")
    return md
