"""Vendor libraries (cuBLAS, CLBlast): shown for scale, never paired."""
from ..analysis import vendor_rows
from ..fmt import fmt_bench, fmt_params, fmt_ratio, md_table


def section(rep):
    data = rep.data
    vendor = vendor_rows(data)
    md = ["## Vendor libraries", ""]
    if vendor:
        rows = []
        for params, cublas, clblast, tiled in vendor:
            rows.append((fmt_params(params), fmt_bench(cublas), fmt_bench(clblast),
                         fmt_ratio(clblast.time / cublas.time) if cublas and clblast else "-",
                         f"{tiled.variant}: {fmt_ratio(tiled.time / cublas.time)}"
                         if tiled and cublas else "-"))
        md += ["SGEMM through each API's vendor-tuned library: different code, so not a "
               "pair; shown for scale.", ""]
        md += md_table(["size", "cuBLAS", "CLBlast", "CLBlast/cuBLAS",
                        "fastest tiled CUDA / cuBLAS"], rows, right=(1, 2, 3, 4))
    else:
        md += ["No cuBLAS or CLBlast rows in the input."]
    md.append("")
    return md
