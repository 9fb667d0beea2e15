#!/usr/bin/env python3
"""Tests README's generated tables: scripts/headline.py (<!-- headline: -->),
scripts/passes_table.py (<!-- passes: -->) and, where README has it,
scripts/best_table.py (<!-- best: -->). Each table is its script's
output for the run folders its markers name (no number in it typed by hand);
a changed number is exit 1 naming the line; bad input is one line and exit 2.
passes_table also: a row gpucmp made is named only where it beats the kernel
as written by more than 2%, and the last row is the rows' geometric mean.
best_table: its block, made from the committed suite runs in a README of its
own, checks equal, and a changed number or another run named is found; each
GPU's last row is the geometric mean of its rows with one math on both APIs."""
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
README = os.path.join(REPO, "README.md")


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(REPO, "scripts", script), *args],
                          cwd=REPO, capture_output=True, text=True, check=False, timeout=120)


def readme_runs(name):
    with open(README, encoding="utf-8") as f:
        return re.search(rf"^<!-- {name}: (.+) -->$", f.read(), re.M).group(1).split()


def table_rows(name):
    with open(README, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index(f"<!-- {name}:"):text.index(f"<!-- /{name} -->")]
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in block.splitlines()[3:] if line.startswith("|")]


class Tables(unittest.TestCase):
    # (script, marker name, a row's pattern whose first number group is changed)
    CASES = [("headline.py", "headline", r"^\| matrixMul tile16, n=4096 \| ([0-9.]+) ms"),
             ("passes_table.py", "passes", r"^\| cp unrollx8, fast math \| [^|]+ \| ([0-9.]+) \|")]

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="readme_tables_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_each_readme_table_is_its_runs(self):
        for script, name, _ in self.CASES:
            with self.subTest(script=script):
                r = run(script, *readme_runs(name), "--check", README)
                self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_changed_number_is_found(self):
        with open(README, encoding="utf-8") as f:
            text = f.read()
        for script, name, pattern in self.CASES:
            with self.subTest(script=script):
                m = re.search(pattern, text, re.M)
                changed = text[:m.start(1)] + f"{float(m.group(1)) + 0.01:.2f}" + text[m.end(1):]
                readme = os.path.join(self.tmp, f"{name}.md")
                with open(readme, "w", encoding="utf-8") as f:
                    f.write(changed)
                for d in readme_runs(name):  # the markers name folders relative to the README
                    if not os.path.isdir(os.path.join(self.tmp, d)):
                        shutil.copytree(os.path.join(REPO, d), os.path.join(self.tmp, d),
                                        ignore=shutil.ignore_patterns("*.png", "*.tar.xz",
                                                                      "*.log"))
                r = run(script, *[os.path.join(self.tmp, d) for d in readme_runs(name)],
                        "--check", readme)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(m.group(0)[:20], r.stderr)
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
        for script, name, _ in self.CASES:
            empty_says = "manifest.json" if name == "passes" else "matrixmul.json"
            for args, says in (([os.path.join(self.tmp, "absent")], "no such folder"),
                               ([empty], empty_says),
                               ([no_row], "no benchmark matrixMul/cuda/tile16/n:4096"),
                               ([*readme_runs(name), "--check", no_markers], "markers")):
                with self.subTest(script=script, args=args):
                    r = run(script, *args)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                    self.assertIn(says, r.stderr)

    def test_a_passes_row_is_named_only_beyond_the_margin(self):
        for cells in table_rows("passes")[:-1]:
            for written, after in zip(cells[2::2], cells[3::2]):
                w, a = float(written), float(after.split()[0])
                with self.subTest(row=cells[0], written=written, after=after):
                    self.assertLessEqual(a, w)
                    if "`" in after:
                        self.assertLess(a, w * 0.98 + 0.006)  # two decimals shown
                    else:
                        self.assertEqual(a, w)

    def test_each_pair_takes_the_new_forms_as_candidates(self):
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        import passes_table  # noqa: E402
        candidates = {variant: {c for _, _, c in cands}
                      for _, _, _, variant, cands in passes_table.ROWS}
        self.assertLessEqual({"unrollx8-ieee-byvalue", "unrollx8-ieee-prefetch"},
                             candidates["unrollx8-ieee"])
        self.assertLessEqual({"unrollx8-fast-byvalue", "unrollx8-fast-prefetch",
                              "unrollx8-fast-ptx-ftz", "unrollx8-fast-byvalue-ptx-ftz"},
                             candidates["unrollx8-fast"])
        self.assertLessEqual({"precise-prefetch", "precise-byvalue"}, candidates["precise"])
        self.assertIn("pipeline-regcap40", candidates["pipeline"])
        for label, _, pattern, _variant, cands in passes_table.ROWS:
            if pattern.startswith(("mriq/", "mrifhd/")):
                with self.subTest(row=label):
                    self.assertIn(("parboil", pattern, "precise-prefetch"), cands)
                    self.assertIn(("parboil", pattern, "precise-byvalue"), cands)

    def test_a_candidate_counts_only_in_a_run_that_holds_it(self):
        # A run with cp's fast by-value row at half OpenCL's time as written and
        # its IEEE prefetch row within the margin: the first is named, the second
        # not, in a committed run made before either form existed.
        src = os.path.join("results", "nvidia-h200", "2026-11-27-f31dd4c")
        run_dir = os.path.join(self.tmp, "run")
        shutil.copytree(os.path.join(REPO, src), run_dir,
                        ignore=shutil.ignore_patterns("*.png", "*.tar.xz", "*.log"))
        path = os.path.join(run_dir, "parboil.json")
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        added = []
        for b in data["benchmarks"]:
            for old, new, scale in (("unrollx8-fast/", "unrollx8-fast-byvalue/", 0.5),
                                    ("unrollx8-ieee/", "unrollx8-ieee-prefetch/", 0.99)):
                if b["name"].startswith("cp/opencl/" + old + "grid:512/atoms:40000/"):
                    row = dict(b)
                    for key in ("name", "run_name"):
                        if key in row:
                            row[key] = row[key].replace("/" + old, "/" + new, 1)
                    row["real_time"] = b["real_time"] * scale
                    added.append(row)
        self.assertGreaterEqual(len(added), 6, "three repetitions of each row")
        data["benchmarks"] += added
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        r = run("passes_table.py", run_dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = {line.split("|")[1].strip(): line for line in r.stdout.splitlines()}
        self.assertIn("(`unrollx8-fast-byvalue`)", rows["cp unrollx8, fast math"])
        self.assertNotIn("`", rows["cp unrollx8, IEEE divide and sqrt"])

    def test_the_passes_last_row_is_the_geometric_mean_of_the_rows(self):
        rows = table_rows("passes")
        body, geo = rows[:-1], rows[-1]
        self.assertEqual(geo[0], "geometric mean")
        for col in range(2, len(geo)):
            values = [float(cells[col].split()[0]) for cells in body]
            mean = math.exp(sum(math.log(v) for v in values) / len(values))
            self.assertAlmostEqual(float(geo[col]), mean, delta=0.01)



class BestTable(unittest.TestCase):
    """<!-- best: RUN_DIR ... --> ... <!-- /best -->: scripts/best_table.py's table."""
    RUNS = ["results/nvidia-h200/2026-11-27-f31dd4c",
            "results/nvidia-h100-80gb-hbm3/2026-11-27-f31dd4c"]

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="readme_tables_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_the_readme_block_where_there_is_one_is_its_runs(self):
        with open(README, encoding="utf-8") as f:
            if "<!-- best:" not in f.read():
                self.skipTest("README has no <!-- best: --> block")
        r = run("best_table.py", *readme_runs("best"), "--check", README)
        self.assertEqual(r.returncode, 0, r.stderr)

    def readme_with_block(self, runs, table):
        """A README in the scratch folder whose block names `runs` (relative to it)."""
        named = [os.path.relpath(os.path.join(REPO, d), self.tmp) for d in runs]
        path = os.path.join(self.tmp, "README.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write("# t\n\n<!-- best: " + " ".join(named) + " -->\n" + table
                    + "<!-- /best -->\n\nmore\n")
        return path

    def test_a_block_checks_equal_and_a_change_is_found(self):
        r = run("best_table.py", *self.RUNS)
        self.assertEqual(r.returncode, 0, r.stderr)
        readme = self.readme_with_block(self.RUNS, r.stdout)
        runs = [os.path.join(REPO, d) for d in self.RUNS]
        self.assertEqual(run("best_table.py", *runs, "--check", readme).returncode, 0)
        m = re.search(r"^\| matrixMul[^|]*\| ([0-9.]+) \(", r.stdout, re.M)
        changed = r.stdout[:m.start(1)] + f"{float(m.group(1)) + 0.01:.2f}" + r.stdout[m.end(1):]
        readme = self.readme_with_block(self.RUNS, changed)
        bad = run("best_table.py", *runs, "--check", readme)
        self.assertEqual(bad.returncode, 1, bad.stderr)
        self.assertIn("should:", bad.stderr)
        self.assertIn(m.group(0)[:20], bad.stderr)
        readme = self.readme_with_block(self.RUNS[:1], r.stdout)
        other = run("best_table.py", *runs, "--check", readme)
        self.assertEqual(other.returncode, 1, other.stderr)

    def test_each_gpus_last_row_is_the_geometric_mean_of_its_rows(self):
        r = run("best_table.py", *self.RUNS)
        lines = r.stdout.splitlines()
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
        self.assertEqual(rows[0], ["pair", "H200", "H100"])
        body = [c for c in rows[2:-1] if "not the same math" not in c[0]]
        self.assertEqual(rows[-1][0], "geometric mean")
        for col in (1, 2):
            values = [float(c[col].split()[0]) for c in body if c[col] != "not run"]
            mean = math.exp(sum(math.log(v) for v in values) / len(values))
            self.assertAlmostEqual(float(rows[-1][col].split()[0]), mean, delta=0.01)
            if len(values) < len(body):  # the rows it is of, said
                self.assertIn(f"({len(values)} of {len(body)} rows)", rows[-1][col])


if __name__ == "__main__":
    unittest.main()
