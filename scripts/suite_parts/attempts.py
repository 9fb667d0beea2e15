"""An earlier attempt at a part, kept before the part runs again.

A part that did not finish (the machine lost, the suite killed, a failed
exit) leaves what it made in the run's folder: its file (<part>.json, or a
tool's archive), gpucmp-bench's row journal (<file>.journal.jsonl) when the
process died before its report, and <part>.log. --resume runs such a part
again whole; before it does, the journal's finished rows become the earlier
file (journal_report.py, marked partial) and every file of the attempt moves
to <stem>.attempt-N<ext>, N the first number free, so that nothing a run
measured is overwritten and the report reads only the new, whole file."""
import os

import journal_report


def _aside_name(name, n):
    stem, dot, ext = name.partition(".")
    return f"{stem}.attempt-{n}{dot}{ext}"


def set_aside(out_dir, made, log_name):
    """Keeps the files an earlier attempt left (made: the part's file name);
    returns the lines that say what was kept, empty when there was none."""
    journal = made + journal_report.SUFFIX
    said = []
    if os.path.exists(os.path.join(out_dir, journal)):
        try:
            _, rows, cut = journal_report.recover(
                os.path.join(out_dir, journal), os.path.join(out_dir, made),
                "the part stopped before its report; run again")
            os.remove(os.path.join(out_dir, journal))
            said.append(f"{rows} finished rows of the earlier attempt recovered from {journal}"
                        f"{f' ({cut} cut lines left out)' if cut else ''}")
        except (journal_report.JournalError, OSError) as e:
            said.append(f"the earlier attempt's journal was not made a report ({e}): kept as is")
    names = [n for n in (made, journal, log_name) if os.path.exists(os.path.join(out_dir, n))]
    if not names:
        return said
    n = 1
    while any(os.path.exists(os.path.join(out_dir, _aside_name(x, n))) for x in names):
        n += 1
    for name in names:
        os.replace(os.path.join(out_dir, name), os.path.join(out_dir, _aside_name(name, n)))
    said.append("the earlier attempt kept as " + ", ".join(_aside_name(x, n) for x in names))
    return said
