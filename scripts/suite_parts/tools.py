"""The suite's parts that are not one plain gpucmp-bench run, and what every
part needs of the machine.

requirement(part, bench) says why a part cannot run here (no ncu, no
compute-sanitizer, no mpirun, no NVIDIA OpenCL platform for "{nv_cl}", no
checkout of NVIDIA's Jacobi in GPUCMP_JACOBI_SRC, no checkout of Rodinia 3.1
in GPUCMP_RODINIA_SRC), or None; the suite then
records the part as skipped with that reason. fill() gives a part's arguments
for this machine: "{nv_cl}" is NVIDIA's OpenCL platform index, and from the
number n of GPUs nvidia-smi lists, "{gpu_counts}" is 1 and the powers of two up
to n ("1,2" on two GPUs, "1,2,4" on four), "{split_counts}" the same without
the 1, "{cuda_devices}" "0,..,n-1" and
"{cl_devices}" "{nv_cl}:0,..,{nv_cl}:n-1". run() runs a tool part (sass,
crosssass, ncu, sanitizer, ctest, jacobi, rodinia) with its output in the part's log
and returns its exit code; made(part) names the file it leaves in the run's
folder. launch_prefix() and launch_env() put a part with launcher "mpi" under
OpenMPI's mpirun, one rank a GPU."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from . import sass_part

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/
CROSS_SASS_ARCHIVE = "cross-sass.tar.xz"
NCU_FILE = "counters-ncu.json"  # *-ncu.json: the report's "Profiler counters" read it
CTEST_FILE = "ctest-gpu.log"
JACOBI_FILE = "jacobi.json"  # the report reads it beside the results (Scaling over GPUs)
JACOBI_SRC = "GPUCMP_JACOBI_SRC"  # a checkout of NVIDIA/multi-gpu-programming-models
JACOBI_MARKER = os.path.join("multi_threaded_p2p", "jacobi.cu")
RODINIA_SRC = "GPUCMP_RODINIA_SRC"  # a checkout of Rodinia 3.1 (scripts/rodinia_heartwall.py)
RODINIA_MARKER = os.path.join("cuda", "heartwall", "main.cu")
GPU_TESTS = "gpu_quick_run|ProtocolRun|ClockMonitor|CrossRun|JitCache|Interrupt|GbenchFlags|" \
            "BadInput|RunnerCatalog|AgpuOrder"


def which(name, fallback=None):
    found = shutil.which(name)
    if found:
        return found
    return fallback if fallback and os.access(fallback, os.X_OK) else None


def nvidia_cl_platform(bench):
    """NVIDIA's OpenCL platform index in gpucmp-bench --list-devices, or None."""
    try:
        r = subprocess.run([bench, "--list-devices"], capture_output=True, text=True,
                           timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"^OpenCL platform (\d+): NVIDIA", r.stdout + r.stderr, re.M)
    return m.group(1) if m else None


def gpu_count():
    """The NVIDIA GPUs nvidia-smi -L lists (0 without nvidia-smi)."""
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60,
                           check=False)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in r.stdout.splitlines() if line.startswith("GPU ")) \
        if r.returncode == 0 else 0


def jacobi_requirement():
    """Why the jacobi part cannot run here, or None."""
    src = os.environ.get(JACOBI_SRC)
    hint = f"set {JACOBI_SRC} to a checkout of NVIDIA/multi-gpu-programming-models"
    if not src:
        return f"{JACOBI_SRC} is unset: {hint}"
    if not os.path.isfile(os.path.join(src, JACOBI_MARKER)):
        return f"{JACOBI_SRC}={src} has no {JACOBI_MARKER}: {hint}"
    for name, fallback in (("make", None), ("nvcc", "/usr/local/cuda/bin/nvcc"),
                           ("mpirun", None)):
        if not which(name, fallback):
            return f"no {name} on PATH (the Jacobi reference builds with make and nvcc and " \
                   "runs its NCCL variants under mpirun)"
    return None


def rodinia_requirement():
    """Why the rodinia part cannot run here, or None."""
    src = os.environ.get(RODINIA_SRC)
    hint = f"set {RODINIA_SRC} to a checkout of Rodinia 3.1 (yuhc/gpu-rodinia 31d0ebf)"
    if not src:
        return f"{RODINIA_SRC} is unset: {hint}"
    if not os.path.isfile(os.path.join(src, RODINIA_MARKER)):
        return f"{RODINIA_SRC}={src} has no {RODINIA_MARKER}: {hint}"
    for name, fallback in (("make", None), ("nvcc", "/usr/local/cuda/bin/nvcc")):
        if not which(name, fallback):
            return f"no {name} on PATH (Rodinia's heartwall builds with make and nvcc)"
    return None


def requirement(part, bench):
    """Why `part` cannot run on this machine, or None."""
    if part.tool == "jacobi":
        return jacobi_requirement()
    if part.tool == "rodinia":
        return rodinia_requirement()
    tools = {"ncu": ("ncu", "/usr/local/cuda/bin/ncu", "Nsight Compute (ncu)"),
             "sanitizer": ("compute-sanitizer", "/usr/local/cuda/bin/compute-sanitizer",
                           "compute-sanitizer"),
             "ctest": ("ctest", None, "ctest")}
    if part.tool in tools:
        name, fallback, what = tools[part.tool]
        if not which(name, fallback):
            return f"no {what} on PATH"
    if part.tool == "ctest" and not os.path.isfile(
            os.path.join(os.path.dirname(os.path.abspath(bench)), "CTestTestfile.cmake")):
        return f"{os.path.dirname(os.path.abspath(bench))} is not a build folder with tests"
    if part.launcher == "mpi" and not which("mpirun"):
        return "no mpirun (OpenMPI) on PATH"
    if any(p in a for a in part.args for p in ("{nv_cl}", "{cl_devices}")) and \
            nvidia_cl_platform(bench) is None:
        return "no NVIDIA OpenCL platform in gpucmp-bench --list-devices"
    return None


def gpu_counts(n):
    """"1,2,4,..": 1 and the powers of two up to n GPUs."""
    return ",".join(str(1 << k) for k in range(max(n, 1).bit_length()))


def fill(args, bench, gpus=None):
    """The part's arguments with the placeholders replaced: "{gpu_counts}",
    "{split_counts}" (without the 1), "{cuda_devices}" and "{cl_devices}" for `gpus`
    GPUs (default: gpu_count()), then "{nv_cl}"."""
    args = list(args)
    if any(p in a for a in args for p in ("{gpu_counts}", "{split_counts}", "{cuda_devices}",
                                          "{cl_devices}")):
        n = max(gpu_count() if gpus is None else gpus, 1)
        words = {"{gpu_counts}": gpu_counts(n),
                 "{split_counts}": gpu_counts(n).partition(",")[2] or "2",
                 "{cuda_devices}": ",".join(str(i) for i in range(n)),
                 "{cl_devices}": ",".join(f"{{nv_cl}}:{i}" for i in range(n))}
        for key, value in words.items():
            args = [a.replace(key, value) for a in args]
    if not any("{nv_cl}" in a for a in args):
        return args
    platform = nvidia_cl_platform(bench)
    return [a.replace("{nv_cl}", platform) for a in args]


def launch_prefix(part):
    """mpirun's words before gpucmp-bench for a part with launcher "mpi"; [] else.
    Ranks are not bound to cores; the environment the ranks need is passed
    through env (OpenMPI's -x splits OCL_ICD_FILENAMES at its first colon)."""
    if part.launcher != "mpi":
        return []
    keep = {k: os.environ[k] for k in ("OCL_ICD_FILENAMES", "OCL_ICD_VENDORS")
            if os.environ.get(k)}
    keep["NCCL_NVLS_ENABLE"] = os.environ.get("NCCL_NVLS_ENABLE", "0")  # no NVLink multicast
    return ["mpirun", "--bind-to", "none", "-np", str(part.min_gpus), "env",
            *[f"{k}={v}" for k, v in keep.items()]]


def launch_env(part):
    env = dict(os.environ)
    if part.launcher == "mpi" and hasattr(os, "geteuid") and os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def made(part):
    return {"sass": sass_part.ARCHIVE, "crosssass": CROSS_SASS_ARCHIVE, "ncu": NCU_FILE,
            "sanitizer": part.name + "-summary.txt", "ctest": CTEST_FILE,
            "jacobi": JACOBI_FILE}.get(part.tool, part.name + ".json")


def run(part, bench, ptx, out_dir, log, run_bounded):
    """Runs the tool part; its exit code (124: stopped at its limit)."""
    build = os.path.dirname(os.path.abspath(bench))
    if part.tool == "sass":
        return sass_part.run(ptx, out_dir, log, part.limit_s)
    env = dict(os.environ, B=build)
    with tempfile.TemporaryDirectory(prefix=f"gpucmp-{part.name}-") as work:
        env["OUT"] = work
        if part.tool == "ncu":
            env.setdefault("BUDGET", str(max(part.limit_s - 60, 60)))
            env.setdefault("LAUNCHES", "4")
            rc = run_bounded([os.path.join(HERE, "profile_ncu.sh"), *part.args], log,
                             part.limit_s, env)
            found = sorted(glob.glob(os.path.join(work, "*-ncu.json")))
            if found:
                shutil.copy(found[-1], os.path.join(out_dir, NCU_FILE))
            return rc if found else (rc or 1)
        if part.tool == "sanitizer":  # args: [filter, gpucmp-bench options...], or none
            env.setdefault("BUDGET", str(max(part.limit_s - 60, 60)))
            args = fill(part.args, bench)
            if len(args) > 1:
                env["BENCH_EXTRA"] = " ".join(args[1:])
            rc = run_bounded([os.path.join(HERE, "compute_sanitizer.sh"), *args[:1]], log,
                             part.limit_s, env)
            for name in sorted(os.listdir(work)):
                shutil.copy(os.path.join(work, name),
                            os.path.join(out_dir, part.name + "-" + name.replace(
                                "compute-sanitizer-", "")))
            return rc
        if part.tool == "crosssass":
            env["PTX"] = ptx
            rc = run_bounded([os.path.join(HERE, "suite_parts", "cross_sass.sh")], log,
                             part.limit_s, env)
            sass = os.path.join(work, sass_part.SASS_DIR)
            if os.path.isdir(sass) and os.listdir(sass):
                archive = os.path.join(out_dir, CROSS_SASS_ARCHIVE)
                with tarfile.open(archive + ".partial", "w:xz", preset=sass_part.XZ_PRESET) as tar:
                    tar.add(sass, arcname=sass_part.SASS_DIR)
                os.replace(archive + ".partial", archive)
                return rc
            return rc or 1
        if part.tool == "jacobi":  # its copies are built under `work`, never in the source
            return run_bounded([sys.executable, os.path.join(HERE, "jacobi_reference.py"),
                                "--src", os.environ[JACOBI_SRC], "--out",
                                os.path.join(out_dir, JACOBI_FILE), "--build-dir", work,
                                *fill(part.args, bench)],
                               log, part.limit_s, env)
        if part.tool == "rodinia":  # built under `work`, never in the source
            return run_bounded([sys.executable, os.path.join(HERE, "rodinia_heartwall.py"),
                                "--src", os.environ[RODINIA_SRC], "--out",
                                os.path.join(out_dir, made(part)), "--bench",
                                os.path.abspath(bench), "--build-dir", work,
                                *fill(part.args, bench)],
                               log, part.limit_s, env)
        if part.tool == "ctest":
            with open(os.path.join(out_dir, CTEST_FILE), "w", encoding="utf-8") as out:
                return run_bounded(["ctest", "--test-dir", build, "-R", GPU_TESTS,
                                    "--output-on-failure"], out, part.limit_s, env)
    raise ValueError(f"part {part.name}: unknown tool '{part.tool}'")
