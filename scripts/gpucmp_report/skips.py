"""What REPORT.md says about benchmarks that left no row (scripts/report.py).

gpucmp-bench writes no row for a skipped benchmark (its API has no device, or
the device cannot run the variant); the JSON context lists it instead
(gpucmp.skipped_benchmarks, reasons per API in gpucmp.skipped), and a run cut
short by a signal says so in gpucmp.partial. Older files had a skipped row
instead, which report.py lists with the errors; this module adds the context's
skips, grouped by API and reason with their counts, and words the heading of
the partial files."""
import gbench_json  # scripts/gbench_json.py: the skip-list reader shared with compare/merge

LISTED = 8  # names shown per reason; the rest are counted (as the error table does)
# The note gpucmp-bench writes into gpucmp.partial when a signal stops the run.
INTERRUPTED = "interrupted by "
PARTIAL_STOPPED = "Partial files (a run stopped by its timeout; only complete benchmarks kept):"
PARTIAL_INTERRUPTED = ("Partial files (a run interrupted by a signal or its timeout; only "
                       "complete benchmarks kept):")
# The note scripts/journal_report.py writes: the process died before its report.
RECOVERED = "recovered from "
PARTIAL_RECOVERED = ("Partial files (a run that stopped before writing its report; the rows "
                     "that finished, recovered from its journal):")


def partial_heading(notes):
    """The heading over the partial files' notes: older files' notes describe a
    run stopped by its timeout (by hand); gpucmp-bench's own note says
    "interrupted by SIG...", which a timeout's SIGTERM writes too;
    journal_report.py's "recovered from <journal>" a process that died first."""
    if any(note.startswith(RECOVERED) for note in notes):
        return PARTIAL_RECOVERED
    if any(INTERRUPTED in note for note in notes):
        return PARTIAL_INTERRUPTED
    return PARTIAL_STOPPED


def measured_name(key, jit_part):
    """The gpucmp name of a report key (report.py appends jit_part to some)."""
    suffix = "/" + jit_part
    return gbench_json.gpucmp_name(key[: -len(suffix)] if key.endswith(suffix) else key)


def skipped_groups(contexts, row_keys, jit_part):
    """[(api, reason, [names])] of the benchmarks the files' contexts list as
    skipped and no file has a row for (a later file's reason wins).

    contexts: [(path, context, rows)] in file order; row_keys: report.py's keys
    of every row, measured or not."""
    with_row = {measured_name(k, jit_part) for k in row_keys}
    reasons = {}  # name -> reason
    for _, context, _ in contexts:
        reasons.update(gbench_json.context_skips(context))
    groups = {}
    for name in sorted(reasons):
        if name not in with_row:
            groups.setdefault((gbench_json.api_of(name), reasons[name]), []).append(name)
    return [(api, reason, names) for (api, reason), names in groups.items()]


def skipped_table(groups, api_order, api_label, md_table):
    """Markdown lines: one row per API and reason, with its count and first names."""
    order = {api: i for i, api in enumerate(api_order)}
    rows = []
    for api, reason, names in sorted(groups, key=lambda g: (order.get(g[0], len(order)),
                                                           g[0], g[1])):
        shown = ", ".join(f"`{n}`" for n in names[:LISTED])
        more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
        rows.append((api_label.get(api, api), reason.replace("|", "\\|"), len(names),
                     shown + more))
    return (["Skipped (no row; the files' contexts list them in gpucmp.skipped_benchmarks):", ""]
            + md_table(["API", "reason", "benchmarks", "names"], rows, right=(2,)))
