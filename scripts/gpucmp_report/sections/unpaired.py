"""Not paired: rows of both APIs under one name whose launches differ (a per-launch
counter, analysis.launch_mismatch), so that their ratio would compare different
work. They stay out of every table of pairs and are listed here with the counter."""
from ..analysis import unpaired
from ..fmt import fmt_params


def _value(v):
    return "none" if v is None else f"{v:g}"


def section(rep):
    rows = unpaired(rep.data)
    if not rows:
        return []
    md = ["## Not paired: different launches", "",
          "Rows of both APIs with one name whose timed launch differs (a `_per_launch` "
          "counter: commands enqueued, records passed by value); no ratio is made of them.", ""]
    for workload, variant, params, diff in rows:
        what = "; ".join(f"`{n}` CUDA {_value(c)}, OpenCL {_value(o)}" for n, c, o in diff)
        md.append(f"- {workload} {variant} {fmt_params(params)}: {what}")
    md.append("")
    return md
