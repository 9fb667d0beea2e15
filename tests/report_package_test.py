#!/usr/bin/env python3
"""Tests the layout of scripts/report.py's package (scripts/gpucmp_report/) and the
modules beside it that compare.py and merge_results.py share (gbench_json.py,
mann_whitney.py): every section module is listed once in sections.SECTIONS and a
module added there is written into REPORT.md in its place; the name and number
helpers; gbench_json's reader (bad input raises InputError), its skip-list
round trip and its atomic writer (no partial file left); compare.py's names of
the shared helpers are the shared objects. No matplotlib needed (--no-plots)."""
import json
import os
import pkgutil
import shutil
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
sys.path.insert(0, SCRIPTS)  # as scripts/report.py does
import compare  # noqa: E402
import gbench_json  # noqa: E402
import mann_whitney  # noqa: E402
from gpucmp_report import build, cli, fmt, names, sections  # noqa: E402

CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-23"}


def row(name, ms):
    full = f"{name}/iterations:1/manual_time"
    return {"name": full, "run_name": full, "run_type": "iteration", "repetitions": 1,
            "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": ms,
            "cpu_time": ms, "time_unit": "ms"}


class Layout(unittest.TestCase):
    def test_every_section_module_is_listed_once(self):
        found = {m.name for m in pkgutil.iter_modules(sections.__path__)}
        listed = [m.__name__.rsplit(".", 1)[1] for m in sections.SECTIONS]
        self.assertEqual(len(listed), len(set(listed)))
        self.assertEqual(set(listed), found)
        for module in sections.SECTIONS:
            self.assertTrue(callable(getattr(module, "section", None)), module.__name__)

    def test_no_module_over_400_lines(self):
        package = os.path.join(SCRIPTS, "gpucmp_report")
        paths = [os.path.join(SCRIPTS, f) for f in ("report.py", "compare.py", "gbench_json.py",
                                                    "mann_whitney.py")]
        for folder, _, files in os.walk(package):
            paths += [os.path.join(folder, f) for f in files if f.endswith(".py")]
        for path in paths:
            with open(path, encoding="utf-8") as f:
                self.assertLessEqual(sum(1 for _ in f), 400, path)

    def test_compare_names_are_the_shared_helpers(self):
        for name in ("load", "InputError", "context_skips", "parse_skip_summary",
                     "write_atomically", "gpucmp_name", "PARTIAL_KEY"):
            self.assertIs(getattr(compare, name), getattr(gbench_json, name), name)
        self.assertIs(compare.mann_whitney_u, mann_whitney.mann_whitney_u)


class NewSection(unittest.TestCase):
    """A study adds a module to sections.SECTIONS: its lines land in its place."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_package_test_")
        self.result = os.path.join(self.tmp, "r.json")
        with open(self.result, "w", encoding="utf-8") as f:
            json.dump({"context": CONTEXT, "benchmarks": [
                row("matrixMul/cuda/tile16/n:64", 1.0),
                row("matrixMul/opencl/tile16/n:64", 1.5)]}, f)
        self.saved = list(sections.SECTIONS)

    def tearDown(self):
        sections.SECTIONS[:] = self.saved
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_report(self, out):
        code = cli.main([self.result, "--no-plots", "--out-dir", out], "x\n\nusage: x")
        self.assertEqual(code, 0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            return f.read()

    def test_added_module_is_written_in_its_place(self):
        seen = []

        def section(rep):
            seen.append((len(rep.all_pairs), rep.data.get("matrixMul", "cuda", "tile16",
                                                          (("n", "64"),)).time))
            return ["## A new study", "", "its text", ""]

        study = types.ModuleType("study")
        study.section = section
        sections.SECTIONS.insert(sections.SECTIONS.index(sections.vendor) + 1, study)
        md = self.run_report(os.path.join(self.tmp, "new"))
        self.assertEqual(seen, [(1, 1e6)])
        self.assertLess(md.index("## Vendor libraries"), md.index("## A new study\n\nits text"))
        self.assertLess(md.index("## A new study"), md.index("## Not measured"))

    def test_empty_section_leaves_no_trace(self):
        plain = self.run_report(os.path.join(self.tmp, "plain"))
        study = types.ModuleType("study")
        study.section = lambda rep: []
        sections.SECTIONS.append(study)
        self.assertEqual(self.run_report(os.path.join(self.tmp, "empty")), plain)

    def test_figure_without_plotter(self):
        rep = build.Report(types.SimpleNamespace(), [], {}, [], None)
        self.assertIsNone(rep.figure("ratio", []))
        self.assertEqual(rep.written, {})


class Helpers(unittest.TestCase):
    def test_names(self):
        self.assertEqual(names.parse_name("cp/cuda/unrollx8/grid:512/repeats:5/manual_time"),
                         ("cp", "cuda", "unrollx8", (("grid", "512"),)))
        self.assertIsNone(names.parse_name("BM_other/cuda"))
        self.assertEqual(names.split_variant("tile16-auto-unroll-cse"),
                         ("tile16", "auto-unroll-cse"))
        self.assertEqual(names.split_variant("tile16"), ("tile16", None))
        self.assertLess(names.workload_rank("matrixMul"), names.workload_rank("zzz"))

    def test_fmt(self):
        self.assertEqual(fmt.fmt_time(16.89e6), "16.89 ms")
        self.assertEqual(fmt.fmt_bytes(2 ** 20), "1 MiB")
        self.assertEqual(fmt.fmt_params((("bytes", "1024"), ("n", "4"))), "1 KiB n=4")
        self.assertEqual(fmt.fmt_ratio(0.05), "0.050")
        self.assertEqual(fmt.slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3")
        self.assertEqual(fmt.md_table(["a", "b"], [(1, 2)], right=(1,)),
                         ["| a | b |", "|---|---:|", "| 1 | 2 |"])


class GbenchJson(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_package_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_bad_input_raises(self):
        for text in ("not json", "[]", '{"benchmarks": [{"name": "a/cuda/x"}]}'):
            with self.subTest(text):
                with self.assertRaises(gbench_json.InputError):
                    gbench_json.load(self.write("bad.json", text))
        with self.assertRaises(gbench_json.InputError):
            gbench_json.load(os.path.join(self.tmp, "missing.json"))

    def test_load_and_value(self):
        path = self.write("ok.json", json.dumps({"context": CONTEXT, "benchmarks": [
            row("a/cuda/x/n:1", 2.0)]}))
        context, entries = gbench_json.load(path, ignore_iterations=True)
        self.assertEqual(context["date"], "2026-11-23")
        entry = entries["a/cuda/x/n:1/manual_time"]
        self.assertEqual(gbench_json.samples(path, "a", entry, "real_time"), [2e6])

    def test_skip_summary_round_trip(self):
        text = "cuda: no device (2 benchmarks), odd (x, y) (1 benchmark); opencl: z (3 benchmarks)"
        items = gbench_json.parse_skip_summary(text)
        self.assertEqual(items, [("cuda", "no device", 2), ("cuda", "odd (x, y)", 1),
                                 ("opencl", "z", 3)])
        self.assertEqual(gbench_json.skip_summary_text(items), text)

    def test_write_atomically_leaves_no_partial_file(self):
        path = os.path.join(self.tmp, "out.txt")
        gbench_json.write_atomically(path, "one\n")
        with open(path, encoding="utf-8") as f:
            self.assertEqual(f.read(), "one\n")

        with self.assertRaises(TypeError):
            gbench_json.write_atomically(path, object())  # write() fails midway
        self.assertEqual(sorted(os.listdir(self.tmp)), ["out.txt"])
        with open(path, encoding="utf-8") as f:
            self.assertEqual(f.read(), "one\n")


if __name__ == "__main__":
    unittest.main()
