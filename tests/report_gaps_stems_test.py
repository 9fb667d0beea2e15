#!/usr/bin/env python3
"""Tests the stem entries of explanations.json ("workload/<variant prefix>*": one
cause for the variants that differ by a parameter in their name) and the tuned
rows (variant best) in "Why each gap" of scripts/report.py
(scripts/gpucmp_report/sections/gaps.py), on synthetic input as
report_gaps_test.py."""
import os
import subprocess
import sys
import unittest

from report_gaps_test import REPORT, Case, doc


class Stems(Case):
    def test_a_stem_entry_explains_its_variants_and_tuned_rows_are_left_to_at_best(self):
        # "ceiling/launch*" explains launch and launch-spin-512, not the fma pair; the
        # longest stem wins; the tuned rows (best) are counted, not listed.
        spin = "each API's launch path"
        causes = {"ceiling/launch*": {"cause": spin, "evidence": "launch-spin"},
                  "ceiling/l*": {"cause": "too short a stem", "evidence": "none"}}
        times = {f"ceiling/{api}/{v}": t for v, c, o in
                 (("launch", 4.0, 5.0), ("launch-spin-512", 4.0, 5.2), ("fma", 4.0, 5.0))
                 for api, t in (("cuda", c), ("opencl", o))}
        times.update({"cp/cuda/best/grid:512/atoms:40000": 10.0,
                      "cp/opencl/best/grid:512/atoms:40000": 12.5})
        self.write("res/suite.json", doc(times))
        self.write("res/explanations.json", causes)
        md = self.report(os.path.join(self.tmp, "res", "explanations.json"),
                         os.path.join(self.tmp, "res", "suite.json"))
        why = md[md.index("## Why each gap"):]
        for v in ("launch", "launch-spin-512"):
            block = why[why.index(f"### ceiling {v}\n"):]
            block = block[:block.index("\n### ") if "\n### " in block else len(block)]
            self.assertIn(f"- Cause: {spin} (evidence: launch-spin)", block)
        fma = why[why.index("### ceiling fma"):]
        self.assertIn("- Cause: unexplained.", fma[:fma.index("\n\n", fma.index("Cause"))])
        self.assertNotIn("### cp best", why)
        self.assertIn("Not here: 1 pair(s) of tuned rows (`best`", why)

    def test_a_stem_entry_with_parameters_is_exit_2(self):
        self.write("res/suite.json", doc({"ceiling/cuda/launch": 4.0,
                                          "ceiling/opencl/launch": 5.0}))
        stem = self.write("res/stem/explanations.json",
                          {"ceiling/launch/n:1*": {"cause": "c", "evidence": "e"}})
        suite = os.path.join(self.tmp, "res", "suite.json")
        proc = subprocess.run([sys.executable, REPORT, stem, suite, "--no-plots",
                               "--out-dir", os.path.join(self.tmp, "o")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("a stem entry is workload/<variant prefix>*", proc.stderr)


if __name__ == "__main__":
    unittest.main()
