"""What the scripts that run an outside program beside gpucmp share
(jacobi_reference.py: NVIDIA's multi-GPU Jacobi; rodinia_heartwall.py:
Rodinia's heartwall): a SIGTERM stops the runs but keeps what finished, and
the JSON is written atomically once, at the end, whatever happened; each
program runs in a process group of its own (run_program), and an error row
keeps the tail of its output.

    with reference_runs.Runs(NAME, args.out, doc, rows) as runs:
        ... append a row per run to rows ...
    return runs.summary()

Inside the block SIGTERM raises Stopped (a child running then is killed by
the script's own handler of Stopped); on leaving it, doc["rows"] is the rows,
doc["partial"] says where a SIGTERM stopped them, and doc is written to out
(a failure to write: one line, exit 2). summary() says how many runs failed
and returns the exit code: 143 after a SIGTERM, else 1 when a row is an error
row, else 0."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import cli_args
import gbench_json

SIGTERM_RC = 128 + signal.SIGTERM
TAIL_LINES = 12
TAIL_CHARS = 2000


class Stopped(Exception):
    """SIGTERM arrived: the rows so far are written, marked partial."""


def _stop(signum, _frame):
    raise Stopped(signal.Signals(signum).name)


class Runs:
    def __init__(self, tool, out, doc, rows, complete=None):
        """`complete(doc)`, once the rows are in doc: adds what is made of them
        and says whether there is a document to write (default: always)."""
        self.tool, self.out, self.doc, self.rows = tool, out, doc, rows
        self.complete = complete or (lambda _doc: True)
        self.rc = 0

    def say(self, message):
        print(f"{self.tool}: {message}", file=sys.stderr, flush=True)

    def __enter__(self):
        signal.signal(signal.SIGTERM, _stop)
        return self

    def __exit__(self, kind, error, _traceback):
        stopped = kind is not None and issubclass(kind, Stopped)
        if stopped:
            self.doc["partial"] = f"stopped by {error} after {len(self.rows)} runs"
            self.say(self.doc["partial"])
            self.rc = SIGTERM_RC
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        self.doc["rows"] = self.rows
        if self.complete(self.doc):
            try:
                gbench_json.write_atomically(self.out, json.dumps(self.doc, indent=1) + "\n")
            except OSError as e:
                cli_args.fail(self.tool, f"--out {self.out}: cannot write ({e.strerror or e})")
        return stopped

    def summary(self):
        errors = sum(1 for r in self.rows if "error" in r)
        self.say(f"wrote {self.out}: {len(self.rows)} runs, {errors} failed")
        return self.rc or (1 if errors else 0)


def run_program(tool, cmd, cwd, env, timeout):
    """(exit code, output, seconds) of a command in its own process group; at the
    timeout (exit code 124) or at SIGTERM (Stopped raised again) the group is
    killed, mpirun's ranks with it."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace",
                                start_new_session=True)
    except OSError as e:
        return 127, f"cannot run {cmd[0]}: {e.strerror or e}", 0.0
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return 124, (out or "") + f"\n{tool}: no result within {timeout} s: killed", 0.0
    except Stopped:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise


def tail(text):
    """The last lines of a program's output, for an error row."""
    lines = [line.rstrip() for line in (text or "").splitlines() if line.strip()]
    return "\n".join(lines[-TAIL_LINES:])[-TAIL_CHARS:] or "(no output)"


def first_line(text, pattern):
    """The first line of `text` matching `pattern`, stripped; None where none does."""
    return next((line.strip() for line in (text or "").splitlines() if re.search(pattern, line)),
                None)


def check_run_options(args, fail):
    """The options every outside-program runner takes: --repetitions and
    --run-timeout at least 1, --out a file in an existing folder, --build-dir
    (where given) a folder or nothing yet; fail(message) on the first wrong."""
    if args.repetitions < 1:
        fail(f"--repetitions: {args.repetitions}: at least 1")
    if args.run_timeout < 1:
        fail(f"--run-timeout: {args.run_timeout}: at least 1 second")
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        fail(f"--out {args.out}: no folder {folder}")
    if os.path.isdir(args.out):
        fail(f"--out {args.out}: is a folder")
    if args.build_dir is not None and os.path.exists(args.build_dir) and \
            not os.path.isdir(args.build_dir):
        fail(f"--build-dir {args.build_dir}: not a folder")
