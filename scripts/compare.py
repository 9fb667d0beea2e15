#!/usr/bin/env python3
"""Compares two benchmark result files and says whether the contender regressed.

Reads gpucmp-bench JSON or any Google Benchmark JSON. Benchmarks are matched by
name (the run name: repetitions of one benchmark are its samples). Noise-aware:
when both sides have at least 5 samples (repetitions) a two-sided Mann-Whitney
U test decides whether the difference is real (exact distribution for up to 10
samples a side, normal approximation with tie correction above); with fewer
samples only the relative change of the medians is compared with the threshold.
A benchmark regressed when its median got worse by more than the threshold and,
where the U test was used, p < alpha. A contender row that failed (error) where
the baseline ran is a regression too. A skipped benchmark (an API without a
device, a variant the device cannot run) is shown as skipped with its reason,
never compared: older gpucmp-bench files have a skipped row for it, newer ones
list it in the context (gpucmp.skipped_benchmarks, reasons in gpucmp.skipped).

usage: scripts/compare.py BASELINE.json CONTENDER.json [--threshold 0.05]
           [--alpha 0.05] [--metric real_time|cpu_time|COUNTER] [--filter REGEX]
           [--higher-is-better|--lower-is-better] [--ignore-iterations]
           [--require-all] [--json OUT]
exit: 0 no regression; 1 regression beyond the threshold (or a contender error);
      2 bad or mismatched input (unreadable file, no names in common, bad options)
"""
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The shared reader and writer of result files, and the U test; their names stay
# importable from here (compare.load, compare.context_skips, compare.mann_whitney_u...).
import cli_args  # noqa: E402
from gbench_json import (  # noqa: E402,F401
    GBENCH_NAME_PART, ITERATIONS, NO_TIME_AGGREGATES, PARTIAL_KEY, SKIP_API, SKIP_REASON_END,
    SKIPPED_COUNT_KEY, SKIPPED_KEY, SKIPPED_NAMES_KEY, SKIPPED_NAMES_SEP, TIME_METRICS,
    TIME_UNITS_NS, InputError, api_of, context_skips, gpucmp_name, load, parse_skip_summary,
    plural_benchmarks, reason_of_api, samples, skip_entry, skip_summary_text, skipped_names,
    value_of, write_atomically)
from mann_whitney import EXACT_MAX_SAMPLES, _exact_p, mann_whitney_u, rank  # noqa: E402,F401

MIN_SAMPLES_FOR_TEST = 5   # both sides need this many samples for the U test
RATE_COUNTERS = {"bytes_per_second", "items_per_second", "pct_peak"}
# Context keys naming the device (or its driver): a difference is worth a warning.
DEVICE_KEY = re.compile(r"(^|[._])(device|gpu|device_name|gpu_name|driver)$", re.IGNORECASE)
# Options gpucmp-bench added to every OpenCL build (--cl-build-options): files
# built with other options are a cross-run, not the same code.
BUILD_OPTIONS_KEY = "opencl.user_build_options"
# When OpenCL rows set their kernels' arguments (--cl-kernel-args): files that
# differ in it are a cross-run. Files from before the option set every argument
# before every launch: absent reads as "every".
KERNEL_ARGS_KEY = "opencl.kernel_args"
ONLY_IN_SHOWN = 10  # names only in one file printed per side (--json lists all)


def fail(message):
    cli_args.fail("compare", message)


# ---------------------------------------------------------------- metrics


def higher_is_better_default(metric):
    m = metric.lower()
    return m.endswith("/s") or m in RATE_COUNTERS or m.endswith("per_second") or m.endswith("flops")


# ---------------------------------------------------------------- comparison


def verdict_of(base, cont, args, higher_better):
    """Compares two sample lists: dict with medians, change, p, test and verdict."""
    mb, mc = statistics.median(base), statistics.median(cont)
    if mb != 0:
        change = (mc - mb) / abs(mb)
    else:
        change = 0.0 if mc == 0 else math.copysign(math.inf, mc)
    worse = -change if higher_better else change  # > 0: the contender is worse
    out = {"baseline_median": mb, "contender_median": mc, "baseline_n": len(base),
           "contender_n": len(cont), "change": change, "p_value": None}
    if len(base) >= MIN_SAMPLES_FOR_TEST and len(cont) >= MIN_SAMPLES_FOR_TEST:
        _, p, method = mann_whitney_u(base, cont)
        out["p_value"] = p
        out["test"] = f"mann-whitney ({method})"
        significant = p < args.alpha
    else:
        out["test"] = "threshold"
        significant = True
    if significant and worse > args.threshold:
        out["verdict"] = "REGRESSION"
    elif significant and -worse > args.threshold:
        out["verdict"] = "improvement"
    else:
        out["verdict"] = "same"
    return out


def context_warnings(base_ctx, cont_ctx, base_path, cont_path):
    warnings = []
    for key in sorted(set(base_ctx) & set(cont_ctx)):
        if DEVICE_KEY.search(key) and base_ctx[key] != cont_ctx[key]:
            what = "driver" if key.lower().endswith("driver") else "GPU"
            warnings.append(f"different {what}: context '{key}' is '{base_ctx[key]}' in "
                            f"{base_path} but '{cont_ctx[key]}' in {cont_path}")
    base_opts, cont_opts = base_ctx.get(BUILD_OPTIONS_KEY, ""), cont_ctx.get(BUILD_OPTIONS_KEY, "")
    if base_opts != cont_opts:
        warnings.append(f"different OpenCL build options (--cl-build-options): "
                        f"'{base_opts or 'none'}' in {base_path} but '{cont_opts or 'none'}' "
                        f"in {cont_path}: its OpenCL rows are a cross-run")
    if all(any(k.startswith("opencl.") for k in ctx) for ctx in (base_ctx, cont_ctx)):
        base_args = base_ctx.get(KERNEL_ARGS_KEY, "every")
        cont_args = cont_ctx.get(KERNEL_ARGS_KEY, "every")
        if base_args != cont_args:
            warnings.append(f"OpenCL kernel arguments set differently (--cl-kernel-args): "
                            f"'{base_args}' in {base_path} but '{cont_args}' in {cont_path}: "
                            f"its OpenCL rows are a cross-run")
    # A run cut short lacks the benchmarks it did not reach: "only in" says why.
    for path, ctx in ((base_path, base_ctx), (cont_path, cont_ctx)):
        if isinstance(ctx.get(PARTIAL_KEY), str) and ctx[PARTIAL_KEY].strip():
            warnings.append(f"{path} is partial: {ctx[PARTIAL_KEY].strip()}")
    return warnings


def with_context_skips(entries, context):
    """entries plus a skip_entry (keyed by its gpucmp name) for each benchmark the
    context lists as skipped and no row names."""
    named = {gpucmp_name(k) for k in entries}
    out = dict(entries)
    for name, reason in context_skips(context).items():
        if name not in named:
            out[name] = skip_entry(reason)
    return out


def partner_of(key, entry, other, other_rows_by_name):
    """The key in `other` that holds the same benchmark as (key, entry), or None:
    the same key, else (where one side's entry comes from its context's skip list)
    the same gpucmp name."""
    if key in other:
        return key
    if entry.get("from_context"):
        return other_rows_by_name.get(key)
    name = gpucmp_name(key)
    return name if other.get(name, {}).get("from_context") else None


def matched_keys(base, cont):
    """([(baseline key, contender key)] in baseline order, only in baseline, only in contender)."""
    cont_rows_by_name = {}
    for k, e in cont.items():
        if not e.get("from_context"):
            cont_rows_by_name.setdefault(gpucmp_name(k), k)
    pairs, only_base, taken = [], [], set()
    for key, entry in base.items():
        partner = partner_of(key, entry, cont, cont_rows_by_name)
        if partner is None or partner in taken:
            only_base.append(key)
        else:
            pairs.append((key, partner))
            taken.add(partner)
    return pairs, only_base, [k for k in cont if k not in taken]


def compare(args):
    """Returns (report dict, exit code); raises InputError on bad input."""
    base_ctx, base = load(args.baseline, args.ignore_iterations)
    cont_ctx, cont = load(args.contender, args.ignore_iterations)
    base = with_context_skips(base, base_ctx)
    cont = with_context_skips(cont, cont_ctx)
    if args.filter is not None:
        base = {k: v for k, v in base.items() if args.filter.search(k)}
        cont = {k: v for k, v in cont.items() if args.filter.search(k)}
    common, only_base, only_cont = matched_keys(base, cont)
    if not common:
        where = " (after --filter)" if args.filter is not None else ""
        hint = ""
        if not args.ignore_iterations:
            stripped = {ITERATIONS.sub("", k) for k in base}
            if any(ITERATIONS.sub("", k) in stripped for k in cont):
                hint = ("; some differ only in /iterations:N (--ignore-iterations matches "
                        "them)")
        raise InputError(f"no benchmark names in common{where} between {args.baseline} "
                         f"({len(base)} names) and {args.contender} ({len(cont)} names){hint}")
    metric = args.metric
    higher_better = (args.higher_is_better if args.higher_is_better is not None
                     else higher_is_better_default(metric))
    results = []
    without_metric = 0
    for base_key, cont_key in common:
        b, c = base[base_key], cont[cont_key]
        key = cont_key if b.get("from_context") else base_key  # the row's name, if any
        res = {"name": key}
        if b["skipped"] or c["skipped"]:
            side = ("both" if b["skipped"] and c["skipped"]
                    else "baseline" if b["skipped"] else "contender")
            res.update(verdict="skipped",
                       message=f"skipped in {side}: {b['skipped'] or c['skipped']}")
        elif c["error"] and not b["error"]:
            res.update(verdict="REGRESSION", test="error",
                       message=f"contender error (baseline ran): {c['error']}")
        elif b["error"]:
            res.update(verdict="error", message=(
                f"error on both sides: {c['error']}" if c["error"]
                else f"baseline error (contender ran): {b['error']}"))
        else:
            sb = samples(args.baseline, key, b, metric)
            sc = samples(args.contender, key, c, metric)
            if not sb and not sc:
                without_metric += 1
                continue
            if not sb or not sc:
                res.update(verdict="no metric", message=(
                    f"'{metric}' missing in {'baseline' if not sb else 'contender'}"))
            else:
                res.update(verdict_of(sb, sc, args, higher_better))
        results.append(res)
    if not results:
        raise InputError(f"metric '{metric}' is in none of the {len(common)} benchmarks in common")
    compared = [r for r in results if "change" in r]
    errors = sum(1 for r in results if r.get("test") == "error")
    summary = {
        "compared": len(compared),
        "regressions": sum(1 for r in results if r["verdict"] == "REGRESSION"),
        "contender_errors": errors,
        "improvements": sum(1 for r in results if r["verdict"] == "improvement"),
        "same": sum(1 for r in results if r["verdict"] == "same"),
        "skipped": sum(1 for r in results if r["verdict"] == "skipped"),
        "not_compared": sum(1 for r in results if r["verdict"] in ("error", "no metric")),
        "without_metric": without_metric,
        "only_in_baseline": len(only_base),
        "only_in_contender": len(only_cont),
    }
    code = 1 if summary["regressions"] else 0
    problems = []
    if args.require_all and (only_base or only_cont):
        problems.append(f"{len(only_base)} benchmarks only in baseline, {len(only_cont)} only "
                        "in contender (--require-all)")
        code = 2
    report = {
        "baseline": args.baseline, "contender": args.contender, "metric": metric,
        "unit": "ns" if metric in TIME_METRICS else metric, "higher_is_better": higher_better,
        "threshold": args.threshold, "alpha": args.alpha,
        "warnings": context_warnings(base_ctx, cont_ctx, args.baseline, args.contender),
        "benchmarks": results, "only_in_baseline": only_base, "only_in_contender": only_cont,
        "summary": summary, "errors": problems, "exit_code": code,
    }
    return report, code


def fmt_value(value, metric):
    if metric in TIME_METRICS:
        for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
            if abs(value) >= scale:
                return f"{value / scale:.4g} {unit}"
        return f"{value:.4g} ns"
    text = f"{value:.0f}" if abs(value) >= 1e4 else f"{value:.4g}"
    return f"{text} {metric}"


def fmt_change(change):
    return f"{change * 100:+.2f}%" if math.isfinite(change) else f"{'+' if change > 0 else '-'}inf"


def print_report(report, out=sys.stdout):
    metric = report["metric"]
    header = ("benchmark", "baseline", "contender", "change", "p-value", "test", "verdict")
    rows = []
    notes = []
    skips = {}  # message -> count: skips repeat one reason over many benchmarks
    for r in report["benchmarks"]:
        if "change" in r:
            rows.append((r["name"],
                         f"{fmt_value(r['baseline_median'], metric)} (n={r['baseline_n']})",
                         f"{fmt_value(r['contender_median'], metric)} (n={r['contender_n']})",
                         fmt_change(r["change"]),
                         "-" if r["p_value"] is None else f"{r['p_value']:.3g}",
                         r["test"], r["verdict"]))
        else:
            rows.append((r["name"], "-", "-", "-", "-", r.get("test", "-"), r["verdict"]))
            if r["verdict"] == "skipped":
                skips[r["message"]] = skips.get(r["message"], 0) + 1
            else:
                notes.append(f"  {r['name']}: {r['message']}")
    notes += [f"  {n} {'benchmark' if n == 1 else 'benchmarks'} {message}"
              for message, n in skips.items()]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    direction = "higher is better" if report["higher_is_better"] else "lower is better"
    print(f"{report['baseline']} -> {report['contender']}: median {metric} ({direction}), "
          f"threshold {report['threshold'] * 100:g}%, alpha {report['alpha']:g}", file=out)
    for row in [header, tuple("-" * w for w in widths), *rows]:
        cells = [str(c).ljust(w) if i in (0, 5, 6) else str(c).rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip(), file=out)
    if notes:
        print("notes:", file=out)
        for note in notes:
            print(note, file=out)
    for side in ("baseline", "contender"):
        names = report[f"only_in_{side}"]
        if names:
            print(f"only in {side} ({len(names)}):", file=out)
            for name in names[:ONLY_IN_SHOWN]:
                print(f"  {name}", file=out)
            if len(names) > ONLY_IN_SHOWN:
                print(f"  ... and {len(names) - ONLY_IN_SHOWN} more (--json OUT lists all)",
                      file=out)
    s = report["summary"]
    parts = [f"{s['compared']} compared", f"{s['regressions']} regressions",
             f"{s['improvements']} improvements"]
    if s["contender_errors"]:
        parts[1] += f" ({s['contender_errors']} of them contender errors)"
    for key, label in (("skipped", "skipped"), ("not_compared", "errors on the baseline side"),
                       ("without_metric", f"without '{metric}'"),
                       ("only_in_baseline", "only in baseline"),
                       ("only_in_contender", "only in contender")):
        if s[key]:
            parts.append(f"{s[key]} {label}")
    print(", ".join(parts), file=out)
    verdicts = {0: "no regression", 1: "REGRESSION", 2: "mismatched input"}
    print(f"result: {verdicts[report['exit_code']]} (exit {report['exit_code']})", file=out)


def json_safe(value):
    """The report with infinite changes (baseline median 0) as strings: valid JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value


# ---------------------------------------------------------------- command line


def parse_args(argv):
    p = cli_args.parser("compare", __doc__)
    p.add_argument("baseline", metavar="BASELINE.json")
    p.add_argument("contender", metavar="CONTENDER.json")
    p.add_argument("--threshold", type=float, default=0.05,
                   help="relative change of the median that counts (default 0.05 = 5%%)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the Mann-Whitney U test (default 0.05)")
    p.add_argument("--metric", default="real_time",
                   help="real_time (default; gpucmp: device time), cpu_time or a counter "
                        "name such as GB/s")
    p.add_argument("--filter", metavar="REGEX", help="compare only names matching REGEX")
    direction = p.add_mutually_exclusive_group()
    direction.add_argument("--higher-is-better", dest="higher_is_better", action="store_true",
                           default=None, help="the metric is a rate (default for names "
                           "ending in /s, *_per_second, pct_peak)")
    direction.add_argument("--lower-is-better", dest="higher_is_better", action="store_false",
                           help="the metric is a time or cost (default otherwise)")
    p.add_argument("--ignore-iterations", action="store_true",
                   help="match names with Google Benchmark's /iterations:N part removed")
    p.add_argument("--require-all", action="store_true",
                   help="names present in only one file are an error (exit 2)")
    p.add_argument("--json", metavar="OUT", help="also write the comparison as JSON to OUT")
    args = p.parse_args(argv)
    if not (math.isfinite(args.threshold) and args.threshold >= 0):
        fail(f"--threshold must be a number >= 0, not {args.threshold}")
    if not 0 < args.alpha < 1:
        fail(f"--alpha must be between 0 and 1, not {args.alpha}")
    if args.filter is not None:
        try:
            args.filter = re.compile(args.filter)
        except re.error as e:
            fail(f"--filter '{args.filter}' is not a valid regular expression ({e})")
    return args


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    args = parse_args(argv)
    try:
        report, code = compare(args)
    except InputError as e:
        fail(str(e))
    for warning in report["warnings"]:
        print(f"compare: warning: {warning}", file=sys.stderr)
    print_report(report)
    for problem in report["errors"]:
        print(f"compare: error: {problem}", file=sys.stderr)
    if args.json:
        try:
            write_atomically(args.json, json.dumps(json_safe(report), indent=2) + "\n")
        except OSError as e:
            fail(f"{args.json}: cannot write ({e.strerror or e})")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
