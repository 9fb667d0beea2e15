#!/usr/bin/env python3
"""Each script under scripts/ given bad input: exit code 2, one line
"<script>: error: ..." on stderr naming the problem (no Python traceback), and
no output file left behind, not even a partial or temporary one.

One test per script and bad input, e.g. test_merge_results_truncated_json."""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts")

NAME = "matrixMul/opencl/tile16/n:64"  # the bad rows' name too: compare matches them
GOOD_REPORT = {
    "context": {"opencl.device": "Test GPU", "gpucmp.revision": "abc"},
    "benchmarks": [{"name": NAME, "run_type": "iteration", "real_time": 10.0,
                    "time_unit": "us"}],
}
GARBAGE = b"\x7fELF\x02\x01\x01\x00\x00\xff\xfe\xde\xad\xbe\xef" * 8


def report_with(rows):
    return json.dumps({"context": {"opencl.device": "Test GPU"}, "benchmarks": rows})


# Result-file inputs: (name, file bytes or None for "does not exist" or "dir"
# for a folder, {script: the words the error line must hold}).
_TRUNCATED = json.dumps(GOOD_REPORT)[:60]
RESULT_CASES = [
    ("missing_file", None, dict.fromkeys(("compare", "merge_results", "report"),
                                         "cannot read (No such file or directory)")),
    ("directory", "dir", dict.fromkeys(("compare", "merge_results", "report"),
                                       "cannot read (Is a directory)")),
    ("empty_file", "", dict.fromkeys(("compare", "merge_results", "report"), "not valid JSON")),
    ("binary_garbage", GARBAGE, dict.fromkeys(("compare", "merge_results", "report"),
                                              "not valid JSON")),
    ("truncated_json", _TRUNCATED, dict.fromkeys(("compare", "merge_results", "report"),
                                                 "not valid JSON")),
    ("json_list", "[1, 2, 3]", dict.fromkeys(("compare", "merge_results", "report"),
                                             "not a Google Benchmark JSON report")),
    ("no_benchmarks", '{"context": {}}', dict.fromkeys(("compare", "merge_results", "report"),
                                                       "not a Google Benchmark JSON report")),
    ("benchmarks_not_a_list", '{"context": {}, "benchmarks": {"a": 1}}',
     dict.fromkeys(("compare", "merge_results", "report"), "not a Google Benchmark JSON report")),
    ("entry_without_name", report_with([{"real_time": 1.0}]),
     dict.fromkeys(("compare", "merge_results", "report"),
                   'benchmarks[0] is not an object with a "name"')),
    ("entry_not_an_object", report_with([[NAME, 1.0]]),
     dict.fromkeys(("compare", "merge_results", "report"),
                   'benchmarks[0] is not an object with a "name"')),
    ("entry_without_real_time", report_with([{"name": NAME}]),
     {"compare": 'has no "real_time"',
      "merge_results": 'has no numeric "real_time"',
      "report": 'has no "real_time"'}),
    ("real_time_not_a_number",
     report_with([{"name": NAME, "real_time": "fast"}]),
     {"compare": "'real_time' is not a finite number",
      "merge_results": 'has no numeric "real_time"',
      "report": "'real_time' is not a finite number"}),
    ("time_unit_not_a_string",
     report_with([{"name": NAME, "real_time": 1.0, "time_unit": []}]),
     {"compare": "unknown time_unit", "report": "unknown time_unit"}),
    ("context_not_an_object", json.dumps({"context": [], "benchmarks": GOOD_REPORT["benchmarks"]}),
     {"merge_results": "no context object"}),
    ("nested_too_deeply", "[" * 100000 + "]" * 100000,
     dict.fromkeys(("compare", "merge_results", "report"), "nested too deeply")),
]

# ncu CSV inputs for ncu_to_json.py and ncu_durations.py.
HEADER = '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
CSV_CASES = [
    ("missing_file", None, dict.fromkeys(("ncu_to_json", "ncu_durations"),
                                         "cannot read (No such file or directory)")),
    ("directory", "dir", dict.fromkeys(("ncu_to_json", "ncu_durations"),
                                       "cannot read (Is a directory)")),
    ("empty_file", "", {"ncu_to_json": "no profiled kernel in it",
                        "ncu_durations": "no ncu CSV table"}),
    ("binary_garbage", GARBAGE, {"ncu_to_json": "binary data",
                                 "ncu_durations": "no ncu CSV table"}),
    ("header_without_kernel_name", '"ID","Process ID","gpu__time_duration.sum"\n"0","1","5"\n',
     {"ncu_to_json": "an ncu header without \"Kernel Name\"",
      "ncu_durations": "no gpu__time_duration.sum rows"}),
    ("row_shorter_than_header", HEADER + '"0","k"\n',
     {"ncu_to_json": "2 cells under a header of 5"}),
    ("duration_not_a_number", HEADER + '"0","k","gpu__time_duration.sum","nsecond","fast"\n',
     {"ncu_durations": "duration 'fast' is not a number"}),
    ("unknown_duration_unit", HEADER + '"0","k","gpu__time_duration.sum","fortnight","1"\n',
     {"ncu_durations": "unknown duration unit 'fortnight'"}),
    ("no_kernel_name_column", '"ID","Metric Name","Metric Unit","Metric Value"\n'
                              '"0","gpu__time_duration.sum","nsecond","1"\n',
     {"ncu_durations": 'no "Kernel Name" or "Metric Value" cell'}),
    ("error_before_any_row", "==GPUCMP== error the ncu run failed\n",
     {"ncu_to_json": "'==GPUCMP== error' before any row"}),
]


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, script + ".py"), *args],
                          capture_output=True, text=True, errors="replace", timeout=120,
                          check=False)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="scripts_bad_input_")
        self.out = os.path.join(self.dir, "out")  # where outputs go: must stay empty
        os.mkdir(self.out)

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.dir], check=False)

    def write(self, name, content):
        path = os.path.join(self.dir, name)
        if content == "dir":
            os.mkdir(path)
        elif content is not None:
            with open(path, "wb") as f:
                f.write(content if isinstance(content, bytes) else content.encode())
        return path

    def assert_one_error_line(self, proc, script, needle):
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(len(lines), 1, f"want one line on stderr, got:\n{proc.stderr}")
        self.assertTrue(lines[0].startswith(f"{script}: error: "), lines[0])
        self.assertIn(needle, lines[0])
        self.assertEqual(os.listdir(self.out), [], "an output file was left behind")

    def run_script(self, script, bad, good):
        """Runs script with the bad input and (where it takes two) a good one,
        every output under self.out."""
        if script == "compare":
            return run(script, bad, good, "--json", os.path.join(self.out, "c.json"))
        if script == "merge_results":
            return run(script, os.path.join(self.out, "m.json"), good, bad)
        if script == "report":
            return run(script, bad, "--out-dir", os.path.join(self.out, "report"), "--no-plots")
        if script == "ncu_to_json":
            return run(script, bad, "-o", os.path.join(self.out, "n.json"))
        return run(script, bad)

    # ---- outputs that cannot be written ----

    def test_compare_json_into_missing_folder(self):
        good = self.write("good.json", json.dumps(GOOD_REPORT))
        proc = run("compare", good, good, "--json", os.path.join(self.out, "no", "c.json"))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("compare: error: ", proc.stderr)
        self.assertIn("cannot write (No such file or directory)", proc.stderr)
        self.assertEqual(os.listdir(self.out), [])

    # Where --json writes: the script wrote a temporary file and
    # renamed it over the target, replacing a device (as root: /dev/full), a
    # FIFO or a symbolic link instead of writing through it.

    def test_compare_json_to_a_full_device(self):
        good = self.write("good.json", json.dumps(GOOD_REPORT))
        proc = run("compare", good, good, "--json", "/dev/full")
        self.assert_one_error_line(proc, "compare", "/dev/full: cannot write (No space left")
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full was replaced")

    def test_compare_json_into_a_fifo_writes_through_it(self):
        good = self.write("good.json", json.dumps(GOOD_REPORT))
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        with subprocess.Popen(["timeout", "20", "cat", fifo], stdout=subprocess.PIPE) as reader:
            proc = run("compare", good, good, "--json", fifo)
            received = reader.communicate(timeout=30)[0]
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was replaced")
        self.assertIn(b'"benchmarks"', received)

    def test_compare_json_through_a_symlink_keeps_the_link(self):
        good = self.write("good.json", json.dumps(GOOD_REPORT))
        real = self.write("real.json", "old\n")
        link = os.path.join(self.dir, "link.json")
        os.symlink("real.json", link)
        proc = run("compare", good, good, "--json", link)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.islink(link), "the link was replaced")
        with open(real, encoding="utf-8") as f:
            self.assertIn('"benchmarks"', f.read())

    def test_merge_results_output_is_a_directory(self):
        good = self.write("good.json", json.dumps(GOOD_REPORT))
        target = os.path.join(self.out, "m.json")
        os.mkdir(target)
        proc = run("merge_results", target, good)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn("cannot write", lines[0])
        self.assertEqual(os.listdir(self.out), ["m.json"])  # the folder, nothing beside it
        self.assertEqual(os.listdir(target), [])

    def test_compare_unreadable_file(self):
        if os.geteuid() == 0:
            self.skipTest("root reads a file of mode 000")
        bad = self.write("bad.json", json.dumps(GOOD_REPORT))
        os.chmod(bad, 0)
        proc = self.run_script("compare", bad, bad)
        self.assert_one_error_line(proc, "compare", "cannot read (Permission denied)")

    def test_ncu_durations_unknown_option(self):
        proc = run("ncu_durations", "--frobnicate", "x.csv")
        self.assert_one_error_line(proc, "ncu_durations", "unknown option --frobnicate")

    def test_ncu_to_json_no_input(self):
        proc = run("ncu_to_json")
        self.assert_one_error_line(proc, "ncu_to_json", "required: NCU.csv")


def _add_case(script, case, content, needle, good_text):
    def test(self):
        bad = self.write("bad.input", content)
        good = self.write("good.json", good_text)
        self.assert_one_error_line(self.run_script(script, bad, good), script, needle)
    test.__doc__ = f"{script}.py given {case.replace('_', ' ')}"
    setattr(BadInput, f"test_{script}_{case}", test)


for _case, _content, _needles in RESULT_CASES:
    for _script, _needle in _needles.items():
        _add_case(_script, _case, _content, _needle, json.dumps(GOOD_REPORT))
for _case, _content, _needles in CSV_CASES:
    for _script, _needle in _needles.items():
        _add_case(_script, _case, _content, _needle, json.dumps(GOOD_REPORT))


if __name__ == "__main__":
    unittest.main()
