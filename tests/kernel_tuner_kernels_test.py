#!/usr/bin/env python3
"""Tests the kernels scripts/kernel_tuner_side.py hands Kernel Tuner
(scripts/worksize_kernels.py) and, where they are there, the real Kernel Tuner and NVRTC.
`KernelSources`: the kernels' sources pair across the APIs, arguments come in order
and type, and what does not parse (scripts/worksize_kernels.py) is a KernelError
naming it.

`PoclEndToEnd` (CTest kernel_tuner_side_pocl) runs the real Kernel Tuner on PoCL's
OpenCL device at tiny sizes, `CudaUnderNvrtc` (kernel_tuner_side_nvrtc) compiles the
CUDA kernels with NVRTC as Kernel Tuner's CUDA backend does; each skips, saying so,
where kernel_tuner, pyopencl or an OpenCL device, or cuda-python's NVRTC, is not
there. Run alone: kernel_tuner_kernels_test.py KernelSources|PoclEndToEnd|CudaUnderNvrtc."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import kernel_tuner_runs  # noqa: E402
import worksize_kernels  # noqa: E402
from kernel_tuner_fixtures import SCRIPT, STRATEGIES, gbench_rows, write_json  # noqa: E402

SKIPPED = "kernel_tuner_kernels_test: SKIPPED"


class KernelSources(unittest.TestCase):
    """scripts/worksize_kernels.py: the repository's kernels, their signatures and
    arguments; what does not parse is a KernelError."""

    def test_the_four_kernels_pair(self):
        for kernel in worksize_kernels.KERNELS:
            cl = worksize_kernels.signature(
                worksize_kernels.read(f"opencl/worksize/{kernel}.cl"), kernel)
            cu = worksize_kernels.signature(worksize_kernels.cuda_source(kernel), kernel)
            self.assertEqual(cl[0], cu[0])
            self.assertEqual([p[0] for p in cl[1]], [p[0] for p in cu[1]])
            self.assertEqual([p[2] for p in cl[1]], [p[2] for p in cu[1]])

    def test_arguments_in_order_and_type(self):
        import numpy as np
        values, size, tuned = worksize_kernels.problem("bilinear", {"in": "8", "out": "16"})
        self.assertEqual(size, (16, 16))
        _, params = worksize_kernels.signature(
            worksize_kernels.read("opencl/worksize/bilinear.cl"), "bilinear")
        args, described = worksize_kernels.arguments(values, params, "bilinear")
        self.assertEqual([type(a).__name__ for a in args],
                         ["ndarray", "ndarray"] + ["int32"] * 3 + ["float32"] * 2
                         + ["int32"] * 2)
        self.assertEqual(args[0].size, 256)
        self.assertEqual(args[1].dtype, np.float32)
        self.assertEqual(described[5], {"name": "scale_x", "type": "float", "value": 0.5})
        self.assertEqual(tuned, "the kernel, one launch")

    def test_what_does_not_parse(self):
        two = "__kernel void a(int x) {}\n__kernel void b(int y) {}"
        cases = [
            (lambda: worksize_kernels.signature(two, "two.cl"), "two.cl: 2 kernels"),
            (lambda: worksize_kernels.signature("__kernel void a(int x[4]) {}", "a.cl"),
             "parameter 'int x[4]' does not parse"),
            (lambda: worksize_kernels.arguments({}, [("n", "int", False)], "k.cl"),
             "no value for its parameter 'n'"),
            (lambda: worksize_kernels.arguments({"n": 1}, [("n", "double", False)], "k.cl"),
             "parameter 'n' has type 'double'"),
            (lambda: worksize_kernels.problem("sort", {"n": "many"}),
             "sort: rows without the parameter n:<n>")]
        for call, words in cases:
            with self.assertRaises(worksize_kernels.KernelError) as e:
                call()
            self.assertIn(words, str(e.exception))


def have(*modules):
    import importlib.util
    return all(importlib.util.find_spec(m) is not None for m in modules)


class PoclEndToEnd(unittest.TestCase):
    """The real Kernel Tuner on PoCL, tiny sizes."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kt-side-pocl-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def skip(self, why):
        print(f"{SKIPPED}: {why}", flush=True)
        self.skipTest(why)

    def test_opencl_end_to_end(self):
        if not have("kernel_tuner", "pyopencl"):
            self.skip("kernel_tuner or pyopencl is not importable (requirements.txt)")
        import pyopencl
        try:
            if not any(p.get_devices() for p in pyopencl.get_platforms()):
                self.skip("no OpenCL device")
        except pyopencl.Error as e:
            self.skip(f"no OpenCL platform ({e})")
        # Every legal shape of tiny problems (as gpucmp's sweep lists them): Kernel
        # Tuner's genetic_algorithm can stall on a sparse 2-D space (--run-timeout).
        two_d = [f"{x}x{y}" for x in (1, 2, 4, 8) for y in (1, 2, 4, 8)]
        sweep = write_json(os.path.join(self.dir, "sweep.json"), gbench_rows(
            [(f"mmnaive/opencl/base/n:8/local:{s}", {}) for s in two_d] +
            [(f"bilinear/opencl/base/in:4/out:8/local:{s}", {}) for s in two_d] +
            [(f"sort/opencl/bitonic/n:64/local:{1 << i}", {}) for i in range(6)] +
            [(f"trapezoid/opencl/base/items:64/local:{1 << i}", {}) for i in range(7)]))
        out = os.path.join(self.dir, "kt.json")
        r = subprocess.run([sys.executable, SCRIPT, "--out", out, "--sweep", sweep,
                            "--backends", "opencl", "--seeds", "1,2", "--iterations", "1",
                            "--run-timeout", "120"],
                           capture_output=True, text=True, timeout=900, check=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["backends"]["opencl"]["status"], "ok")
        self.assertEqual(doc["backends"]["cuda"]["status"], "skipped")
        self.assertEqual(doc["tool"]["kernel_tuner"], "1.5.0")
        for k in doc["kernels"]:
            entry = k["backends"]["opencl"]
            self.assertEqual(entry["status"], "ok", k["label"])
            cands = entry["candidates"]
            timed = [e for e in entry["runs"][0]["evaluated"] if "time_ms" in e]
            self.assertEqual(sorted(e["shape"] for e in entry["runs"][0]["evaluated"]),
                             sorted(cands), k["label"])
            self.assertTrue(timed and all(e["time_ms"] > 0 for e in timed), k["label"])
            self.assertIn(entry["exhaustive"]["pick"], cands)
            for run in entry["runs"][1:]:
                self.assertNotIn("error", run, (k["label"], run["strategy"]))
                self.assertLessEqual(len({e["shape"] for e in run["evaluated"]}),
                                     entry["budget"], (k["label"], run["strategy"]))
                self.assertIn(run["pick"], cands)
            for name in STRATEGIES:
                self.assertIn(entry["strategies"][name]["worst"]["pick"], cands)
        words = r.stdout.split()
        self.assertEqual(words[0::2], ["--mmnaive-local", "--bilinear-local", "--sort-local",
                                       "--trapezoid-local"])



class CudaUnderNvrtc(unittest.TestCase):
    """The CUDA kernels as Kernel Tuner's nvcuda backend compiles them."""

    def skip(self, why):
        print(f"{SKIPPED}: {why}", flush=True)
        self.skipTest(why)

    def test_cuda_kernels_compile_under_nvrtc(self):
        if not have("cuda.bindings"):
            self.skip("cuda-python is not importable (requirements.txt)")
        kernel_tuner_runs.cuda_home()
        try:
            from cuda.bindings import nvrtc
            err, prog = nvrtc.nvrtcCreateProgram(b"__global__ void k() {}", b"k.cu", 0, [], [])
        except Exception as e:  # noqa: BLE001  no libnvrtc here
            self.skip(f"NVRTC does not load ({e})")
        for kernel in worksize_kernels.KERNELS:
            source = worksize_kernels.cuda_source(kernel)
            name, _ = worksize_kernels.signature(source, kernel)
            # As Kernel Tuner's nvcuda backend: its defines first, the name expression.
            text = "#define block_size_x 32\n#define block_size_y 1\n#define block_size_z 1\n" \
                   "#define kernel_tuner 1\n" + source
            err, prog = nvrtc.nvrtcCreateProgram(text.encode(), b"k.cu", 0, [], [])
            self.assertEqual(err, nvrtc.nvrtcResult.NVRTC_SUCCESS)
            nvrtc.nvrtcAddNameExpression(prog, name.encode())
            opts = [b"--std=c++11", b"--gpu-architecture=compute_90"]
            err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
            _, size = nvrtc.nvrtcGetProgramLogSize(prog)
            log = b" " * size
            nvrtc.nvrtcGetProgramLog(prog, log)
            self.assertEqual(err, nvrtc.nvrtcResult.NVRTC_SUCCESS, (kernel, log.decode()))
            err, lowered = nvrtc.nvrtcGetLoweredName(prog, name.encode())
            self.assertEqual(err, nvrtc.nvrtcResult.NVRTC_SUCCESS, kernel)
            self.assertIn(name.encode(), lowered)


if __name__ == "__main__":
    unittest.main()
