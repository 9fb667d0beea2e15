"""Reductions, scans and the AGPU model: the rows reduce/<api>/... and
scan/<api>/... of files whose context holds the model's machine (<api>.agpu.p, .b,
.M_words), put through scripts/agpu_model.py (its constants fitted per API at one
size, as stated and with the terms scripts/agpu_terms.py measures from the
ceiling and copy rows; its predictions at the other sizes, the median absolute
error per API and size against the model's goal, the rows it misses most), and
the best gpucmp reduction and scan against CUB's at the largest size with a CUB
row."""
import agpu_model  # scripts/agpu_model.py (scripts/ is on sys.path, as for gbench_json)
import agpu_terms
from gbench_json import InputError

from ..fmt import NONE, fmt_time, md_table, short_name
from ..names import API_LABEL

TITLE = "Reductions, scans and the AGPU model"
WORKLOADS = ("reduce", "scan")
MACHINE_KEYS = ("p", "b", "M_words")  # <api>.agpu.<key> in a file's context
CUB = "cub"  # CUDA's reference rows: reduce/cuda/cub, scan/cuda/cub
GOAL = 0.15  # the model's median absolute error on the predicted rows
TERM_WORKLOADS = ("ceiling", "bandwidth")  # the rows agpu_terms reads
MISSED = 0.25  # rows off by more than this are listed as where the model breaks
MISSED_SHOWN = 12
INTRO = (
    "Rows `reduce/<api>/<variant>` and `scan/<api>/<variant>`. The AGPU model "
    "(Nakano et al.) describes the GPU by p cores, b (warp, memory block and banks, in "
    "words) and M words of shared memory per multiprocessor, as each file's context "
    "records them (`<api>.agpu.p`, `.b`, `.M_words`), and an algorithm by its time "
    "complexity T, I/O complexity I and multiplicity mu. `scripts/agpu_model.py` predicts "
    "a row's time as t = L k + c_T T + c_I s I / min(1, mu), with the two constants fitted "
    "per API by least squares (relative error) on every modelled row of one size (the "
    "largest with rows of every API) and used unchanged at the other sizes. L and s are "
    "measured, not fitted (`scripts/agpu_terms.py`): L is the time one command adds to a "
    "batch of launches (`ceiling/<api>/launch`), paid for each of the row's k commands; "
    "s scales the I/O of a row whose words fit the L2 by the device copy's GB/s over the "
    "L2 ceiling's. The model as stated has L = 0 and s = 1; both forms are fitted. Error: "
    "predicted / measured - 1. CUB's rows (`cub`) and onepass's have no stated complexity "
    "and are not modelled; CUB's are the reference of the last table.")


def has_machine(context, api):
    return all(f"{api}.agpu.{k}" in context for k in MACHINE_KEYS)


def agpu_rows(rep):
    """[(bench, context)] of the hot reduce and scan rows whose file records the machine."""
    contexts = {path: context for path, context, _ in rep.contexts}
    out = []
    for b in rep.data.by_id.values():
        context = contexts.get(b.path, {})
        if b.workload in WORKLOADS and has_machine(context, b.api):
            out.append((b, context))
    return sorted(out, key=lambda bc: bc[0].key)


def fmt_n(n):
    n = int(n)
    return f"2^{n.bit_length() - 1}" if n > 0 and n & (n - 1) == 0 else str(n)


def fmt_us(us):
    return fmt_time(us * 1e3)


def fmt_err(x):
    if x is None:
        return NONE
    return "0.0%" if abs(x) < 5e-4 else f"{x:+.1%}"  # no "-0.0%" for a rounding residue


def api_name(api):
    return API_LABEL.get(api, api)


def fit(measured, terms=None, per_file=None):
    """(fit_n, {form: {api: agpu_model.predict's entry}}, [lines of APIs not fitted]) of
    the modelled rows; (None, {}, lines) where none is modelled."""
    rows = agpu_model.collect_measured(measured, terms, per_file)
    if not rows:
        return None, {}, []
    fit_n = agpu_model.fit_size(rows)
    results, notes = {"stated": {}, "terms": {}}, []
    for api in sorted({r["api"] for r in rows}):
        try:
            for form, got in agpu_model.predict_both([r for r in rows if r["api"] == api],
                                                     fit_n).items():
                results[form].update(got)
        except InputError as e:
            notes.append(f"Not fitted: {e}.")
    return fit_n, (results if results["terms"] else {}), notes


FORM_LABEL = {"stated": "as stated", "terms": "with L and s"}


def constants_table(results, stats):
    rows = [(api_name(api), FORM_LABEL[form], f"{res['c_T_us'] * 1e3:.4g}",
             f"{res['c_I_us'] * 1e3:.4g}", sum(r["fitted"] for r in res["rows"]),
             agpu_model.pct(stats[form][api]["median_abs_error"]))
            for form in ("stated", "terms") for api, res in results[form].items()]
    return md_table(["API", "form", "c_T (ns per step)", "c_I (ns per block)",
                     "rows at the fit", "median abs error, predicted rows"], rows,
                    right=(2, 3, 4, 5))


def goal_line(stats):
    errors = {api: s["median_abs_error"] for api, s in stats["terms"].items()}
    checked = {api: e for api, e in errors.items() if e is not None}
    goal = f"a median absolute error of at most {GOAL:.0%} on the predicted rows"
    if not checked:
        return f"The model's goal, {goal}: not checked (no size besides the fitted one)."
    met = all(e <= GOAL for e in checked.values())
    each = ", ".join(f"{api_name(a)} {agpu_model.pct(e)}" for a, e in checked.items())
    stated = ", ".join(f"{api_name(a)} {agpu_model.pct(s['median_abs_error'])}"
                       for a, s in stats["stated"].items() if s["median_abs_error"] is not None)
    return (f"**The model's goal, {goal}: {'met' if met else 'not met'}** with L and s "
            f"({each}); as stated: {stated}.")


def size_table(results, fit_n):
    rows = []
    for api, res in results["terms"].items():
        for n in sorted({r["n"] for r in res["rows"]}):
            mine = [r for r in res["rows"] if r["n"] == n]
            errors = [r["error"] for r in mine]
            rows.append((api_name(api), fmt_n(n) + (" (fit)" if n == fit_n else ""), len(mine),
                         agpu_model.pct(agpu_model.median_abs(mine, "stated_error")),
                         agpu_model.pct(agpu_model.median_abs(mine)), fmt_err(min(errors)),
                         fmt_err(max(errors))))
    return md_table(["API", "n", "rows", "median abs error as stated", "median abs error",
                     "lowest error", "highest error"], rows, right=(2, 3, 4, 5, 6))


def missed_table(results):
    """The predicted rows the model (with L and s) misses by more than MISSED, worst first."""
    missed = sorted((r for res in results["terms"].values() for r in res["rows"]
                     if not r["fitted"] and abs(r["error"]) > MISSED),
                    key=lambda r: -abs(r["error"]))
    rows = [(api_name(r["api"]), r["row"], fmt_n(r["n"]), fmt_us(r["us"]),
             fmt_us(r["predicted_us"]), fmt_err(r["error"])) for r in missed[:MISSED_SHOWN]]
    return len(missed), md_table(["API", "row", "n", "measured", "predicted", "error"], rows,
                                 right=(3, 4, 5))


def row_order(r):
    """Algorithm, then alpha in numeric order, then the rest of the row's label (type)."""
    return r["row"].split(" alpha ")[0].split(" ")[0], r["alpha"] or 0, r["row"]


def fit_rows_table(results):
    rows = [(api_name(api), r["row"], f"{r['mu']:.3g}", r["k"], fmt_us(r["us"]),
             fmt_us(r["stated_us"]), fmt_err(r["stated_error"]), fmt_us(r["predicted_us"]),
             fmt_err(r["error"]))
            for api, res in results["terms"].items()
            for r in sorted(res["rows"], key=row_order) if r["fitted"]]
    return md_table(["API", "row", "multiplicity", "commands", "measured", "as stated", "error",
                     "with L and s", "error"], rows, right=(2, 3, 4, 5, 6, 7, 8))


def model_lines(pairs, term_rows):
    """The model's part of the section: terms, constants, goal, per size, the rows it
    misses, rows at the fit. term_rows: agpu_terms.from_rows' input."""
    measured = [(b.key, b.time / 1e3, context, b.path) for b, context in pairs]
    terms = agpu_terms.from_rows(term_rows)
    per_file = agpu_model.file_terms_of([b.path for b, _ in pairs])
    try:
        fit_n, results, notes = fit(measured, terms, per_file)
    except InputError as e:
        return [f"The model is not applied: {e}.", ""]
    if fit_n is None:
        return ["No row the model covers (tree, cascading, pipeline, alpha, lookback).", ""]
    md = notes + ([""] if notes else [])
    if not results:
        return md
    stats = {form: agpu_model.summary(res, fit_n, form) for form, res in results.items()}
    machines = sorted({agpu_model.machine_text(b.api, agpu_model.machine(c, b.api, b.path))
                       for b, c in pairs if b.api in results["terms"]
                       and agpu_model.covered(b.key)})
    modelled = [r for res in results["terms"].values() for r in res["rows"]]
    described = agpu_terms.describe({a: terms.get(a, {}) for a in results["terms"]},
                                    agpu_model.file_launch(modelled, per_file))
    md += [agpu_model.fitted_text(fit_n, machines), "",
           "Measured terms: " + "; ".join(described) + ".", ""]
    md += constants_table(results, stats) + ["", goal_line(stats), ""]
    md += ["### The model's error per size", ""] + size_table(results, fit_n) + [""]
    count, missed = missed_table(results)
    md += ["### Where the model breaks", "",
           f"Predicted rows off by more than {MISSED:.0%} with L and s: {count}"
           + (f" (the worst {MISSED_SHOWN} shown)." if count > MISSED_SHOWN else ".")]
    md += ([""] + missed if count else []) + [""]
    md += [f"### Rows at the fitted size, n = {fmt_n(fit_n)}", "",
           "Every row at the other sizes: `scripts/agpu_model.py` over the same files.", ""]
    return md + fit_rows_table(results) + [""]


def size_of(b):
    n = dict(b.params).get("n", "")
    return int(n) if n.isdigit() else None


def against_cub(benches):
    """Per workload and the other parameters (type): the largest n with a CUB row and
    a gpucmp row, the fastest gpucmp row there and CUB's."""
    groups = {}
    for b in benches:
        if b.workload not in WORKLOADS or size_of(b) is None:
            continue
        rest = tuple(p for p in b.params if p[0] not in ("n", "alpha"))
        groups.setdefault((b.workload, rest), []).append(b)
    rows = []
    for (workload, rest), mine in sorted(groups.items()):
        cub = {size_of(b): b for b in mine if b.variant == CUB}
        ours = [b for b in mine if b.variant != CUB]
        sizes = [n for n in cub if any(size_of(b) == n for b in ours)]
        if not sizes:
            continue
        n = max(sizes)
        best = min((b for b in ours if size_of(b) == n), key=lambda b: b.time)
        rows.append((workload, " ".join(f"{k}={v}" for k, v in rest) or NONE, fmt_n(n),
                     f"`{short_name(best)}`", fmt_time(best.time), fmt_time(cub[n].time),
                     f"{best.time / cub[n].time:.3f}"))
    return rows


def term_rows(rep):
    """agpu_terms.from_rows' input: the hot ceiling and copy rows, in file order."""
    contexts = {path: context for path, context, _ in rep.contexts}
    return [(b.key, b.time / 1e3, b.counters, contexts.get(b.path, {}))
            for b in sorted(rep.data.by_id.values(), key=lambda b: b.order)
            if b.workload in TERM_WORKLOADS]


def section(rep):
    pairs = agpu_rows(rep)
    if not pairs:
        return []
    md = [f"## {TITLE}", "", INTRO, ""] + model_lines(pairs, term_rows(rep))
    cub = against_cub([b for b in rep.data.by_id.values() if b.workload in WORKLOADS])
    if cub:
        md += ["### The best gpucmp row against CUB", "",
               "At the largest size with both a CUB row and a gpucmp row (either API, any "
               "variant but `cub`): the fastest gpucmp row and CUB's (time: median per "
               "launch). Above 1, CUB is faster.", ""]
        md += md_table(["workload", "parameters", "n", "best gpucmp row", "time", "CUB",
                        "best / CUB"], cub, right=(4, 5, 6)) + [""]
    return md
