"""Each API at its best: CUDA's fastest row against OpenCL's fastest, per paired
workload (the families of api_best.py; scripts/best_table.py prints the same
table for several suite runs)."""
from .. import api_best
from ..fmt import md_table

NONE = "\u2013"


def section(rep):
    bests = api_best.best_of(rep.benches)
    shown = [b for b in bests if not api_best.missing_api(b)]
    if not shown:
        return []
    md = ["## Each API at its best", "",
          "Per paired workload: CUDA's fastest validated row against OpenCL's fastest, each "
          "over its own variants of the same problem with the same math and over every "
          "launch configuration measured (local size, data layout, scan's alpha), with the "
          "configuration each needed. This table, not the fixed-geometry one above, answers "
          "\"is OpenCL slower here\". Never an API's best: the cross-runs (`-opencl-ptx`, "
          "`-ptx-jit`, `-ptx-from-nvcc`, `-cpasync`), the controls (`-ldg`, `-maxl1`, "
          "`-ptx-as-built`, `-ptx-O0`) and the vendor libraries. gpucmp's PTX passes on "
          "OpenCL's own PTX are the last column (named where they beat OpenCL's best by "
          "more than 2%; \u2013: none measured), never OpenCL's best. cp pairs IEEE and fast "
          "math apart: each API's default math differs (OpenCL's default rows pair with no "
          "CUDA row); a row marked \"not the same math\" has only each API's default and is "
          "left out of the geometric mean. `*`: at the API's launch floor. The last row is "
          "the geometric mean of the other rows shown (a row without PTX variants counts with "
          "its own ratio in the last column).", ""]
    rows = [[b.family.label] + api_best.cells(b) for b in shown]
    rows.append(["geometric mean"] + [NONE] * 4 + api_best.geomean_cells(shown))
    md += md_table(["pair"] + api_best.HEADER, rows, right=(1, 3, 5, 6))
    gone = [b for b in bests if api_best.missing_api(b)]
    if gone:
        md += ["", "Not in these results (no validated row of one API): "
               + "; ".join(f"{b.family.label} ({api_best.missing_api(b)})" for b in gone) + "."]
    md.append("")
    return md
