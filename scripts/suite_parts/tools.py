"""The suite's parts that are not one plain gpucmp-bench run, and what every
part needs of the machine.

requirement(part, bench) says why a part cannot run here (no ncu, no
compute-sanitizer, no mpirun, no NVIDIA OpenCL platform for "{nv_cl}"), or
None; the suite then records the part as skipped with that reason. run()
runs a tool part (sass, crosssass, ncu, sanitizer, ctest) with its output
in the part's log and returns its exit code; made(part) names the file it
leaves in the run's folder. launch_prefix() and launch_env() put a part with
launcher "mpi" under OpenMPI's mpirun, one rank a GPU."""
import glob
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

from . import sass_part

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # scripts/
CROSS_SASS_ARCHIVE = "cross-sass.tar.xz"
NCU_FILE = "counters-ncu.json"  # *-ncu.json: the report's "Profiler counters" read it
SANITIZER_FILE = "sanitizer-summary.txt"
CTEST_FILE = "ctest-gpu.log"
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


def requirement(part, bench):
    """Why `part` cannot run on this machine, or None."""
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
    if any("{nv_cl}" in a for a in part.args) and nvidia_cl_platform(bench) is None:
        return "no NVIDIA OpenCL platform in gpucmp-bench --list-devices"
    return None


def fill(args, bench):
    """The part's arguments with "{nv_cl}" replaced."""
    if not any("{nv_cl}" in a for a in args):
        return list(args)
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
            "sanitizer": SANITIZER_FILE, "ctest": CTEST_FILE}.get(part.tool, part.name + ".json")


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
        if part.tool == "sanitizer":
            env.setdefault("BUDGET", str(max(part.limit_s - 60, 60)))
            rc = run_bounded([os.path.join(HERE, "compute_sanitizer.sh")], log, part.limit_s,
                             env)
            for name in sorted(os.listdir(work)):
                shutil.copy(os.path.join(work, name),
                            os.path.join(out_dir, "sanitizer-" + name.replace(
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
        if part.tool == "ctest":
            with open(os.path.join(out_dir, CTEST_FILE), "w", encoding="utf-8") as out:
                return run_bounded(["ctest", "--test-dir", build, "-R", GPU_TESTS,
                                    "--output-on-failure"], out, part.limit_s, env)
    raise ValueError(f"part {part.name}: unknown tool '{part.tool}'")
