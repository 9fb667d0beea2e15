"""Measurement quality: noise target, cv, clock and host/device flags."""
import statistics

from ..fmt import NONE, fmt_cv, md_table, plural, short_name
from ..names import QUALITY_FLAGS, workload_rank
from .cold import cold_rows

QUALITY_RANGES = [("sm_mhz_min", "lowest SM clock", "MHz"),
                  ("power_w_after", "power after", "W"),
                  ("temp_c_after", "temperature after", "\u00b0C")]
MAX_LISTED = 10  # flagged benchmarks listed by name up to this many, else counted


def quality_groups(data):
    """[(name, [Bench])] of the rows with measurement counters: hot, cold, work-size
    (local:<spec>), work split (split:<spec>), startup."""
    groups = [("kernels and transfers", [data.by_id[k] for k in data.ids()]),
              ("cold caches", [b for b, _ in cold_rows(data)]),
              ("work-size tuning", data.local),
              ("work split", data.split),
              ("startup", data.startup)]
    return [(name, benches) for name, benches in groups if benches]


def quality_section(data):
    """The lines of 'Measurement quality' ([] where no row has its counters)."""
    counters = {"samples", "cv", "noise_met"} | {f for f, _ in QUALITY_FLAGS} | \
        {c for c, _, _ in QUALITY_RANGES}
    groups = [(name, [b for b in benches if any(counters & set(r) for r in b.reps)])
              for name, benches in quality_groups(data)]
    groups = [(name, benches) for name, benches in groups if benches]
    if not groups:
        return []
    md = ["Per repetition (each a run of samples): whether it met the noise target, its cv "
          "(relative stddev of its samples), and its flags: clock_flag, the SM clock fell "
          "below 90% of max; host_device_flag, host wall clock and device time differ by more "
          "than 2% (batched runs).", ""]
    table, worst_cv = [], []
    for name, benches in groups:
        reps = [r for b in benches for r in b.reps]
        met = [r["noise_met"] for r in reps if "noise_met" in r]
        cvs = [(r["cv"], b) for b in benches for r in b.reps if "cv" in r]
        row = [name, len(benches), len(reps),
               f"{sum(m >= 0.5 for m in met)} of {len(met)}" if met else f"{NONE} (fixed samples)",
               fmt_cv(statistics.median(c for c, _ in cvs)) if cvs else NONE,
               fmt_cv(max(c for c, _ in cvs)) if cvs else NONE]
        for flag, _ in QUALITY_FLAGS:
            have = [r[flag] for r in reps if flag in r]
            row.append(str(sum(v >= 0.5 for v in have)) if have else NONE)
        table.append(row)
        if cvs:
            cv, b = max(cvs, key=lambda x: x[0])
            worst_cv.append(f"{name} `{short_name(b)}` ({fmt_cv(cv)})")
    md += md_table(["rows", "benchmarks", "repetitions", "noise target met", "median cv",
                    "max cv"] + [f"{f}=1" for f, _ in QUALITY_FLAGS], table,
                   right=tuple(range(1, 6 + len(QUALITY_FLAGS))))
    md.append("")
    lines = []
    if worst_cv:
        lines.append("- Largest cv: " + "; ".join(worst_cv) + ".")
    for name, benches in groups:
        missed = {}
        for b in benches:
            for r in b.reps:
                if "noise_met" in r:
                    total = missed.setdefault(b.workload, [0, 0])
                    total[0] += r["noise_met"] < 0.5
                    total[1] += 1
        missed = {w: t for w, t in missed.items() if t[0]}
        if missed:
            lines.append(f"- Noise target not met ({name}), repetitions per workload: " + ", ".join(
                f"{w} {t[0]} of {t[1]}" for w, t in sorted(
                    missed.items(), key=lambda kv: workload_rank(kv[0]))) + ".")
    everything = [b for _, benches in groups for b in benches]
    for flag, meaning in QUALITY_FLAGS:
        hit = [(b, sum(r.get(flag, 0) >= 0.5 for r in b.reps)) for b in everything]
        hit = [(b, n) for b, n in hit if n]
        if not hit:
            continue
        if len(hit) <= MAX_LISTED:
            items = []
            for b, n in hit:
                extra = f"{n} of {len(b.reps)} repetitions"
                low = [r["sm_mhz_min"] for r in b.reps if "sm_mhz_min" in r]
                if flag == "clock_flag" and low:
                    extra += f", lowest SM clock {min(low):g} MHz"
                ratio = b.counters.get("host/device")
                if flag == "host_device_flag" and ratio is not None:
                    extra += f", host/device {ratio:.3f}"
                items.append(f"`{short_name(b)}` ({extra})")
            lines.append(f"- {flag}=1 ({meaning}): " + "; ".join(items) + ".")
        else:
            per = {}
            for b, _ in hit:
                variants = per.setdefault(b.workload, {})
                variants[b.variant] = variants.get(b.variant, 0) + 1
            lines.append(f"- {flag}=1 ({meaning}): {plural(len(hit), 'benchmark')}: " + "; ".join(
                f"{w} {sum(vs.values())} (" + ", ".join(
                    f"{v} {n}" for v, n in sorted(vs.items(), key=lambda kv: (-kv[1], kv[0])))
                + ")" for w, vs in sorted(per.items(), key=lambda kv: workload_rank(kv[0])))
                + ".")
    if not any(r.get(f, 0) >= 0.5 for b in everything for r in b.reps for f, _ in QUALITY_FLAGS) \
            and any(f in r for b in everything for r in b.reps for f, _ in QUALITY_FLAGS):
        lines.append("- No repetition had " + " or ".join(f"{f}=1" for f, _ in QUALITY_FLAGS)
                     + ".")
    ranges = []
    for counter, label, unit in QUALITY_RANGES:
        vs = [r[counter] for b in everything for r in b.reps if counter in r]
        if vs:
            lo, hi = f"{min(vs):.4g}", f"{max(vs):.4g}"
            ranges.append(f"{label} ({counter}) {lo if lo == hi else f'{lo}-{hi}'} {unit}")
    if ranges:
        lines.append("- Over all repetitions: " + "; ".join(ranges) + ".")
    return md + lines


TITLE = "Measurement quality"


def section(rep):
    lines = quality_section(rep.data)
    return [f"## {TITLE}", ""] + lines + [""] if lines else []
