#!/usr/bin/env python3
"""Tests scripts/rodinia_heartwall.py without a GPU: stub nvidia-smi, make, a stub
gpucmp-bench that writes the three input files, and a stub heartwall program
that the stub make writes and that prints what Rodinia 3.1's programs print
(the sample output below is written from their source, cuda/heartwall/main.cu
and opencl/heartwall/main.c + kernel/kernel_gpu_opencl_wrapper.c, not captured
from a run). Bad arguments are one line and exit 2; without a checkout the
script says it skips and exits 0; the printed times, the frame progress and
result.txt are parsed; each version is built in a copy (never in --src; the
CUDA copy's hard-coded points replaced by input.txt's) and run per frame count
and repetition; a crash, a short run or a missing track is an error row and
exit 1, and so is a track whose frame 0 is not the input points (Rodinia's CUDA
version without a GPU exits 0 and writes such a track); the track's agreement
with the reference is reported; the JSON is the documented one.

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
sys.path.insert(0, SCRIPTS)
import rodinia_heartwall  # noqa: E402

BENCH = None  # gpucmp-bench, the first argument (for RealOpenCL)

# Written from Rodinia 3.1's opencl/heartwall (main.c's "DISPLAY TIMING" block, whose
# "% :" glibc prints as is; the wrapper's platform and device lines): not a captured run.
OPENCL_SAMPLE = """WG size of kernel = 256 \n# of platforms 1
\tPlatform 0: NVIDIA Corporation
Selecting platform 0
# of devices 1
\tDevice 0: NVIDIA H100 80GB HBM3
Selecting device 0
-----OpenCL Compiler Output-----
--------------------------------
tSize is 25, sSize is 40
# of workgroups = 51, # of threads/workgroup = 256 (ensure that device can handle)
frame progress: 0 1 2 3 4 \nTime spent in different stages of the application:
 0.000061000000 s,  0.012135000000 % : READ INITIAL VIDEO FRAME
 0.000001000000 s,  0.000199000000 % : READ COMMAND LINE PARAMETERS
 0.000050000000 s,  0.009947000000 % : READ INPUTS FROM FILE
 0.502383000000 s, 99.946990966797 % : GPU ALLOCATION, COPYING, COMPUTATION
 0.000157000000 s,  0.031234000000 % : FREE MEMORY
Total time:
 0.502652000000 s
"""
# Written from Rodinia 3.1's cuda/heartwall/main.cu: it prints no time.
CUDA_SAMPLE = "WG size of kernel = 256 \nframe progress: 0 1 2 3 4 \n"

POINTS = [(100, 200), (110, 210), (300, 400), (310, 410), (320, 420)]  # 2 endo, 3 epi


def result_txt(frames, video_frames, shift=None, garbage=False):
    """result.txt as Rodinia's write_data() prints it; `shift` moves point 1 at frame 2;
    `garbage`: every value one number (what Rodinia's CUDA version writes without a GPU)."""
    out = f"Total AVI Frames: {video_frames}\nFrames Processed: {frames}\nendoPoints: 2\n" \
          "epiPoints: 3"
    for f in range(frames):
        pts = [(r + f, c) for r, c in POINTS]
        if shift and f == 2:
            pts[1] = (pts[1][0] + 3, pts[1][1] + 4)
        if garbage:
            pts = [(-1715528512, -1715528512)] * len(pts)
        out += f"\n---Frame {f}---\n--endo--\n"
        out += "".join(f"{r}\t" for r, _ in pts[:2]) + "\n" + "".join(f"{c}\t" for _, c in pts[:2])
        out += "\n--epi--\n"
        out += "".join(f"{r}\t" for r, _ in pts[2:]) + "\n" + "".join(f"{c}\t" for _, c in pts[2:])
    return out


STUBS = {
    "nvidia-smi": """#!/bin/sh
echo "NVIDIA H100 80GB HBM3, 9.0"
""",
    "nvcc": """#!/bin/sh
echo "Cuda compilation tools, release 13.0, V13.0.88"
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
from rodinia_heartwall_test import POINTS, result_txt
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
# makes it crash, stop short, write no track, move a point or write garbage.
PROGRAM = f"""#!{sys.executable}
import os, sys
sys.path.insert(0, {HERE!r})
from rodinia_heartwall_test import CUDA_SAMPLE, OPENCL_SAMPLE, result_txt
api = os.path.basename(os.path.dirname(os.getcwd()))
n = int(sys.argv[-1])
avi = sys.argv[1] if api == "cuda" else "../../data/heartwall/test.avi"
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(f"run {{api}} {{' '.join(sys.argv[1:])}} avi={{os.path.isfile(avi)}} "
            f"icd={{os.environ.get('OCL_ICD_VENDORS', '-')}}\\n")
mode = os.environ.get("FAKE_MODE_" + api, "")
if mode == "crash":
    print("Segmentation fault")
    sys.exit(139)
out = (CUDA_SAMPLE if api == "cuda" else OPENCL_SAMPLE).replace(
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


def tree(root):
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                out[os.path.relpath(os.path.join(folder, name), root)] = f.read()
    return out


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
                if k not in ("GPUCMP_RODINIA_SRC", "GPUCMP_BENCH", "OCL_ICD_VENDORS")}
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


class Parsing(unittest.TestCase):
    def test_the_opencl_versions_stage_times(self):
        stages, total = rodinia_heartwall.opencl_times(OPENCL_SAMPLE)
        self.assertEqual(stages, {"READ INITIAL VIDEO FRAME": 0.000061,
                                  "READ COMMAND LINE PARAMETERS": 0.000001,
                                  "READ INPUTS FROM FILE": 0.00005,
                                  "GPU ALLOCATION, COPYING, COMPUTATION": 0.502383,
                                  "FREE MEMORY": 0.000157})
        self.assertEqual(total, 0.502652)
        self.assertEqual(rodinia_heartwall.opencl_times(CUDA_SAMPLE), (None, None))
        cut = OPENCL_SAMPLE.replace(" 0.000157000000 s,  0.031234000000 % : FREE MEMORY\n", "")
        self.assertEqual(rodinia_heartwall.opencl_times(cut), (None, None))
        self.assertEqual(rodinia_heartwall.opencl_names(OPENCL_SAMPLE),
                         ("NVIDIA Corporation", "NVIDIA H100 80GB HBM3"))

    def test_the_frame_progress(self):
        self.assertTrue(rodinia_heartwall.progress_done(CUDA_SAMPLE, 5))
        self.assertFalse(rodinia_heartwall.progress_done(CUDA_SAMPLE, 6))
        self.assertFalse(rodinia_heartwall.progress_done("frame progress: \n", 5))
        self.assertFalse(rodinia_heartwall.progress_done("WG size of kernel = 256\n", 2))

    def test_result_txt_and_its_agreement(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "result.txt")
            with open(path, "w") as f:
                f.write(result_txt(4, 104))
            mine = rodinia_heartwall.read_track(path)
            with open(path, "w") as f:
                f.write(result_txt(4, 104, shift=True))
            moved = rodinia_heartwall.read_track(path)
            self.assertIsNone(rodinia_heartwall.read_track(os.path.join(tmp, "none.txt")))
        self.assertEqual(sorted(mine), [0, 1, 2, 3])
        self.assertEqual(mine[3][0], (103, 200))
        self.assertEqual(mine[1][4], (321, 420))
        self.assertEqual(rodinia_heartwall.agreement(mine, mine, 4),
                         {"compared": 20, "equal": 20, "max_px": 0.0, "first_difference": None})
        self.assertEqual(rodinia_heartwall.agreement(moved, mine, 4), {
            "compared": 20, "equal": 19, "max_px": 5.0,
            "first_difference": {"frame": 2, "point": 1, "rodinia": [115, 214],
                                 "reference": [112, 210]}})
        self.assertIn("frame 4 missing", rodinia_heartwall.agreement(mine, mine, 5))

    def test_the_fit_leaves_the_fixed_cost_out(self):
        rows = [{"api": "cuda", "frames": f, "seconds": 0.5 + 0.01 * f + e}
                for f in (20, 40) for e in (0.0, 0.001, 0.3)]
        fit = rodinia_heartwall.fit(rows + [{"api": "opencl", "frames": 20, "error": "x"}])
        self.assertEqual(list(fit), ["cuda"])
        self.assertAlmostEqual(fit["cuda"]["seconds_per_frame"], 0.01)
        self.assertAlmostEqual(fit["cuda"]["intercept_seconds"], 0.501)


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
        self.assertIn("run cuda ../../data/heartwall/test.avi 3 avi=True icd=-", runs)
        self.assertIn(f"run opencl 3 avi=True icd={build}/icd", runs)
        with open(os.path.join(build, "icd", "only.icd")) as f:
            self.assertEqual(f.read(), self.env["FAKE_PROGRAM"] + "\n")

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
