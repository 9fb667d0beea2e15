"""Hot against cold caches: the rows with the parameter cache:cold."""

from ..fmt import NONE, fmt_bench, fmt_params, fmt_range, fmt_ratio, md_table, plural
from ..names import API_LABEL, size_key, without_cache, workload_rank


def cold_rows(data):
    """[(cold Bench, hot Bench or None)] in report order: the hot row is the same
    name without cache:cold."""
    out = []
    for b in sorted(data.cold, key=lambda b: (workload_rank(b.workload), b.variant,
                                               size_key(without_cache(b.params)), b.api)):
        out.append((b, data.get(b.workload, b.api, b.variant, without_cache(b.params))))
    return out


def cold_section(data):
    """The lines of 'Hot vs cold caches' ([] without cold rows)."""
    rows = cold_rows(data)
    if not rows:
        return []
    md = ["Cold: each sample is one launch after the L2 is flushed; hot: the same benchmark "
          "without `cache:cold` (launches batched, caches warm). Both are medians over the "
          "repetitions.", ""]
    table = []
    for cold, hot in rows:
        label = f"{cold.workload} {API_LABEL.get(cold.api, cold.api)} {cold.variant} " \
                f"{fmt_params(without_cache(cold.params))}".strip()
        table.append((label, fmt_bench(hot, False) if hot else NONE, fmt_bench(cold, False),
                      fmt_ratio(cold.time / hot.time) if hot and hot.time > 0 else NONE))
    md += md_table(["benchmark", "hot time", "cold time", "cold/hot"], table, right=(1, 2, 3))
    md.append("")
    by_workload = {}
    for cold, hot in rows:
        if hot is not None and hot.time > 0:
            by_workload.setdefault(cold.workload, []).append((cold.time / hot.time, cold))
    text = []
    if by_workload:
        parts = [f"{w} {fmt_range([r for r, _ in rs])} ({plural(len(rs), 'benchmark')})"
                 for w, rs in sorted(by_workload.items(), key=lambda kv: workload_rank(kv[0]))]
        text.append("Cold/hot time per workload: " + "; ".join(parts) + ".")
        ratio, worst = max((r for rs in by_workload.values() for r in rs), key=lambda r: r[0])
        text.append(f"Largest: {worst.workload} {API_LABEL.get(worst.api, worst.api)} "
                    f"{worst.variant} {fmt_params(without_cache(worst.params))}, "
                    f"{fmt_ratio(ratio)}.")
    lonely = sum(hot is None for _, hot in rows)
    if lonely:
        text.append(f"{lonely} of {len(rows)} cold rows have no hot row in the input "
                    f"(hot: {NONE}).")
    return md + [" ".join(text)]


TITLE = "Hot vs cold caches"


def section(rep):
    lines = cold_section(rep.data)
    return [f"## {TITLE}", ""] + lines + [""] if lines else []
