#!/usr/bin/env python3
"""Tests what scripts/rodinia_heartwall.py reads of a run of Rodinia 3.1's
heartwall (rodinia_heartwall_rows.py: the OpenCL version's stage times and
platform, the frame progress, result.txt and its agreement with the reference,
the fit over the medians), the row it makes of one run (an OpenCL run on a
platform other than NVIDIA's is an error row where NVIDIA's library was named
to the ICD loader, a row where none was) and ldd's libOpenCL line of the built
OpenCL program (rodinia_heartwall_build.py; None without ldd or a program), on
the sample outputs of rodinia_heartwall_fixtures.py. No program runs but stub
ldd."""
import os
import shutil
import sys
import tempfile
import unittest
import unittest.mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
sys.path.insert(0, HERE)
import rodinia_heartwall  # noqa: E402
import rodinia_heartwall_build  # noqa: E402
import rodinia_heartwall_rows  # noqa: E402
from rodinia_heartwall_fixtures import (CUDA_SAMPLE, OPENCL_SAMPLE, POCL_SAMPLE,  # noqa: E402
                                        POINTS, result_txt)


class Parsing(unittest.TestCase):
    def test_the_opencl_versions_stage_times(self):
        stages, total = rodinia_heartwall_rows.opencl_times(OPENCL_SAMPLE)
        self.assertEqual(stages, {"READ INITIAL VIDEO FRAME": 0.000061,
                                  "READ COMMAND LINE PARAMETERS": 0.000001,
                                  "READ INPUTS FROM FILE": 0.00005,
                                  "GPU ALLOCATION, COPYING, COMPUTATION": 0.502383,
                                  "FREE MEMORY": 0.000157})
        self.assertEqual(total, 0.502652)
        self.assertEqual(rodinia_heartwall_rows.opencl_times(CUDA_SAMPLE), (None, None))
        cut = OPENCL_SAMPLE.replace(" 0.000157000000 s,  0.031234000000 % : FREE MEMORY\n", "")
        self.assertEqual(rodinia_heartwall_rows.opencl_times(cut), (None, None))
        self.assertEqual(rodinia_heartwall_rows.opencl_names(OPENCL_SAMPLE),
                         ("NVIDIA Corporation", "NVIDIA H100 80GB HBM3"))

    def test_the_frame_progress(self):
        self.assertTrue(rodinia_heartwall_rows.progress_done(CUDA_SAMPLE, 5))
        self.assertFalse(rodinia_heartwall_rows.progress_done(CUDA_SAMPLE, 6))
        self.assertFalse(rodinia_heartwall_rows.progress_done("frame progress: \n", 5))
        self.assertFalse(rodinia_heartwall_rows.progress_done("WG size of kernel = 256\n", 2))

    def test_result_txt_and_its_agreement(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "result.txt")
            with open(path, "w") as f:
                f.write(result_txt(4, 104))
            mine = rodinia_heartwall_rows.read_track(path)
            with open(path, "w") as f:
                f.write(result_txt(4, 104, shift=True))
            moved = rodinia_heartwall_rows.read_track(path)
            self.assertIsNone(rodinia_heartwall_rows.read_track(os.path.join(tmp, "none.txt")))
        self.assertEqual(sorted(mine), [0, 1, 2, 3])
        self.assertEqual(mine[3][0], (103, 200))
        self.assertEqual(mine[1][4], (321, 420))
        self.assertEqual(rodinia_heartwall_rows.agreement(mine, mine, 4),
                         {"compared": 20, "equal": 20, "max_px": 0.0, "first_difference": None})
        self.assertEqual(rodinia_heartwall_rows.agreement(moved, mine, 4), {
            "compared": 20, "equal": 19, "max_px": 5.0,
            "first_difference": {"frame": 2, "point": 1, "rodinia": [115, 214],
                                 "reference": [112, 210]}})
        self.assertIn("frame 4 missing", rodinia_heartwall_rows.agreement(mine, mine, 5))

    def test_the_fit_leaves_the_fixed_cost_out(self):
        rows = [{"api": "cuda", "frames": f, "seconds": 0.5 + 0.01 * f + e}
                for f in (20, 40) for e in (0.0, 0.001, 0.3)]
        fit = rodinia_heartwall_rows.fit(rows + [{"api": "opencl", "frames": 20, "error": "x"}])
        self.assertEqual(list(fit), ["cuda"])
        self.assertAlmostEqual(fit["cuda"]["seconds_per_frame"], 0.01)
        self.assertAlmostEqual(fit["cuda"]["intercept_seconds"], 0.501)

    def test_the_platform_names_nvidias_opencl(self):
        self.assertEqual(rodinia_heartwall_rows.opencl_names(POCL_SAMPLE),
                         ("The pocl project", "cpu-skylake-avx512-Intel(R) Xeon(R) Processor"))
        for platform, nvidia in (("NVIDIA Corporation", True), ("NVIDIA CUDA", True),
                                 ("The pocl project", False), ("Intel(R) Corporation", False),
                                 (None, False)):
            self.assertEqual(rodinia_heartwall_rows.on_nvidia(platform), nvidia, platform)


class Rows(unittest.TestCase):
    """row_of on the stub outputs: the platform check only where NVIDIA's library was named."""

    TRACK = {f: [(r + f, c) for r, c in POINTS] for f in range(5)}
    ICD = {"OCL_ICD_VENDORS": "/b/icd", "OCL_ICD_FILENAMES": "/lib/libnvidia-opencl.so.1"}

    def row(self, out, icd):
        ident = {"api": "opencl", "frames": 5, "repetition": 0}
        return rodinia_heartwall.row_of(ident, 0, out, 1.5, self.TRACK, self.TRACK, icd)

    def test_another_platform_is_an_error_where_nvidias_library_was_named(self):
        row = self.row(POCL_SAMPLE, self.ICD)
        self.assertNotIn("seconds", row)
        self.assertTrue(row["error"].startswith(
            "ran on The pocl project cpu-skylake-avx512-Intel(R) Xeon(R) Processor, not NVIDIA's "
            "OpenCL (the ICD loader ignored OCL_ICD_VENDORS=/b/icd and "
            "OCL_ICD_FILENAMES=/lib/libnvidia-opencl.so.1): "), row["error"])
        self.assertIn("Total time:", row["error"])  # the end of its output
        self.assertEqual(self.row(OPENCL_SAMPLE, self.ICD)["platform"], "NVIDIA Corporation")
        unnamed = OPENCL_SAMPLE.replace("\tPlatform 0: NVIDIA Corporation\n", "")
        self.assertIn("ran on (a platform it did not name) NVIDIA H100 80GB HBM3, not NVIDIA's",
                      self.row(unnamed, self.ICD)["error"])

    def test_without_nvidias_library_named_a_pocl_run_is_a_row(self):
        for icd in (None, {}):
            row = self.row(POCL_SAMPLE, icd)
            self.assertEqual((row["seconds"], row["platform"]), (1.5, "The pocl project"))


class Loader(unittest.TestCase):
    """The libOpenCL the built OpenCL program loads, by ldd."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rodinia_heartwall_ldd_")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.program = os.path.join(self.tmp, "heartwall")
        open(self.program, "w").close()

    def loader(self, ldd_text, program=True):
        bin_dir = os.path.join(self.tmp, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        if ldd_text is not None:
            path = os.path.join(bin_dir, "ldd")
            with open(path, "w") as f:
                f.write(f"#!/bin/sh\nprintf '{ldd_text}'\n")
            os.chmod(path, 0o755)
        with unittest.mock.patch.dict(os.environ, {"PATH": bin_dir}):
            return rodinia_heartwall_build.opencl_loader(self.program if program else None)

    def test_the_libopencl_line_without_its_address(self):
        self.assertEqual(self.loader("\\tlibOpenCL.so.1 => /usr/lib/libOpenCL.so.1 "
                                     "(0x00007f2a1c000000)\\n"),
                         "libOpenCL.so.1 => /usr/lib/libOpenCL.so.1")
        self.assertEqual(self.loader("\\tlibOpenCL.so.1 => not found\\n"),
                         "libOpenCL.so.1 => not found")
        self.assertEqual(self.loader("\\tlibc.so.6 => /lib/libc.so.6 (0x1)\\n"),
                         rodinia_heartwall_build.NO_LOADER_LINE)

    def test_none_without_ldd_or_a_program(self):
        self.assertIsNone(self.loader(None))
        self.assertIsNone(self.loader("\\tlibOpenCL.so.1 => /x (0x1)\\n", program=False))


if __name__ == "__main__":
    unittest.main()
