#!/usr/bin/env python3
"""Tests the report's "Kernel Tuner beside gpucmp's tuner" section
(sections/kernel_tuner.py) on a small kernel-tuner.json of scripts/kernel_tuner_side.py
and a re-time run's gpucmp-bench JSON (kernel-tuner-retime.json): per kernel and API,
Kernel Tuner's exhaustive pick with its own time, gpucmp's tuner pick (--ours) and each
strategy's median / worst pick over the exhaustive best; re-timed, every pick and
gpucmp's tuner (the shape it chose in that run) over the best re-timed row, a pick the
run lacks a dash; skipped backends said; both files found beside the results or given
as arguments, never read as results (but the re-time run given alone is the results
too); without the re-time run a sentence says so;
without kernel-tuner.json no section; a bad one is one line and exit 2."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does

from report_fixtures import SideInputCase, section_tables, section_text, rows, write_file  # noqa: E402

DEVICE = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-28"}
TITLE = "## Kernel Tuner beside gpucmp's tuner"
MM = "mmnaive base n:1024"
SORT = "sort bitonic n:262144"


def backend(candidates, exhaustive, strategies, budget, ours_budget):
    """An ok backend entry: exhaustive (pick, ms); strategies {name: [(seed, pick, ms)]},
    the median and worst as kernel_tuner_side.py ranks them (by the exhaustive ms)."""
    out = {"status": "ok", "candidates": candidates, "budget": budget,
           "gpucmp_tuner_budget": ours_budget, "runs": [],
           "exhaustive": {"pick": exhaustive[0], "time_ms": exhaustive[1]}, "strategies": {}}
    for name, picks in strategies.items():
        entries = [{"seed": s, "pick": p, "pick_time_ms": t, "exhaustive_time_ms": t}
                   for s, p, t in picks]
        ranked = sorted(entries, key=lambda e: (e["exhaustive_time_ms"], e["seed"]))
        keep = ("seed", "pick", "exhaustive_time_ms")
        out["strategies"][name] = {
            "picks": entries, "median": {k: ranked[(len(ranked) - 1) // 2][k] for k in keep},
            "worst": {k: ranked[-1][k] for k in keep}}
    return out


def kt_doc():
    """mmnaive: CUDA exhaustive 512x2 at 0.318 ms; random_sample picks 512x2, 32x8 (0.35),
    256x4 (0.33) -> median 256x4, worst 32x8; bayes_opt 512x2 thrice. OpenCL skipped (no
    pyopencl). sort (one pass): CUDA exhaustive 256 at 0.004 ms; random_sample 256, 1024
    (0.005), 512 (0.0044); bayes_opt 128 (0.006) thrice."""
    shapes_2d = ["512x2", "256x4", "32x8", "16x16"]
    shapes_1d = ["128", "256", "512", "1024"]
    return {
        "tool": {"kernel_tuner": "1.5.0", "strategies": ["random_sample", "bayes_opt"],
                 "seeds": [1, 2, 3], "iterations": 7, "budget": "max(candidates // 10, 3)",
                 "gpucmp_tuner_budget": "min(candidates, max(candidates // 10, 3))",
                 "timing": "one launch at a time"},
        "space": {"from": "gpucmp-bench listing", "command": "gpucmp-bench --benchmark_list_"
                  "tests=true --size standard"},
        "backends": {"cuda": {"status": "ok", "device": "NVIDIA H200"},
                     "opencl": {"status": "skipped", "why": "pyopencl is not importable"}},
        "kernels": [
            {"kernel": "mmnaive", "label": MM, "dims": 2, "tuned": "the kernel, one launch",
             "backends": {
                 "cuda": backend(shapes_2d, ("512x2", 0.318), {
                     "random_sample": [(1, "512x2", 0.318), (2, "32x8", 0.35),
                                       (3, "256x4", 0.33)],
                     "bayes_opt": [(s, "512x2", 0.318) for s in (1, 2, 3)]}, 6, 6),
                 "opencl": {"status": "skipped", "why": "pyopencl is not importable",
                            "candidates": shapes_2d}}},
            {"kernel": "sort", "label": SORT, "dims": 1,
             "tuned": "bitonic_pass on one pass, the last (k = n, j = 1)",
             "backends": {
                 "cuda": backend(shapes_1d, ("256", 0.004), {
                     "random_sample": [(1, "256", 0.004), (2, "1024", 0.005),
                                       (3, "512", 0.0044)],
                     "bayes_opt": [(s, "128", 0.006) for s in (1, 2, 3)]}, 3, 1),
                 "opencl": {"status": "skipped", "why": "pyopencl is not importable",
                            "candidates": shapes_1d}}}],
        "gpucmp_tuner": {MM: {"cuda": {"picks": ["512x2"], "measured": 6, "candidates": 66}}},
        "retime": {"local_args": [], "command": "gpucmp-bench ..."}}


def retime_doc(tuner_us=320):
    """mmnaive CUDA, 3 repetitions (us): tuner (chose 512x2) 320, 512x2 318, 256x4 330,
    32x8 350; sort CUDA: tuner (chose 1024) 700, 256 630, 1024 700, 512 650; 128 not
    re-timed. An OpenCL row (Kernel Tuner did not tune OpenCL): left out."""
    def r(name, us, x=None, y=1):
        counters = {"local_x": x, "local_y": y} if x else {}
        return rows(name, [us, us * 1.01, us * 0.99], counters=counters, time_unit="us")
    mm, sort = "mmnaive/cuda/base/n:1024/local:", "sort/cuda/bitonic/n:262144/local:"
    return {"context": DEVICE, "benchmarks":
            r(mm + "tuner", tuner_us, 512, 2) + r(mm + "512x2", 318, 512, 2)
            + r(mm + "256x4", 330, 256, 4) + r(mm + "32x8", 350, 32, 8)
            + r(sort + "tuner", 700, 1024) + r(sort + "256", 630, 256)
            + r(sort + "1024", 700, 1024) + r(sort + "512", 650, 512)
            + r("mmnaive/opencl/base/n:1024/local:tuner", 330, 512, 2)}


def results():
    return {"context": DEVICE, "benchmarks": rows("mmnaive/cuda/base/n:1024/local:16x16",
                                                  [400.0, 401.0, 399.0], time_unit="us")}


def part(md):
    return section_text(md, TITLE)


def tables(md):
    """[{(kernel, API): [cells after those]}] of the section's tables, in order."""
    return section_tables(md, TITLE)


class Section(SideInputCase):
    def results(self):
        return results()

    def test_picks_and_re_timed_found_beside_the_results(self):
        path = write_file(self.tmp, "run/kernel-tuner.json", kt_doc())
        write_file(self.tmp, "run/kernel-tuner-retime.json", retime_doc())
        md = self.report(self.result)
        self.assertEqual(md.count(f"\n{TITLE}\n"), 1)
        self.assertLess(md.index("## Work-size tuning"), md.index(TITLE))
        text = part(md)
        self.assertIn(f"Kernel Tuner 1.5.0 (`scripts/kernel_tuner_side.py`, `{path}`)", text)
        self.assertIn("`random_sample`, `bayes_opt`, each once per seed (3 seeds: 1, 2, 3)", text)
        self.assertIn(f"{SORT}: bitonic_pass on one pass", text)
        self.assertIn(f"Not tuned: {MM} OpenCL: skipped (pyopencl is not importable); "
                      f"{SORT} OpenCL: skipped", text)
        own, retimed = tables(md)
        self.assertEqual(own, {
            (MM, "CUDA"): ["4", "6 / 6", "`512x2` 318 us", "`512x2` (6 timed)",
                           "`256x4` 1.04 / `32x8` 1.10", "`512x2` 1.00 / `512x2` 1.00"],
            (SORT, "CUDA"): ["4", "3 / 1", "`256` 4 us", "–", "`512` 1.10 / `1024` 1.25",
                             "`128` 1.50 / `128` 1.50"]})
        self.assertIn("| kernel | API | shapes | budget: Kernel Tuner / gpucmp | exhaustive "
                      "pick (its time) | gpucmp's tuner (--ours) | random_sample | bayes_opt |",
                      text)
        self.assertEqual(retimed, {
            (MM, "CUDA"): ["`512x2` 318 us", "`512x2` 1.01", "`512x2` 1.00",
                           "`256x4` 1.04 / `32x8` 1.10", "`512x2` 1.00 / `512x2` 1.00"],
            (SORT, "CUDA"): ["`256` 630 us", "`1024` 1.11", "`256` 1.00",
                             "`512` 1.03 / `1024` 1.11", "`128` – / `128` –"]})
        self.assertIn("(kernel-tuner-retime.json, 3 repetitions a row)", text)
        self.assertNotIn("results.json` |", text)

    def test_the_tuners_row_as_the_best_names_its_shape(self):
        write_file(self.tmp, "run/kernel-tuner.json", kt_doc())
        write_file(self.tmp, "run/kernel-tuner-retime.json", retime_doc(tuner_us=300))
        retimed = tables(self.report(self.result))[1]
        self.assertEqual(retimed[(MM, "CUDA")][:3], ["`tuner` (`512x2`) 300 us", "`512x2` 1.00",
                                                     "`512x2` 1.06"])

    def test_given_as_arguments_they_are_no_result_files(self):
        kt = write_file(self.tmp, "elsewhere/kernel-tuner.json", kt_doc())
        rt = write_file(self.tmp, "elsewhere/kernel-tuner-retime.json", retime_doc())
        md = self.report(self.result, kt, rt)
        self.assertEqual(len(tables(md)), 2)
        self.assertNotIn(f"`{rt}`", md.split(TITLE, 1)[0])  # not among the inputs' rows
        self.assertNotIn("mmnaive/opencl", md)

    def test_the_re_time_run_alone_is_the_results_too(self):
        kt = write_file(self.tmp, "kt/kernel-tuner.json", kt_doc())
        rt = write_file(self.tmp, "kt/kernel-tuner-retime.json", retime_doc())
        md = self.report(rt)
        self.assertEqual(len(tables(md)), 2)
        self.assertIn(f"`{kt}`", md)  # found beside it
        self.assertIn("## Work-size tuning", md)  # its local:<spec> rows as results

    def test_without_the_re_time_run_a_sentence(self):
        write_file(self.tmp, "run/kernel-tuner.json", kt_doc())
        md = self.report(self.result)
        self.assertEqual(len(tables(md)), 1)
        self.assertIn("Not re-timed: no kernel-tuner-retime.json", part(md))
        self.assertNotIn("Partial", part(md))

    def test_a_partial_run_says_so(self):
        doc = kt_doc()
        doc["partial"] = "stopped by SIGTERM: the kernels and backends without ..."
        doc["kernels"][1]["backends"]["cuda"] = {"status": "skipped", "candidates": [],
                                                 "why": "not run to its end: stopped"}
        write_file(self.tmp, "run/kernel-tuner.json", doc)
        text = part(self.report(self.result))
        self.assertIn("**Partial:** the run did not finish (stopped by SIGTERM", text)
        self.assertIn(f"{SORT} CUDA: skipped (not run to its end: stopped)", text)
        self.assertEqual(list(tables("\n" + TITLE + "\n" + text)[0]), [(MM, "CUDA")])

    def test_no_section_without_kernel_tuner_json(self):
        write_file(self.tmp, "run/kernel-tuner-retime.json", retime_doc())
        self.assertNotIn(TITLE, self.report(self.result))

    def test_a_bad_kernel_tuner_json_is_one_line_and_exit_2(self):
        good = kt_doc()
        no_status = {**good, "kernels": [{**good["kernels"][0], "backends": {"cuda": {}}}]}
        for name, content, words in (
                ("not json", "{", "not valid JSON"),
                ("no kernels", {"tool": {}}, "not a kernel-tuner.json of "
                 "scripts/kernel_tuner_side.py"),
                ("no status", no_status, "kernels[0]: backends.cuda: no \"status\""),
                ("dims", {**good, "kernels": [{**good["kernels"][0], "dims": 3}]},
                 "kernels[0]: \"dims\" is not 1 or 2")):
            with self.subTest(name):
                path = write_file(self.tmp, "bad/kernel-tuner.json", content)
                self.assert_bad_input(path, words)


if __name__ == "__main__":
    unittest.main()
