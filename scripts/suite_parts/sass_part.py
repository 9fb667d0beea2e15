"""The suite's `sass` part: the SASS that ran, for both APIs, into
<run>/sass.tar.xz (sass/*.sass inside, about 1.6 MB against 45 MB unpacked),
where the report's "Why each gap" reads it (scripts/gpucmp_report/sass.py).

gpucmp-ptx dump --api opencl builds every OpenCL program on the device and
keeps the driver's compute cache, so that each program's <name>.sass is what
NVIDIA's JIT made (what ran); --api cuda disassembles the executable's own
cubins. The files are renamed <name>.opencl-jit.sass and <kernel>.cuda.sass,
and SOURCES.txt lists each file's first line (where it came from). Offline
ptxas on OpenCL's PTX (<name>.ptxas.sass) is not what ran and is left out.
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


def _run(cmd, log, deadline):
    log.write("$ " + " ".join(cmd) + "\n")
    log.flush()
    left = deadline - _now()
    if left <= 0:
        log.write("suite: no time left for this step\n")
        return 124
    try:
        return subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, timeout=left,
                              check=False).returncode
    except subprocess.TimeoutExpired:
        log.write("\nsuite: stopped at the part's limit\n")
        return 124


def _now():
    return time.monotonic()


def collect(dump, sass_dir):
    """Copies the dumps' SASS into sass_dir under the report's names; returns how many."""
    os.makedirs(sass_dir, exist_ok=True)
    copied = []
    opencl, cuda = os.path.join(dump, "opencl"), os.path.join(dump, "cuda")
    for name in sorted(os.listdir(opencl)) if os.path.isdir(opencl) else []:
        if not name.endswith(".ptx"):
            continue
        stem = name[: -len(".ptx")]
        path = os.path.join(opencl, stem + ".sass")
        if os.path.isfile(path):
            copied.append(shutil.copy(path, os.path.join(sass_dir, f"{stem}.opencl-jit.sass")))
    for name in sorted(os.listdir(cuda)) if os.path.isdir(cuda) else []:
        if name.endswith(".sass"):
            stem = name[: -len(".sass")]
            copied.append(shutil.copy(os.path.join(cuda, name),
                                      os.path.join(sass_dir, f"{stem}.cuda.sass")))
    with open(os.path.join(sass_dir, "SOURCES.txt"), "w", encoding="utf-8") as f:
        for path in sorted(copied):
            with open(path, encoding="utf-8", errors="replace") as s:
                f.write(f"{os.path.basename(path)}: {s.readline().strip()}\n")
    return len(copied)


def run(ptx, out_dir, log, limit_s):
    """Runs both dumps and collects their SASS; the exit code of the part."""
    deadline = _now() + limit_s
    with tempfile.TemporaryDirectory(prefix="gpucmp-sass-") as work:
        dump = os.path.join(work, "dump")
        rc_cl = _run([ptx, "dump", "--api", "opencl", "--out", os.path.join(dump, "opencl"),
                      "--jit-cache", os.path.join(work, "jit-cache")], log, deadline)
        rc_cu = _run([ptx, "dump", "--api", "cuda", "--out", os.path.join(dump, "cuda")], log,
                     deadline)
        n = collect(dump, os.path.join(work, SASS_DIR))
        archive = os.path.join(out_dir, ARCHIVE)
        with tarfile.open(archive + ".partial", "w:xz") as tar:
            tar.add(os.path.join(work, SASS_DIR), arcname=SASS_DIR)
        os.replace(archive + ".partial", archive)
        log.write(f"suite: {n} SASS files in {archive}\n")
    if rc_cl or rc_cu:
        return rc_cl or rc_cu
    return 0 if n else 1
