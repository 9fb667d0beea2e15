"""Google Benchmark JSON as gpucmp's scripts read and write it: loading and
validating a result file (compare.py, report.py), gpucmp-bench's skip list in the
context (compare.py, merge_results.py, report.py), a row's metric in ns, and
writing an output file atomically (compare.py, merge_results.py, report.py,
ncu_to_json.py). Imported from scripts/ (the scripts put their own folder on
sys.path)."""
import json
import math
import os
import re
import tempfile

TIME_UNITS_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
TIME_METRICS = ("real_time", "cpu_time")
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
    """Unreadable or malformed input: the scripts exit 2 with one line."""


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


# ---------------------------------------------------------------- output


def _link_target(path):
    """path with every symbolic link followed (a dangling link names the file to
    create; the link itself stays). Raises OSError for a loop of links."""
    for _ in range(40):
        if not os.path.islink(path):
            return path
        link = os.readlink(path)
        path = link if os.path.isabs(link) else os.path.join(os.path.dirname(path), link)
    raise OSError(40, os.strerror(40), path)  # ELOOP


def write_atomically(path, text):
    """Writes text to path so that nothing is lost: a regular file (or a new one)
    is written to a temporary file beside it, renamed over it once complete (an
    error or an interruption leaves the old file and no partial one); a
    symbolic link is followed and its target written by these rules; anything
    else (a device such as /dev/null, a FIFO) is written in place, since a file
    renamed over it would replace it. Raises OSError (a failed write or close
    included). (merge_results.py, report.py and ncu_to_json.py write this way too.)"""
    target = _link_target(path)
    if os.path.isdir(target):
        raise IsADirectoryError(21, os.strerror(21), path)
    if os.path.exists(target) and not os.path.isfile(target):
        with open(target, "w", encoding="utf-8") as f:  # no O_CREAT effect: it exists
            f.write(text)
        return
    folder = os.path.dirname(target) or "."
    fd, temp = tempfile.mkstemp(prefix=os.path.basename(target) + ".", suffix=".partial",
                                dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            mode = os.stat(target).st_mode & 0o7777  # the replaced file's mode
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # mkstemp's 0600 is not a result file's mode
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
