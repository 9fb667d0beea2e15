"""gpucmp's side of scripts/kernel_tuner_side.py: the candidate space (the legal
local:<shape> rows of gpucmp-bench's listing with every --<kernel>-local sweep, or of
sweep JSON files, per API), the kernels to tune at the rows' problem sizes (jobs:
sources, arguments, candidates per backend), gpucmp's own picks (a run's
local:tuner rows) and the gpucmp-bench command line that re-times every pick."""
import re
import shlex
import subprocess

import gbench_json  # load
from kernel_tuner_common import BACKENDS, BadInput, shape_key
from worksize_kernels import KERNELS, arguments, cuda_source, problem, read, signature

LIST_TIMEOUT_S = 300
RETIME_FLAGS = ["--startup", "off", "--benchmark_repetitions=10",
                "--benchmark_enable_random_interleaving=true", "--min-samples", "5",
                "--time-limit", "0.5"]


def split_row(name):
    """(workload, api, variant, {param: value}, local spec) of a gpucmp row name, or None."""
    parts = [p for p in name.strip().split("/") if p]
    if len(parts) < 4 or parts[1] not in BACKENDS:
        return None
    params, local = {}, None
    for part in parts[3:]:
        if gbench_json.GBENCH_NAME_PART.fullmatch(part) or ":" not in part:
            continue
        key, value = part.split(":", 1)
        if key == "local":
            local = value
        else:
            params[key] = value
    if local is None:
        return None
    return parts[0], parts[1], parts[2], params, local


def is_shape(spec):
    return re.fullmatch(r"\d+(x\d+)?", spec) is not None



def collect(names, kernels):
    """{(workload, variant, params tuple): {api: [shapes]}} of the rows named."""
    space = {}
    for name in names:
        row = split_row(name)
        if row is None or row[0] not in kernels or not is_shape(row[4]):
            continue
        workload, api, variant, params, spec = row
        shapes = space.setdefault((workload, variant, tuple(params.items())), {}).setdefault(
            api, [])
        if spec not in shapes:
            shapes.append(spec)
    for apis in space.values():
        for shapes in apis.values():
            shapes.sort(key=shape_key)
    return space


def listing_command(bench, size, kernels, bench_args):
    cmd = [bench, "--benchmark_list_tests=true", "--size", size, *bench_args, "--startup",
           "off", f"--benchmark_filter=^({'|'.join(kernels)})/"]
    for k in kernels:
        cmd += [f"--{k}-local", "sweep"]
    return cmd


def space_from_bench(bench, size, kernels, bench_args):
    """The space of gpucmp-bench's listing; its rows' parameters are the problem
    sizes (--size's preset, and what bench_args set, e.g. --sort-n)."""
    cmd = listing_command(bench, size, kernels, bench_args)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=LIST_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BadInput(f"--bench {bench}: cannot list its rows ({e})") from e
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise BadInput(f"--bench: '{shlex.join(cmd)}' exited {r.returncode}: {last}")
    return collect(r.stdout.splitlines(), kernels), {"from": "gpucmp-bench listing",
                                                     "command": shlex.join(cmd), "size": size}


def space_from_sweeps(paths, kernels):
    names, sizes = [], set()
    for path in paths:
        try:
            context, entries = gbench_json.load(path)
        except gbench_json.InputError as e:
            raise BadInput(str(e)) from e
        names += [n for n, e in entries.items() if e["rows"] and not e["skipped"]
                  and not e["error"]]
        sizes.add(context.get("gpucmp.size"))
    origin = {"from": "sweep JSON rows", "files": list(paths)}
    if len(sizes) == 1 and isinstance(next(iter(sizes)), str):
        origin["size"] = next(iter(sizes))  # gpucmp-bench's --size of those runs
    return collect(names, kernels), origin



def label_of(workload, variant, params):
    """"mmnaive base n:1024": workload, variant and parameters (worksize_retime.py's)."""
    return " ".join([workload, variant] + [f"{k}:{v}" for k, v in params])


def dims_of(apis):
    return 2 if any("x" in s for shapes in apis.values() for s in shapes) else 1


def build_jobs(space):
    jobs = []
    for (workload, variant, params), apis in sorted(space.items(),
                                                    key=lambda kv: KERNELS.index(kv[0][0])):
        params = dict(params)
        cl_src = read(f"opencl/worksize/{workload}.cl")
        cu_src = cuda_source(workload)
        name, cl_params = signature(cl_src, f"opencl/worksize/{workload}.cl")
        cu_name, cu_params = signature(cu_src, f"cuda/worksize/{workload}.cu")
        if cu_name != name or [p[0] for p in cu_params] != [p[0] for p in cl_params]:
            raise BadInput(f"{workload}: the .cu and .cl kernels differ in name or parameters")
        values, size, tuned = problem(workload, params)
        args, described = arguments(values, cl_params, f"opencl/worksize/{workload}.cl")
        dims = dims_of(apis)
        label = label_of(workload, variant, tuple(params.items()))
        jobs.append({"kernel": workload, "label": label, "variant": variant, "params": params,
                     "dims": dims, "kernel_name": name, "tuned": tuned,
                     "problem_size": list(size), "args": described,
                     "sources": {"cuda": f"cuda/worksize/{workload}.cu",
                                 "opencl": f"opencl/worksize/{workload}.cl"},
                     "backends": {b: {"candidates": apis.get(b, [])} for b in BACKENDS},
                     "arguments": args, "source": {"cuda": cu_src, "opencl": cl_src}})
    return jobs



def our_picks(path, labels):
    """{label: {api: {"picks", "measured", "candidates"}}} of a run's local:tuner rows."""
    try:
        _, entries = gbench_json.load(path)
    except gbench_json.InputError as e:
        raise BadInput(str(e)) from e
    out = {}
    for name, entry in entries.items():
        row = split_row(name)
        if row is None or row[4] != "tuner" or not entry["rows"]:
            continue
        workload, api, variant, params, _ = row
        label = label_of(workload, variant, tuple(params.items()))
        if label not in labels:
            continue
        got = out.setdefault(label, {}).setdefault(api, {"picks": [], "measured": None,
                                                         "candidates": None, "from": path})
        for r in entry["rows"]:
            x, y = r.get("local_x"), r.get("local_y")
            if not isinstance(x, (int, float)) or x <= 0:
                continue
            shape = str(int(x)) if labels[label] == 1 else f"{int(x)}x{int(y or 1)}"
            if shape not in got["picks"]:
                got["picks"].append(shape)
            for key in ("measured", "candidates"):
                if isinstance(r.get(f"tuner_{key}"), (int, float)):
                    got[key] = int(r[f"tuner_{key}"])
    return out


def retime(jobs, ours, args, size):
    shapes = {}
    for job in jobs:
        specs = shapes.setdefault(job["kernel"], ["tuner"])
        found = [p for apis in ours.get(job["label"], {}).values() for p in apis["picks"]]
        for entry in job["backends"].values():
            if entry.get("exhaustive"):
                found.append(entry["exhaustive"]["pick"])
            for s in entry.get("strategies", {}).values():
                found += [p["pick"] for p in s["picks"]]
        for spec in sorted(set(found), key=shape_key):
            if spec not in specs:
                specs.append(spec)
    local_args = []
    for kernel, specs in shapes.items():
        local_args += [f"--{kernel}-local", ",".join(specs)]
    cmd = ["gpucmp-bench"] + (["--size", size] if size else []) + args.bench_args + [
        f"--benchmark_filter=^({'|'.join(shapes)})/"] + RETIME_FLAGS + local_args + [
        f"--benchmark_out={args.retime_out}", "--benchmark_out_format=json"]
    out = {"local_args": local_args, "shapes": shapes}
    if args.bench_args:
        out["bench_args"] = args.bench_args
    return {**out, "command": shlex.join(cmd)}
