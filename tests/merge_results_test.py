#!/usr/bin/env python3
"""Tests scripts/merge_results.py on synthetic Google Benchmark JSON files."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "scripts", "merge_results.py")
# A real GPU-less run: 24 OpenCL rows on PoCL, 113 skipped benchmarks in its context only.
POCL_RESULT = os.path.join(os.path.dirname(__file__), "data_skips", "pocl-quick.json")
NO_CUDA = "no CUDA device (cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device))"
NO_PTX = "PTX variants need NVIDIA's OpenCL (the device is 'pthread-cpu, AMD')"
SKIP_KEYS = ("gpucmp.skipped", "gpucmp.skipped_count", "gpucmp.skipped_benchmarks")


def report(names, device="NVIDIA H200", revision="abc"):
    return {"context": {"date": "2026-11-22", "cuda.device": device, "gpucmp.revision": revision},
            "benchmarks": [{"name": n, "real_time": 1.0} for n in names]}


def with_skips(part, names, summary, partial=None):
    """part with gpucmp-bench's skip keys (and gpucmp.partial) in its context."""
    part["context"].update({"gpucmp.skipped": summary, "gpucmp.skipped_count": str(len(names)),
                            "gpucmp.skipped_benchmarks": ", ".join(names)})
    if partial:
        part["context"]["gpucmp.partial"] = partial
    return part


def skips_of(merged):
    return tuple(merged["context"].get(k) for k in SKIP_KEYS)


class MergeResults(unittest.TestCase):
    def run_merge(self, *parts):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, part in enumerate(parts):
                paths.append(os.path.join(d, f"in{i}.json"))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    f.write(part if isinstance(part, str) else json.dumps(part))
            out = os.path.join(d, "out.json")
            proc = subprocess.run([sys.executable, SCRIPT, out, *paths],
                                  capture_output=True, text=True, check=False)
            merged = None
            if proc.returncode == 0:
                with open(out, encoding="utf-8") as f:
                    merged = json.load(f)
            return proc, merged

    def test_concatenates_and_keeps_repetitions(self):
        proc, merged = self.run_merge(report(["a/cuda/x", "a/cuda/x"]), report(["b/opencl/y"]))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([b["name"] for b in merged["benchmarks"]],
                         ["a/cuda/x", "a/cuda/x", "b/opencl/y"])
        self.assertIn("gpucmp.merged_from", merged["context"])

    def test_refuses_other_device(self):
        proc, _ = self.run_merge(report(["a"]), report(["b"], device="NVIDIA H100"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("cuda.device", proc.stderr)

    def test_refuses_other_revision(self):
        proc, _ = self.run_merge(report(["a"]), report(["b"], revision="def"))
        self.assertEqual(proc.returncode, 2)

    def test_refuses_same_benchmark_twice(self):
        proc, _ = self.run_merge(report(["a"]), report(["a"]))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("appears in two inputs", proc.stderr)

    def test_context_without_the_new_keys_is_the_first_files(self):
        first, second = report(["a/cuda/x"]), report(["b/cuda/y"])
        second["context"]["gpucmp.size"] = "standard"
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(list(merged["context"]),
                         list(first["context"]) + ["gpucmp.merged_from"])
        self.assertEqual({k: v for k, v in merged["context"].items()
                          if k != "gpucmp.merged_from"}, first["context"])

    def test_joins_skip_lists_without_the_names_a_part_measured(self):
        # Part 0 skipped x, y (cuda) and z (opencl); part 1 measured x and skipped w.
        first = with_skips(report(["a/opencl/v/n:1/iterations:1/manual_time"]),
                           ["a/cuda/x/n:1", "a/cuda/y/n:1", "a/opencl/z-ptx-O0/n:1"],
                           f"cuda: {NO_CUDA} (2 benchmarks); opencl: {NO_PTX} (1 benchmark)")
        second = with_skips(report(["a/cuda/x/n:1/iterations:1/manual_time"]),
                            ["a/cuda/w/n:1"], f"cuda: {NO_CUDA} (1 benchmark)")
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(skips_of(merged), (
            f"cuda: {NO_CUDA} (2 benchmarks); opencl: {NO_PTX} (1 benchmark)", "3",
            "a/cuda/y/n:1, a/opencl/z-ptx-O0/n:1, a/cuda/w/n:1"))

    def test_aggregate_rows_count_as_measured(self):
        # Older Google Benchmark: no run_name; an aggregate's name ends in _<aggregate>.
        first = with_skips(report(["a/opencl/v/n:1"]), ["a/cuda/x/n:1"],
                           f"cuda: {NO_CUDA} (1 benchmark)")
        second = {"context": dict(report([])["context"]), "benchmarks": [
            {"name": "a/cuda/x/n:1/repeats:3/manual_time_median", "aggregate_name": "median",
             "real_time": 1.0}]}
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(skips_of(merged), ("none", "0", ""))

    def test_a_name_skipped_in_two_parts_counts_once(self):
        first = with_skips(report(["a/opencl/v"]), ["a/cuda/x"], f"cuda: {NO_CUDA} (1 benchmark)")
        second = with_skips(report(["b/opencl/v"]), ["a/cuda/x", "b/cuda/x"],
                            f"cuda: {NO_CUDA} (2 benchmarks)")
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(skips_of(merged), (f"cuda: {NO_CUDA} (2 benchmarks)", "2",
                                            "a/cuda/x, b/cuda/x"))

    def test_an_api_with_several_reasons_that_lost_a_name_joins_them(self):
        # gpucmp.skipped does not say which name had which reason: the counts stay
        # true by naming both reasons for the remaining two.
        first = with_skips(report(["a/cuda/v"]),
                           ["a/opencl/x-ptx-O0", "a/opencl/y-ptx-O0", "a/opencl/z"],
                           f"opencl: {NO_PTX} (2 benchmarks), no z here (1 benchmark)")
        second = report(["a/opencl/z"])
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(skips_of(merged), (
            f"opencl: {NO_PTX} or no z here (2 benchmarks)", "2",
            "a/opencl/x-ptx-O0, a/opencl/y-ptx-O0"))

    def test_a_part_without_the_keys_adds_no_skips(self):
        first = report(["a/cuda/v"])
        second = with_skips(report(["b/opencl/v"]), ["b/cuda/v"], f"cuda: {NO_CUDA} (1 benchmark)")
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(skips_of(merged), (f"cuda: {NO_CUDA} (1 benchmark)", "1", "b/cuda/v"))

    def test_partial_notes_are_carried_with_their_file(self):
        note = "interrupted by SIGTERM after 2 benchmarks; the rest did not run"
        first = with_skips(report(["a/cuda/v"]), [], "none")
        second = with_skips(report(["b/cuda/v"]), [], "none", partial=note)
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(merged["context"]["gpucmp.partial"].endswith(f"in1.json: {note}"))
        self.assertEqual(skips_of(merged), ("none", "0", ""))
        third = with_skips(report(["c/cuda/v"]), [], "none", partial="interrupted by SIGINT "
                           "after 1 benchmark; the rest did not run")
        proc, merged = self.run_merge(second, first, third)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        partial = merged["context"]["gpucmp.partial"]
        self.assertRegex(partial, r"in0\.json: interrupted by SIGTERM after 2 benchmarks; the "
                                  r"rest did not run; \S*in2\.json: interrupted by SIGINT")
        self.assertNotIn("in1.json", partial)

    @unittest.skipUnless(os.path.exists(POCL_RESULT), "tests/data_skips/pocl-quick.json missing")
    def test_real_run_split_in_two_merges_to_its_own_skip_keys(self):
        with open(POCL_RESULT, encoding="utf-8") as f:
            pocl = json.load(f)
        names = pocl["context"]["gpucmp.skipped_benchmarks"].split(", ")
        cuda = [n for n in names if n.split("/")[1] == "cuda"]
        opencl = [n for n in names if n.split("/")[1] == "opencl"]
        summary = pocl["context"]["gpucmp.skipped"]
        cuda_part, opencl_part = summary.split("; ")
        first = with_skips({"context": dict(pocl["context"]), "benchmarks": pocl["benchmarks"]},
                           cuda, cuda_part)
        second = with_skips({"context": dict(pocl["context"]), "benchmarks": []}, opencl,
                            opencl_part)
        proc, merged = self.run_merge(first, second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(skips_of(merged), (summary, "113", ", ".join(cuda + opencl)))

    def test_unreadable_json_is_exit_2_with_the_file_named(self):
        proc, _ = self.run_merge(report(["a"]), "{not json")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("in1.json", proc.stderr)
        self.assertEqual(proc.stderr.count("\n"), 1)


if __name__ == "__main__":
    unittest.main()
