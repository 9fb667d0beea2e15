#!/usr/bin/env python3
"""Tests the report's "Rodinia's own heartwall beside gpucmp's" section
(sections/rodinia_heartwall.py) on a rodinia-heartwall.json of
scripts/rodinia_heartwall.py and gpucmp's heartwall rows: per API and frame count
Rodinia's median process time over its counted runs and its track's agreement, per
API the fit (the file's where every timed run counts, else recomputed from the
counted ones), gpucmp's rows per layout as a time a frame (median over N), a dash
where a row is missing; the sentence that the two are not one yardstick; failed
runs listed as not measured with their error's first line; OpenCL runs on a
platform other than NVIDIA's (an H200 file made before the script checked: PoCL)
"not on the GPU", never counted, none of their fit shown. The file is found beside
the results or given as an argument (an earlier attempt's too), never read as
results, and so is a suite run's manifest.json; a bad one is one line and exit 2;
no section without one. The fixture is the H200 run's file cut to two frame counts."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))  # as scripts/report.py does
import rodinia_heartwall_rows  # noqa: E402
from gpucmp_report import rodinia_heartwall as report_rodinia  # noqa: E402
from gpucmp_report.sections import rodinia_heartwall as section  # noqa: E402

from report_fixtures import SideInputCase, section_tables, section_text, rows, write_file  # noqa: E402

DEVICE = {"cuda.device": "NVIDIA H200", "opencl.device": "NVIDIA H200", "date": "2026-11-28"}
TITLE = "## Rodinia's own heartwall beside gpucmp's"
NV_LIB = "/usr/local/nvidia/lib64/libnvidia-opencl.so.1"
POCL = ("The pocl project", "cpu-skylake-avx512-Intel(R) Xeon(R) Processor")
# The H200 run's process seconds (rodinia-heartwall.json of 2026-11-28) at 20 and 100 frames.
CUDA_S = {20: (0.534706, 0.490498, 0.49052), 100: (0.689605, 0.848757, 0.778182)}
POCL_S = {20: (2.601114, 2.527993, 2.464548), 100: (11.534312, 12.158416, 12.69851)}
# gpucmp's heartwall medians of the same run (us), per API, frame count and layout.
GPUCMP_US = {("cuda", 20, "aos"): 21451.68, ("cuda", 20, "soa"): 21503.55,
             ("opencl", 20, "aos"): 21871.05, ("opencl", 20, "soa"): 21722.04,
             ("cuda", 100, "aos"): 111637.56, ("cuda", 100, "soa"): 111941.80,
             ("opencl", 100, "aos"): 113788.99}  # no opencl soa at 100


def run(api, frames, repetition, seconds, platform=None, equal=None, max_px=0.0):
    compared = frames * 51
    row = {"api": api, "frames": frames, "repetition": repetition, "seconds": seconds,
           "agreement": {"compared": compared, "equal": compared if equal is None else equal,
                         "max_px": max_px, "first_difference": None}}
    if api == "opencl":
        row.update(platform=platform[0], device=platform[1], total_seconds=seconds * 0.95)
    return row


def failed(api, frames, repetition, error):
    return {"api": api, "frames": frames, "repetition": repetition, "error": error}


def doc(rows_, **reference):
    return {"reference": {"repo": "Rodinia 3.1 (yuhc/gpu-rodinia 31d0ebf is the release)",
                          "src": "/refs/gpu-rodinia", "gpu": "NVIDIA H200",
                          "nvcc": "Cuda compilation tools, release 13.0, V13.0.88",
                          "opencl_icd": NV_LIB, "date": "2026-11-28T09:57:39+00:00",
                          **reference},
            "rows": rows_, "fit": rodinia_heartwall_rows.fit(rows_)}


def h200_doc():
    """The H200 file as the script wrote it before it checked the platform: every OpenCL
    run on PoCL, a number, and in the fit."""
    return doc([run("cuda", f, k, CUDA_S[f][k]) for k in range(3) for f in (20, 100)]
               + [run("opencl", f, k, POCL_S[f][k], POCL) for k in range(3) for f in (20, 100)])


def fixed_doc():
    """As the script writes now, on NVIDIA's OpenCL: one CUDA run crashed at 100 frames,
    one OpenCL run at 20 went to PoCL (an error row), one differs from the reference."""
    nv = ("NVIDIA Corporation", "NVIDIA H200")
    pocl = (f"ran on {POCL[0]} {POCL[1]}, not NVIDIA's OpenCL (the ICD loader ignored "
            f"OCL_ICD_VENDORS=/b/icd and OCL_ICD_FILENAMES={NV_LIB}): WG size of kernel = 256")
    return doc([run("cuda", 20, k, CUDA_S[20][k]) for k in range(3)]
               + [run("cuda", 100, k, CUDA_S[100][k]) for k in range(2)]
               + [failed("cuda", 100, 2, "exit code 139: Segmentation fault\nmore output")]
               + [run("opencl", 20, 0, 0.61, nv), failed("opencl", 20, 1, pocl),
                  run("opencl", 20, 2, 0.63, nv, equal=1019, max_px=2.236)]
               + [run("opencl", 100, k, s, nv) for k, s in enumerate((0.98, 0.96, 1.0))],
               opencl_loader="libOpenCL.so.1 => /usr/lib/x86_64-linux-gnu/libOpenCL.so.1")


def results():
    return {"context": DEVICE, "benchmarks": [
        r for (api, frames, layout), us in GPUCMP_US.items()
        for r in rows(f"heartwall/{api}/base/frames:{frames}/layout:{layout}", [us],
                      time_unit="us", iterations=1)]}


def part(md):
    return section_text(md, TITLE)


def tables(md):
    """[{(API, frames): [cells after those]}] of the section's tables, in order."""
    return section_tables(md, TITLE)


class Section(SideInputCase):
    RESULT = "run/layout.json"

    def results(self):
        return results()

    def test_the_h200_file_beside_the_results_its_pocl_runs_not_counted(self):
        path = write_file(self.tmp, "run/rodinia-heartwall.json", h200_doc())
        md = self.report(self.result)
        self.assertEqual(md.count(f"\n{TITLE}\n"), 1)
        self.assertLess(md.index("## Data layouts"), md.index(TITLE))
        text = part(md)
        self.assertIn(section.YARDSTICK, text)
        self.assertIn(f"`{path}`: Rodinia 3.1 (yuhc/gpu-rodinia 31d0ebf is the release) from "
                      "`/refs/gpu-rodinia`; NVIDIA H200;", text)
        self.assertIn(f"OpenCL library named to the ICD loader: `{NV_LIB}`; the libOpenCL the "
                      "OpenCL program loads: not recorded.", text)
        # CUDA medians 0.49052 and 0.778182 s; the fit through them: 3.596 ms a frame.
        self.assertEqual(tables(md), [{
            ("CUDA", "20"): ["490.5 ms (3 runs)", "3060/3060 equal",
                             "1.073 ms a frame (21.45 ms / 20)",
                             "1.075 ms a frame (21.5 ms / 20)"],
            ("CUDA", "100"): ["778.2 ms (3 runs)", "15300/15300 equal",
                              "1.116 ms a frame (111.6 ms / 100)",
                              "1.119 ms a frame (111.9 ms / 100)"],
            ("CUDA", "fit"): ["3.596 ms a frame, 418.6 ms fixed (over 20, 100)",
                              "all: 18360/18360 equal", "–", "–"],
            ("OpenCL", "20"): ["not on the GPU (The pocl project; 3 runs)", "–",
                               "1.094 ms a frame (21.87 ms / 20)",
                               "1.086 ms a frame (21.72 ms / 20)"],
            ("OpenCL", "100"): ["not on the GPU (The pocl project; 3 runs)", "–",
                                "1.138 ms a frame (113.8 ms / 100)", "–"],
            # The file's OpenCL fit is PoCL's: not shown.
            ("OpenCL", "fit"): ["no fit: under two frame counts with a counted run", "–", "–",
                                "–"]}])
        self.assertIn("- OpenCL, not on the GPU (6 runs at 20, 100 frames): ran on The pocl "
                      "project cpu-skylake-avx512-Intel(R) Xeon(R) Processor", text)
        self.assertIn("this file, made before, holds them as numbers.", text)
        self.assertNotIn("11.53", text)  # no PoCL time anywhere
        self.assertNotIn("results.json` |", text)

    def test_a_file_of_the_fixed_script_counts_nvidias_runs_and_lists_the_failed(self):
        write_file(self.tmp, "run/rodinia-heartwall.json", fixed_doc())
        md = self.report(self.result)
        table, = tables(md)
        self.assertEqual(table[("CUDA", "100")][:2], [
            "848.8 ms (median of 2; 1 not measured)", "10200/10200 equal"])  # the upper middle
        self.assertEqual(table[("OpenCL", "20")][:2], [
            "630 ms (median of 2; 1 not measured)", "2039/2040 equal, at most 2.236 px off"])
        self.assertEqual(table[("OpenCL", "100")][:2], ["980 ms (3 runs)", "15300/15300 equal"])
        # Through the medians 0.63 (upper middle of two) and 0.98: 4.375 ms a frame.
        self.assertEqual(table[("OpenCL", "fit")][0],
                         "4.375 ms a frame, 542.5 ms fixed (over 20, 100)")
        text = part(md)
        self.assertIn("- CUDA, not measured (1 run at 100 frames): exit code 139: "
                      "Segmentation fault\n", text)
        self.assertIn(f"- OpenCL, not measured (1 run at 20 frames): ran on {POCL[0]} {POCL[1]}, "
                      "not NVIDIA's OpenCL (the ICD loader ignored OCL_ICD_VENDORS=/b/icd and "
                      f"OCL_ICD_FILENAMES={NV_LIB}): WG size of kernel = 256\n", text)
        self.assertIn("the OpenCL program loads `libOpenCL.so.1 => "
                      "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1`.", text)
        self.assertNotIn("not on the GPU (", text)

    def test_given_as_arguments_with_an_attempt_and_the_manifest_no_result_files(self):
        kept = write_file(self.tmp, "elsewhere/rodinia-heartwall.attempt-1.json",
                          dict(h200_doc(), partial="stopped by SIGTERM after 7 runs"))
        final = write_file(self.tmp, "elsewhere/rodinia-heartwall.json", fixed_doc())
        manifest = write_file(self.tmp, "elsewhere/manifest.json", {"revision": "abc"})
        md = self.report(self.result, kept, final, manifest)
        self.assertEqual(len(tables(md)), 2)
        text = part(md)
        self.assertIn(f"`{kept}` (an earlier attempt the suite kept): ", text)
        self.assertIn("**Partial:** the run did not finish (stopped by SIGTERM after 7 runs).",
                      text)
        self.assertLess(text.index(f"`{kept}`"), text.index(f"`{final}`"))

    def test_the_files_fit_where_every_run_counts(self):
        d = fixed_doc()
        d["fit"]["cuda"] = {"seconds_per_frame": 0.5, "intercept_seconds": 1.0,
                            "frames": [20, 100]}
        got, = report_rodinia.load([write_file(self.tmp, "f/rodinia-heartwall.json", d)])
        self.assertEqual(got.fitted("cuda"), (0.5, 1.0, [20, 100]))  # a failed run: not timed
        got.rows[0].update(platform=None)  # a CUDA row has no platform: still counted
        self.assertEqual(got.fitted("cuda"), (0.5, 1.0, [20, 100]))

    def test_no_section_without_the_file(self):
        self.assertNotIn(TITLE, self.report(self.result))

    def test_a_bad_file_is_one_line_and_exit_2(self):
        good = fixed_doc()
        first = good["rows"][0]
        bad_rows = (
            ("api", dict(first, api="hip"), "rows[0]: \"api\" is not cuda or opencl"),
            ("frames", dict(first, frames="20"), "rows[0]: \"frames\" is not a whole number"),
            ("seconds", {k: v for k, v in first.items() if k != "seconds"},
             "rows[0]: \"seconds\" is not a positive number (and no \"error\")"),
            ("agreement", dict(first, agreement={"compared": 3, "equal": 4}),
             "rows[0]: \"agreement\" is not an object of whole numbers"),
            ("error", failed("cuda", 20, 0, ["exit"]), "rows[0]: \"error\" is not a string"),
            ("platform", dict(first, platform=7), "rows[0]: \"platform\" is not a string"))
        cases = [("not json", "{", "not valid JSON"),
                 ("no rows", {"reference": {}}, "not a rodinia-heartwall.json of "
                  "scripts/rodinia_heartwall.py"),
                 ("fit", dict(good, fit={"cuda": {"seconds_per_frame": "x"}}),
                  "fit.cuda: not an API's line")]
        cases += [(name, dict(good, rows=[row]), words) for name, row, words in bad_rows]
        for name, content, words in cases:
            with self.subTest(name):
                path = write_file(self.tmp, "bad/rodinia-heartwall.json", content)
                self.assert_bad_input(path, words)


if __name__ == "__main__":
    unittest.main()
