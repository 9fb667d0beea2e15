#!/usr/bin/env python3
"""Tests scripts/rodinia_heartwall.py without a GPU: stub nvidia-smi, make, ldd, a
stub gpucmp-bench that writes the three input files, and a stub heartwall
program that the stub make writes and that prints what Rodinia 3.1's programs
print (rodinia_heartwall_fixtures.py). Bad arguments are one line and exit 2;
without a checkout the script says it skips and exits 0; each version is built
in a copy (never in --src; the CUDA copy's hard-coded points replaced by
input.txt's) and run per frame count and repetition; a crash, a short run or a
missing track is an error row and exit 1, and so is a track whose frame 0 is
not the input points (Rodinia's CUDA version without a GPU exits 0 and writes
such a track); the track's agreement with the reference is reported; the
OpenCL runs get NVIDIA's library alone through OCL_ICD_VENDORS and
OCL_ICD_FILENAMES, and a run that then printed another platform is an error
row, never a number; the reference records ldd's libOpenCL line of the OpenCL
program; the JSON is the documented one. (What the programs print is parsed in
rodinia_heartwall_rows_test.py.)

With GPUCMP_RODINIA_SRC set (a checkout of Rodinia 3.1) and gpucmp-bench given
as the first argument, RealOpenCL builds and runs Rodinia's own OpenCL version
on the OpenCL device here (PoCL without a GPU) at 3 frames; skipped otherwise."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
SCRIPT = os.path.join(SCRIPTS, "rodinia_heartwall.py")
sys.path.insert(0, HERE)
from jacobi_reference_test import tree  # noqa: E402  ({path: bytes} of a folder)

BENCH = None  # gpucmp-bench, the first argument (for RealOpenCL)

STUBS = {
    "nvidia-smi": """#!/bin/sh
echo "NVIDIA H100 80GB HBM3, 9.0"
""",
    "nvcc": """#!/bin/sh
echo "Cuda compilation tools, release 13.0, V13.0.88"
""",
    # The OpenCL program's libraries as glibc's ldd prints them.
    "ldd": """#!/bin/sh
printf '\\tlinux-vdso.so.1 (0x00007ffd3b5f2000)\\n'
printf '\\tlibOpenCL.so.1 => /fake/lib/libOpenCL.so.1 (0x00007f2a1c000000)\\n'
printf '\\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f2a1be00000)\\n'
""",
    # Records each build (its folder, arguments, and main.cu's first endoRow line).
    "make": """#!/bin/sh
api=$(basename "$(dirname "$PWD")")
first=$(grep -o 'common.endoRow\\[ *0\\] = [0-9]*;' main.cu 2>/dev/null)
echo "make $api $* | $first" >> "$FAKE_LOG"
[ -f ../../common/make.config ] || [ "$api" = cuda ] || { echo "no make.config"; exit 2; }
if [ "$api" = "$FAKE_BUILD_FAIL" ]; then echo "main.cu(1): error: no such header"; exit 2; fi
cp "$FAKE_PROGRAM" heartwall && chmod +x heartwall
""",
}
BENCH_STUB = f"""#!{sys.executable}
import os, sys
sys.path.insert(0, {SCRIPTS!r})
sys.path.insert(0, {HERE!r})
from rodinia_heartwall_fixtures import POINTS, result_txt
a = sys.argv
d = a[a.index("--heartwall-write-rodinia") + 1]
n = max(int(x) for x in a[a.index("--heartwall-frames") + 1].split(","))
open(os.path.join(d, "test.avi"), "wb").write(b"RIFF")
rows = lambda k: " ".join(str(p[0]) for p in k)
cols = lambda k: " ".join(str(p[1]) for p in k)
open(os.path.join(d, "input.txt"), "w").write(
    "25 40 10 0.87\\n2 3\\n" + rows(POINTS[:2]) + "\\n" + cols(POINTS[:2]) + "\\n" +
    rows(POINTS[2:]) + "\\n" + cols(POINTS[2:]) + "\\n")
open(os.path.join(d, "reference.txt"), "w").write(result_txt(n, n))
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("bench " + " ".join(a[1:]) + "\\n")
"""
# The stub program: prints what Rodinia's prints and writes result.txt; FAKE_MODE_<api>
# makes it crash, stop short, write no track, move a point, write garbage or (OpenCL) print
# PoCL's platform and device.
PROGRAM = f"""#!{sys.executable}
import os, sys
sys.path.insert(0, {HERE!r})
from rodinia_heartwall_fixtures import CUDA_SAMPLE, OPENCL_SAMPLE, POCL_SAMPLE, result_txt
api = os.path.basename(os.path.dirname(os.getcwd()))
n = int(sys.argv[-1])
avi = sys.argv[1] if api == "cuda" else "../../data/heartwall/test.avi"
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(f"run {{api}} {{' '.join(sys.argv[1:])}} avi={{os.path.isfile(avi)}} "
            f"icd={{os.environ.get('OCL_ICD_VENDORS', '-')}} "
            f"files={{os.environ.get('OCL_ICD_FILENAMES', '-')}}\\n")
mode = os.environ.get("FAKE_MODE_" + api, "")
if mode == "crash":
    print("Segmentation fault")
    sys.exit(139)
sample = {{"cuda": CUDA_SAMPLE,
          "opencl": POCL_SAMPLE if mode == "pocl" else OPENCL_SAMPLE}}[api]
out = sample.replace(
    "0 1 2 3 4 ", "".join(f"{{i}} " for i in range(n if mode != "short" else n - 1)))
print(out, end="")
if mode != "notrack":
    with open("result.txt", "w") as f:
        f.write(result_txt(n, 104, shift=mode == "differ", garbage=mode == "garbage"))
"""


def write_stubs(folder):
    os.makedirs(folder)
    for name, text in {**STUBS, "heartwall-program": PROGRAM, "gpucmp-bench": BENCH_STUB}.items():
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return {"PATH": folder + os.pathsep + os.environ["PATH"],
            "FAKE_PROGRAM": os.path.join(folder, "heartwall-program"),
            "FAKE_LOG": os.path.join(folder, "..", "log")}


def make_src(root):
    """A tree shaped like Rodinia 3.1's heartwall folders, its files stand-ins."""
    cuda = os.path.join(root, "cuda", "heartwall")
    opencl = os.path.join(root, "opencl", "heartwall")
    os.makedirs(cuda)
    os.makedirs(opencl)
    os.makedirs(os.path.join(root, "common"))
    lines = [f"\tcommon.{k}[{i:2d}] = {500 + i};" for k, n in
             (("endoRow", 2), ("endoCol", 2), ("epiRow", 3), ("epiCol", 3)) for i in range(n)]
    with open(os.path.join(cuda, "main.cu"), "w", encoding="utf-8") as f:
        f.write("int main(){\n" + "\n".join(lines) + "\n}\n")
    with open(os.path.join(opencl, "main.c"), "w", encoding="utf-8") as f:
        f.write('video_file_name = (char *) "../../data/heartwall/test.avi";\n')
    open(os.path.join(root, "common", "make.config"), "w").close()
    return root


class Work(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rodinia_heartwall_test_")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.env = write_stubs(os.path.join(self.tmp, "bin"))
        self.src = make_src(os.path.join(self.tmp, "src"))
        self.out = os.path.join(self.tmp, "rodinia.json")
        self.log = self.env["FAKE_LOG"]

    def run_script(self, *args, env=None, src=True, bench=True):
        argv = (["--src", self.src] if src else []) + ["--out", self.out] + \
            (["--bench", os.path.join(self.tmp, "bin", "gpucmp-bench")] if bench else [])
        base = {k: v for k, v in os.environ.items()
                if k not in ("GPUCMP_RODINIA_SRC", "GPUCMP_BENCH", "OCL_ICD_VENDORS",
                             "OCL_ICD_FILENAMES")}
        return subprocess.run([sys.executable, SCRIPT, *argv, *args], capture_output=True,
                              text=True, timeout=120, env={**base, **self.env, **(env or {})})

    def document(self):
        with open(self.out, encoding="utf-8") as f:
            return json.load(f)

    def log_lines(self, prefix):
        if not os.path.exists(self.log):
            return []
        with open(self.log, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if line.startswith(prefix)]


class BadArguments(Work):
    def test_one_line_and_exit_2(self):
        later = make_src(os.path.join(self.tmp, "later"))
        with open(os.path.join(later, "opencl", "heartwall", "main.c"), "w") as f:
            f.write("case 'f': video_file_name = argv[i];\n")
        for args, words in (
                (["--apis", "cuda,hip"], "--apis: unknown API 'hip'"),
                (["--frames", "20,1"], "--frames: 1: a frame count is 2..104"),
                (["--frames", "105"], "--frames: 105: a frame count is 2..104"),
                (["--frames", "many"], "--frames: 'many' is not a whole number"),
                (["--repetitions", "0"], "--repetitions: 0: at least 1"),
                (["--out", os.path.join(self.tmp, "none", "r.json")], "no folder"),
                (["--src", self.tmp], "not a checkout of Rodinia 3.1 (no cuda/heartwall/main.cu)"),
                (["--src", later], "is not 3.1's (later versions take -f/-i/-n)"),
                (["--bench", os.path.join(self.tmp, "nothing")], "no gpucmp-bench there"),
                (["--cl-icd", os.path.join(self.tmp, "no.so")], "--cl-icd")):
            with self.subTest(args):
                r = self.run_script(*args, src="--src" not in args, bench="--bench" not in args)
                self.assertEqual(r.returncode, 2, r.stderr)
                lines = r.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                self.assertTrue(lines[0].startswith("rodinia_heartwall: error: "), lines[0])
                self.assertIn(words, lines[0])
                self.assertFalse(os.path.exists(self.out))
                self.assertEqual(self.log_lines("make"), [])  # nothing built

    def test_a_later_opencl_version_is_fine_when_only_cuda_runs(self):
        with open(os.path.join(self.src, "opencl", "heartwall", "main.c"), "w") as f:
            f.write("case 'f':\n")
        r = self.run_script("--apis", "cuda", "--frames", "3", "--repetitions", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIsNone(self.document()["reference"]["opencl_loader"])  # no OpenCL program


class Skip(Work):
    def test_no_checkout_is_a_stated_skip(self):
        r = self.run_script(src=False, bench=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("rodinia_heartwall: skipped: no Rodinia checkout (set GPUCMP_RODINIA_SRC",
                      r.stdout)
        self.assertFalse(os.path.exists(self.out))

    def test_the_environment_names_the_checkout(self):
        r = self.run_script("--frames", "3", "--repetitions", "1", src=False,
                            env={"GPUCMP_RODINIA_SRC": self.src})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.document()["reference"]["src"], os.path.abspath(self.src))


class Commit(Work):
    """The reference's commit is the checkout's own, never an enclosing repository's."""

    def git(self, folder, *args):
        subprocess.run(["git", "-C", folder, "-c", "user.name=t", "-c", "user.email=t@t",
                        *args], check=True, capture_output=True)

    def commit_of_a_run(self):
        r = self.run_script("--apis", "opencl", "--frames", "3", "--repetitions", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        return self.document()["reference"]["commit"]

    def test_inside_another_repository_no_commit_then_its_own(self):
        if shutil.which("git") is None:
            self.skipTest("no git")
        self.git(self.tmp, "init", "-q")
        self.git(self.tmp, "commit", "-q", "--allow-empty", "-m", "outer")
        self.assertIsNone(self.commit_of_a_run())  # src/ is no work tree's top
        self.git(self.src, "init", "-q")
        self.git(self.src, "add", "-A")
        self.git(self.src, "commit", "-q", "-m", "rodinia")
        head = subprocess.run(["git", "-C", self.src, "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        self.assertEqual(self.commit_of_a_run(), head)


class Runs(Work):
    def test_every_run_a_row_built_in_a_copy(self):
        before = tree(self.src)
        build = os.path.join(self.tmp, "build")
        r = self.run_script("--frames", "3,5", "--repetitions", "2", "--build-dir", build,
                            "--cl-icd", self.env["FAKE_PROGRAM"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(tree(self.src), before)  # --src untouched
        doc = self.document()
        ref = doc["reference"]
        self.assertIsNone(ref["commit"])  # not a git checkout
        self.assertEqual((ref["gpu"], ref["compute_cap"]), ("NVIDIA H100 80GB HBM3", "90"))
        self.assertEqual(ref["input"]["video_frames"], 5)
        self.assertIn("KERNEL_DIM=-gencode arch=compute_90,code=sm_90", ref["build"]["cuda"])
        self.assertIn("OUTPUT=Y", ref["build"]["opencl"])
        self.assertEqual(set(ref["timed"]), {"seconds", "stages", "fit", "gpucmp"})
        self.assertEqual(self.log_lines("bench"),
                         [f"bench --heartwall-write-rodinia {build}/data/heartwall "
                          "--heartwall-frames 3,5"])
        # The CUDA copy's points are input.txt's; the OpenCL copy sits beside common/.
        makes = self.log_lines("make")
        self.assertEqual(len(makes), 2, makes)
        self.assertTrue(makes[0].startswith("make cuda -B OUTPUT=Y KERNEL_DIM="), makes[0])
        self.assertTrue(makes[0].endswith("common.endoRow[ 0] = 100;"), makes[0])
        rows = doc["rows"]
        self.assertEqual([(x["api"], x["frames"], x["repetition"]) for x in rows],
                         [(a, f, k) for k in (0, 1) for f in (3, 5) for a in ("cuda", "opencl")])
        cuda, opencl = rows[0], rows[1]
        self.assertEqual(set(cuda), {"api", "frames", "repetition", "seconds", "agreement"})
        self.assertEqual(cuda["agreement"], {"compared": 15, "equal": 15, "max_px": 0.0,
                                             "first_difference": None})
        self.assertEqual(opencl["total_seconds"], 0.502652)
        self.assertEqual(opencl["stages"]["GPU ALLOCATION, COPYING, COMPUTATION"], 0.502383)
        self.assertEqual((opencl["platform"], opencl["device"]),
                         ("NVIDIA Corporation", "NVIDIA H100 80GB HBM3"))
        self.assertEqual(set(doc["fit"]), {"cuda", "opencl"})
        self.assertEqual(doc["fit"]["cuda"]["frames"], [3, 5])
        runs = self.log_lines("run ")
        self.assertIn("run cuda ../../data/heartwall/test.avi 3 avi=True icd=- files=-", runs)
        # NVIDIA's library alone, both ways the ICD loaders read.
        self.assertIn(f"run opencl 3 avi=True icd={build}/icd files={self.env['FAKE_PROGRAM']}",
                      runs)
        with open(os.path.join(build, "icd", "only.icd")) as f:
            self.assertEqual(f.read(), self.env["FAKE_PROGRAM"] + "\n")
        self.assertEqual(ref["opencl_icd"], self.env["FAKE_PROGRAM"])
        self.assertEqual(ref["opencl_loader"], "libOpenCL.so.1 => /fake/lib/libOpenCL.so.1")

    def test_an_opencl_run_off_nvidias_platform_is_an_error_row(self):
        build = os.path.join(self.tmp, "build")
        r = self.run_script("--frames", "3,5", "--repetitions", "1", "--build-dir", build,
                            "--cl-icd", self.env["FAKE_PROGRAM"], env={"FAKE_MODE_opencl": "pocl"})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("2 failed", r.stderr)
        doc = self.document()
        opencl = [x for x in doc["rows"] if x["api"] == "opencl"]
        self.assertEqual(len(opencl), 2)
        for row in opencl:
            self.assertEqual(set(row), {"api", "frames", "repetition", "error"})  # no number
            self.assertTrue(row["error"].startswith(
                "ran on The pocl project cpu-skylake-avx512-Intel(R) Xeon(R) Processor, not "
                f"NVIDIA's OpenCL (the ICD loader ignored OCL_ICD_VENDORS={build}/icd and "
                f"OCL_ICD_FILENAMES={self.env['FAKE_PROGRAM']}): "), row["error"])
        self.assertIn("seconds", [x for x in doc["rows"] if x["api"] == "cuda"][0])
        self.assertEqual(list(doc["fit"]), ["cuda"])  # nothing of PoCL's in the fit

    def test_failures_are_error_rows_and_exit_1(self):
        for modes, words in (({"FAKE_MODE_cuda": "crash"}, "exit code 139: Segmentation fault"),
                             ({"FAKE_MODE_cuda": "short"}, "frame progress did not reach 2"),
                             ({"FAKE_MODE_cuda": "notrack"}, "no result.txt with a track"),
                             ({"FAKE_MODE_cuda": "garbage"},
                              "frame 0 of its track is not input.txt's points"),
                             ({"FAKE_BUILD_FAIL": "cuda"}, "build failed")):
            with self.subTest(modes):
                r = self.run_script("--frames", "3", "--repetitions", "1", env=modes)
                self.assertEqual(r.returncode, 1, r.stderr)
                rows = {x["api"]: x for x in self.document()["rows"]}
                self.assertIn(words, rows["cuda"]["error"])
                self.assertNotIn("seconds", rows["cuda"])
                self.assertIn("seconds", rows["opencl"])
                self.assertIn("1 failed", r.stderr)

    def test_a_different_track_is_reported_not_failed(self):
        r = self.run_script("--frames", "4", "--repetitions", "1", "--apis", "opencl",
                            env={"FAKE_MODE_opencl": "differ"})
        self.assertEqual(r.returncode, 0, r.stderr)
        agree = self.document()["rows"][0]["agreement"]
        self.assertEqual((agree["compared"], agree["equal"], agree["max_px"]), (20, 19, 5.0))
        self.assertEqual(agree["first_difference"]["point"], 1)


class RealOpenCL(unittest.TestCase):
    def setUp(self):
        if not (os.environ.get("GPUCMP_RODINIA_SRC") and BENCH):
            self.skipTest("needs GPUCMP_RODINIA_SRC (a checkout of Rodinia 3.1) and gpucmp-bench")

    def test_rodinias_opencl_heartwall_on_this_device(self):
        with tempfile.TemporaryDirectory(prefix="rodinia_heartwall_real_") as tmp:
            out = os.path.join(tmp, "r.json")
            r = subprocess.run([sys.executable, SCRIPT, "--out", out, "--bench", BENCH,
                                "--apis", "opencl", "--frames", "3", "--repetitions", "1",
                                "--build-dir", os.path.join(tmp, "build")],
                               capture_output=True, text=True, timeout=900)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out, encoding="utf-8") as f:
                row = json.load(f)["rows"][0]
        self.assertGreater(row["total_seconds"], 0)
        self.assertEqual(row["agreement"]["compared"], 3 * 51)


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        BENCH = sys.argv.pop(1)
    unittest.main()
