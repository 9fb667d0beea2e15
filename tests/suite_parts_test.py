#!/usr/bin/env python3
"""Tests the suite's multi-GPU parts, the jacobi part and the rodinia-heartwall part's
requirement (scripts/suite_parts/) without a GPU or a gpucmp-bench: the GPU count fills
"{gpu_counts}", "{cuda_devices}" and "{cl_devices}" (1, 2, 4, 8 GPUs and a count that is no
power of two; nvidia-smi -L where no count is given), the four-rank part runs four ranks on
GPUs 0-3; the jacobi part is a said skip without a checkout in GPUCMP_JACOBI_SRC and, with
one, runs scripts/jacobi_reference.py into jacobi.json (stub nvidia-smi, make, nvcc, mpirun
and Jacobi program: tests/jacobi_reference_test.py's); the rodinia-heartwall part needs a
checkout of Rodinia 3.1 in GPUCMP_RODINIA_SRC and is not in the standard set."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "suite.py")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from suite_parts import parts, tools  # noqa: E402

import jacobi_reference_test  # noqa: E402  (its stubs and stub checkout)
import rodinia_heartwall_test  # noqa: E402  (its stub checkout)

# A gpucmp-bench that lists NVIDIA's OpenCL as platform 1 and does nothing else.
LISTING_BENCH = """#!/bin/sh
if [ "$1" = --list-devices ]; then
  echo "OpenCL platform 0: Portable Computing Language (OpenCL 3.0 PoCL)"
  echo "OpenCL platform 1: NVIDIA CUDA (OpenCL 3.0 CUDA 13.0.0)"
fi
exit 0
"""


def stubs():
    return jacobi_reference_test.write_stubs(os.path.join(tempfile.mkdtemp(), "bin"))


def listing_bench():
    bench = os.path.join(tempfile.mkdtemp(), "gpucmp-bench")
    with open(bench, "w") as f:
        f.write(LISTING_BENCH)
    os.chmod(bench, 0o755)
    return bench


def value(args, option):
    return args[args.index(option) + 1]


def journal(out):
    with open(os.path.join(out, "journal.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


class MultiGpuParts(unittest.TestCase):
    def test_the_gpu_count_fills_the_in_process_parts(self):
        bench = listing_bench()
        inprocess, split = parts.by_name()["multigpu-inprocess"], parts.by_name()["multigpu-split"]
        self.assertTrue(inprocess.standard)
        self.assertEqual((inprocess.min_gpus, inprocess.launcher, inprocess.estimate_s),
                         (2, "", 250))
        for n, counts, cuda, cl in ((2, "1,2", "0,1", "1:0,1:1"),
                                    (3, "1,2", "0,1,2", "1:0,1:1,1:2"),
                                    (4, "1,2,4", "0,1,2,3", "1:0,1:1,1:2,1:3"),
                                    (8, "1,2,4,8", "0,1,2,3,4,5,6,7",
                                     ",".join(f"1:{i}" for i in range(8)))):
            with self.subTest(gpus=n):
                args = tools.fill(inprocess.args, bench, gpus=n)
                self.assertEqual(value(args, "--advection-gpus"), counts)
                self.assertEqual(value(args, "--cuda-split-devices"), cuda)
                self.assertEqual(value(args, "--cl-split-devices"), cl)
                wide = tools.fill(parts.by_name()["multigpu-wide"].args, bench, gpus=n)
                self.assertEqual(value(wide, "--advection-gpus"), counts.partition(",")[2])
                args = tools.fill(split.args, bench, gpus=n)
                self.assertEqual(value(args, "--cuda-split-devices"), cuda)
                self.assertEqual(value(args, "--cl-split-devices"), cl)
                self.assertFalse(any("{" in a for a in args), args)
        # From nvidia-smi -L where no count is given.
        with mock.patch.dict(os.environ, {"PATH": stubs()["PATH"], "FAKE_GPUS": "4"}):
            self.assertEqual(tools.gpu_count(), 4)
            args = tools.fill(inprocess.args, bench)
        self.assertEqual(value(args, "--advection-gpus"), "1,2,4")

    def test_without_nvidia_opencl_the_in_process_parts_are_a_said_skip(self):
        bench = os.path.join(tempfile.mkdtemp(), "gpucmp-bench")
        with open(bench, "w") as f:
            f.write("#!/bin/sh\necho 'OpenCL platform 0: Portable Computing Language'\n")
        os.chmod(bench, 0o755)
        for name in ("multigpu-inprocess", "multigpu-split"):
            self.assertEqual(tools.requirement(parts.by_name()[name], bench),
                             "no NVIDIA OpenCL platform in gpucmp-bench --list-devices", name)

    def test_four_ranks_on_gpus_0_to_3_and_two_on_0_and_1(self):
        bench = listing_bench()
        for name, ranks, gpus, cuda in (("multigpu-judged-4", "4", "4", "0,1,2,3"),
                                        ("multigpu-judged", "2", "1,2", "0,1"),
                                        ("multigpu-advection", "2", "1,2", "0,1")):
            with self.subTest(name):
                part = parts.by_name()[name]
                self.assertEqual(tools.launch_prefix(part)[:5],
                                 ["mpirun", "--bind-to", "none", "-np", ranks])
                args = tools.fill(part.args, bench, gpus=8)  # whatever the machine has
                self.assertEqual(value(args, "--advection-gpus"), gpus)
                self.assertEqual(value(args, "--cuda-split-devices"), cuda)
                self.assertEqual(value(args, "--cl-split-devices"),
                                 ",".join(f"1:{i}" for i in cuda.split(",")))
        self.assertEqual(parts.by_name()["multigpu-judged-4"].min_gpus, 4)


class JacobiPart(unittest.TestCase):
    def test_it_needs_a_checkout(self):
        part = parts.by_name()["jacobi"]
        self.assertEqual((part.tool, part.min_gpus, part.standard, part.estimate_s,
                          part.limit_s), ("jacobi", 2, True, 130, 600))
        self.assertEqual(tools.made(part), "jacobi.json")
        env = {k: v for k, v in os.environ.items() if k != "GPUCMP_JACOBI_SRC"}
        env["PATH"] = stubs()["PATH"]
        with mock.patch.dict(os.environ, env, clear=True):
            self.assertEqual(tools.requirement(part, "gpucmp-bench"),
                             "GPUCMP_JACOBI_SRC is unset: set GPUCMP_JACOBI_SRC to a checkout "
                             "of NVIDIA/multi-gpu-programming-models")
            os.environ["GPUCMP_JACOBI_SRC"] = tempfile.mkdtemp()
            self.assertIn("has no multi_threaded_p2p/jacobi.cu: set GPUCMP_JACOBI_SRC",
                          tools.requirement(part, "gpucmp-bench"))
            os.environ["GPUCMP_JACOBI_SRC"] = jacobi_reference_test.make_src(
                os.path.join(tempfile.mkdtemp(), "src"))
            self.assertIsNone(tools.requirement(part, "gpucmp-bench"))

    def run_suite(self, env):
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = subprocess.run([sys.executable, SCRIPT, "--bench", listing_bench(), "--out", out,
                            "--part", "jacobi", "--no-report"], capture_output=True, text=True,
                           timeout=300, env={**os.environ, **env})
        self.assertEqual(r.returncode, 0, r.stderr)
        return out, r.stderr

    def test_it_runs_or_is_a_said_skip(self):
        # Two GPUs (stub nvidia-smi), so the part is not left out for its min_gpus.
        env = {**stubs(), "GPUCMP_JACOBI_SRC": ""}
        out, stderr = self.run_suite(env)
        self.assertIn("jacobi: skipped: GPUCMP_JACOBI_SRC is unset", stderr)
        entry, = journal(out)
        self.assertIn("set GPUCMP_JACOBI_SRC to a checkout of NVIDIA/multi-gpu-programming-models",
                      entry["skipped"])
        # With a checkout: the stub Jacobi's rows in jacobi.json, its output in jacobi.log.
        env["GPUCMP_JACOBI_SRC"] = jacobi_reference_test.make_src(
            os.path.join(tempfile.mkdtemp(), "src"))
        out, _ = self.run_suite(env)
        entry, = journal(out)
        self.assertEqual((entry["rc"], entry["file"]), (0, "jacobi.json"))
        with open(os.path.join(out, "jacobi.json"), encoding="utf-8") as f:
            rows = json.load(f)["rows"]
        # The part's variants x problems x repetitions, on 2 GPUs.
        self.assertEqual(len(rows), 2 * 4 * 2)
        self.assertTrue(all("seconds" in row and row["gpus"] == 2 for row in rows))
        with open(os.path.join(out, "jacobi.log"), encoding="utf-8") as f:
            self.assertIn("jacobi_reference.py --src", f.read())


class RodiniaPart(unittest.TestCase):
    def test_it_needs_a_checkout_and_is_not_standard(self):
        part = parts.by_name()["rodinia-heartwall"]
        self.assertEqual((part.tool, part.min_gpus, part.standard), ("rodinia", 1, False))
        self.assertEqual(tools.made(part), "rodinia-heartwall.json")
        env = {k: v for k, v in os.environ.items() if k != "GPUCMP_RODINIA_SRC"}
        env["PATH"] = stubs()["PATH"]
        with mock.patch.dict(os.environ, env, clear=True):
            self.assertEqual(tools.requirement(part, "gpucmp-bench"),
                             "GPUCMP_RODINIA_SRC is unset: set GPUCMP_RODINIA_SRC to a checkout "
                             "of Rodinia 3.1 (yuhc/gpu-rodinia 31d0ebf)")
            os.environ["GPUCMP_RODINIA_SRC"] = tempfile.mkdtemp()
            self.assertIn("has no cuda/heartwall/main.cu: set GPUCMP_RODINIA_SRC",
                          tools.requirement(part, "gpucmp-bench"))
            os.environ["GPUCMP_RODINIA_SRC"] = rodinia_heartwall_test.make_src(
                os.path.join(tempfile.mkdtemp(), "src"))
            self.assertIsNone(tools.requirement(part, "gpucmp-bench"))


def bench_filter(part):
    """The part's --benchmark_filter as a Python pattern (Google Benchmark searches)."""
    (text,) = [a for a in part.args if a.startswith("--benchmark_filter=")]
    return re.compile(text.partition("=")[2])


class SingleGpuFilters(unittest.TestCase):
    """The one-GPU parts run the rows scripts/passes_table.py takes as candidates."""

    def test_the_parboil_part_runs_the_forms_and_their_controls(self):
        f = bench_filter(parts.by_name()["parboil"])
        cp, q = "/grid:512/atoms:40000", "/numK:2048/numX:262144"
        apis = ("cuda", "opencl")
        names = [f"cp/{api}/unrollx8{m}{form}{cp}" for api in apis
                 for m in ("", "-ieee", "-fast") for form in ("", "-byvalue", "-prefetch")]
        names += [f"{w}/{api}/{m}{form}{q}" for w in ("mriq", "mrifhd") for api in apis
                  for m in ("precise", "fast") for form in ("", "-prefetch", "-byvalue")]
        names += [f"cp/opencl/unrollx8-fast-ptx-ftz{cp}",
                  f"cp/opencl/unrollx8-fast-byvalue-ptx-ftz{cp}",
                  f"cp/cuda/unrollx8-fast-ldg{cp}", f"mriq/cuda/precise-opencl-ptx{q}"]
        for name in names:
            with self.subTest(name=name):
                self.assertTrue(f.search(name))
        for name in (f"cp/opencl/unrollx8-ptx-O0{cp}", f"mriq/opencl/precise-auto-unroll{q}",
                     f"startup/opencl/cp-unrollx8-byvalue{cp}"):
            with self.subTest(name=name):
                self.assertFalse(f.search(name))

    def test_the_agpu_part_runs_reduce_pipeline_capped_at_40_registers(self):
        f = bench_filter(parts.by_name()["agpu"])
        for v in ("pipeline", "pipeline-regcap40"):
            self.assertTrue(f.search(f"reduce/opencl/{v}/type:int32/n:268435456"))
        self.assertTrue(f.search("reduce/cuda/pipeline/type:int32/n:268435456"))


if __name__ == "__main__":
    unittest.main()
