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
import argparse
import json
import math
import os
import re
import statistics
import sys
import tempfile

MIN_SAMPLES_FOR_TEST = 5   # both sides need this many samples for the U test
EXACT_MAX_SAMPLES = 10     # exact U distribution when both sides have at most this many
TIME_UNITS_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
TIME_METRICS = ("real_time", "cpu_time")
RATE_COUNTERS = {"bytes_per_second", "items_per_second", "pct_peak"}
# Context keys naming the device (or its driver): a difference is worth a warning.
DEVICE_KEY = re.compile(r"(^|[._])(device|gpu|device_name|gpu_name|driver)$", re.IGNORECASE)
ONLY_IN_SHOWN = 10  # names only in one file printed per side (--json lists all)
ITERATIONS = re.compile(r"/iterations:\d+(?=/|$)")
# The parts Google Benchmark appends to a benchmark's own name (BenchmarkName::str()).
GBENCH_NAME_PART = re.compile(r"(iterations|repeats|threads|min_time|min_warmup_time):.*"
                              r"|manual_time|real_time|process_time")
# gpucmp-bench's context keys for benchmarks that left no row (harness/result_reporter.h).
SKIPPED_KEY = "gpucmp.skipped"                # "none", or "cuda: <why> (44 benchmarks); ..."
SKIPPED_COUNT_KEY = "gpucmp.skipped_count"    # "113"
SKIPPED_NAMES_KEY = "gpucmp.skipped_benchmarks"  # "a/cuda/x/n:1, a/cuda/y/n:1"
PARTIAL_KEY = "gpucmp.partial"                # only in a run cut short
SKIPPED_NAMES_SEP = ", "
# The end of one reason in gpucmp.skipped: its count, then the next reason (", "),
# the next API ("; ") or the end. Reasons hold parentheses, commas and colons of
# their own (driver messages), so the count is what delimits them.
SKIP_REASON_END = re.compile(r" \((\d+) benchmarks?\)(?=$|, |; )")
SKIP_API = re.compile(r"([^\s:;,()]+): ")
# Google Benchmark writes real_time in every row but these aggregates' (complexity fits).
NO_TIME_AGGREGATES = ("BigO", "RMS")


class InputError(Exception):
    """Bad or mismatched input: exit 2 with one line."""


def fail(message):
    print(f"compare: error: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- statistics


def rank(values):
    """Midranks (1-based) of values; ties share the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mann_whitney_u(x, y, exact=None):
    """Two-sided Mann-Whitney U test of samples x and y.

    Returns (U of x, p-value, method) with method "exact" or "normal". exact=None
    picks exact when both samples have at most EXACT_MAX_SAMPLES values. The exact
    p-value is the permutation distribution of the rank sum of x over the observed
    (mid)ranks, so it stays exact with ties; the normal approximation uses the tie
    corrected variance and a continuity correction of 0.5.
    """
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("Mann-Whitney U needs at least one value on each side")
    ranks = rank(list(x) + list(y))
    r1 = sum(ranks[:n1])
    u1 = r1 - n1 * (n1 + 1) / 2
    if exact is None:
        exact = n1 <= EXACT_MAX_SAMPLES and n2 <= EXACT_MAX_SAMPLES
    if exact:
        return u1, _exact_p(ranks, n1), "exact"
    n = n1 + n2
    mean = n1 * n2 / 2
    ties = {}
    for r in ranks:
        ties[r] = ties.get(r, 0) + 1
    tie_term = sum(t ** 3 - t for t in ties.values()) / (n * (n - 1)) if n > 1 else 0.0
    var = n1 * n2 / 12 * ((n + 1) - tie_term)
    if var <= 0:  # every value equal
        return u1, 1.0, "normal"
    z = max(abs(u1 - mean) - 0.5, 0.0) / math.sqrt(var)
    return u1, min(1.0, math.erfc(z / math.sqrt(2))), "normal"


def _exact_p(ranks, n1):
    """Two-sided p of the rank sum of the first n1 ranks under all C(n, n1) splits."""
    doubled = [int(round(2 * r)) for r in ranks]  # midranks are multiples of 1/2
    total = sum(doubled)
    # ways[k][s]: subsets of k of the ranks seen so far whose doubled sum is s
    ways = [[0] * (total + 1) for _ in range(n1 + 1)]
    ways[0][0] = 1
    for d in doubled:
        for k in range(n1, 0, -1):
            row, prev = ways[k], ways[k - 1]
            for s in range(total, d - 1, -1):
                if prev[s - d]:
                    row[s] += prev[s - d]
    dist = ways[n1]
    observed = sum(doubled[:n1])
    count = sum(dist)
    lower = sum(dist[: observed + 1])
    upper = sum(dist[observed:])
    return min(1.0, 2 * min(lower, upper) / count)


# ---------------------------------------------------------------- input


def higher_is_better_default(metric):
    m = metric.lower()
    return m.endswith("/s") or m in RATE_COUNTERS or m.endswith("per_second") or m.endswith("flops")


def load(path, ignore_iterations=False):
    """Reads a Google Benchmark JSON file: (context, {run name: entry}) in file order.

    An entry has rows (iteration rows), aggregates ({aggregate name: row}), error
    (message or None) and skipped (message or None).
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror or e})") from e
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError (binary data)
        raise InputError(f"{path}: not valid JSON ({e})") from e
    except RecursionError as e:
        raise InputError(f"{path}: not a Google Benchmark JSON report (nested too deeply)") from e
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise InputError(f"{path}: not a Google Benchmark JSON report (no \"benchmarks\" list)")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    entries = {}
    origin = {}  # name without /iterations:N -> the full name (--ignore-iterations)
    for i, row in enumerate(data["benchmarks"]):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise InputError(f"{path}: benchmarks[{i}] is not an object with a \"name\"")
        aggregate = row.get("aggregate_name")
        is_aggregate = row.get("run_type") == "aggregate" or (
            "run_type" not in row and isinstance(aggregate, str))
        key = row.get("run_name")
        if not isinstance(key, str):
            key = row["name"]
            if is_aggregate and isinstance(aggregate, str) and key.endswith("_" + aggregate):
                key = key[: -len(aggregate) - 1]
        if ignore_iterations:
            full, key = key, ITERATIONS.sub("", key)
            first = origin.setdefault(key, full)
            if first != full:
                raise InputError(f"{path}: '{first}' and '{full}' are the same benchmark "
                                 "once --ignore-iterations drops the iteration count")
        entry = entries.setdefault(key, {"rows": [], "aggregates": {}, "error": None,
                                         "skipped": None})
        message = str(row.get("error_message") or row.get("skip_message") or "")
        if row.get("skipped") is True or (row.get("error_occurred") is True
                                          and re.match(r"\s*skip", message, re.IGNORECASE)):
            entry["skipped"] = entry["skipped"] or message or "skipped"
        elif row.get("error_occurred") is True:
            entry["error"] = entry["error"] or message or "error_occurred"
        elif "real_time" not in row and aggregate not in NO_TIME_AGGREGATES:
            raise InputError(f"{path}: benchmarks[{i}] '{row['name']}' has no \"real_time\"")
        elif is_aggregate:
            entry["aggregates"][str(aggregate)] = row
        else:
            entry["rows"].append(row)
    return context, entries


# ---------------------------------------------------------------- gpucmp-bench's skip list


def gpucmp_name(key):
    """A run name without Google Benchmark's parts (/iterations:N, /repeats:N,
    /manual_time, ...): the name gpucmp-bench gave the benchmark, as its skip
    list writes it."""
    parts = key.split("/")
    return "/".join(parts[:1] + [p for p in parts[1:] if not GBENCH_NAME_PART.fullmatch(p)])


def plural_benchmarks(n):
    return f"{n} benchmark" if n == 1 else f"{n} benchmarks"


def parse_skip_summary(text):
    """[(api, reason, count)] of a gpucmp.skipped text, in its order; [] for "none";
    None where the text is not in gpucmp-bench's form."""
    if not isinstance(text, str):
        return None
    if text.strip() in ("", "none"):
        return []
    items, pos, api = [], 0, None
    while pos < len(text):
        if api is None or text.startswith("; ", pos):
            pos += 2 if api is not None else 0
            match = SKIP_API.match(text, pos)
            if not match:
                return None
            api, pos = match.group(1), match.end()
        elif text.startswith(", ", pos):
            pos += 2
        end = SKIP_REASON_END.search(text, pos)
        if not end or end.start() == pos:
            return None
        items.append((api, text[pos:end.start()], int(end.group(1))))
        pos = end.end()
    return items


def skip_summary_text(items):
    """The gpucmp.skipped text of [(api, reason, count)]: the inverse of
    parse_skip_summary (an api=None item is a text kept as it was)."""
    by_api = {}  # api -> ["reason (N benchmarks)"], first seen first
    for api, reason, count in items:
        if count > 0:
            by_api.setdefault(api, []).append(
                reason if api is None else f"{reason} ({plural_benchmarks(count)})")
    text = "; ".join(", ".join(reasons) if api is None else f"{api}: " + ", ".join(reasons)
                     for api, reasons in by_api.items())
    return text or "none"


def skipped_names(context):
    """The names in the context's gpucmp.skipped_benchmarks, in its order; [] without it."""
    text = context.get(SKIPPED_NAMES_KEY)
    if not isinstance(text, str):
        return []
    return list(dict.fromkeys(n.strip() for n in text.split(SKIPPED_NAMES_SEP) if n.strip()))


def api_of(name):
    parts = name.split("/")
    return parts[1] if len(parts) > 1 else ""


def reason_of_api(items, api, summary):
    """What a skipped benchmark of `api` is said to be skipped for. gpucmp.skipped
    counts reasons per API but does not say which benchmark had which: an API with
    several reasons gives all of them."""
    if items is None:  # not gpucmp-bench's form: the whole text is the best there is
        return summary.strip() if isinstance(summary, str) and summary.strip() else \
            "reason not recorded"
    reasons = [(reason, count) for a, reason, count in items if a == api]
    if len(reasons) == 1:
        return reasons[0][0]
    if not reasons:
        return "reason not recorded"
    return "one of: " + ", ".join(f"{r} ({plural_benchmarks(n)})" for r, n in reasons)


def context_skips(context):
    """{gpucmp name: reason} of the benchmarks the context lists as skipped
    (gpucmp-bench writes no row for them); {} for files without the keys."""
    summary = context.get(SKIPPED_KEY)
    items = parse_skip_summary(summary)
    return {name: reason_of_api(items, api_of(name), summary)
            for name in skipped_names(context)}


def skip_entry(reason):
    """A load() entry for a benchmark listed as skipped in the context."""
    return {"rows": [], "aggregates": {}, "error": None, "skipped": reason,
            "from_context": True}


# ---------------------------------------------------------------- values


def value_of(path, key, row, metric):
    """The metric of one row, times in ns; None where the row lacks it."""
    if metric not in row:
        return None
    value = row[metric]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{path}: '{key}': '{metric}' is not a finite number ({value!r})")
    if metric in TIME_METRICS:
        unit = row.get("time_unit", "ns")
        if not isinstance(unit, str) or unit not in TIME_UNITS_NS:
            raise InputError(f"{path}: '{key}': unknown time_unit '{unit}'")
        value *= TIME_UNITS_NS[unit]
    return float(value)


def samples(path, key, entry, metric):
    """Samples of the metric: the repetitions, else the median (or mean) aggregate."""
    if entry["rows"]:
        values = [value_of(path, key, r, metric) for r in entry["rows"]]
        return [v for v in values if v is not None]
    for name in ("median", "mean"):
        if name in entry["aggregates"]:
            v = value_of(path, key, entry["aggregates"][name], metric)
            return [] if v is None else [v]
    return []


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


# ---------------------------------------------------------------- output


def write_atomically(path, text):
    """Writes text to path through a temporary file beside it, renamed over path
    once complete: an error or an interruption leaves no partial file. Raises
    OSError. (merge_results.py, report.py and ncu_to_json.py write this way too.)"""
    folder = os.path.dirname(path) or "."
    fd, temp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".partial",
                                dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # mkstemp's 0600 is not a result file's mode
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


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


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 2, like the other input errors
        fail(f"{message} (see --help)")


def parse_args(argv):
    p = Parser(prog="compare.py", description=__doc__.split("\n\n")[0],
               epilog=__doc__[__doc__.index("exit:"):],
               formatter_class=argparse.RawDescriptionHelpFormatter)
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


def main(argv):
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
