"""Building Rodinia 3.1's heartwall for scripts/rodinia_heartwall.py, and what its
OpenCL runs load: each version built by its own Makefile in a copy (the CUDA
copy's hard-coded points replaced by input.txt's), NVIDIA's OpenCL library
found, the OpenCL runs' environment naming it alone, and the libOpenCL that the
built OpenCL program loads (ldd)."""
import os
import re
import shlex
import shutil
import sys

from command_output import command_output
from reference_runs import run_program, tail

BUILD_TIMEOUT_S = 600
NV_CL_LIB = "libnvidia-opencl.so.1"
NO_LOADER_LINE = "no libOpenCL in ldd's output"


def read_points(input_txt):
    """[(row, col)] of input.txt, endocardium first, and the endocardium's count."""
    with open(input_txt, encoding="utf-8") as f:
        lines = [line.split() for line in f if line.strip()]
    endo, epi = int(lines[1][0]), int(lines[1][1])
    er, ec, pr, pc = ([int(v) for v in lines[k]] for k in range(2, 6))
    if (len(er), len(ec), len(pr), len(pc)) != (endo, endo, epi, epi):
        raise ValueError(f"{input_txt}: point lines do not hold {endo} and {epi} points")
    return list(zip(er, ec)) + list(zip(pr, pc)), endo


def set_cuda_points(main_cu, points, endo):
    """Rewrites main.cu's `common.endoRow[ i] = v;` (endoCol, epiRow, epiCol) with the
    points; an error string where it does not hold them all."""
    with open(main_cu, encoding="utf-8", errors="replace") as f:
        text = f.read()
    values = {"endoRow": [p[0] for p in points[:endo]], "endoCol": [p[1] for p in points[:endo]],
              "epiRow": [p[0] for p in points[endo:]], "epiCol": [p[1] for p in points[endo:]]}
    seen = {k: set() for k in values}

    def one(m):
        name, i = m.group(1), int(m.group(2))
        if i >= len(values[name]):
            return m.group(0)
        seen[name].add(i)
        return f"common.{name}[{m.group(2)}] = {values[name][i]};"

    text = re.sub(r"common\.(endoRow|endoCol|epiRow|epiCol)\[(\s*\d+)\]\s*=\s*\d+\s*;", one, text)
    missing = [k for k, v in values.items() if seen[k] != set(range(len(v)))]
    if missing:
        return f"main.cu: no hard-coded points for {', '.join(missing)} to replace"
    with open(main_cu, "w", encoding="utf-8") as f:
        f.write(text)
    return None


def opencl_dirs():
    """(include folder with CL/cl.h, library folder with libOpenCL.so)."""
    homes = [h for h in (os.environ.get("CUDA_HOME"), "/usr/local/cuda") if h]
    inc = next((os.path.join(h, "include") for h in homes
                if os.path.isfile(os.path.join(h, "include", "CL", "cl.h"))), "/usr/include")
    libs = [os.path.join(h, "lib64") for h in homes] + ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]
    lib = next((d for d in libs if os.path.exists(os.path.join(d, "libOpenCL.so"))),
               "/usr/lib/x86_64-linux-gnu")
    return inc, lib


def build(tool, api, src, build_dir, cc, points, endo, env):
    """(the built folder, the command, None) or (None, the command, why it did not build);
    `tool` names the script in what it prints."""
    folder = os.path.join(build_dir, api, "heartwall")
    shutil.copytree(os.path.join(src, api, "heartwall"), folder, dirs_exist_ok=True)
    if api == "cuda":
        why = set_cuda_points(os.path.join(folder, "main.cu"), points, endo)
        if why:
            return None, None, why
        cmd = ["make", "-B", "OUTPUT=Y"]
        if cc:
            cmd.append(f"KERNEL_DIM=-gencode arch=compute_{cc},code=sm_{cc}")
    else:
        config = os.path.join(src, "common", "make.config")
        os.makedirs(os.path.join(build_dir, "common"), exist_ok=True)
        if os.path.isfile(config):
            shutil.copy(config, os.path.join(build_dir, "common", "make.config"))
        else:
            open(os.path.join(build_dir, "common", "make.config"), "a").close()
        inc, lib = opencl_dirs()
        cmd = ["make", "-B", "OUTPUT=Y", f"OPENCL_INC={inc}", f"OPENCL_LIB={lib}"]
    print(f"{tool}: building {api}: {shlex.join(cmd)}", file=sys.stderr, flush=True)
    rc, out, _ = run_program(tool, cmd, folder, env, BUILD_TIMEOUT_S)
    if rc != 0 or not os.path.isfile(os.path.join(folder, "heartwall")):
        return None, shlex.join(cmd), f"build failed ({shlex.join(cmd)}: exit code {rc}): " \
                                      f"{tail(out)}"
    return folder, shlex.join(cmd), None


def nvidia_cl_lib():
    """NVIDIA's OpenCL library (libnvidia-opencl.so.1) where scripts/gpu_env.sh looks, or
    None."""
    dirs = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    for d in dirs + ["/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64"]:
        if os.path.exists(os.path.join(d, NV_CL_LIB)):
            return os.path.join(d, NV_CL_LIB)
    return None


def icd_settings(icd, build_dir):
    """{variable: value} that name the OpenCL library `icd` alone to the ICD loader
    (Rodinia takes platform 0): OCL_ICD_VENDORS, a folder whose one .icd file names it,
    and OCL_ICD_FILENAMES, the library itself (ocl-icd then reads no folder, the
    Khronos loader loads it first); {} without `icd`."""
    if not icd:
        return {}
    folder = os.path.join(build_dir, "icd")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "only.icd"), "w", encoding="utf-8") as f:
        f.write(icd + "\n")
    return {"OCL_ICD_VENDORS": folder, "OCL_ICD_FILENAMES": icd}


def opencl_loader(program):
    """The libOpenCL line of `ldd program` ("libOpenCL.so.1 => /usr/lib/x86_64-linux-gnu/
    libOpenCL.so.1", its load address left out): the ICD loader the built OpenCL program
    loads. None where ldd is missing or nothing was built; NO_LOADER_LINE where ldd names
    no libOpenCL (or fails)."""
    if program is None or not os.path.isfile(program) or shutil.which("ldd") is None:
        return None
    for line in (command_output("ldd", program) or "").splitlines():
        if "libOpenCL" in line:
            return re.sub(r"\s*\(0x[0-9a-fA-F]+\)\s*$", "", line.strip())
    return NO_LOADER_LINE
