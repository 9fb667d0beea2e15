#!/usr/bin/env python3
"""Runs Rodinia 3.1's own heartwall (its CUDA and its OpenCL version) on gpucmp's
generated sequence at the frame counts of gpucmp's heartwall rows, and writes
their times and their tracks' agreement with gpucmp's CPU reference as JSON:
the origin beside the port (docs/studies/heartwall.md, "Rodinia's own beside
gpucmp's").

The checkout is --src or GPUCMP_RODINIA_SRC (Rodinia 3.1 as released, e.g.
yuhc/gpu-rodinia at its first commit 31d0ebf); without either the script says
it skips and exits 0, so that a suite part may include it. gpucmp-bench
(--bench) writes the inputs: --heartwall-write-rodinia DIR --heartwall-frames
LIST writes DIR/test.avi (seed 1, as many frames as the largest count),
DIR/input.txt (the tracker's constants and points) and DIR/reference.txt (the
CPU reference's track in the form of Rodinia's result.txt).

Each version is built by its own Makefile in a copy of its folder under
--build-dir (never in --src), with OUTPUT=Y (-DOUTPUT: the program writes its
track to result.txt after its timed part):
  cuda/heartwall    make -B OUTPUT=Y KERNEL_DIM="-gencode arch=compute_CC,code=sm_CC"
                    (CC from nvidia-smi's compute_cap; nvcc's default without a
                    GPU). Rodinia's CUDA version hard-codes its points (main.cu):
                    in the copy they are replaced by input.txt's, which its OpenCL
                    version reads, so that both track gpucmp's points; nothing
                    else is changed.
  opencl/heartwall  make -B OUTPUT=Y OPENCL_INC=DIR OPENCL_LIB=DIR (the folders
                    holding CL/cl.h and libOpenCL.so: CUDA_HOME's, else the
                    system's), with ../../common/make.config copied beside it.
Runs: cuda `./heartwall ../../data/heartwall/test.avi N`, opencl `./heartwall
N` (it reads ../../data/heartwall/test.avi and input.txt itself), each in its
copy's folder, for every frame count and repetition (interleaved). Rodinia's
OpenCL program takes platform 0, device 0: where NVIDIA's OpenCL library is
found (--cl-icd, else the places scripts/gpu_env.sh looks), it runs with
OCL_ICD_VENDORS (a folder whose one .icd names that library) and
OCL_ICD_FILENAMES (the library) naming it alone, and a run whose platform is
then not NVIDIA's (the ICD loader ignored both: on an H200 it once took PoCL
on the CPU) is an error row, "ran on <platform> <device>, not NVIDIA's
OpenCL", never a number. The reference records which libOpenCL the built
program loads (ldd), the loader that read those variables.

What is timed (what each program prints, read in its source):
  seconds            both: the process from start to exit, by this script's
                     clock (context creation, the OpenCL program's build, the
                     AVI's frames read and converted on the host, per frame an
                     upload and a kernel, the track's download, result.txt).
                     Rodinia's CUDA version prints no time at all.
  stages             opencl only: its own "Time spent in different stages"
                     (seconds each: READ INITIAL VIDEO FRAME, READ COMMAND
                     LINE PARAMETERS, READ INPUTS FROM FILE, GPU ALLOCATION,
                     COPYING, COMPUTATION, FREE MEMORY) and "Total time".
                     GPU ALLOCATION, COPYING, COMPUTATION is its whole OpenCL
                     part: platform, context, build, buffers, every frame's
                     read, upload, kernel and clFinish, the downloads.
  per_frame (fit)    per API, the least-squares slope of the median seconds
                     over the frame counts: the cost of one more frame with the
                     fixed costs (start, build, allocation) left out.
gpucmp's rows time N uploads and N kernels on the device's clock.

Agreement: result.txt (frames 0 .. N-1, counted from 1) against reference.txt's
first N frames: point-frames compared, equal, the largest distance in pixels
and the first difference. A difference is reported, not a failure: Rodinia
sums squares in float, gpucmp's kernels and reference exactly. But a frame 0
other than input.txt's points makes the run an error row: frame 0 only copies
the points, so its kernels did not run (Rodinia's CUDA version checks no CUDA
call and exits 0 without a GPU, its track uninitialized memory).

Output, written atomically:
  {"reference": {"repo", "commit" (git -C SRC rev-parse HEAD where SRC is a
                 work tree's top, else null), "src",
                 "nvcc", "gpu", "compute_cap", "bench", "input": {"seed",
                 "video_frames", "files"}, "points", "build": {api: command},
                 "opencl_icd" (the library named, or null), "opencl_loader"
                 (ldd's libOpenCL line of the OpenCL program, or null without
                 ldd or a built program), "timed", "command", "date"},
   "rows": [{"api", "frames", "repetition", "seconds", "stages" (opencl),
             "total_seconds" (opencl), "platform", "device" (opencl, as it
             printed them), "agreement": {"compared", "equal", "max_px",
             "first_difference"}}, or the same keys up to "repetition" and
             "error": what failed and the end of its output],
   "fit": {api: {"seconds_per_frame", "intercept_seconds", "frames"}},
   "partial": why (only when stopped)}

usage: scripts/rodinia_heartwall.py --out FILE.json [--src DIR] [--bench FILE]
           [--apis cuda,opencl] [--frames 20,40,60,80,100] [--repetitions 3]
           [--build-dir DIR] [--run-timeout S] [--cl-icd LIB]
exit: 0 every run gave its times (or skipped: no checkout); 1 a build or a run
      failed (its rows say why); 2 bad input (unknown API, a frame count
      outside 2..104, --src without cuda/heartwall/main.cu and
      opencl/heartwall/main.c of 3.1, --out in a missing folder, no
      gpucmp-bench, inputs that gpucmp-bench did not write); 143 stopped by
      SIGTERM (rows kept)
"""
import datetime
import os
import re
import shlex
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cli_args  # noqa: E402
from command_output import command_output  # noqa: E402
from reference_runs import (Runs, check_run_options, first_line, run_program,  # noqa: E402
                            tail)
from rodinia_heartwall_build import (BUILD_TIMEOUT_S, build, icd_settings,  # noqa: E402
                                     nvidia_cl_lib, opencl_loader, read_points)
from rodinia_heartwall_rows import (agreement, fit, on_nvidia, opencl_names,  # noqa: E402
                                    opencl_times, progress_done, read_track)

NAME = "rodinia_heartwall"
SRC_ENV = "GPUCMP_RODINIA_SRC"
REPO = "Rodinia 3.1 (yuhc/gpu-rodinia 31d0ebf is the release)"
APIS = ("cuda", "opencl")
MARKERS = {"cuda": os.path.join("cuda", "heartwall", "main.cu"),
           "opencl": os.path.join("opencl", "heartwall", "main.c")}
DEFAULT_FRAMES = "20,40,60,80,100"  # gpucmp's rows (harness/workloads/heartwall/heartwall.cpp)
MIN_FRAMES, MAX_FRAMES = 2, 104  # kMinFrames, kRodiniaFrames
SEED = 1  # kSeed: the rows' sequence
TIMED = {
    "seconds": "the process from start to exit by the script's clock (Rodinia's CUDA version "
               "prints no time)",
    "stages": "opencl: the program's own stage times in seconds; GPU ALLOCATION, COPYING, "
              "COMPUTATION is its whole OpenCL part (platform, context, program build, buffers, "
              "each frame's host read, upload, kernel and clFinish, downloads)",
    "fit": "per API, least-squares slope and intercept of the median seconds over the frame "
           "counts: seconds_per_frame leaves the fixed costs out",
    "gpucmp": "gpucmp's heartwall rows time N uploads and N kernels on the device's clock",
}
POINTS = ("input.txt's points (gpucmp's): the OpenCL version reads them; in the CUDA "
          "version's copy they replace its hard-coded points (main.cu), nothing else changed")


def fail(message):
    cli_args.fail(NAME, message)


def say(message):
    print(f"{NAME}: {message}", file=sys.stderr, flush=True)


def frame_list(text):
    out = []
    for word in text.split(","):
        if not word.strip().isdigit():
            fail(f"--frames: '{word}' is not a whole number (in '{text}')")
        n = int(word)
        if not MIN_FRAMES <= n <= MAX_FRAMES:
            fail(f"--frames: {n}: a frame count is {MIN_FRAMES}..{MAX_FRAMES}")
        if n not in out:
            out.append(n)
    return out


def default_bench():
    return os.environ.get("GPUCMP_BENCH") or os.path.join(HERE, "..", "build", "gpucmp-bench")


def parse_args(argv):
    p = cli_args.parser(NAME, __doc__)
    p.add_argument("--src", help=f"a checkout of Rodinia 3.1 (default: ${SRC_ENV})")
    p.add_argument("--out", required=True, help="the JSON file to write")
    p.add_argument("--bench", help="gpucmp-bench (default: $GPUCMP_BENCH, else build/)")
    p.add_argument("--apis", default="cuda,opencl", help="Rodinia's versions to run")
    p.add_argument("--frames", default=DEFAULT_FRAMES, help="frame counts (gpucmp's rows')")
    p.add_argument("--repetitions", type=int, default=3, help="runs of each (default 3)")
    p.add_argument("--build-dir", help="where the copies are built (default: a temporary one)")
    p.add_argument("--run-timeout", type=int, default=600, help="seconds a run may take")
    p.add_argument("--cl-icd", help="the OpenCL library Rodinia's OpenCL version gets alone")
    args = p.parse_args(argv)
    args.apis = [a.strip() for a in args.apis.split(",")]
    for a in args.apis:
        if a not in APIS:
            fail(f"--apis: unknown API '{a}' (known: {', '.join(APIS)})")
    args.frames = frame_list(args.frames)
    check_run_options(args, fail)
    if args.cl_icd is not None and not os.path.isfile(args.cl_icd):
        fail(f"--cl-icd {args.cl_icd}: no such file")
    args.src = args.src or os.environ.get(SRC_ENV) or None
    if args.src is None:
        return args
    for a in args.apis:
        if not os.path.isfile(os.path.join(args.src, MARKERS[a])):
            fail(f"--src {args.src}: not a checkout of Rodinia 3.1 (no {MARKERS[a]})")
    if "opencl" in args.apis:
        with open(os.path.join(args.src, MARKERS["opencl"]), encoding="utf-8",
                  errors="replace") as f:
            if "../../data/heartwall/test.avi" not in f.read():
                fail(f"--src {args.src}: opencl/heartwall/main.c is not 3.1's (later "
                     "versions take -f/-i/-n): check out the release (31d0ebf)")
    args.bench = args.bench or default_bench()
    if not (os.path.isfile(args.bench) and os.access(args.bench, os.X_OK)):
        fail(f"--bench {args.bench}: no gpucmp-bench there (build it, or name it)")
    return args


# ---- running ----------------------------------------------------------------------------

def off_nvidia(platform, device, icd):
    """The error of an OpenCL run on a platform other than NVIDIA's where NVIDIA's library
    was named to the loader (`icd`: icd_settings' variables), else None."""
    if not icd or on_nvidia(platform):
        return None
    named = " and ".join(f"{k}={v}" for k, v in icd.items())
    where = f"{platform or '(a platform it did not name)'} {device or '(no device named)'}"
    return f"ran on {where}, not NVIDIA's OpenCL (the ICD loader ignored {named})"


def row_of(ident, rc, out, seconds, track, reference, icd=None):
    """The row of one run; `icd`: the variables that named NVIDIA's OpenCL library alone
    to the OpenCL run ({} or None where none was named)."""
    api, frames = ident["api"], ident["frames"]
    if rc != 0:
        return {**ident, "error": f"exit code {rc}: {tail(out)}"}
    if re.search(r"^ERROR", out or "", re.M) or not progress_done(out, frames):
        return {**ident, "error": f"its frame progress did not reach {frames - 1}: {tail(out)}"}
    row = {**ident, "seconds": round(seconds, 6)}
    if api == "opencl":
        platform, device = opencl_names(out)
        wrong = off_nvidia(platform, device, icd)
        if wrong:  # a number from another device would read as NVIDIA's
            return {**ident, "error": f"{wrong}: {tail(out)}"}
        stages, total = opencl_times(out)
        if stages is None:
            return {**ident, "error": f"no stage times (Time spent in different stages): "
                                      f"{tail(out)}"}
        row.update(stages=stages, total_seconds=total, platform=platform, device=device)
    agree = agreement(track, reference, frames)
    if isinstance(agree, str):
        return {**ident, "error": agree}
    if track.get(0) != reference.get(0):  # frame 0 is the input points, whatever the tracking
        return {**ident, "error": "frame 0 of its track is not input.txt's points: its kernels "
                                  "did not run (Rodinia's CUDA version checks no CUDA call): "
                                  f"{tail(out)}"}
    row["agreement"] = agree
    return row


def measure(args, data, build_dir, built, rows):
    env = dict(os.environ)
    reference = read_track(os.path.join(data, "reference.txt"))
    icd = icd_settings(args.cl_icd, build_dir)
    env_for = {"cuda": env, "opencl": dict(env, **icd)}
    avi = os.path.relpath(os.path.join(data, "test.avi"),
                          os.path.join(build_dir, "cuda", "heartwall"))
    for repetition in range(args.repetitions):
        for frames in args.frames:
            for api in args.apis:
                ident = {"api": api, "frames": frames, "repetition": repetition}
                folder, _, why = built[api]
                if folder is None:
                    rows.append({**ident, "error": why})
                    continue
                result = os.path.join(folder, "result.txt")
                if os.path.exists(result):
                    os.remove(result)
                cmd = ["./heartwall", avi, str(frames)] if api == "cuda" else \
                    ["./heartwall", str(frames)]
                rc, out, seconds = run_program(NAME, cmd, folder, env_for[api], args.run_timeout)
                rows.append(row_of(ident, rc, out, seconds, read_track(result), reference,
                                   icd if api == "opencl" else None))
                r = rows[-1]
                say(f"{api} {frames} frames, repetition {repetition}: " + (
                    f"error: {r['error'].splitlines()[0]}" if "error" in r else
                    f"{r['seconds']:.4g} s, {r['agreement']['equal']}/"
                    f"{r['agreement']['compared']} positions as the reference's"))


def checkout_commit(src):
    """HEAD of the checkout `src` where it is a git work tree's top, else None: a folder
    inside another repository (gpucmp's .refs/) would give that repository's HEAD."""
    top = (command_output("git", "-C", src, "rev-parse", "--show-toplevel") or "").strip()
    if not top or os.path.realpath(top) != os.path.realpath(src):
        return None
    return (command_output("git", "-C", src, "rev-parse", "HEAD") or "").strip() or None


def write_inputs(bench, data, frames):
    """gpucmp-bench writes test.avi, input.txt and reference.txt into `data`."""
    os.makedirs(data, exist_ok=True)
    cmd = [bench, "--heartwall-write-rodinia", data,
           "--heartwall-frames", ",".join(map(str, frames))]
    rc, out, _ = run_program(NAME, cmd, None, dict(os.environ), BUILD_TIMEOUT_S)
    missing = [n for n in ("test.avi", "input.txt", "reference.txt")
               if not os.path.isfile(os.path.join(data, n))]
    if rc != 0 or missing:
        fail(f"{shlex.join(cmd)}: exit code {rc}"
             + (f", no {', '.join(missing)}" if missing else "") + ": "
             + tail(out).splitlines()[-1])


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    args = parse_args(argv)
    if args.src is None:
        print(f"{NAME}: skipped: no Rodinia checkout (set {SRC_ENV} or --src to a checkout "
              "of Rodinia 3.1)", flush=True)
        return 0
    if args.cl_icd is None:
        args.cl_icd = nvidia_cl_lib()
    gpus = command_output("nvidia-smi", "--query-gpu=name,compute_cap",
                          "--format=csv,noheader") or ""
    first = gpus.splitlines()[0].rpartition(",") if gpus.strip() else ("", "", "")
    cc = first[2].strip().replace(".", "") if re.fullmatch(r"\d+\.\d+", first[2].strip()) \
        else None
    temporary = args.build_dir is None
    build_dir = os.path.abspath(tempfile.mkdtemp(prefix="rodinia-heartwall-") if temporary
                                else args.build_dir)
    os.makedirs(build_dir, exist_ok=True)
    data = os.path.join(build_dir, "data", "heartwall")
    rows, doc = [], {"reference": None, "rows": None}

    def complete(d):  # nothing to write before the reference is known (the builds)
        d["fit"] = fit(rows)
        return d["reference"] is not None

    try:
        with Runs(NAME, args.out, doc, rows, complete) as runs:
            write_inputs(args.bench, data, args.frames)
            points, endo = read_points(os.path.join(data, "input.txt"))
            built = {a: build(NAME, a, args.src, build_dir, cc, points, endo,
                              dict(os.environ)) for a in args.apis}
            cl_folder = built.get("opencl", (None,))[0]
            doc["reference"] = {
                "repo": REPO,
                "commit": checkout_commit(args.src),
                "src": os.path.abspath(args.src),
                "nvcc": first_line(command_output("nvcc", "--version"), r"release \d"),
                "gpu": first[0].strip() or None,
                "compute_cap": cc,
                "bench": os.path.abspath(args.bench),
                "input": {"seed": SEED, "video_frames": max(args.frames),
                          "files": "gpucmp-bench --heartwall-write-rodinia: test.avi, input.txt, "
                                   "reference.txt (the CPU reference's track)"},
                "points": POINTS,
                "build": {a: built[a][1] for a in args.apis},
                "opencl_icd": args.cl_icd,
                "opencl_loader": opencl_loader(cl_folder and os.path.join(cl_folder,
                                                                          "heartwall")),
                "timed": TIMED,
                "command": "scripts/rodinia_heartwall.py " + shlex.join(argv),
                "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            }
            measure(args, data, build_dir, built, rows)
    finally:
        if temporary:
            shutil.rmtree(build_dir, ignore_errors=True)
    return runs.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
