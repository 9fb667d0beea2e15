#!/usr/bin/env python3
"""Makes a JSON report from the journal of a gpucmp-bench run that stopped before
writing its report (killed, crashed, the machine lost): every row whose
benchmark finished is there.

gpucmp-bench --benchmark_out=F (JSON) keeps F.journal.jsonl while it runs: its
first line {"context": ...}, then one line per finished run, each on disk as
soon as the run ends; the journal is removed once F is written whole. A line
cut by the kill is left out (said on stderr). The report's context gets
"gpucmp.partial": where it was recovered from and how many rows it holds, so
that no reader takes it for a complete run.

usage: scripts/journal_report.py JOURNAL [-o REPORT] [--remove]
  REPORT defaults to the journal's report (JOURNAL without .journal.jsonl);
  an existing REPORT is refused (a complete report is never replaced by a
  recovered one) unless it is not valid JSON. --remove deletes the journal
  once the report is written.
exit: 0 written; 2 bad input (no journal, no context line, REPORT exists)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cli_args  # noqa: E402

SUFFIX = ".journal.jsonl"


class JournalError(Exception):
    pass


def read(journal):
    """(context, rows, cut lines) of a journal."""
    try:
        with open(journal, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise JournalError(f"{journal}: cannot read ({e.strerror or e})") from e
    entries, cut = [], 0
    for line in lines:
        if not line.strip():
            continue
        try:
            entries.append(json.loads(line))
        except ValueError:
            cut += 1
    if not entries or not isinstance(entries[0], dict) or "context" not in entries[0]:
        raise JournalError(f"{journal}: no context line first: not a gpucmp-bench journal")
    rows = [e for e in entries[1:] if isinstance(e, dict) and "name" in e]
    return entries[0]["context"], rows, cut


def _valid_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f)
        return True
    except (OSError, ValueError):
        return False


def recover(journal, report=None, why="the run stopped before its report"):
    """Writes the report of `journal`; returns (report path, rows, cut lines)."""
    if report is None:
        if not journal.endswith(SUFFIX):
            raise JournalError(f"{journal}: not named <report>{SUFFIX}: name the report with -o")
        report = journal[: -len(SUFFIX)]
    if os.path.exists(report) and _valid_json(report):
        raise JournalError(f"{report}: exists and is a valid report: not replaced")
    context, rows, cut = read(journal)
    context = dict(context)
    context["gpucmp.partial"] = (
        f"recovered from {os.path.basename(journal)} ({why}): {len(rows)} rows of benchmarks "
        "that finished; the rest did not run")
    text = json.dumps({"context": context, "benchmarks": rows}, indent=2) + "\n"
    partial = f"{report}.partial-{os.getpid()}"
    with open(partial, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, report)
    return report, len(rows), cut


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    p = cli_args.parser("journal_report", __doc__)
    p.add_argument("journal")
    p.add_argument("-o", dest="report")
    p.add_argument("--remove", action="store_true")
    args = p.parse_args(argv)
    try:
        report, rows, cut = recover(args.journal, args.report)
    except JournalError as e:
        cli_args.fail("journal_report", str(e))
    if cut:
        print(f"journal_report: {cut} line(s) cut by the stop left out", file=sys.stderr)
    if args.remove:
        os.remove(args.journal)
    print(f"journal_report: wrote {report} ({rows} rows)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
