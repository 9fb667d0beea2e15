"""Kernels measured on one API only (vendor libraries, PTX variants and cross-run
rows excepted: they have no counterpart by design)."""
from ..names import APIS, API_LABEL, VENDOR, workload_rank


def section(rep):
    variants = {(w, api, v) for (w, api, v, _), b in rep.data.by_id.items()
                if v not in VENDOR and b.facts.family is None}
    single = sorted((k for k in variants if not any(
        (k[0], other, k[2]) in variants for other in APIS if other != k[1])),
        key=lambda k: (workload_rank(k[0]), k[2], k[1]))
    if not single:
        return []
    md = ["## Measured on one API only", ""]
    md += [f"- {w} {API_LABEL.get(api, api)} {v}" for w, api, v in single]
    md.append("")
    return md
