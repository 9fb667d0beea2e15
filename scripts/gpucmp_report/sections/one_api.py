"""Kernels measured on one API only (vendor libraries, PTX variants and cross-run
rows excepted: they have no counterpart by design)."""
from ..names import APIS, API_LABEL, CROSS_SUFFIXES, VENDOR, split_variant, workload_rank


def section(rep):
    variants = {(w, api, v) for (w, api, v, _) in rep.data.by_id
                if v not in VENDOR and not split_variant(v)[1] and not v.endswith(CROSS_SUFFIXES)}
    single = sorted((k for k in variants if not any(
        (k[0], other, k[2]) in variants for other in APIS if other != k[1])),
        key=lambda k: (workload_rank(k[0]), k[2], k[1]))
    if not single:
        return []
    md = ["## Measured on one API only", ""]
    md += [f"- {w} {API_LABEL.get(api, api)} {v}" for w, api, v in single]
    md.append("")
    return md
