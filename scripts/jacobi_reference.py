#!/usr/bin/env python3
"""Runs NVIDIA's multi-GPU Jacobi solvers (NVIDIA/multi-gpu-programming-models) at
the grids and step counts of advection's judged problems and writes their times as
JSON: the reference the report's "Scaling over GPUs" table puts beside advection's
own multi-GPU rows (the same grid, as many iterations as steps, the same GPUs).

Each variant (a folder of the checkout) is built by its own Makefile (make -B
BUILD_SM_ARCH=<cc>, cc from nvidia-smi's compute_cap) in a copy of its folder
under --build-dir, never in --src, with CUDA_HOME and NCCL_HOME from the
environment (a NCCL_HOME with only libnccl.so.2, as the nvidia-nccl wheel, gets
a folder naming it libnccl.so beside the copies); with nvcc 13 or later the
copy's Makefile says -std=c++17 for -std=c++14 (CUDA 13's CUB needs C++17).

Then per judged problem and GPU count G of --gpus that the machine has (G >= 2,
nvidia-smi counts them): -nx NX -ny NY -niter STEPS -nccheck STEPS -csv (the
norm once), over CUDA_VISIBLE_DEVICES=0..G-1, multi_threaded_* as one process,
the MPI ones (nccl*, mpi*) under `mpirun --bind-to none -np G`, with
NCCL_NVLS_ENABLE=0 (no NVLink multicast), as root OMPI_ALLOW_RUN_AS_ROOT=1;
repetitions interleave. The line `<variant>, nx, ny, niter, nccheck, G, 1,
runtime, runtime_serial` gives the times; a program prints none when its result
differs from its own one-GPU solve's. The one-GPU time is that solve
(runtime_serial: single_gpu(), in the same process before the multi-GPU run):
there are no gpus:1 runs. A run without its line (or whose line names another
grid or G), with a nonzero exit or past --run-timeout is an error row with the
end of its output, never left out; a variant that does not build, one for each
of its runs. SIGTERM (the suite's limit) stops the run in progress and writes
the rows so far, marked partial.

Output, written atomically:
  {"reference": {"repo", "commit" (git -C SRC rev-parse HEAD, or null), "nvcc"
                 (its version line), "gpu" (nvidia-smi's name), "gpus_here",
                 "compute_cap", "mpirun", "build", "one_gpu", "command", "date",
                 "left_out": [GPU counts of --gpus not run, and why]},
   "rows": [{"variant", "problem" ("P1".."P5"), "nx", "ny", "iterations",
             "gpus", "repetition" (0..R-1), "seconds", "serial_seconds",
             "speedup" (serial_seconds / seconds)}, or the same keys up to
             "repetition" and "error": what failed and the end of its output],
   "partial": why (only when stopped)}

usage: scripts/jacobi_reference.py --src DIR --out FILE.json [--gpus 2,4]
           [--variants multi_threaded_p2p,nccl_overlap,nccl_graphs]
           [--problems 1,2,4,5] [--repetitions 3] [--build-dir DIR]
           [--run-timeout S]
       --gpus defaults to the powers of two from 2 up to the GPUs here.
exit: 0 every run gave its line; 1 a build or a run failed (its rows say why);
      2 bad input (unknown variant or problem, a GPU count below 1, --src
      without multi_threaded_p2p/jacobi.cu, --out in a missing folder, no
      GPU count of 2 or more to run here); 143 stopped by SIGTERM (rows kept)
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

NAME = "jacobi_reference"
REPO = "NVIDIA/multi-gpu-programming-models"
MARKER = os.path.join("multi_threaded_p2p", "jacobi.cu")  # what makes --src a checkout
# Advection's judged problems, (nx, ny, steps): CHALLENGE_2010 of
# gpucmp_report/sections/advection.py (tests/jacobi_reference_test.py holds them equal).
PROBLEMS = {1: (2048, 2048, 20480), 2: (4096, 4096, 10240), 3: (4096, 4096, 10240),
            4: (16384, 4096, 4096), 5: (8192, 16384, 2048)}
# The variants run here, and how: "threads", one process over CUDA_VISIBLE_DEVICES;
# "mpi", one rank a GPU under mpirun. Each prints the csv line parsed by csv_result().
VARIANTS = {"multi_threaded_p2p": "threads", "multi_threaded_p2p_opt": "threads",
            "multi_threaded_copy": "threads", "multi_threaded_copy_overlap": "threads",
            "multi_threaded_um": "threads", "mpi": "mpi", "mpi_overlap": "mpi", "nccl": "mpi",
            "nccl_overlap": "mpi", "nccl_graphs": "mpi"}
DEFAULT_VARIANTS = "multi_threaded_p2p,nccl_overlap,nccl_graphs"
BUILD_TIMEOUT_S = 600
ONE_GPU = ("serial_seconds is the program's own one-GPU solve of the same problem "
           "(single_gpu(), its runtime_serial), run in the same process before the multi-GPU "
           "solve; speedup = serial_seconds / seconds; there are no gpus:1 runs")


def fail(message):
    cli_args.fail(NAME, message)


def say(message):
    print(f"{NAME}: {message}", file=sys.stderr, flush=True)


def int_list(option, text, known=None, least=None):
    """The comma-separated whole numbers of an option, in order, each once."""
    out = []
    for word in text.split(","):
        if not word.strip().isdigit():
            fail(f"{option}: '{word}' is not a whole number (in '{text}')")
        n = int(word)
        if least is not None and n < least:
            fail(f"{option}: {n}: a GPU count is {least} or more")
        if known is not None and n not in known:
            fail(f"{option}: unknown problem {n} (known: {', '.join(map(str, known))})")
        if n not in out:
            out.append(n)
    return out


def parse_args(argv):
    p = cli_args.parser(NAME, __doc__)
    p.add_argument("--src", required=True, help="a checkout of " + REPO)
    p.add_argument("--out", required=True, help="the JSON file to write")
    p.add_argument("--gpus", help="GPU counts (default: 2, 4, .. up to the GPUs here)")
    p.add_argument("--variants", default=DEFAULT_VARIANTS, help="the variants' folders")
    p.add_argument("--problems", default="1,2,4,5", help="advection's judged problems")
    p.add_argument("--repetitions", type=int, default=3, help="runs of each (default 3)")
    p.add_argument("--build-dir", help="where the copies are built (default: a temporary one)")
    p.add_argument("--run-timeout", type=int, default=300, help="seconds a run may take")
    args = p.parse_args(argv)
    if not os.path.isfile(os.path.join(args.src, MARKER)):
        fail(f"--src {args.src}: not a checkout of {REPO} (no {MARKER})")
    args.variants = [v.strip() for v in args.variants.split(",")]
    for v in args.variants:
        if v not in VARIANTS:
            fail(f"--variants: unknown variant '{v}' (known: {', '.join(VARIANTS)})")
        if not os.path.isfile(os.path.join(args.src, v, "Makefile")):
            fail(f"--src {args.src}: no {v}/Makefile")
    args.problems = int_list("--problems", args.problems, known=PROBLEMS)
    args.gpus = None if args.gpus is None else int_list("--gpus", args.gpus, least=1)
    check_run_options(args, fail)
    return args


def gpus_here():
    """[(name, compute capability without its dot, e.g. "90")] of nvidia-smi."""
    out = command_output("nvidia-smi", "--query-gpu=name,compute_cap", "--format=csv,noheader")
    found = []
    for line in (out or "").splitlines():
        name, _, cap = line.rpartition(",")
        if name.strip() and re.fullmatch(r"\d+\.\d+", cap.strip()):
            found.append((name.strip(), cap.strip().replace(".", "")))
    return found


def csv_result(variant, output):
    """{nx, ny, iterations, nccheck, gpus, seconds, serial_seconds} of the variant's
    -csv line in its output, or None where there is none."""
    for line in (output or "").splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != 9 or cells[0] != variant:
            continue
        try:
            ints = [int(c) for c in cells[1:7]]
            seconds, serial = float(cells[7]), float(cells[8])
        except ValueError:
            continue
        return dict(zip(("nx", "ny", "iterations", "nccheck", "gpus"), ints[:5]),
                    seconds=seconds, serial_seconds=serial)
    return None


def row_of(ident, result, output, rc):
    """The JSON row of one run: its times, or the error with the end of its output."""
    nx, ny, iterations, gpus = (ident[k] for k in ("nx", "ny", "iterations", "gpus"))
    if rc != 0:
        return {**ident, "error": f"exit code {rc}: {tail(output)}"}
    if result is None:
        return {**ident, "error": "no csv line (a wrong result prints none): " + tail(output)}
    if (result["nx"], result["ny"], result["iterations"], result["gpus"]) != \
            (nx, ny, iterations, gpus):
        return {**ident, "error": f"its line names nx {result['nx']}, ny {result['ny']}, "
                f"{result['iterations']} iterations on {result['gpus']} GPUs: {tail(output)}"}
    seconds, serial = result["seconds"], result["serial_seconds"]
    return {**ident, "seconds": seconds, "serial_seconds": serial,
            "speedup": serial / seconds if seconds > 0 else None}


def nccl_home(build_dir):
    """NCCL_HOME for the Makefiles: the environment's, or a folder under build_dir
    naming its libnccl.so.2 libnccl.so where it has only the versioned name."""
    home = os.environ.get("NCCL_HOME")
    if not home or os.path.exists(os.path.join(home, "lib", "libnccl.so")) or \
            not os.path.exists(os.path.join(home, "lib", "libnccl.so.2")):
        return home
    shim = os.path.join(build_dir, "nccl-home")
    os.makedirs(os.path.join(shim, "lib"), exist_ok=True)
    for link, target in ((os.path.join(shim, "include"), os.path.join(home, "include")),
                         (os.path.join(shim, "lib", "libnccl.so"),
                          os.path.join(home, "lib", "libnccl.so.2"))):
        if not os.path.lexists(link):
            os.symlink(target, link)
    return shim


def build(variant, src, build_dir, cc, cxx17, env):
    """(the built folder, None) or (None, why it did not build)."""
    folder = os.path.join(build_dir, variant)
    shutil.copytree(os.path.join(src, variant), folder, dirs_exist_ok=True)
    makefile = os.path.join(folder, "Makefile")
    with open(makefile, encoding="utf-8") as f:
        text = f.read()
    if cxx17:
        with open(makefile, "w", encoding="utf-8") as f:
            f.write(text.replace("-std=c++14", "-std=c++17"))
    cmd = ["make", "-B", f"BUILD_SM_ARCH={cc}"]
    if not re.search(rf"\bGENCODE_SM{cc}\b", text):  # an architecture newer than the Makefile
        cmd.append(f"GENCODE_SM{cc}=-gencode arch=compute_{cc},code=sm_{cc}")
    if env.get("NCCL_HOME"):
        cmd.append(f"NCCL_HOME={env['NCCL_HOME']}")
    say(f"building {variant}: {shlex.join(cmd)}")
    rc, out, _ = run_program(NAME, cmd, folder, env, BUILD_TIMEOUT_S)
    if rc != 0 or not os.path.isfile(os.path.join(folder, "jacobi")):
        return None, f"build failed ({shlex.join(cmd)}: exit code {rc}): {tail(out)}"
    return folder, None


def program_command(variant, gpus, nx, ny, steps, env):
    args = ["./jacobi", "-nx", str(nx), "-ny", str(ny), "-niter", str(steps),
            "-nccheck", str(steps), "-csv"]
    if VARIANTS[variant] != "mpi":
        return args
    # The ranks' environment in words (as suite_parts/tools.py's launch_prefix does).
    keep = [f"{k}={env[k]}" for k in ("CUDA_VISIBLE_DEVICES", "NCCL_NVLS_ENABLE",
                                      "LD_LIBRARY_PATH") if env.get(k)]
    return ["mpirun", "--bind-to", "none", "-np", str(gpus), "env", *keep, *args]


def environment(build_dir):
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    if not env.get("CUDA_HOME") and not os.path.isdir("/usr/local/cuda") and \
            shutil.which("nvcc"):
        env["CUDA_HOME"] = os.path.dirname(os.path.dirname(os.path.realpath(
            shutil.which("nvcc"))))
    home = nccl_home(build_dir)
    if home:
        env["NCCL_HOME"] = home
        lib = os.path.join(os.environ.get("NCCL_HOME", home), "lib")
        env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"]
                                        if env.get("LD_LIBRARY_PATH") else "")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def measure(args, counts, build_dir, cc, cxx17, rows):
    """Builds and runs every variant, appending each run's row to rows."""
    env = environment(build_dir)
    built = {v: build(v, args.src, build_dir, cc, cxx17, env) for v in args.variants}
    for repetition in range(args.repetitions):
        for problem in args.problems:
            nx, ny, steps = PROBLEMS[problem]
            for gpus in counts:
                for variant in args.variants:
                    ident = {"variant": variant, "problem": f"P{problem}", "nx": nx, "ny": ny,
                             "iterations": steps, "gpus": gpus, "repetition": repetition}
                    folder, why = built[variant]
                    if folder is None:
                        rows.append({**ident, "error": why})
                        continue
                    run_env = dict(env, CUDA_VISIBLE_DEVICES=",".join(map(str, range(gpus))))
                    cmd = program_command(variant, gpus, nx, ny, steps, run_env)
                    rc, out, _ = run_program(NAME, cmd, folder, run_env, args.run_timeout)
                    rows.append(row_of(ident, csv_result(variant, out), out, rc))
                    r = rows[-1]
                    say(f"P{problem} {variant} on {gpus} GPUs, repetition {repetition}: " + (
                        f"error: {r['error'].splitlines()[0]}" if "error" in r else
                        f"{r['seconds']:.4g} s (one GPU {r['serial_seconds']:.4g} s)"))


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    args = parse_args(argv)
    here = gpus_here()
    wanted = args.gpus or [1 << k for k in range(1, 8) if 1 << k <= len(here)]
    counts = [g for g in wanted if 2 <= g <= len(here)]
    left_out = [f"gpus {g}: " + ("the one-GPU time is each run's serial_seconds" if g == 1
                                 else f"{len(here)} GPUs here") for g in wanted
                if g not in counts]
    if not counts:
        fail(f"no GPU count of 2 or more to run: --gpus {','.join(map(str, wanted)) or '-'} "
             f"and nvidia-smi lists {len(here)} GPUs")
    nvcc = command_output("nvcc", "--version")
    release = re.search(r"release (\d+)\.", nvcc or "")
    cxx17 = bool(release) and int(release.group(1)) >= 13
    cc = here[0][1]
    reference = {
        "repo": REPO,
        "commit": (command_output("git", "-C", args.src, "rev-parse", "HEAD") or "").strip()
        or None,
        "nvcc": first_line(nvcc, r"release \d"),
        "gpu": ", ".join(dict.fromkeys(name for name, _ in here)),
        "gpus_here": len(here),
        "compute_cap": cc,
        "mpirun": first_line(command_output("mpirun", "--version"), r"\S"),
        "build": f"make -B BUILD_SM_ARCH={cc} in a copy of each variant's folder"
                 + ("; -std=c++14 made -std=c++17 in the copy's Makefile (nvcc 13's CUB "
                    "needs C++17)" if cxx17 else ""),
        "one_gpu": ONE_GPU,
        "command": "scripts/jacobi_reference.py " + shlex.join(argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "left_out": left_out,
    }
    for line in left_out:
        say(f"left out: {line}")
    rows, doc = [], {"reference": reference, "rows": None}
    temporary = args.build_dir is None
    build_dir = tempfile.mkdtemp(prefix="jacobi-build-") if temporary else args.build_dir
    try:
        with Runs(NAME, args.out, doc, rows) as runs:
            os.makedirs(build_dir, exist_ok=True)
            measure(args, counts, os.path.abspath(build_dir), cc, cxx17, rows)
    finally:
        if temporary:
            shutil.rmtree(build_dir, ignore_errors=True)
    return runs.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
