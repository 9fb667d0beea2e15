#!/usr/bin/env python3
"""Tests scripts/jacobi_reference.py without a GPU: stub nvidia-smi, nvcc, make and
mpirun on PATH, and a stub Jacobi program that the stub make writes, print what
the real ones print. Bad arguments are one line and exit 2; the csv line is
parsed (and a line of another variant, grid or GPU count is not taken); every
variant is built in a copy (never in --src, the Makefile's C++ standard raised for
nvcc 13, BUILD_SM_ARCH from compute_cap) and run per problem, GPU count and
repetition (multi_threaded_* over CUDA_VISIBLE_DEVICES, the MPI ones under mpirun
-np G with NCCL_NVLS_ENABLE=0); a run without its line, with a nonzero exit or past
its timeout and a variant that does not build are error rows with the end of
their output, and exit 1; GPU counts the machine does not have are left out and
said; the JSON is the documented one; the judged problems match the report's."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
SCRIPT = os.path.join(SCRIPTS, "jacobi_reference.py")
sys.path.insert(0, SCRIPTS)
import jacobi_reference  # noqa: E402
from gpucmp_report.sections import advection  # noqa: E402

STUBS = {
    # -L (the suite's count), name,driver_version (its manifest), name,compute_cap.
    "nvidia-smi": """#!/bin/sh
i=0
while [ "$i" -lt "${FAKE_GPUS:-2}" ]; do
  case "$*" in
    -L) echo "GPU $i: NVIDIA H100 80GB HBM3 (UUID: GPU-$i)" ;;
    *driver_version*) echo "NVIDIA H100 80GB HBM3, 580.159.04" ;;
    *) echo "NVIDIA H100 80GB HBM3, 9.0" ;;
  esac
  i=$((i+1))
done
""",
    "nvcc": """#!/bin/sh
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Cuda compilation tools, release 13.0, V13.0.88"
""",
    "mpirun": """#!/bin/sh
[ -n "$OMPI_ALLOW_RUN_AS_ROOT" ] || [ "$(id -u)" != 0 ] || { echo "root needs OMPI_ALLOW"; exit 1; }
while [ "$1" != env ]; do
  case "$1" in -np) FAKE_NP="$2"; shift 2 ;; *) shift ;; esac
done
export FAKE_NP
exec "$@"
""",
    # Records each build; fails where FAKE_BUILD_FAIL names the folder; else writes ./jacobi.
    "make": """#!/bin/sh
v=$(basename "$PWD")
echo "$v $* $(grep -o 'std=c++1[47]' Makefile | head -1)" >> "$FAKE_LOG"
if [ "$v" = "$FAKE_BUILD_FAIL" ]; then echo "jacobi.cu(1): error: no such header"; exit 2; fi
cp "$FAKE_PROGRAM" jacobi && chmod +x jacobi
""",
}
# The stub program: prints its csv line as the real one does; FAKE_MODE_<variant> makes it
# print none (a wrong result), crash, hang, or name another GPU count.
PROGRAM = f"""#!{sys.executable}
import os, sys, time
variant = os.path.basename(os.getcwd())
a = sys.argv
nx, ny, n = (int(a[a.index(k) + 1]) for k in ("-nx", "-ny", "-niter"))
gpus = int(os.environ.get("FAKE_NP") or len(os.environ["CUDA_VISIBLE_DEVICES"].split(",")))
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(f"run {{variant}} {{' '.join(a[1:])}} np={{os.environ.get('FAKE_NP', '-')}} "
            f"cvd={{os.environ['CUDA_VISIBLE_DEVICES']}} "
            f"nvls={{os.environ.get('NCCL_NVLS_ENABLE')}}\\n")
mode = os.environ.get("FAKE_MODE_" + variant, "")
serial = nx * ny * n * 1e-12
if mode == "noline":
    print("ERROR: a[1 * 2048 + 1] = 0.5 does not match 0.25 (reference)")
    sys.exit(0)
if mode == "crash":
    print("CUDA RT call failed: cudaErrorMemoryAllocation")
    sys.exit(3)
if mode == "hang":
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write(f"pid {{os.getpid()}}\\n")
    time.sleep(60)
if mode == "wronggpus":
    gpus += 1
t = serial / gpus / 0.8
print(f"{{variant}}, {{nx}}, {{ny}}, {{n}}, {{n}}, {{gpus}}, 1, {{t:f}}, {{serial:f}}")
"""


def write_stubs(bin_dir):
    """The stubs in bin_dir; the environment that puts them first on PATH (FAKE_LOG:
    what they did, beside bin_dir; two GPUs)."""
    os.makedirs(bin_dir)
    for name, text in {**STUBS, "fake-jacobi": PROGRAM}.items():
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return {"PATH": bin_dir + os.pathsep + os.environ["PATH"],
            "FAKE_LOG": os.path.join(os.path.dirname(bin_dir), "log.txt"),
            "FAKE_PROGRAM": os.path.join(bin_dir, "fake-jacobi"), "FAKE_GPUS": "2"}


def make_src(root, variants=("multi_threaded_p2p", "nccl_overlap", "nccl_graphs")):
    for v in variants:
        os.makedirs(os.path.join(root, v))
        with open(os.path.join(root, v, "Makefile"), "w") as f:
            f.write("GENCODE_SM90 := -gencode arch=compute_90,code=sm_90\n"
                    "NVCC_FLAGS += -std=c++14\n")
        with open(os.path.join(root, v, "jacobi.cu" if v.startswith("multi") else "jacobi.cpp"),
                  "w") as f:
            f.write("// stub\n")
    return root


def tree(root):
    """{relative path: content} of every file under root."""
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


class Work(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="jacobi_reference_test_")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.env = write_stubs(os.path.join(self.tmp, "bin"))
        self.src = make_src(os.path.join(self.tmp, "src"))
        self.out = os.path.join(self.tmp, "jacobi.json")
        self.log = self.env["FAKE_LOG"]

    def run_script(self, *args, env=None, src=True, out=True):
        argv = (["--src", self.src] if src else []) + (["--out", self.out] if out else [])
        base = {k: v for k, v in os.environ.items() if k != "NCCL_HOME"}
        return subprocess.run([sys.executable, SCRIPT, *argv, *args], capture_output=True,
                              text=True, timeout=120, env={**base, **self.env, **(env or {})})

    def document(self):
        with open(self.out, encoding="utf-8") as f:
            return json.load(f)

    def log_lines(self, prefix):
        with open(self.log, encoding="utf-8") as f:
            return [line.split() for line in f if line.startswith(prefix)]


class BadArguments(Work):
    def test_one_line_and_exit_2(self):
        missing = os.path.join(self.tmp, "no-such-folder", "j.json")
        for args, words in (
                (["--variants", "multi_threaded_p2p,nvshmem_magic"],
                 "unknown variant 'nvshmem_magic'"),
                (["--gpus", "2,0"], "--gpus: 0: a GPU count is 1 or more"),
                (["--gpus", "two"], "--gpus: 'two' is not a whole number"),
                (["--problems", "1,6"], "--problems: unknown problem 6"),
                (["--repetitions", "0"], "--repetitions: 0: at least 1"),
                (["--src", self.tmp], "not a checkout of NVIDIA/multi-gpu-programming-models"),
                (["--out", missing], "no folder"),
                (["--variants", "nccl"], "no nccl/Makefile"),
                (["--gpus", "4"], "no GPU count of 2 or more to run: --gpus 4 and nvidia-smi "
                                  "lists 2 GPUs")):
            with self.subTest(args):
                r = self.run_script(*args, src="--src" not in args, out="--out" not in args)
                self.assertEqual(r.returncode, 2, r.stderr)
                lines = r.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertTrue(lines[0].startswith("jacobi_reference: error: "), lines[0])
                self.assertIn(words, lines[0])
                self.assertFalse(os.path.exists(self.out))
                self.assertFalse(os.path.exists(self.log))  # nothing built

    def test_one_gpu_here_is_nothing_to_run(self):
        r = self.run_script(env={"FAKE_GPUS": "1"})
        self.assertEqual(r.returncode, 2)
        self.assertIn("nvidia-smi lists 1 GPUs", r.stderr)


class CsvLine(unittest.TestCase):
    def test_the_variants_line_is_parsed(self):
        out = ("Jacobi relaxation: 1000 iterations\n"
               "nccl_graphs, 4096, 4096, 10240, 10240, 2, 1, 0.51, 0.98\n"
               "nccl_overlap, 4096, 4096, 10240, 10240, 2, 1, 0.500000, 0.990000\n")
        self.assertEqual(jacobi_reference.csv_result("nccl_overlap", out), {
            "nx": 4096, "ny": 4096, "iterations": 10240, "nccheck": 10240, "gpus": 2,
            "seconds": 0.5, "serial_seconds": 0.99})
        self.assertIsNone(jacobi_reference.csv_result("nccl", out))  # a prefix is not it
        self.assertIsNone(jacobi_reference.csv_result("nccl_overlap", "nccl_overlap, 1, 2\n"))

    def test_a_row_of_another_problem_is_an_error(self):
        ident = {"variant": "nccl", "problem": "P1", "nx": 2048, "ny": 2048,
                 "iterations": 20480, "gpus": 2, "repetition": 0}
        line = jacobi_reference.csv_result("nccl", "nccl, 2048, 2048, 20480, 20480, 4, 1, "
                                           "0.25, 1.0\n")
        row = jacobi_reference.row_of(ident, line, "...", 0)
        self.assertIn("on 4 GPUs", row["error"])
        good = dict(line, gpus=2)
        self.assertEqual(jacobi_reference.row_of(ident, good, "", 0),
                         {**ident, "seconds": 0.25, "serial_seconds": 1.0, "speedup": 4.0})
        self.assertTrue(jacobi_reference.row_of(ident, good, "x\nboom\n", 6)["error"]
                        .startswith("exit code 6: x\nboom"))

    def test_the_problems_are_the_reports_judged_problems(self):
        for name, nx, ny, steps, _, _ in advection.CHALLENGE_2010:
            self.assertEqual(jacobi_reference.PROBLEMS[int(name[1:])], (nx, ny, steps), name)


class Runs(Work):
    def test_every_run_a_row_built_in_a_copy(self):
        before = tree(self.src)
        build = os.path.join(self.tmp, "build")
        r = self.run_script("--problems", "1,5", "--repetitions", "2", "--gpus", "1,2,4",
                            "--build-dir", build, env={"FAKE_GPUS": "2"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(tree(self.src), before)  # --src untouched
        doc = self.document()
        ref = doc["reference"]
        self.assertEqual(ref["repo"], "NVIDIA/multi-gpu-programming-models")
        self.assertIsNone(ref["commit"])  # not a git checkout
        self.assertEqual(ref["nvcc"], "Cuda compilation tools, release 13.0, V13.0.88")
        self.assertEqual((ref["gpu"], ref["gpus_here"], ref["compute_cap"]),
                         ("NVIDIA H100 80GB HBM3", 2, "90"))
        self.assertIn("runtime_serial", ref["one_gpu"])
        self.assertIn("-std=c++17", ref["build"])
        self.assertEqual(ref["left_out"], ["gpus 1: the one-GPU time is each run's "
                                           "serial_seconds", "gpus 4: 2 GPUs here"])
        self.assertNotIn("partial", doc)
        rows = doc["rows"]
        self.assertEqual(len(rows), 3 * 2 * 2)  # variants x problems x repetitions
        first = rows[0]
        serial = 2048 * 2048 * 20480 * 1e-12
        self.assertEqual(set(first), {"variant", "problem", "nx", "ny", "iterations", "gpus",
                                      "repetition", "seconds", "serial_seconds", "speedup"})
        self.assertEqual({k: first[k] for k in ("variant", "problem", "nx", "ny", "iterations",
                                                "gpus", "repetition")},
                         {"variant": "multi_threaded_p2p", "problem": "P1", "nx": 2048,
                          "ny": 2048, "iterations": 20480, "gpus": 2, "repetition": 0})
        self.assertAlmostEqual(first["serial_seconds"], round(serial, 6))
        self.assertAlmostEqual(first["speedup"], first["serial_seconds"] / first["seconds"])
        self.assertEqual([(r["problem"], r["repetition"]) for r in rows[::3]],
                         [("P1", 0), ("P5", 0), ("P1", 1), ("P5", 1)])  # interleaved
        # Built once each, in the copy, for compute capability 9.0, with C++17.
        builds = self.log_lines("multi_threaded_p2p -B") + self.log_lines("nccl")
        self.assertEqual(len(builds), 3, builds)
        for words in builds:
            self.assertEqual(words[1:3], ["-B", "BUILD_SM_ARCH=90"])
            self.assertEqual(words[-1], "std=c++17")
        self.assertTrue(os.path.isfile(os.path.join(build, "nccl_graphs", "jacobi")))
        runs = self.log_lines("run ")
        p2p = [w for w in runs if w[1] == "multi_threaded_p2p"][0]
        self.assertEqual(p2p[2:12], ["-nx", "2048", "-ny", "2048", "-niter", "20480",
                                     "-nccheck", "20480", "-csv", "np=-"])
        self.assertIn("cvd=0,1", p2p)
        nccl = [w for w in runs if w[1] == "nccl_overlap"][0]
        self.assertIn("np=2", nccl)
        self.assertIn("nvls=0", nccl)

    def test_failures_are_error_rows_and_exit_1(self):
        make_src(self.src, ("nccl",))
        r = self.run_script("--problems", "2", "--repetitions", "1", "--run-timeout", "3",
                            "--variants", "multi_threaded_p2p,nccl_overlap,nccl_graphs,nccl",
                            env={"FAKE_MODE_multi_threaded_p2p": "noline",
                                 "FAKE_MODE_nccl_overlap": "crash",
                                 "FAKE_MODE_nccl_graphs": "hang",
                                 "FAKE_BUILD_FAIL": "nccl"})
        self.assertEqual(r.returncode, 1, r.stderr)
        rows = {row["variant"]: row for row in self.document()["rows"]}
        self.assertEqual(len(rows), 4)
        for row in rows.values():
            self.assertNotIn("seconds", row)
            self.assertEqual((row["problem"], row["nx"], row["gpus"]), ("P2", 4096, 2))
        self.assertIn("no csv line", rows["multi_threaded_p2p"]["error"])
        self.assertIn("does not match 0.25 (reference)", rows["multi_threaded_p2p"]["error"])
        self.assertIn("exit code 3: CUDA RT call failed: cudaErrorMemoryAllocation",
                      rows["nccl_overlap"]["error"])
        self.assertIn("no result within 3 s", rows["nccl_graphs"]["error"])
        self.assertIn("build failed", rows["nccl"]["error"])
        self.assertIn("error: no such header", rows["nccl"]["error"])
        self.assertIn("4 failed", r.stderr)

    def test_sigterm_writes_the_rows_so_far_marked_partial(self):
        env = {k: v for k, v in os.environ.items() if k != "NCCL_HOME"}
        proc = subprocess.Popen(
            [sys.executable, SCRIPT, "--src", self.src, "--out", self.out, "--problems", "1",
             "--variants", "multi_threaded_p2p,nccl_overlap"], stderr=subprocess.PIPE, text=True,
            env={**env, **self.env, "FAKE_MODE_nccl_overlap": "hang"})
        deadline = time.monotonic() + 60
        while not (os.path.exists(self.log) and self.log_lines("pid ")):
            self.assertLess(time.monotonic(), deadline, "the stub never hung")
            time.sleep(0.05)
        proc.terminate()
        _, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 143, stderr)
        doc = self.document()
        self.assertEqual(doc["partial"], "stopped by SIGTERM after 1 runs")
        self.assertEqual([(r["variant"], "seconds" in r) for r in doc["rows"]],
                         [("multi_threaded_p2p", True)])
        pid = int(self.log_lines("pid ")[0][1])
        time.sleep(0.2)
        with self.assertRaises(ProcessLookupError):  # the run in progress was killed
            os.kill(pid, 0)

    def test_four_gpus_by_default_and_a_line_naming_other_gpus(self):
        r = self.run_script("--problems", "4", "--repetitions", "1", "--variants",
                            "nccl_overlap,multi_threaded_p2p",
                            env={"FAKE_GPUS": "4", "FAKE_MODE_nccl_overlap": "wronggpus"})
        self.assertEqual(r.returncode, 1, r.stderr)
        rows = self.document()["rows"]
        self.assertEqual([(x["variant"], x["gpus"]) for x in rows],
                         [("nccl_overlap", 2), ("multi_threaded_p2p", 2),
                          ("nccl_overlap", 4), ("multi_threaded_p2p", 4)])
        self.assertIn("on 3 GPUs", rows[0]["error"])
        self.assertEqual(rows[3]["iterations"], 4096)
        self.assertIn("cvd=0,1,2,3", self.log_lines("run multi_threaded_p2p")[-1])

    def test_a_wheel_nccl_home_gets_the_unversioned_name_beside_the_copies(self):
        home = os.path.join(self.tmp, "nccl")
        os.makedirs(os.path.join(home, "lib"))
        os.makedirs(os.path.join(home, "include"))
        open(os.path.join(home, "lib", "libnccl.so.2"), "w").close()
        build = os.path.join(self.tmp, "build")
        r = self.run_script("--problems", "1", "--repetitions", "1", "--variants",
                            "nccl_overlap", "--build-dir", build, env={"NCCL_HOME": home})
        self.assertEqual(r.returncode, 0, r.stderr)
        shim = os.path.join(os.path.abspath(build), "nccl-home")
        self.assertIn(f"NCCL_HOME={shim}", self.log_lines("nccl_overlap")[0])
        self.assertEqual(os.path.realpath(os.path.join(shim, "lib", "libnccl.so")),
                         os.path.realpath(os.path.join(home, "lib", "libnccl.so.2")))
        self.assertEqual(os.listdir(os.path.join(home, "lib")), ["libnccl.so.2"])


if __name__ == "__main__":
    unittest.main()
