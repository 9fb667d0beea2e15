"""The suite's `sass` part: the SASS that ran, for both APIs, into
<run>/sass.tar.xz (sass/*.sass inside, about 1.6 MB against 47 MB unpacked),
where the report's "Why each gap" reads it (scripts/gpucmp_report/sass.py).

gpucmp-ptx dump --api opencl builds every OpenCL program on the device and
keeps the driver's compute cache, so that each program's <name>.sass is what
NVIDIA's JIT made (what ran); --api cuda disassembles the executable's own
cubins. The OpenCL programs are shared among a process per core (at most
SHARDS; gpucmp-ptx dump --shard K/N, each with a compute cache of its own),
since one process builds and disassembles them one after another. The files
are renamed <name>.opencl-jit.sass and <kernel>.cuda.sass, and SOURCES.txt
lists each file's first line (where it came from). Offline ptxas on
OpenCL's PTX (<name>.ptxas.sass) is not what ran and is not made.
The dumps themselves (PTX, build logs, cubins) stay in a temporary folder:
gpucmp-ptx dump makes them again on any machine."""
import os
import shutil
import subprocess
import tarfile
import tempfile
import time

SASS_DIR = "sass"
ARCHIVE = "sass.tar.xz"
SHARDS = 8
# xz's preset 3: 2.0 s and 1.6 MB for an H200's 47 MB of SASS, against 15.6 s
# and 1.3 MB at the default 6.
XZ_PRESET = 3


def _now():
    return time.monotonic()


def _say(log, line):
    log.write(line + "\n")
    log.flush()


def _run_all(cmds, logs, log, deadline):
    """Runs cmds side by side, each into its log file, then copies the logs
    into log in order; the exit codes (124: stopped at the part's limit)."""
    procs = []
    for cmd, path in zip(cmds, logs):
        _say(log, "$ " + " ".join(cmd))
        with open(path, "w", encoding="utf-8") as out:
            procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT))
    codes = []
    for proc in procs:
        try:
            codes.append(proc.wait(timeout=max(deadline - _now(), 0)))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            codes.append(124)
    for path, code in zip(logs, codes):
        with open(path, encoding="utf-8", errors="replace") as f:
            log.write(f.read())
        if code == 124:
            _say(log, "suite: stopped at the part's limit")
    return codes


def collect(dump, sass_dir):
    """Copies the SASS of the dump folder (its opencl*/ shards and cuda/) into
    sass_dir under the report's names; returns how many. Beside them, what says
    each kernel's registers and memory: for OpenCL the build's log
    (<stem>.opencl-jit.log: ptxas' -cl-nv-verbose report of the driver's JIT),
    for CUDA cuobjdump -res-usage of the executable's object
    (<stem>.cuda.res-usage)."""
    os.makedirs(sass_dir, exist_ok=True)
    copied = []
    shards = sorted(d for d in os.listdir(dump) if d.startswith("opencl")) \
        if os.path.isdir(dump) else []
    for shard in shards:
        opencl = os.path.join(dump, shard)
        for name in sorted(os.listdir(opencl)):
            if not name.endswith(".ptx"):
                continue
            stem = name[: -len(".ptx")]
            path = os.path.join(opencl, stem + ".sass")
            if os.path.isfile(path):
                copied.append(shutil.copy(path, os.path.join(sass_dir, f"{stem}.opencl-jit.sass")))
                log = os.path.join(opencl, stem + ".log")
                if os.path.isfile(log):
                    shutil.copy(log, os.path.join(sass_dir, f"{stem}.opencl-jit.log"))
    cuda = os.path.join(dump, "cuda")
    for name in sorted(os.listdir(cuda)) if os.path.isdir(cuda) else []:
        if name.endswith(".sass"):
            stem = name[: -len(".sass")]
            copied.append(shutil.copy(os.path.join(cuda, name),
                                      os.path.join(sass_dir, f"{stem}.cuda.sass")))
            usage = os.path.join(cuda, stem + ".res-usage")
            if os.path.isfile(usage):
                shutil.copy(usage, os.path.join(sass_dir, f"{stem}.cuda.res-usage"))
    with open(os.path.join(sass_dir, "SOURCES.txt"), "w", encoding="utf-8") as f:
        for path in sorted(copied):
            with open(path, encoding="utf-8", errors="replace") as s:
                f.write(f"{os.path.basename(path)}: {s.readline().strip()}\n")
    return len(copied)


def run(ptx, out_dir, log, limit_s):
    """Runs both dumps and collects their SASS; the exit code of the part."""
    start = _now()
    deadline = start + limit_s
    shards = max(1, min(SHARDS, os.cpu_count() or 1))
    with tempfile.TemporaryDirectory(prefix="gpucmp-sass-") as work:
        dump = os.path.join(work, "dump")
        cmds, logs = [], []
        for k in range(1, shards + 1):
            cmds.append([ptx, "dump", "--api", "opencl", "--out",
                         os.path.join(dump, f"opencl-{k}"), "--jit-cache",
                         os.path.join(work, f"jit-cache-{k}"), "--shard", f"{k}/{shards}",
                         "--no-ptxas-sass"])
            logs.append(os.path.join(work, f"opencl-{k}.log"))
        cmds.append([ptx, "dump", "--api", "cuda", "--out", os.path.join(dump, "cuda")])
        logs.append(os.path.join(work, "cuda.log"))
        codes = _run_all(cmds, logs, log, deadline)
        _say(log, f"suite: both dumps ({shards} OpenCL processes) took {_now() - start:.1f} s")
        n = collect(dump, os.path.join(work, SASS_DIR))
        archive = os.path.join(out_dir, ARCHIVE)
        with tarfile.open(archive + ".partial", "w:xz", preset=XZ_PRESET) as tar:
            tar.add(os.path.join(work, SASS_DIR), arcname=SASS_DIR)
        os.replace(archive + ".partial", archive)
        _say(log, f"suite: {n} SASS files in {archive} after {_now() - start:.1f} s")
    failed = [c for c in codes if c]
    if failed:
        return failed[0]
    return 0 if n else 1
