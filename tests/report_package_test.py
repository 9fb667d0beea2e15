#!/usr/bin/env python3
"""Tests the layout of scripts/report.py's package (scripts/gpucmp_report/) and the
modules beside it that compare.py and merge_results.py share (gbench_json.py,
mann_whitney.py): every section module is listed once in sections.SECTIONS and a
module added there is written into REPORT.md in its place; the name and number
helpers; gbench_json's reader (bad input raises InputError), its skip-list
round trip and its atomic writer (no partial file left); compare.py's names of
the shared helpers are the shared objects; a row's label (how gpucmp-bench built
the variant) places a PTX variant by its base, chain and step whatever its name,
and a file without labels is read by its names as before. No matplotlib needed
(--no-plots)."""
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
from gpucmp_report import build, cli, fmt, load, names, sections, variant_facts  # noqa: E402
from gpucmp_report.sections import startup  # noqa: E402

CONTEXT = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-23"}


def row(name, ms, label=None, **counters):
    full = f"{name}/iterations:1/manual_time"
    out = {"name": full, "run_name": full, "run_type": "iteration", "repetitions": 1,
           "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": ms,
           "cpu_time": ms, "time_unit": "ms", **counters}
    if label is not None:
        out["label"] = label
    return out


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


# OpenCL variants named unlike the chains' names, placed by their labels alone.
AUTO3 = "from=ptx_passes; base=tile16; options=-DTILE=16; passes=cleanup,unroll,cse; " \
        "chain=auto; step=3"
LABELLED = [("tile16", 1.5, "from=source; base=tile16; options=-DTILE=16"),
            ("tile16-x0", 3.0, "from=ptx_O0; base=tile16; options=-DTILE=16; step=0"),
            ("tile16-x3", 1.2, AUTO3),
            ("tile16-h1", 2.0, "from=ptx_file; base=tile16; options=-DTILE=16; chain=hand; "
                               "step=1"),
            ("tile16-own", 1.4, "from=ptx_as_built; base=tile16; options=-DTILE=16")]
N64 = (("n", "64"),)


class VariantFacts(unittest.TestCase):
    """variant_facts: a label's facts, and the name's where a row has no label."""

    def test_label(self):
        facts = variant_facts.of
        self.assertEqual(facts("tile16-x3", AUTO3),
                         ("tile16", "auto-unroll-cse", "auto", 3, "ptx", True))
        self.assertEqual(facts("unrollx8-ptx-O0", "from=ptx_O0; base=unrollx8; step=0"),
                         ("unrollx8", "ptx-O0", None, 0, "ptx", True))
        self.assertEqual(facts("tile16-hand-unroll", "from=ptx_file; base=tile16; chain=hand; "
                                                     "step=2")[1:4], ("hand-unroll", "hand", 2))
        self.assertEqual(facts("unrollx8-fast", "from=source; base=unrollx8-fast; "
                                                "options=-cl-fast-relaxed-math"),
                         ("unrollx8-fast", None, None, None, None, True))
        self.assertEqual(facts("tile16-ptx-align", "from=ptx_as_built_passes; base=tile16; "
                                                   "options=-DTILE=16; passes=align").kind,
                         "ptx-align")
        self.assertEqual(facts("tile16-ptx-from-nvcc", "from=ptx_from_nvcc; base=tile16").kind,
                         "ptx-from-nvcc")
        cross = facts("tile16-opencl-ptx", "from=opencl-ptx; base=tile16")
        self.assertEqual((cross.base, cross.kind, cross.is_cross, cross.is_ptx),
                         ("tile16", "opencl-ptx", True, False))
        self.assertEqual(variant_facts.parse_label("from=source; base=t; options=-DTILE=16 "
                                                   "-DALIGN_TILES=16")["options"],
                         "-DTILE=16 -DALIGN_TILES=16")

    def test_label_wins_over_name(self):
        self.assertEqual(variant_facts.of("tile16-auto-unroll", AUTO3).kind, "auto-unroll-cse")
        self.assertIsNone(variant_facts.of("tile16-ptx-O0", "from=source; base=tile16-ptx-O0")
                          .family)

    def test_name_without_label(self):
        for label in (None, "", "not a label"):
            self.assertEqual(variant_facts.of("tile16-auto-unroll-cse", label),
                             ("tile16", "auto-unroll-cse", "auto", 3, "ptx", False))
        self.assertEqual(variant_facts.of("tile16-x3"), ("tile16-x3", None, None, None, None,
                                                         False))
        self.assertEqual(variant_facts.of("unrollx8-ptx-O0")[:4], ("unrollx8", "ptx-O0", None, 0))
        self.assertEqual(variant_facts.of("tile16-hand-base")[2:4], ("hand", 1))
        self.assertEqual(variant_facts.of("tile16-ptx-jit")[:2], ("tile16", "ptx-jit"))
        self.assertTrue(variant_facts.of("tile16-opencl-cubin").is_cross)


class Labels(unittest.TestCase):
    """A labelled result file end to end: load_all keeps the label, the report places
    each PTX variant by it; the same rows without labels are placed by their names."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="report_package_test_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, benchmarks):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"context": CONTEXT, "benchmarks": benchmarks}, f)
        return path

    def labelled(self, labels=True):
        return self.write("labelled.json" if labels else "plain.json", [
            row("matrixMul/cuda/tile16/n:64", 1.0)] + [
            row(f"matrixMul/opencl/{v}/n:64", ms, label if labels else None)
            for v, ms, label in LABELLED])

    def report(self, *paths):
        contexts, benches, missing = load.load_all(list(paths))
        out = os.path.join(self.tmp, "out")
        self.assertEqual(cli.main(list(paths) + ["--no-plots", "--out-dir", out], "x\n\nusage: x"),
                         0)
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            md = f.read()
        return build.Report(types.SimpleNamespace(), contexts, benches, missing, None), md

    def test_label_is_kept_on_the_bench(self):
        _, benches, _ = load.load_all([self.labelled()])
        b = benches["matrixMul/opencl/tile16-x3/n:64/manual_time"]
        self.assertEqual(b.label, AUTO3)
        self.assertTrue(b.facts.labelled)
        self.assertIsNone(benches["matrixMul/cuda/tile16/n:64/manual_time"].label)

    def test_label_on_aggregates_only(self):
        agg = dict(row("matrixMul/opencl/tile16-x3/n:64", 1.2, AUTO3), run_type="aggregate",
                   aggregate_name="median", name="matrixMul/opencl/tile16-x3/n:64/"
                                                 "iterations:1/manual_time_median")
        _, benches, _ = load.load_all([self.write("agg.json", [agg])])
        self.assertEqual(benches["matrixMul/opencl/tile16-x3/n:64/manual_time"].facts.kind,
                         "auto-unroll-cse")

    def test_labelled_variants_are_placed_by_their_labels(self):
        rep, md = self.report(self.labelled())
        self.assertTrue(rep.has_ptx_variants)
        [a] = rep.analyses
        self.assertEqual((a["workload"], a["base"], a["params"]), ("matrixMul", "tile16", N64))
        self.assertEqual([(s, b.variant) for s, b in a["controls"]],
                         [("ptx-O0", "tile16-x0"), ("ptx-as-built", "tile16-own")])
        auto = [(s, v, b.time if b else None) for s, v, b, _ in a["chains"]["auto"]]
        self.assertEqual(auto[0], ("-O0", "tile16-x0", 3e6))
        self.assertEqual(auto[3], ("cse", "tile16-x3", 1.2e6))
        self.assertIsNone(auto[2][2])  # no unroll step measured
        self.assertEqual(a["chains"]["hand"][1][1:3], ("tile16-h1", rep.data.get(
            "matrixMul", "opencl", "tile16-h1", N64)))
        self.assertEqual([(w, v, best.variant) for w, v, _, _, _, best in rep.best_rows],
                         [("matrixMul", "tile16", "tile16-x3")])
        self.assertEqual([(p[0], p[1]) for p in rep.all_pairs], [("matrixMul", "tile16")])
        self.assertIn("### matrixMul tile16, n=64", md)
        self.assertIn("| +cse | 1.2 ms | - | - | - | 1.20 / - |", md)
        self.assertIn("the fastest OpenCL variant is tile16-x3", md)
        self.assertNotIn("## Measured on one API only", md)

    def test_unlabelled_file_is_read_by_names(self):
        rep, md = self.report(self.labelled(labels=False))
        self.assertEqual(rep.analyses, [])
        self.assertFalse(rep.has_ptx_variants)
        self.assertIn("## Measured on one API only", md)
        self.assertIn("- matrixMul OpenCL tile16-x3\n", md)
        named = self.write("named.json", [
            row("matrixMul/cuda/tile16/n:64", 1.0), row("matrixMul/opencl/tile16/n:64", 1.5),
            row("matrixMul/opencl/tile16-ptx-O0/n:64", 3.0),
            row("matrixMul/opencl/tile16-auto-unroll-cse/n:64", 1.2)])
        rep, md = self.report(named)
        [a] = rep.analyses
        self.assertEqual(a["chains"]["auto"][3][1:3], ("tile16-auto-unroll-cse", rep.data.get(
            "matrixMul", "opencl", "tile16-auto-unroll-cse", N64)))
        self.assertEqual(a["controls"][0][1].variant, "tile16-ptx-O0")
        self.assertNotIn("## Measured on one API only", md)

    def test_labelled_row_wins_over_a_named_one(self):
        old = self.write("old.json", [row("matrixMul/opencl/tile16-auto-unroll-cse/n:64", 2.0)])
        rep, _ = self.report(self.labelled(), old)
        step = rep.analyses[0]["chains"]["auto"][3]
        self.assertEqual((step[1], step[2].time), ("tile16-x3", 1.2e6))

    def test_startup_rows_take_the_facts_of_their_timed_rows(self):
        path = self.write("startup.json", [
            row("matrixMul/opencl/tile16-own/n:64", 1.4, LABELLED[4][2]),
            row("startup/opencl/matrixMul-tile16/n:64", 9.0, build_ms=5.0),
            row("startup/opencl/matrixMul-tile16-own/n:64", 9.0, build_ms=2.0)])
        rep, _ = self.report(path)
        [r] = startup.startup_rows(rep.data)
        self.assertEqual((r["base"], r["build_source"], r["build_own_ptx"]), ("tile16", 5.0, 2.0))


if __name__ == "__main__":
    unittest.main()
