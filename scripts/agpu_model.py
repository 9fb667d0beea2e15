#!/usr/bin/env python3
"""The AGPU cost model (Nakano et al., Hiroshima) as a predictor:
fitted on one size, checked on every other, as stated and with two measured
machine terms (scripts/agpu_terms.py).

The model describes a GPU by p (cores in all), b (a warp's threads, also the
block of global memory and the banks of shared memory, in words) and M (shared
memory of one multiprocessor, in words); gpucmp-bench records each API's in
its context (<api>.agpu.p, .b, .M_words; harness/agpu_parameters.h). An
algorithm is described by its time complexity T (steps of one core), its I/O
complexity I (global-memory blocks moved, all multiprocessors together) and its
multiplicity mu (threads per core, which hide the latency of global memory).
This module predicts a row's time as

    t = L * k + c_T * T + c_I * s * I / min(1, mu)

with two machine constants, c_T (us per step) and c_I (us per block), fitted
by least squares (relative error) to the rows of one size (every algorithm
and alpha of that size, per API) and then used unchanged for every other
size. L (the time a command adds to a batch; k: the row's commands) and s
(the L2's rate against DRAM's for rows whose words fit the L2, else 1) are
measured by the suite, not fitted (agpu_terms.py). The model as stated has
L = 0 and s = 1; both forms are fitted and reported. The
complexities, n words and alpha words per thread (the issue's statement;
v threads launched):

    reduce/tree       T = n log2(b) / p   I = n / b    mu = v / p, v = n
    reduce/cascading  T = n / p           I = n / b    mu = v / p, v = the grid's threads
    reduce/pipeline   T = n / p           I = n / b    (as cascading)
    scan/alpha        T = n/p (min(b/alpha, alpha) + log2(b)/alpha)
                      I = 3n / b   mu = min(v/p, M/(alpha b)), v = n/alpha
    scan/lookback     T as scan/alpha   I = 2n / b   mu as scan/alpha

CUB's rows have no stated complexity and are left out. The grid of cascading
and pipeline is reduce's (harness/workloads/agpu/reduce.cpp): min(8 x units,
ceil(n / 1024)) blocks of 256.

  agpu_model.py RESULTS.json... [--fit-n N] [--out-md FILE] [--out-json FILE]

--fit-n (default: the largest size with rows of every API) picks the size the
constants are fitted on. The terms come from the ceiling and copy rows among
the same files. Writes a Markdown table (measured, predicted as stated and
with the terms, error per row; the median absolute error of the predicted
rows per API and size, for both forms) and, with --out-json, the same as JSON
for dashboards. Exit 2 with one line on
unreadable input, rows without the model's parameters, or too few rows to fit.
"""
import argparse
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agpu_terms  # noqa: E402
from gbench_json import InputError, load, write_atomically  # noqa: E402

US_PER_UNIT = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
BLOCK = 256            # threads of a block (reduce::kBlock, scan::kBlock)
BLOCKS_PER_UNIT = 8    # reduce::kBlocksPerUnit
MODELLED = {("reduce", "tree"), ("reduce", "cascading"), ("reduce", "pipeline"),
            ("scan", "alpha"), ("scan", "lookback")}


def parse_row(run_name):
    """(workload, api, variant, {param: value}) of 'w/api/variant/k:v/...', or None."""
    parts = [p for p in run_name.split("/") if p]
    if len(parts) < 3:
        return None
    params = dict(p.split(":", 1) for p in parts[3:] if ":" in p)
    return parts[0], parts[1], parts[2], params


def machine(context, api, path):
    """{p, b, M} of an API from a result's context; InputError if one is missing."""
    got = {}
    for key, name in (("p", "p"), ("b", "b"), ("M_words", "M")):
        text = context.get(f"{api}.agpu.{key}")
        try:
            got[name] = int(text)
        except (TypeError, ValueError):
            raise InputError(f"{path}: context has no {api}.agpu.{key} (the model's "
                             f"{name}; recorded by gpucmp-bench)") from None
        if got[name] <= 0:
            raise InputError(f"{path}: {api}.agpu.{key} is {text}, not a positive count")
    got["units"] = got["p"]  # refined below where the context names the SM count
    units = context.get(f"{api}.agpu.units") or context.get(f"{api}.sm_count")
    if units and str(units).isdigit() and int(units) > 0:
        got["units"] = int(units)
    return got


def complexities(workload, variant, n, alpha, m):
    """(T, I, mu) of one row under machine m (see the module's docstring)."""
    p, b, big_m = m["p"], m["b"], m["M"]
    log_b = math.log2(b)
    if workload == "reduce":
        if variant == "tree":
            return n * log_b / p, n / b, n / p
        grid = max(1, min(m["units"] * BLOCKS_PER_UNIT, math.ceil(n / (4 * BLOCK))))
        return n / p, n / b, grid * BLOCK / p
    steps = n / p * (min(b / alpha, alpha) + log_b / alpha)
    io = (3 if variant == "alpha" else 2) * n / b
    mu = min(n / alpha / p, big_m / (alpha * b))
    return steps, io, mu


def covered(name):
    """(workload, api, variant, n, alpha, params) of a row the model covers, else None."""
    parsed = parse_row(name)
    if not parsed:
        return None
    workload, api, variant, params = parsed
    if (workload, variant) not in MODELLED or not params.get("n", "").isdigit() \
            or not params.get("alpha", "0").isdigit():
        return None
    return workload, api, variant, int(params["n"]), int(params.get("alpha", 0)) or None, params


def model_row(name, us, m, terms=None):
    """The model's row of one measured benchmark (median time us) under machine m and its
    API's measured terms (agpu_terms.from_rows' entry; None: none): a dict with api, row,
    n, alpha, us, T, I, mu, k (commands), L (us a command) and s (the I/O's scale); None
    where the model does not cover it."""
    got = covered(name)
    if got is None:
        return None
    workload, api, variant, n, alpha, params = got
    t, io, mu = complexities(workload, variant, n, alpha, m)
    k, launch, scale = agpu_terms.row_terms(workload, variant, n, params, terms)
    label = f"{workload}/{variant}" + (f" alpha {alpha}" if alpha else "")
    if "type" in params:
        label += f" {params['type']}"
    return {"api": api, "row": label, "n": n, "alpha": alpha, "us": us, "T": t, "I": io,
            "mu": mu, "k": k, "L": launch, "s": scale}


def collect_measured(measured, terms=None, file_terms=None):
    """The modelled rows of already-loaded results: measured is [(name, median us,
    context, path)], in the order of the rows; the machine of each row's API comes
    from its context (InputError naming the path where the parameters are missing);
    terms: agpu_terms.from_rows' result (None: the model as stated); file_terms:
    {path: from_rows over that file alone} (its launch latency wins for its rows)."""
    rows, machines = [], {}
    for name, us, context, path in measured:
        got = covered(name)
        if got is None:
            continue
        key = (path, got[1])
        if key not in machines:
            machines[key] = machine(context, got[1], path)
        own = agpu_terms.for_file((terms or {}).get(got[1]),
                                  (file_terms or {}).get(path, {}).get(got[1]))
        rows.append(dict(model_row(name, us, machines[key], own), path=path))
    return rows


def file_terms_of(paths):
    """{path: agpu_terms.from_rows over that file alone} of the files."""
    return {path: agpu_terms.from_rows(load_rows([path])[1]) for path in dict.fromkeys(paths)}


def file_launch(rows, file_terms):
    """{api: [(file name, L)]} of the files whose modelled rows use their own L."""
    out = {}
    for path in dict.fromkeys(r["path"] for r in rows):
        for api, t in (file_terms.get(path) or {}).items():
            if t.get("launch_us") and any(r["path"] == path and r["api"] == api for r in rows):
                out.setdefault(api, []).append((os.path.basename(path), t["launch_us"]))
    return out


def load_rows(paths):
    """([(name, median us, context, path)], [(name, median us, counters, context)]) of
    every measured row of the files, in file order (the second: for agpu_terms)."""
    measured, with_counters = [], []
    for path in paths:
        context, entries = load(path)
        for name, entry in entries.items():
            if entry["error"] or entry["skipped"] or not entry["rows"]:
                continue
            times = [r["real_time"] * US_PER_UNIT[r.get("time_unit", "ns")] for r in entry["rows"]]
            rates = [r["GB/s"] for r in entry["rows"] if isinstance(r.get("GB/s"), (int, float))]
            us = statistics.median(times)
            measured.append((name, us, context, path))
            with_counters.append((name, us, {"GB/s": statistics.median(rates)} if rates else {},
                                  context))
    return measured, with_counters


def collect(paths):
    """(the modelled rows of every file, the measured terms per API, per file)."""
    measured, with_counters = load_rows(paths)
    terms = agpu_terms.from_rows(with_counters)
    per_file = file_terms_of(paths)
    rows = collect_measured(measured, terms, per_file)
    if not rows:
        raise InputError(f"no reduce or scan rows the model covers in {', '.join(paths)}")
    return rows, terms, per_file


def fit_size(rows, fit_n=None):
    """The size the constants are fitted on: fit_n, else the largest size with rows of
    every API (else the largest size)."""
    if fit_n is not None and fit_n <= 0:
        raise InputError(f"--fit-n {fit_n}: not a positive size")
    apis = {r["api"] for r in rows}
    common = [n for n in {r["n"] for r in rows}
              if all(any(r["n"] == n and r["api"] == a for r in rows) for a in apis)]
    return fit_n or (max(common) if common else max(r["n"] for r in rows))


# The two forms: with the measured terms (L k and s), and as stated (L = 0, s = 1):
# each writes its prediction and error under its own keys of a row.
FORMS = {"terms": ("predicted_us", "error"), "stated": ("stated_us", "stated_error")}


def terms_of(r, form):
    """(L k, s) of row r in `form`."""
    return (r["L"] * r["k"], r["s"]) if form == "terms" else (0.0, 1.0)


def fit(rows, form="terms"):
    """(c_T, c_I) minimising the squared relative error of
    t = L k + c_T T + c_I s I / min(1, mu), both kept >= 0 (a negative constant is
    dropped and the other refitted)."""
    def design(r):
        return r["T"] / r["us"], terms_of(r, form)[1] * r["I"] / min(1.0, r["mu"]) / r["us"]

    def target(r):
        return 1.0 - terms_of(r, form)[0] / r["us"]

    def one(k):
        num = sum(design(r)[k] * target(r) for r in rows)
        den = sum(design(r)[k] ** 2 for r in rows)
        return num / den if den > 0 else 0.0

    s11 = sum(design(r)[0] ** 2 for r in rows)
    s22 = sum(design(r)[1] ** 2 for r in rows)
    s12 = sum(design(r)[0] * design(r)[1] for r in rows)
    y1 = sum(design(r)[0] * target(r) for r in rows)
    y2 = sum(design(r)[1] * target(r) for r in rows)
    det = s11 * s22 - s12 * s12
    if det > 1e-12 * max(s11 * s22, 1e-300):
        c_t, c_i = (y1 * s22 - y2 * s12) / det, (y2 * s11 - y1 * s12) / det
        if c_t >= 0 and c_i >= 0:
            return c_t, c_i
    best = min(((one(0), 0.0), (0.0, one(1))),
               key=lambda c: sum((c[0] * design(r)[0] + c[1] * design(r)[1] - target(r)) ** 2
                                 for r in rows))
    return best


def predict(rows, fit_n, form="terms"):
    """Per API: the constants of `form` fitted at fit_n, and every row with its
    prediction and error under FORMS[form]'s keys."""
    out = {}
    pred_key, err_key = FORMS[form]
    for api in sorted({r["api"] for r in rows}):
        mine = [r for r in rows if r["api"] == api]
        at_fit = [r for r in mine if r["n"] == fit_n]
        if len(at_fit) < 2:
            raise InputError(f"{api}: {len(at_fit)} row(s) at n {fit_n}; the two constants "
                             "need at least 2")
        c_t, c_i = fit(at_fit, form)
        for r in mine:
            fixed, scale = terms_of(r, form)
            r[pred_key] = fixed + c_t * r["T"] + c_i * scale * r["I"] / min(1.0, r["mu"])
            r[err_key] = r[pred_key] / r["us"] - 1
            r["fitted"] = r["n"] == fit_n
        out[api] = {"c_T_us": c_t, "c_I_us": c_i, "rows": mine}
    return out


def predict_both(rows, fit_n):
    """{form: predict's result} for both forms (the rows carry both predictions)."""
    return {form: predict(rows, fit_n, form) for form in ("stated", "terms")}


def median_abs(rows, err_key="error"):
    return statistics.median(abs(r[err_key]) for r in rows) if rows else None


def summary(result, fit_n, form="terms"):
    """{api: {"median_abs_error": of the predicted rows, "by_n": {n: ...}}} of a form."""
    err_key = FORMS[form][1]
    out = {}
    for api, res in result.items():
        predicted = [r for r in res["rows"] if not r["fitted"]]
        sizes = sorted({r["n"] for r in predicted})
        out[api] = {"fit_n": fit_n, "median_abs_error": median_abs(predicted, err_key),
                    "by_n": {str(n): median_abs([r for r in predicted if r["n"] == n], err_key)
                             for n in sizes}}
    return out


def pct(x):
    return "-" if x is None else f"{x:.1%}"


def machine_text(api, m):
    return f"{api}: p {m['p']}, b {m['b']}, M {m['M']} words"


def fitted_text(fit_n, machine_texts):
    return f"Fitted at n = {fit_n}; machine parameters " + "; ".join(machine_texts) + "."


FORM_LABEL = {"stated": "as stated", "terms": "with the measured terms"}


def markdown(results, stats, header_lines):
    """results, stats: {form: predict's result}, {form: summary}; header_lines: the
    machine parameters and terms."""
    lines = ["| API | form | c_T (ns per step) | c_I (ns per block) | median abs error, "
             "predicted rows | by size |", "|---|---|---|---|---|---|"]
    for form, result in results.items():
        for api, res in result.items():
            by = ", ".join(f"2^{int(math.log2(int(n)))}: {pct(v)}"
                           for n, v in stats[form][api]["by_n"].items())
            lines.append(f"| {api} | {FORM_LABEL[form]} | {res['c_T_us'] * 1e3:.4g} | "
                         f"{res['c_I_us'] * 1e3:.4g} | "
                         f"{pct(stats[form][api]['median_abs_error'])} | {by} |")
    lines += [""] + header_lines + ["",
              "| API | row | n | multiplicity | commands | measured (us) | predicted as stated "
              "(us) | error | predicted with the terms (us) | error |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for api, res in results["terms"].items():
        for r in sorted(res["rows"], key=lambda r: (r["row"], r["n"])):
            mark = " (fit)" if r["fitted"] else ""
            lines.append(f"| {api} | {r['row']} | 2^{int(math.log2(r['n']))}{mark} | "
                         f"{r['mu']:.3g} | {r['k']} | {r['us']:.1f} | {r['stated_us']:.1f} | "
                         f"{r['stated_error']:+.1%} | {r['predicted_us']:.1f} | "
                         f"{r['error']:+.1%} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--fit-n", type=int)
    ap.add_argument("--out-md")
    ap.add_argument("--out-json")
    args = ap.parse_args()
    try:
        rows, terms, per_file = collect(args.results)
        fit_n = fit_size(rows, args.fit_n)
        results = predict_both(rows, fit_n)
        stats = {form: summary(result, fit_n, form) for form, result in results.items()}
        apis = {r["api"] for r in rows}
        contexts = [load(p)[0] for p in args.results]
        params = sorted({machine_text(a, machine(c, a, "")) for c in contexts for a in apis
                         if f"{a}.agpu.p" in c})
        header = [fitted_text(fit_n, params), "",
                  "Measured terms: " + "; ".join(agpu_terms.describe(
                      {a: terms.get(a, {}) for a in apis}, file_launch(rows, per_file))) + "."]
        text = markdown(results, stats, header)
        if args.out_md:
            write_atomically(args.out_md, text)
        else:
            sys.stdout.write(text)
        if args.out_json:
            write_atomically(args.out_json, json.dumps(
                {"fit_n": fit_n, "summary": stats["terms"], "summary_stated": stats["stated"],
                 "terms": {a: t for a, t in terms.items() if a in apis},
                 "constants": {a: {"c_T_us": r["c_T_us"], "c_I_us": r["c_I_us"]}
                               for a, r in results["terms"].items()},
                 "constants_stated": {a: {"c_T_us": r["c_T_us"], "c_I_us": r["c_I_us"]}
                                      for a, r in results["stated"].items()},
                 "rows": [dict(r) for res in results["terms"].values() for r in res["rows"]]},
                indent=1) + "\n")
    except (InputError, OSError) as e:
        print(f"agpu_model.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
