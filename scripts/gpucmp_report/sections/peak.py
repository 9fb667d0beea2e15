"""Fraction of peak (FP32, DRAM or link) per kernel and API."""
from ..figures import FIGURES
from ..fmt import md_table


def section(rep):
    peaks, figure = rep.peaks, rep.figure
    md = ["## Fraction of peak", ""]
    if peaks:
        md += ["`pct_peak` at the largest size of each pair: FP32 peak for compute kernels, "
               "DRAM or PCIe link peak for transfers (see the context's peak notes).", ""]
        md += md_table(["benchmark", "CUDA %", "OpenCL %"],
                       [(lbl, f"{v['cuda']:.1f}" if "cuda" in v else "-",
                         f"{v['opencl']:.1f}" if "opencl" in v else "-") for lbl, v in peaks],
                       right=(1, 2))
        if figure("peak", peaks):
            md += ["", f"![Fraction of peak per kernel and API]({FIGURES['peak']})"]
    else:
        md += ["No `pct_peak` counters in the input (no peak model for the device): omitted."]
    md.append("")
    return md
