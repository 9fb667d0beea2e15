#!/usr/bin/env python3
"""Tests scripts/merge_results.py on synthetic Google Benchmark JSON files."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "scripts", "merge_results.py")


def report(names, device="NVIDIA H200", revision="abc"):
    return {"context": {"date": "2026-11-22", "cuda.device": device, "gpucmp.revision": revision},
            "benchmarks": [{"name": n, "real_time": 1.0} for n in names]}


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
            merged = json.load(open(out, encoding="utf-8")) if proc.returncode == 0 else None
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

    def test_unreadable_json_is_exit_2_with_the_file_named(self):
        proc, _ = self.run_merge(report(["a"]), "{not json")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("in1.json", proc.stderr)
        self.assertEqual(proc.stderr.count("\n"), 1)


if __name__ == "__main__":
    unittest.main()
