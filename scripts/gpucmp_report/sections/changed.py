"""What changed since 2010 and what has not: bullets generated from the numbers."""
from ..analysis import largest_pairs, ratio_of, vendor_rows
from ..fmt import fmt_params, fmt_pct, fmt_range, fmt_ratio
from ..names import BEST_MARGIN, STUDY_2010_RATIO, STUDY_2010_STEPS, size_key, workload_rank


def changed_text(data, all_pairs, analyses, best_rows):
    """The bullets of 'What changed since 2010', from the numbers."""
    out = []
    by_workload = {}
    for p in all_pairs:
        by_workload.setdefault(p[0], []).append(p)
    for workload in sorted(by_workload, key=workload_rank):
        ps = by_workload[workload]
        ratios = [ratio_of(c, o)[0] for _, _, _, c, o in ps]
        ref = STUDY_2010_RATIO.get(workload)
        ref_text = f" (2010: {ref[1]})" if ref else ""
        faster = sum(r > 1 for r in ratios)
        if workload == "bandwidth":
            big = largest_pairs(ps)
            small = [p for p in ps if size_key(p[2]) == min(size_key(q[2]) for q in ps)]
            rs = [ratio_of(c, o)[0] for _, _, _, c, o in small]
            same = len({p for _, _, p, _, _ in big}) == 1
            parts = ", ".join(f"{v}{'' if same else ' ' + fmt_params(p)} "
                              f"{fmt_ratio(ratio_of(c, o)[0])}" for _, v, p, c, o in big)
            out.append(f"- **bandwidth**{ref_text}: OpenCL/CUDA time at the largest transfer"
                       f"{f' ({fmt_params(big[0][2])})' if same else ''}: {parts}; at the "
                       f"smallest ({fmt_params(small[0][2])}): {fmt_range(rs)}.")
            off = [v for _, v, _, c, o in big if not 0.9 <= ratio_of(c, o)[0] <= 1.1]
            if not off:
                out.append("  Large transfers: OpenCL within 10% of CUDA on every kind, as in "
                           "2010.")
            else:
                out.append(f"  Large transfers: {len(big) - len(off)} of {len(big)} kinds within "
                           f"10% of CUDA, as in 2010; not {', '.join(off)}.")
            if min(rs) > 1.5:
                out.append(f"  Small transfers take {fmt_range(rs)}x the CUDA time through "
                           "OpenCL (a fixed cost per copy).")
            continue
        largest = largest_pairs(ps)
        if len({p for _, _, p, _, _ in largest}) == 1:
            parts = f"{fmt_params(largest[0][2])}: " + ", ".join(
                f"{v} {fmt_ratio(ratio_of(c, o)[0])}" for _, v, _, c, o in largest)
        else:
            parts = ", ".join(f"{v} {fmt_params(p)} {fmt_ratio(ratio_of(c, o)[0])}"
                              for _, v, p, c, o in largest)
        line = f"- **{workload}**{ref_text}: OpenCL/CUDA time at the largest size, {parts}"
        if len(ps) > len(largest):
            line += f"; over all {len(ps)} pairs {fmt_range(ratios)}"
        line += f". CUDA is faster in {faster} of {len(ps)} pairs."
        if ref and ref[0] > 1.5:
            if max(ratios) < ref[0] / 2:
                line += f" Every pair is below half the 2010 gap ({ref[1]})."
            else:
                kept = sum(r >= ref[0] / 2 for r in ratios)
                line += (f" {kept} of {len(ratios)} pairs {'keeps' if kept == 1 else 'keep'} at "
                         f"least half the 2010 gap ({ref[1]}).")
        out.append(line)
    for a in analyses:
        for chain, steps in sorted(a["chains"].items()):
            changes = [(s, ch) for s, _, _, ch in steps[1:] if ch is not None]
            if not changes:
                continue
            text = ", ".join(f"{s} {fmt_pct(ch)}" for s, ch in changes)
            line = (f"- PTX steps, {a['workload']} {a['base']} {fmt_params(a['params'])}, "
                    f"{chain} chain from ptx-O0: {text}")
            if a["workload"] == "matrixMul":
                line += " (2010, hand: " + ", ".join(
                    f"{s} {v:+.0f}%" for s, v in STUDY_2010_STEPS.items()) + ")"
            last = next((b for _, _, b, _ in reversed(steps) if b is not None), None)
            if last is not None and a["cuda"] is not None:
                line += (f"; the last step ({last.variant}) over CUDA: "
                         f"{fmt_ratio(last.time / a['cuda'].time)}")
            out.append(line + ".")
        for suffix, b in a["controls"]:
            if suffix == "ptx-from-nvcc" and a["cuda"] is not None:
                out.append(f"- nvcc's PTX of {a['workload']} {a['base']} loaded through OpenCL "
                           f"({fmt_params(a['params'])}): OpenCL/CUDA time "
                           f"{fmt_ratio(b.time / a['cuda'].time)}.")
    for w, v, p, c, o, best in best_rows:
        if o is not None and best.time < o.time * (1 - BEST_MARGIN):
            out.append(f"- {w} {v} {fmt_params(p)}: the fastest OpenCL variant is {best.variant}, "
                       f"OpenCL/CUDA {fmt_ratio(best.time / c.time)} (source kernel: "
                       f"{fmt_ratio(o.time / c.time)}).")
    vendor = [r for r in vendor_rows(data) if r[1] is not None and r[2] is not None]
    if vendor:
        params, cublas, clblast, _ = vendor[-1]
        out.append(f"- Vendor SGEMM, {fmt_params(params)}: CLBlast/cuBLAS time "
                   f"{fmt_ratio(clblast.time / cublas.time)} (different libraries, not one "
                   "kernel; no 2010 counterpart).")
    return out


def section(rep):
    data, all_pairs, analyses, best_rows = rep.data, rep.all_pairs, rep.analyses, rep.best_rows
    md = ["## What changed since 2010 and what has not", ""]
    text = changed_text(data, all_pairs, analyses, best_rows)
    md += text if text else ["No paired benchmarks in the input."]
    md += ["", "2010 figures are those quoted in docs/DESIGN.md (Tesla C1060, CUDA 2.3).", ""]
    return md
