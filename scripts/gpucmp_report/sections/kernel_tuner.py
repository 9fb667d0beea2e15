"""Kernel Tuner beside gpucmp's tuner: where a kernel-tuner.json of
scripts/kernel_tuner_side.py is among the inputs or beside the result files
(sections/gaps.py's side inputs, gpucmp_report/kernel_tuner.py), per kernel and API
Kernel Tuner's exhaustive pick and each strategy's median and worst pick over its
seeds, with Kernel Tuner's own times; where its re-time run (kernel-tuner-retime.json,
gpucmp-bench with the arguments the script printed) is there too, every pick and
gpucmp's tuner re-timed by gpucmp in that one run, over the best re-timed row of the
same kernel and API. Left out without a kernel-tuner.json."""
from .. import kernel_tuner as report_kt
from ..fmt import NONE, fmt_ratio, fmt_time, md_table, plural
from ..names import API_LABEL, APIS

TITLE = "Kernel Tuner beside gpucmp's tuner"
MS = 1e6  # ns in a millisecond: Kernel Tuner's times are in ms


def side_docs(rep):
    side = getattr(rep.args, "side", None)
    return (getattr(side, "kernel_tuner", None) or [],
            getattr(side, "kernel_tuner_retime", None) or {})


def code(spec):
    return f"`{spec}`" if spec else NONE


def pick_over(pick, best_ms):
    """"`32x8` 1.02": a pick and its exhaustive time over the exhaustive best."""
    if not pick:
        return NONE
    t = pick.get("exhaustive_time_ms")
    return code(pick["pick"]) + (f" {fmt_ratio(t / best_ms)}" if t and best_ms else "")


def ours_text(doc, label, api):
    ours = doc.ours.get(label, {}).get(api)
    if not ours or not ours.get("picks"):
        return NONE
    timed = ours.get("measured")
    return ", ".join(code(p) for p in ours["picks"]) + (
        f" ({timed} timed)" if isinstance(timed, int) else "")


def strategies_of(doc):
    return [s for s in doc.tool.get("strategies", []) if isinstance(s, str)]


def own_table(doc):
    """Kernel Tuner's picks with its own times; the skipped backends' lines."""
    strategies = strategies_of(doc)
    rows, skipped = [], []
    for k in doc.kernels:
        for api in APIS:
            b = k["backends"].get(api)
            if b is None:
                continue
            if b["status"] != "ok":
                skipped.append(f"{k['label']} {API_LABEL[api]}: {b['status']} "
                               f"({b.get('why', 'no reason given')})")
                continue
            ex = b.get("exhaustive") or {}
            best = ex.get("time_ms")
            rows.append([k["label"], API_LABEL[api], len(b.get("candidates", [])),
                         f"{b.get('budget', NONE)} / {b.get('gpucmp_tuner_budget', NONE)}",
                         code(ex.get("pick")) + (f" {fmt_time(best * MS)}" if best else ""),
                         ours_text(doc, k["label"], api)]
                        + [f"{pick_over(b['strategies'].get(s, {}).get('median'), best)} / "
                           f"{pick_over(b['strategies'].get(s, {}).get('worst'), best)}"
                           for s in strategies])
    header = ["kernel", "API", "shapes", "budget: Kernel Tuner / gpucmp",
              "exhaustive pick (its time)", "gpucmp's tuner (--ours)"] + strategies
    return (md_table(header, rows, right=(2,)) if rows else []), skipped


def best_of(runs):
    """(spec, median ns) of the fastest re-timed row, the tuner's row included."""
    return min(((s, r.median_ns) for s, r in runs.items()), key=lambda x: x[1],
               default=(None, None))


def retimed(runs, spec, best_ns):
    r = runs.get(spec) if spec else None
    return f"{code(spec)} {fmt_ratio(r.median_ns / best_ns)}" if r and best_ns else \
        (f"{code(spec)} {NONE}" if spec else NONE)


def retime_table(doc, retime):
    strategies = strategies_of(doc)
    rows, reps = [], set()
    for k in doc.kernels:
        for api in APIS:
            b = k["backends"].get(api)
            runs = retime.get((k["label"], api))
            if not b or b["status"] != "ok" or not runs:
                continue
            reps |= {r.repetitions for r in runs.values()}
            best_spec, best_ns = best_of(runs)
            tuner = runs.get("tuner")
            chosen = ", ".join(code(report_kt.shape_text(s, k["dims"]))
                               for s in tuner.shapes) if tuner else ""
            ours = f"{chosen or code('tuner')} {fmt_ratio(tuner.median_ns / best_ns)}" \
                if tuner else NONE
            best = code(best_spec) + (f" ({chosen})" if best_spec == "tuner" and chosen else "")
            rows.append([k["label"], API_LABEL[api], f"{best} {fmt_time(best_ns)}", ours,
                         retimed(runs, (b.get("exhaustive") or {}).get("pick"), best_ns)]
                        + [" / ".join(retimed(runs, (b["strategies"].get(s, {}).get(w) or {})
                                              .get("pick"), best_ns)
                                      for w in ("median", "worst")) for s in strategies])
    header = ["kernel", "API", "best re-timed row", "gpucmp's tuner (its pick in that run)",
              "Kernel Tuner exhaustive"] + strategies
    return (md_table(header, rows, right=()) if rows else []), sorted(reps)


def intro(doc):
    tool = doc.tool
    seeds = tool.get("seeds", [])
    space = doc.space.get("command") or ", ".join(doc.space.get("files", [])) or NONE
    tuned = [f"{k['label']}: {k['tuned']}" for k in doc.kernels
             if "one pass" in str(k.get("tuned", ""))]
    return [
        f"Kernel Tuner {tool.get('kernel_tuner') or '(version not recorded)'} "
        f"(`scripts/kernel_tuner_side.py`, `{doc.path}`) on the work-size kernels, each "
        "backend it has for gpucmp's two APIs (CUDA through cuda-python, OpenCL through "
        f"pyopencl), over gpucmp's own legal shapes and sizes ({space}): its exhaustive "
        f"search once, then {', '.join(f'`{s}`' for s in strategies_of(doc)) or NONE}, each "
        f"once per seed ({plural(len(seeds), 'seed')}: "
        f"{', '.join(str(s) for s in seeds) or NONE}), at a budget of "
        f"{tool.get('budget', NONE)} timed configurations (gpucmp's tuner: "
        f"{tool.get('gpucmp_tuner_budget', NONE)}). Times in the first table are "
        f"Kernel Tuner's: {tool.get('timing', NONE)}. A strategy's cell is its median and "
        "worst pick over the seeds, ranked and divided by the exhaustive run's time of "
        "each shape (over the exhaustive pick's)." + (" " + "; ".join(tuned) + "." if tuned
                                                       else ""), ""]


def section(rep):
    docs, retime = side_docs(rep)
    if not docs:
        return []
    md = [f"## {TITLE}", ""]
    for doc in docs:
        md += intro(doc)
        if doc.partial:
            md += [f"**Partial:** the run did not finish ({doc.partial}).", ""]
        table, skipped = own_table(doc)
        md += table + [""] if table else ["No kernel and backend was tuned.", ""]
        if skipped:
            md += ["Not tuned: " + "; ".join(skipped) + ".", ""]
        if not retime:
            md += ["Not re-timed: no kernel-tuner-retime.json (gpucmp-bench run with the "
                   "arguments the script printed, its JSON's `retime.command`) among the "
                   "inputs or beside the results.", ""]
            continue
        table, reps = retime_table(doc, retime)
        if not table:
            md += ["The re-time run has no rows of these kernels.", ""]
            continue
        md += [f"Re-timed by gpucmp in one run (kernel-tuner-retime.json, "
               f"{'/'.join(str(r) for r in reps)} repetitions a row): each row's median over "
               "the best median among the re-timed rows of the same kernel and API; "
               "gpucmp's tuner chose again in that run (its shapes as chosen). A strategy's "
               "cell: its median / worst pick as ranked above; a pick with no row there: "
               f"{NONE}.", ""] + table + [""]
    return md
