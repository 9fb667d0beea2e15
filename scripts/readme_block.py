"""A generated table in README.md, between the markers <!-- NAME: RUN_DIR ... -->
and <!-- /NAME -->: scripts/headline.py (NAME headline), scripts/passes_table.py
(NAME passes) and scripts/best_table.py (NAME best) print such a table from run
folders and check README's against their output, so that no number in it is
typed by hand. command() is their one command line."""
import os
import re
import sys

import cli_args
from gbench_json import InputError


def read(readme, name):
    """(the run folders the opening marker names, the lines between the markers)."""
    begin, end = re.compile(rf"^<!-- {re.escape(name)}: (.+) -->$"), f"<!-- /{name} -->"
    try:
        with open(readme, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError(f"{readme}: cannot read ({e.strerror or e})") from e
    for i, line in enumerate(lines):
        m = begin.match(line)
        if m and end in lines[i + 1:]:
            return m.group(1).split(), lines[i + 1:lines.index(end, i + 1)]
    raise InputError(f"{readme}: no '<!-- {name}: RUN_DIR ... -->' ... '{end}' markers")


def check(tool, readme, name, run_dirs, lines):
    """0 when README's table `name` names `run_dirs` (relative to README) and
    is `lines`; else 1, with one message on stderr naming the first
    difference. Raises InputError where README cannot be read or has no
    markers."""
    named, have = read(readme, name)
    base = os.path.dirname(os.path.abspath(readme))
    if [os.path.normpath(n) for n in named] != [
            os.path.normpath(os.path.relpath(d, base)) for d in run_dirs]:
        print(f"{tool}: {readme} names {' '.join(named)}, not {' '.join(run_dirs)}",
              file=sys.stderr)
        return 1
    for want, got in zip(lines + [""] * len(have), have + [""] * len(lines)):
        if want != got:
            print(f"{tool}: {readme} differs from {' '.join(run_dirs)}:\n  has:    {got}\n"
                  f"  should: {want}", file=sys.stderr)
            return 1
    return 0


def command(tool, doc, name, table, argv, one_run=False):
    """The command line of a table script `tool` (its usage `doc`): RUN_DIR
    (one_run) or RUN_DIR... [--check README]. Prints table(run_dirs), or checks
    README's block `name` against it (0 equal, 1 not); a missing folder or an
    InputError of table() is one line and exit 2."""
    p = cli_args.parser(tool, doc)
    p.add_argument("run_dirs", nargs=None if one_run else "+", metavar="RUN_DIR")
    p.add_argument("--check", metavar="README")
    args = p.parse_args(argv)
    run_dirs = [args.run_dirs] if one_run else args.run_dirs
    for d in run_dirs:
        if not os.path.isdir(d):
            cli_args.fail(tool, f"{d}: no such folder")
    try:
        lines = table(run_dirs[0] if one_run else run_dirs)
        if not args.check:
            print("\n".join(lines))
            return 0
        return check(tool, args.check, name, run_dirs, lines)
    except InputError as e:
        cli_args.fail(tool, str(e))
