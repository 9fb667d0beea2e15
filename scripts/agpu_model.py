#!/usr/bin/env python3
"""The AGPU cost model (Nakano et al., Hiroshima; issue 17) as a predictor:
fitted on one size, checked on every other.

The model describes a GPU by p (cores in all), b (a warp's threads, also the
block of global memory and the banks of shared memory, in words) and M (shared
memory of one multiprocessor, in words); gpucmp-bench records each API's in
its context (<api>.agpu.p, .b, .M_words; harness/agpu_parameters.h). An
algorithm is described by its time complexity T (steps of one core), its I/O
complexity I (global-memory blocks moved, all multiprocessors together) and its
multiplicity mu (threads per core, which hide the latency of global memory).
This module predicts a row's time as

    t = c_T * T + c_I * I / min(1, mu)

with two machine constants, c_T (us per step) and c_I (us per block), fitted
by least squares to the rows of one size (every algorithm and alpha of that
size, per API) and then used unchanged for every other size. The
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
constants are fitted on. Writes a Markdown table (measured, predicted, error
per row; the median absolute error of the predicted rows per API and size)
and, with --out-json, the same as JSON for dashboards. Exit 2 with one line on
unreadable input, rows without the model's parameters, or too few rows to fit.
"""
import argparse
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
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
                             f"{name}; recorded by gpucmp-bench since issue 17)") from None
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


def model_row(name, us, m):
    """The model's row of one measured benchmark (median time us) under machine m: a dict
    with api, row, n, alpha, us, T, I, mu; None where the model does not cover it."""
    got = covered(name)
    if got is None:
        return None
    workload, api, variant, n, alpha, params = got
    t, io, mu = complexities(workload, variant, n, alpha, m)
    label = f"{workload}/{variant}" + (f" alpha {alpha}" if alpha else "")
    if "type" in params:
        label += f" {params['type']}"
    return {"api": api, "row": label, "n": n, "alpha": alpha, "us": us, "T": t, "I": io,
            "mu": mu}


def collect_measured(measured):
    """The modelled rows of already-loaded results: measured is [(name, median us,
    context, path)], in the order of the rows; the machine of each row's API comes
    from its context (InputError naming the path where the parameters are missing)."""
    rows, machines = [], {}
    for name, us, context, path in measured:
        got = covered(name)
        if got is None:
            continue
        key = (path, got[1])
        if key not in machines:
            machines[key] = machine(context, got[1], path)
        rows.append(model_row(name, us, machines[key]))
    return rows


def collect(paths):
    """The modelled rows of every file: dicts with api, name, n, alpha, us, T, I, mu."""
    measured = []
    for path in paths:
        context, entries = load(path)
        for name, entry in entries.items():
            if entry["error"] or entry["skipped"] or not entry["rows"]:
                continue
            times = [r["real_time"] * US_PER_UNIT[r.get("time_unit", "ns")] for r in entry["rows"]]
            measured.append((name, statistics.median(times), context, path))
    rows = collect_measured(measured)
    if not rows:
        raise InputError(f"no reduce or scan rows the model covers in {', '.join(paths)}")
    return rows


def fit_size(rows, fit_n=None):
    """The size the constants are fitted on: fit_n, else the largest size with rows of
    every API (else the largest size)."""
    if fit_n is not None and fit_n <= 0:
        raise InputError(f"--fit-n {fit_n}: not a positive size")
    apis = {r["api"] for r in rows}
    common = [n for n in {r["n"] for r in rows}
              if all(any(r["n"] == n and r["api"] == a for r in rows) for a in apis)]
    return fit_n or (max(common) if common else max(r["n"] for r in rows))


def fit(rows):
    """(c_T, c_I) minimising the squared relative error of t = c_T T + c_I I / min(1, mu),
    both kept >= 0 (a negative constant is dropped and the other refitted)."""
    def design(r):
        return r["T"] / r["us"], r["I"] / min(1.0, r["mu"]) / r["us"]

    def one(k):
        num = sum(design(r)[k] for r in rows)
        den = sum(design(r)[k] ** 2 for r in rows)
        return num / den if den > 0 else 0.0

    s11 = sum(design(r)[0] ** 2 for r in rows)
    s22 = sum(design(r)[1] ** 2 for r in rows)
    s12 = sum(design(r)[0] * design(r)[1] for r in rows)
    y1 = sum(design(r)[0] for r in rows)
    y2 = sum(design(r)[1] for r in rows)
    det = s11 * s22 - s12 * s12
    if det > 1e-12 * max(s11 * s22, 1e-300):
        c_t, c_i = (y1 * s22 - y2 * s12) / det, (y2 * s11 - y1 * s12) / det
        if c_t >= 0 and c_i >= 0:
            return c_t, c_i
    best = min(((one(0), 0.0), (0.0, one(1))),
               key=lambda c: sum((c[0] * design(r)[0] + c[1] * design(r)[1] - 1) ** 2
                                 for r in rows))
    return best


def predict(rows, fit_n):
    """Per API: the constants fitted at fit_n, and every row with its prediction."""
    out = {}
    for api in sorted({r["api"] for r in rows}):
        mine = [r for r in rows if r["api"] == api]
        at_fit = [r for r in mine if r["n"] == fit_n]
        if len(at_fit) < 2:
            raise InputError(f"{api}: {len(at_fit)} row(s) at n {fit_n}; the two constants "
                             "need at least 2")
        c_t, c_i = fit(at_fit)
        for r in mine:
            r["predicted_us"] = c_t * r["T"] + c_i * r["I"] / min(1.0, r["mu"])
            r["error"] = r["predicted_us"] / r["us"] - 1
            r["fitted"] = r["n"] == fit_n
        out[api] = {"c_T_us": c_t, "c_I_us": c_i, "rows": mine}
    return out


def median_abs(rows):
    return statistics.median(abs(r["error"]) for r in rows) if rows else None


def summary(result, fit_n):
    """{api: {"all": median |error| of predicted rows, "by_n": {n: ...}}}."""
    out = {}
    for api, res in result.items():
        predicted = [r for r in res["rows"] if not r["fitted"]]
        sizes = sorted({r["n"] for r in predicted})
        out[api] = {"fit_n": fit_n, "median_abs_error": median_abs(predicted),
                    "by_n": {str(n): median_abs([r for r in predicted if r["n"] == n])
                             for n in sizes}}
    return out


def pct(x):
    return "-" if x is None else f"{x:.1%}"


def machine_text(api, m):
    return f"{api}: p {m['p']}, b {m['b']}, M {m['M']} words"


def fitted_text(fit_n, machine_texts):
    return f"Fitted at n = {fit_n}; machine parameters " + "; ".join(machine_texts) + "."


def markdown(result, stats, machines_text):
    lines = ["| API | c_T (ns per step) | c_I (ns per block) | median abs error, predicted rows |"
             " by size |", "|---|---|---|---|---|"]
    for api, res in result.items():
        by = ", ".join(f"2^{int(math.log2(int(n)))}: {pct(v)}"
                       for n, v in stats[api]["by_n"].items())
        lines.append(f"| {api} | {res['c_T_us'] * 1e3:.4g} | {res['c_I_us'] * 1e3:.4g} | "
                     f"{pct(stats[api]['median_abs_error'])} | {by} |")
    lines += ["", machines_text, "",
              "| API | row | n | multiplicity | measured (us) | predicted (us) | error |",
              "|---|---|---|---|---|---|---|"]
    for api, res in result.items():
        for r in sorted(res["rows"], key=lambda r: (r["row"], r["n"])):
            mark = " (fit)" if r["fitted"] else ""
            lines.append(f"| {api} | {r['row']} | 2^{int(math.log2(r['n']))}{mark} | "
                         f"{r['mu']:.3g} | {r['us']:.1f} | {r['predicted_us']:.1f} | "
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
        rows = collect(args.results)
        fit_n = fit_size(rows, args.fit_n)
        result = predict(rows, fit_n)
        stats = summary(result, fit_n)
        apis = {r["api"] for r in rows}
        contexts = [load(p)[0] for p in args.results]
        params = sorted({machine_text(a, machine(c, a, "")) for c in contexts for a in apis
                         if f"{a}.agpu.p" in c})
        text = markdown(result, stats, fitted_text(fit_n, params))
        if args.out_md:
            write_atomically(args.out_md, text)
        else:
            sys.stdout.write(text)
        if args.out_json:
            write_atomically(args.out_json, json.dumps(
                {"fit_n": fit_n, "summary": stats,
                 "constants": {a: {"c_T_us": r["c_T_us"], "c_I_us": r["c_I_us"]}
                               for a, r in result.items()},
                 "rows": [dict(r) for res in result.values() for r in res["rows"]]},
                indent=1) + "\n")
    except (InputError, OSError) as e:
        print(f"agpu_model.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
