#!/usr/bin/env python3
"""Tests scripts/passes_table.py: README's "as written / after gpucmp" table is
the script's output for the run folders its markers name (no number in it
typed by hand); a row made by gpucmp is named only where it beats the kernel
as written by more than 2%; the geometric mean is the rows'; a table that
differs is exit 1 naming the line; bad input is one line and exit 2."""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SCRIPT = os.path.join(REPO, "scripts", "passes_table.py")
README = os.path.join(REPO, "README.md")


def passes_table(*args, cwd=REPO):
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, capture_output=True,
                          text=True, check=False, timeout=120)


def readme_runs():
    with open(README, encoding="utf-8") as f:
        return re.search(r"^<!-- passes: (.+) -->$", f.read(), re.M).group(1).split()


def readme_rows():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("<!-- passes:"):text.index("<!-- /passes -->")]
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in block.splitlines()[3:] if line.startswith("|")]


class PassesTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="passes_table_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_the_readme_table_is_the_runs(self):
        r = passes_table(*readme_runs(), "--check", README)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_row_is_named_only_beyond_the_margin(self):
        for cells in readme_rows()[:-1]:
            for written, after in zip(cells[2::2], cells[3::2]):
                w, a = float(written), float(after.split()[0])
                with self.subTest(row=cells[0], written=written, after=after):
                    self.assertLessEqual(a, w)
                    if "`" in after:
                        self.assertLess(a, w * 0.98 + 0.006)  # two decimals shown
                    else:
                        self.assertEqual(a, w)

    def test_the_last_row_is_the_geometric_mean_of_the_rows(self):
        rows = readme_rows()
        body, geo = rows[:-1], rows[-1]
        self.assertEqual(geo[0], "geometric mean")
        for col in range(2, len(geo)):
            values = [float(cells[col].split()[0]) for cells in body]
            mean = math.exp(sum(math.log(v) for v in values) / len(values))
            self.assertAlmostEqual(float(geo[col]), mean, delta=0.01)

    def test_a_changed_number_is_found(self):
        with open(README, encoding="utf-8") as f:
            text = f.read()
        m = re.search(r"^\| cp unrollx8, fast math \| [^|]+ \| ([0-9.]+) \|", text, re.M)
        changed = text[:m.start(1)] + f"{float(m.group(1)) + 0.01:.2f}" + text[m.end(1):]
        readme = os.path.join(self.tmp, "README.md")
        with open(readme, "w", encoding="utf-8") as f:
            f.write(changed)
        for run in readme_runs():  # the markers name folders relative to the README
            shutil.copytree(os.path.join(REPO, run), os.path.join(self.tmp, run),
                            ignore=shutil.ignore_patterns("*.png", "*.tar.xz", "*.log"))
        r = passes_table(*[os.path.join(self.tmp, run) for run in readme_runs()],
                         "--check", readme)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("| cp unrollx8, fast math |", r.stderr)
        self.assertIn("should:", r.stderr)

    def test_bad_input_is_one_line_and_exit_2(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        no_row = os.path.join(self.tmp, "no-row")
        os.makedirs(no_row)
        with open(os.path.join(no_row, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump({"gpus": [{"name": "NVIDIA H200"}]}, f)
        with open(os.path.join(no_row, "matrixmul.json"), "w", encoding="utf-8") as f:
            json.dump({"context": {}, "benchmarks": []}, f)
        no_markers = os.path.join(self.tmp, "plain.md")
        with open(no_markers, "w", encoding="utf-8") as f:
            f.write("# no table\n")
        for args, says in (([os.path.join(self.tmp, "absent")], "no such folder"),
                           ([empty], "manifest.json"),
                           ([no_row], "no benchmark matrixMul/cuda/tile16/n:4096"),
                           ([*readme_runs(), "--check", no_markers], "markers")):
            with self.subTest(args=args):
                r = passes_table(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn(says, r.stderr)


if __name__ == "__main__":
    unittest.main()
