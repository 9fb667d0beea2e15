"""The PTX optimization steps of the OpenCL kernels (Fig. 6 of the study)."""
from ..figures import FIGURES
from ..fmt import fmt_bench, fmt_params, fmt_pct, fmt_ratio, md_table
from ..names import STEPS, STUDY_2010_STEPS


def section(rep):
    analyses, figure, plotter = rep.analyses, rep.figure, rep.plotter
    md = ["## PTX optimization steps (Fig. 6 of the study)", ""]
    if analyses:
        md += ["OpenCL PTX loaded back through `clCreateProgramWithBinary`. Both chains start "
               "from the `-cl-opt-disable` PTX (`ptx-O0`), clean it up (auto: gpucmp's "
               "`cleanup` pass; hand: `hand-base`) and add one optimization per step. "
               "\"vs previous\" is the change of time against the step before.", ""]
        for a in analyses:
            md += [f"### {a['workload']} {a['base']}, {fmt_params(a['params'])}", ""]
            cuda = a["cuda"]
            rows = [("CUDA", a["base"], fmt_bench(cuda, False), "-")]
            for name, b in [("OpenCL source", a["source"])] + [
                    (s, b) for s, b in a["controls"]]:
                if b is not None:
                    rows.append((name, b.variant, fmt_bench(b, False),
                                 fmt_ratio(b.time / cuda.time) if cuda else "-"))
            md += md_table(["kernel", "variant", "time", "OpenCL/CUDA"], rows, right=(2, 3))
            md.append("")
            chains = sorted(a["chains"])
            if chains:
                header = ["step"]
                for chain in chains:
                    header += [f"{chain}: time", f"{chain}: vs previous"]
                header += ["OpenCL/CUDA (" + ", ".join(chains) + ")"]
                if a["workload"] == "matrixMul":
                    header.append("2010 (hand)")
                rows = []
                for i, step in enumerate(STEPS):
                    row = [step if i == 0 else f"+{step}"]
                    over = []
                    for chain in chains:
                        steps = a["chains"][chain]  # the hand chain has no align step
                        _, _, b, ch = steps[i] if i < len(steps) else (None, None, None, None)
                        row += [fmt_bench(b, False), fmt_pct(ch)]
                        over.append(fmt_ratio(b.time / cuda.time) if b and cuda else "-")
                    row.append(" / ".join(over))
                    if a["workload"] == "matrixMul":
                        ref = STUDY_2010_STEPS.get(step)
                        row.append("-" if ref is None else f"{ref:+.0f}%")
                    rows.append(row)
                md += md_table(header, rows, right=tuple(range(1, len(header))))
            else:
                md += ["No chain variants (`-auto-*`, `-hand-*`) measured for this kernel."]
            md.append("")
        if figure("ptx", analyses):
            md += [f"![Change of OpenCL time per PTX step]({FIGURES['ptx']})", ""]
        elif plotter is not None:
            md += ["No optimization step (unroll, cse, mad, licm) was measured with its "
                   "previous step: Fig. 6 is omitted.", ""]
    else:
        md += ["No PTX variants (`<base>-ptx-O0`, `-auto-*`, `-hand-*`, ...) in the input: "
               "the table and Fig. 6 are omitted.", ""]
    return md
