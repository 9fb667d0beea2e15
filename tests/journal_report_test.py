#!/usr/bin/env python3
"""Tests scripts/journal_report.py: a report from the journal of a run that
stopped before writing its own (the rows it finished, a cut last line left
out, the context marked partial), and bad input as one line and exit 2 with
nothing written over."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "journal_report.py")

CONTEXT = {"date": "2026-11-26", "gpucmp.revision": "abc1234"}
ROW = {"name": "triad/cuda/base/n:1024/iterations:1/manual_time", "run_type": "iteration",
       "real_time": 1.5, "time_unit": "us"}


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          timeout=60)


def write_journal(folder, lines):
    path = os.path.join(folder, "part.json.journal.jsonl")
    with open(path, "w") as f:
        f.write("".join(lines))
    return path


class JournalReport(unittest.TestCase):
    def test_finished_rows_become_a_report_marked_partial(self):
        folder = tempfile.mkdtemp()
        journal = write_journal(folder, [json.dumps({"context": CONTEXT}) + "\n",
                                         json.dumps(ROW) + "\n", '{"name": "cut by the ki'])
        r = run(journal, "--remove")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 line(s) cut", r.stderr)
        with open(os.path.join(folder, "part.json")) as f:
            report = json.load(f)
        self.assertEqual(report["benchmarks"], [ROW])
        self.assertEqual(report["context"]["gpucmp.revision"], "abc1234")
        self.assertIn("recovered from part.json.journal.jsonl", report["context"]["gpucmp.partial"])
        self.assertIn("1 rows", report["context"]["gpucmp.partial"])
        self.assertFalse(os.path.exists(journal))

    def test_bad_input_is_one_line_and_exit_2(self):
        folder = tempfile.mkdtemp()
        no_context = write_journal(tempfile.mkdtemp(), [json.dumps(ROW) + "\n"])
        good = write_journal(folder, [json.dumps({"context": CONTEXT}) + "\n"])
        complete = os.path.join(folder, "part.json")
        with open(complete, "w") as f:
            f.write('{"context": {}, "benchmarks": []}\n')
        cases = [[os.path.join(folder, "missing.journal.jsonl")], [no_context],
                 [good],                                   # its report exists and is valid
                 [os.path.join(folder, "other.jsonl")],    # not named <report>.journal.jsonl
                 []]
        with open(os.path.join(folder, "other.jsonl"), "w") as f:
            f.write(json.dumps({"context": CONTEXT}) + "\n")
        for args in cases:
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertTrue(r.stderr.startswith("journal_report: error: "), r.stderr)
        with open(complete) as f:
            self.assertEqual(f.read(), '{"context": {}, "benchmarks": []}\n')
        self.assertTrue(os.path.exists(good))


if __name__ == "__main__":
    unittest.main()
