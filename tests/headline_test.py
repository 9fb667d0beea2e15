#!/usr/bin/env python3
"""Tests scripts/headline.py: README's headline table is the script's output
for the run folder its markers name (no number in it typed by hand); a table
that differs is exit 1 naming the line; bad input is one line and exit 2."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SCRIPT = os.path.join(REPO, "scripts", "headline.py")
README = os.path.join(REPO, "README.md")


def headline(*args, cwd=REPO):
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=120)


def readme_run():
    with open(README, encoding="utf-8") as f:
        return re.search(r"^<!-- headline: (\S+) -->$", f.read(), re.M).group(1)


class Headline(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="headline_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_the_readme_table_is_the_runs(self):
        r = headline(readme_run(), "--check", README)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_changed_number_is_found(self):
        with open(README, encoding="utf-8") as f:
            text = f.read()
        m = re.search(r"^\| matrixMul tile16, n=4096 \| ([0-9.]+) ms", text, re.M)
        changed = text[:m.start(1)] + f"{float(m.group(1)) + 0.01:.2f}" + text[m.end(1):]
        readme = os.path.join(self.tmp, "README.md")
        with open(readme, "w", encoding="utf-8") as f:
            f.write(changed)
        # The markers name the folder relative to the README: a copy beside it.
        shutil.copytree(os.path.join(REPO, readme_run()), os.path.join(self.tmp, readme_run()),
                        ignore=shutil.ignore_patterns("*.png", "*.tar.xz", "*.log"))
        r = headline(os.path.join(self.tmp, readme_run()), "--check", readme)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("| matrixMul tile16, n=4096 |", r.stderr)
        self.assertIn("should:", r.stderr)

    def test_bad_input_is_one_line_and_exit_2(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        no_row = os.path.join(self.tmp, "no-row")
        os.makedirs(no_row)
        with open(os.path.join(no_row, "matrixmul.json"), "w", encoding="utf-8") as f:
            json.dump({"context": {}, "benchmarks": []}, f)
        no_markers = os.path.join(self.tmp, "plain.md")
        with open(no_markers, "w", encoding="utf-8") as f:
            f.write("# no table\n")
        for args, says in (([os.path.join(self.tmp, "absent")], "no such folder"),
                           ([empty], "matrixmul.json"),
                           ([no_row], "no benchmark matrixMul/cuda/tile16/n:4096"),
                           ([readme_run(), "--check", no_markers], "markers")):
            with self.subTest(args=args):
                r = headline(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(says, r.stderr)


if __name__ == "__main__":
    unittest.main()
