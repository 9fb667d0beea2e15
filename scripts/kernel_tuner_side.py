#!/usr/bin/env python3
"""Runs Kernel Tuner (KernelTuner/kernel_tuner, PyPI kernel-tuner) beside gpucmp's own
work-group-size tuner on the four work-size kernels (mmnaive, bilinear, sort,
trapezoid), on both of its backends that gpucmp pairs: CUDA through cuda-python
(Kernel Tuner's "nvcuda" backend: NVRTC and the driver API) and OpenCL through
pyopencl. Per kernel and backend: Kernel Tuner's exhaustive search (brute_force)
once, then each strategy (random_sample, genetic_algorithm, simulated_annealing,
bayes_opt, its initial random sample half the budget) once per seed at a budget
of max(candidates // 10, 3) timed configurations (gpucmp's tuner times
max(1, candidates // 10) shapes: 6 of 66 on the 2-D kernels, none of 11 on the
1-D ones, where its model alone picks). It writes every pick with Kernel Tuner's
own time of it as JSON and prints, on stdout, the --<kernel>-local arguments of
one gpucmp-bench run that re-times all the picks by gpucmp's protocol, `tuner`
(gpucmp's tuner, choosing again in that run) first; the report's "Kernel Tuner
beside gpucmp's tuner" reads both files (kernel-tuner.json and that run's
kernel-tuner-retime.json).

What is tuned is what gpucmp runs: the candidate space is the legal shapes of
gpucmp itself, from `gpucmp-bench --benchmark_list_tests` with every
--<kernel>-local sweep (--bench) or from the local:<shape> rows of a sweep's JSON
(--sweep; rows skipped there, e.g. over a device's limit, are left out), per API,
and so are the problem sizes (the listing's or the rows' parameters: with
--bench, the size preset --size, standard as the suite's worksize part). The
kernels are the repository's own files: opencl/worksize/<kernel>.cl as written,
and the kernel of cuda/worksize/<kernel>.cu (the body of its anonymous namespace,
the harness constants it names replaced by their values from
harness/workloads/worksize/<kernel>.h) compiled by NVRTC with its defaults (gpucmp
compiles it with nvcc -O3; neither uses fast math). OpenCL builds with
-cl-std=CL1.2, as gpucmp does. Arguments are numpy arrays and scalars in the
kernel's own parameter order and types, read from its signature; inputs are
seeded uniform floats. sort launches bitonic_pass once per pass (171 at 2^18
keys) after a restoring copy; Kernel Tuner times one kernel, so it tunes that
kernel on one pass: the last (k = n, j = 1), whose stride-1 pairs are the most
frequent kind (one pass of every stage), while gpucmp's rows time a whole sort.
Kernel Tuner times each configuration by `--iterations` single launches (7),
each alone between a synchronize and the next (CUDA: events on its stream around
the launch; OpenCL: the launch's own profiling START..END), and ranks by their
mean; for kernels of a few microseconds that measures the launch and event path
as much as the kernel, so the report compares picks re-timed by gpucmp.

Seeds: before each strategy run Python's `random` and numpy's global generator
are seeded (Kernel Tuner 1.5's strategies draw from them; its own `seed`
argument is passed too, which only pymoo's strategies read). A strategy's pick
per seed is the fastest configuration it timed; its median and worst pick over
the seeds are ranked by the exhaustive run's time of each picked shape (the
lower median for an even count).

Backends: one whose package does not import, or without a device (no CUDA device,
no OpenCL platform), is a stated skip in the JSON ("status": "skipped", "why"),
unless --backends names it: then a missing package is bad input (exit 2). A
configuration that fails to build or run is kept with its error; a strategy run
that raises, or takes more than --run-timeout seconds, is an error entry of that
run, never a crash.

Output (kernel-tuner.json by the report's name; written atomically, one object):
  {"tool": {"kernel_tuner": version, "packages": {name: version or null},
            "strategies": [...], "seeds": [...], "iterations": N,
            "budget": "max(candidates // 10, 3)" or the --budget given,
            "gpucmp_tuner_budget": "min(candidates, max(candidates // 10, 3))",
            "timing": how Kernel Tuner timed, "selection": how median/worst are ranked},
   "space": {"from": "gpucmp-bench listing" or "sweep JSON rows", "command" (the
             listing's) or "files", "size": gpucmp-bench's --size (a sweep's from its
             context, where its files agree)}, "command": this script's command line,
   "date", "host",
   "backends": {"cuda" | "opencl": {"status": "ok" | "skipped", "why" (skipped),
                "device" (ok: Kernel Tuner's device name), "platform" (OpenCL)}},
   "kernels": [{"kernel": "mmnaive", "label": "mmnaive base n:1024" (workload,
                variant and parameters, as scripts/worksize_retime.py names them),
                "variant", "params": {name: value}, "dims": 1 or 2,
                "kernel_name": the function tuned, "tuned": what is tuned (sort: one pass),
                "problem_size": [x, y], "args": [{"name", "type", "value" (scalars)}],
                "sources": {"cuda": path, "opencl": path},
                "backends": {"cuda" | "opencl": {
                   "status": "ok" | "skipped" | "error", "why" (not ok),
                   "candidates": ["1x1", ...] (gpucmp's legal shapes of that API),
                   "budget": N, "gpucmp_tuner_budget": N,
                   "runs": [{"strategy", "seed" (null for brute_force), "options"
                             (Kernel Tuner's strategy_options),
                             "evaluated": [{"shape", "time_ms" | "error"}] in Kernel
                             Tuner's order, "pick": shape or null, "pick_time_ms",
                             "error" (only when the run raised or timed out)}],
                   "exhaustive": {"pick", "time_ms"} or null,
                   "strategies": {name: {"picks": [{"seed", "pick", "pick_time_ms",
                                  "exhaustive_time_ms"}], "median": {"seed", "pick",
                                  "exhaustive_time_ms"} or null, "worst": same}}}}}],
   "gpucmp_tuner": {label: {api: {"picks": [shapes], "measured", "candidates"}}}
                   (from --ours; {} without),
   "retime": {"local_args": [...], "shapes": {kernel: [specs]},
              "command": a gpucmp-bench command line that re-times them},
   "partial": why (only while running, or when stopped by SIGTERM)}
  The file is rewritten after each kernel and backend, so a run cut short keeps what
  finished, and --resume (that file, as --out too) goes on from there: the kernels and
  backends it finished are kept (same strategies, seeds, iterations and budget, same
  candidates and device; "resumed_from" names it), the rest run; a --resume file that
  does not exist keeps nothing, so the same command run again goes on where it stopped.
  Shapes are gpucmp's specs: "256" (1-D), "32x8" (2-D, x by y).

usage: scripts/kernel_tuner_side.py --out FILE.json (--bench GPUCMP_BENCH | --sweep JSON...)
           [--size standard] [--kernels mmnaive,bilinear,sort,trapezoid]
           [--backends cuda,opencl] [--strategies random_sample,genetic_algorithm,
           simulated_annealing,bayes_opt] [--seeds 1,2,3,4,5] [--budget N]
           [--iterations 7] [--cl-platform auto|N] [--cl-device 0] [--cuda-device 0]
           [--run-timeout 180] [--ours RUN.json] [--resume EARLIER.json]
           [--retime-out kernel-tuner-retime.json]
exit: 0 written (skipped backends and failed configurations are in the JSON);
      143 stopped by SIGTERM (what finished written, marked partial);
      2 bad input: kernel_tuner not importable, a backend named by --backends whose
      package does not import, an unknown kernel, backend or strategy, bad seeds,
      budget, iterations or run timeout, --out in a missing or unwritable folder,
      a --resume file of other settings,
      a listing or sweep without the kernels' local:<shape> rows, a kernel source
      that does not parse; one line on stderr
"""
import contextlib
import datetime
import importlib
import importlib.metadata
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import cli_args  # noqa: E402
import gbench_json  # noqa: E402  (load, write_atomically)
from worksize_kernels import (KERNELS, KernelError, arguments, cuda_source,  # noqa: E402
                              problem, read, signature)

NAME = "kernel_tuner_side"
BACKENDS = ("cuda", "opencl")
STRATEGIES = ("random_sample", "genetic_algorithm", "simulated_annealing", "bayes_opt")
EXHAUSTIVE = "brute_force"
LANG = {"cuda": "nvcuda", "opencl": "OpenCL"}
PACKAGE = {"cuda": ("cuda.bindings", "cuda-python"), "opencl": ("pyopencl", "pyopencl")}
CL_OPTIONS = ["-cl-std=CL1.2"]  # gpucmp's OpenCL build options (opencl.build_options)
PACKAGES = ("kernel_tuner", "cuda-python", "cuda-bindings", "pyopencl", "numpy", "scipy",
            "scikit-learn")
LIST_TIMEOUT_S = 300
SIGTERM_RC = 128 + signal.SIGTERM
TIMING = ("each configuration launched --iterations times, each launch "
          "alone after a synchronize (CUDA: events recorded on its stream around the one "
          "launch; OpenCL: the launch's own profiling START..END), ranked by the mean")
SELECTION = ("a strategy's pick per seed is the fastest configuration it timed; the median "
             "and worst over seeds rank the picks by the exhaustive run's time of the picked "
             "shape (the lower median for an even count)")
RETIME_FLAGS = ["--startup", "off", "--benchmark_repetitions=10",
                "--benchmark_enable_random_interleaving=true", "--min-samples", "5",
                "--time-limit", "0.5"]


class BadInput(Exception):
    """Exit 2 with this one line."""


def fail(message):
    cli_args.fail(NAME, message)


def say(message):
    print(f"{NAME}: {message}", file=sys.stderr, flush=True)


# ---- the command line ----

def word_list(option, text, known):
    out = []
    for word in (w.strip() for w in text.split(",")):
        if word not in known:
            fail(f"{option}: unknown '{word}' (known: {', '.join(known)})")
        if word not in out:
            out.append(word)
    return out


def parse_args(argv):
    p = cli_args.parser(NAME, __doc__)
    p.add_argument("--out", required=True, help="the JSON file to write")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--bench", help="gpucmp-bench, whose listing gives the legal shapes")
    src.add_argument("--sweep", nargs="+", help="sweep JSON files (local:<shape> rows)")
    p.add_argument("--size", default="standard", help="gpucmp-bench --size (with --bench)")
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--backends", help="cuda,opencl (default: both, a missing one skipped)")
    p.add_argument("--strategies", default=",".join(STRATEGIES))
    p.add_argument("--seeds", default="1,2,3,4,5", help="one strategy run per seed")
    p.add_argument("--budget", help="configurations a strategy run times (default "
                   "max(candidates // 10, 3))")
    p.add_argument("--iterations", default="7", help="Kernel Tuner's launches per config")
    p.add_argument("--cl-platform", default="auto", help="OpenCL platform index, or auto "
                   "(NVIDIA's where present, else the first)")
    p.add_argument("--cl-device", default="0")
    p.add_argument("--cuda-device", default="0")
    p.add_argument("--run-timeout", default="180", help="seconds one tune_kernel call "
                   "may take (default 180)")
    p.add_argument("--resume", help="an earlier kernel-tuner.json of the same settings (it "
                   "may be --out; a missing one keeps nothing): its finished kernels and "
                   "backends are kept")
    p.add_argument("--ours", help="a gpucmp-bench JSON with local:tuner rows (gpucmp's picks)")
    p.add_argument("--retime-out", default="kernel-tuner-retime.json",
                   help="the --benchmark_out of the printed re-time command")
    args = p.parse_args(argv)
    args.kernels = word_list("--kernels", args.kernels, KERNELS)
    args.explicit_backends = args.backends is not None
    args.backends = word_list("--backends", args.backends or ",".join(BACKENDS), BACKENDS)
    args.strategies = word_list("--strategies", args.strategies, STRATEGIES)
    args.seeds = whole_numbers("--seeds", args.seeds, least=0)
    args.budget = None if args.budget is None else whole_numbers("--budget", args.budget, 1,
                                                                  single=True)
    args.iterations = whole_numbers("--iterations", args.iterations, 1, single=True)
    args.run_timeout = whole_numbers("--run-timeout", args.run_timeout, 1, single=True)
    args.cl_device = whole_numbers("--cl-device", args.cl_device, 0, single=True)
    args.cuda_device = whole_numbers("--cuda-device", args.cuda_device, 0, single=True)
    if args.cl_platform != "auto":
        args.cl_platform = whole_numbers("--cl-platform", args.cl_platform, 0, single=True)
    folder = os.path.dirname(os.path.abspath(args.out))
    if os.path.isdir(args.out):
        fail(f"--out {args.out}: is a folder")
    if not os.path.isdir(folder):
        fail(f"--out {args.out}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        fail(f"--out {args.out}: cannot write in {folder}")
    for path in (args.sweep or []) + ([args.ours] if args.ours else []):
        if not os.path.isfile(path):
            fail(f"{path}: no such file")
    if args.bench is not None and not (os.path.isfile(args.bench)
                                       and os.access(args.bench, os.X_OK)):
        fail(f"--bench {args.bench}: not an executable file")
    return args


def whole_numbers(option, text, least, single=False):
    words = [w.strip() for w in str(text).split(",")]
    if single and len(words) != 1:
        fail(f"{option}: '{text}': one whole number")
    out = []
    for w in words:
        if not w.isdigit() or int(w) < least:
            fail(f"{option}: '{w}' is not a whole number of {least} or more (in '{text}')")
        if int(w) not in out:
            out.append(int(w))
    return out[0] if single else out


# ---- gpucmp's candidate space ----

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


def shape_key(spec):
    return tuple(int(v) for v in spec.split("x"))


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


def listing_command(bench, size, kernels):
    cmd = [bench, "--benchmark_list_tests=true", "--size", size, "--startup", "off",
           f"--benchmark_filter=^({'|'.join(kernels)})/"]
    for k in kernels:
        cmd += [f"--{k}-local", "sweep"]
    return cmd


def space_from_bench(bench, size, kernels):
    cmd = listing_command(bench, size, kernels)
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


# ---- the backends ----

def version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def open_backend(backend, args):
    """{"status": "ok", "device", ...} or {"status": "skipped", "why"}: whether the
    package imports and a device is there."""
    module, dist = PACKAGE[backend]
    if backend == "cuda":
        cuda_home()
    try:
        importlib.import_module(module)
    except ImportError as e:
        if args.explicit_backends:
            raise BadInput(f"--backends {backend}: {dist} is not importable ({e}); "
                           "install it (scripts/fetch_wheels.sh, README)") from e
        return {"status": "skipped", "why": f"{dist} is not importable ({e})"}
    try:
        return cuda_device(args.cuda_device) if backend == "cuda" else \
            opencl_device(args.cl_platform, args.cl_device)
    except Exception as e:  # noqa: BLE001  a driver's own exception: a stated skip
        return {"status": "skipped", "why": f"no device: {type(e).__name__}: {e}"}


def cuda_home():
    """CUDA_HOME for NVRTC's library and headers where neither CUDA_HOME nor CUDA_PATH
    is set: the toolkit of the nvcc on PATH, else /usr/local/cuda."""
    if os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH"):
        return
    nvcc = shutil.which("nvcc")
    home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else \
        "/usr/local/cuda"
    if os.path.isdir(home):
        os.environ["CUDA_HOME"] = home


def cuda_device(index):
    from cuda.bindings import driver

    def check(result):
        err, *rest = result if isinstance(result, tuple) else (result,)
        if err != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"CUDA driver: {err.name}")
        return rest[0] if rest else None

    check(driver.cuInit(0))
    count = check(driver.cuDeviceGetCount())
    if index >= count:
        raise RuntimeError(f"--cuda-device {index}: {count} CUDA devices")
    name = check(driver.cuDeviceGetName(256, check(driver.cuDeviceGet(index))))
    return {"status": "ok", "device": name.split(b"\0")[0].decode(), "device_index": index}


def opencl_device(platform, device):
    import pyopencl as cl

    platforms = cl.get_platforms()
    if platform == "auto":
        platform = next((i for i, p in enumerate(platforms) if "NVIDIA" in p.name), 0)
    if platform >= len(platforms):
        raise RuntimeError(f"OpenCL platform {platform}: {len(platforms)} platforms")
    devices = platforms[platform].get_devices()
    if device >= len(devices):
        raise RuntimeError(f"OpenCL device {device} of platform {platform}: "
                           f"{len(devices)} devices")
    return {"status": "ok", "platform": platforms[platform].name.strip(),
            "platform_index": platform, "device": devices[device].name.strip(),
            "device_index": device}


# ---- tuning ----

def shape_of(config, dims):
    x = int(config["block_size_x"])
    return str(x) if dims == 1 else f"{x}x{int(config['block_size_y'])}"


def time_of(result):
    """(Kernel Tuner's time in ms, None) or (None, why): a configuration that failed
    carries an ErrorConfig (a str subclass) in "__error__" or in place of its time."""
    error, t = result.get("__error__"), result.get("time")
    if error is not None or isinstance(t, str) or not isinstance(t, (int, float)):
        return None, type(error).__name__ if error is not None else str(t or "no time")
    return float(t), None


def strategy_options(strategy, budget):
    """Kernel Tuner's strategy_options of a run: the budget (max_fevals: distinct
    configurations timed); bayes_opt's random initial sample (popsize, 20 by default,
    more than a budget of 3 to 6) half of it, at least 2, the rest guided by its model."""
    if strategy == EXHAUSTIVE:
        return {}
    if strategy == "bayes_opt":
        return {"max_fevals": budget, "popsize": max(2, budget // 2)}
    return {"max_fevals": budget}


class Stopped(BaseException):
    """SIGTERM: what finished is written, marked partial."""


def stop_all(signum, _frame):
    raise Stopped(signal.Signals(signum).name)


class RunTimeout(BaseException):
    """A tune_kernel call past --run-timeout (a BaseException: Kernel Tuner catches
    Exception around compiling and launching)."""


def stop_run(_signum, _frame):
    raise RunTimeout()


def tune_once(kt, job, backend, info, strategy, seed, budget, iterations, run_timeout):
    """One tune_kernel call: its run entry. Kernel Tuner 1.5's genetic_algorithm can
    loop without timing anything where few of its children are legal (a sparse 2-D
    space smaller than its population), so every call has a time limit."""
    import numpy as np

    legal = {shape_key(s) for s in job["candidates"]}
    if job["dims"] == 1:
        tune_params = {"block_size_x": sorted(x for (x,) in legal)}
        restrictions = None
    else:
        tune_params = {"block_size_x": sorted({x for x, _ in legal}),
                       "block_size_y": sorted({y for _, y in legal})}

        def restrictions(p):
            return (p["block_size_x"], p["block_size_y"]) in legal

    options = strategy_options(strategy, budget)
    run = {"strategy": strategy, "seed": seed, "options": options, "evaluated": [],
           "pick": None, "pick_time_ms": None}
    if seed is not None:
        random.seed(seed)
        np.random.seed(seed)
    kwargs = dict(restrictions=restrictions, lang=LANG[backend], iterations=iterations,
                  strategy=strategy, strategy_options=options, quiet=True, verbose=False,
                  seed=seed)
    if backend == "opencl":
        kwargs.update(platform=info["platform_index"], device=info["device_index"],
                      compiler_options=CL_OPTIONS)
    else:
        kwargs.update(device=info["device_index"])
    signal.signal(signal.SIGALRM, stop_run)
    signal.setitimer(signal.ITIMER_REAL, run_timeout)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            results, _ = kt.tune_kernel(job["kernel_name"], job["source"][backend],
                                        job["problem_size"], job["arguments"], tune_params,
                                        **kwargs)
    except RunTimeout:
        run["error"] = (f"no result within {run_timeout} s (--run-timeout): stopped, what it "
                        "timed is lost")
        return run
    except Exception as e:  # noqa: BLE001  Kernel Tuner's or a driver's: kept in the run
        run["error"] = f"{type(e).__name__}: {e}"
        return run
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    best = None
    for r in results:
        t, why = time_of(r)
        shape = shape_of(r, job["dims"])
        run["evaluated"].append({"shape": shape, "time_ms": t} if t is not None
                                else {"shape": shape, "error": why})
        if t is not None and (best is None or t < best[1]):
            best = (shape, t)
    if best:
        run["pick"], run["pick_time_ms"] = best
    return run


def summarize(runs, strategies):
    """(exhaustive {"pick", "time_ms"} or None, {strategy: picks, median, worst})."""
    exhaustive = next((r for r in runs if r["strategy"] == EXHAUSTIVE), None)
    times = {e["shape"]: e["time_ms"] for e in (exhaustive or {"evaluated": []})["evaluated"]
             if "time_ms" in e}
    best = {"pick": exhaustive["pick"], "time_ms": exhaustive["pick_time_ms"]} \
        if exhaustive and exhaustive["pick"] else None
    out = {}
    for strategy in strategies:
        picks = [{"seed": r["seed"], "pick": r["pick"], "pick_time_ms": r["pick_time_ms"],
                  "exhaustive_time_ms": times.get(r["pick"])}
                 for r in runs if r["strategy"] == strategy and r["pick"]]
        ranked = sorted((p for p in picks if p["exhaustive_time_ms"] is not None),
                        key=lambda p: (p["exhaustive_time_ms"], p["seed"]))
        pick = None
        if ranked:
            pick = {k: ranked[(len(ranked) - 1) // 2][k] for k in ("seed", "pick",
                                                                     "exhaustive_time_ms")}
        worst = {k: ranked[-1][k] for k in ("seed", "pick", "exhaustive_time_ms")} \
            if ranked else None
        out[strategy] = {"picks": picks, "median": pick, "worst": worst}
    return best, out


def budget_of(candidates, given):
    return min(candidates, given if given is not None else max(candidates // 10, 3))


def tune_kernel_backend(kt, job, backend, info, args):
    entry = job["backends"][backend]
    entry["budget"] = budget_of(len(entry["candidates"]), args.budget)
    # harness/local_choice.cpp's tuner_budget: the same rule as Kernel Tuner's default
    entry["gpucmp_tuner_budget"] = min(len(entry["candidates"]),
                                       max(len(entry["candidates"]) // 10, 3))
    job["candidates"] = entry["candidates"]
    plan = [(EXHAUSTIVE, None)] + [(s, seed) for s in args.strategies for seed in args.seeds]
    runs = []
    for strategy, seed in plan:
        run = tune_once(kt, job, backend, info, strategy, seed, entry["budget"],
                        args.iterations, args.run_timeout)
        runs.append(run)
        say(f"{job['label']} {backend} {strategy}" + (f" seed {seed}" if seed is not None
                                                       else "") + ": " +
            (f"error: {run['error'][:200]}" if "error" in run else
             f"{len(run['evaluated'])} timed, pick {run['pick']} ({run['pick_time_ms']} ms)"))
    entry["runs"] = runs
    entry["exhaustive"], entry["strategies"] = summarize(runs, args.strategies)
    if entry["exhaustive"] is None:
        entry["status"] = "error"
        first = runs[0].get("error") or "no configuration ran"
        entry["why"] = f"the exhaustive run gave no pick: {first}"


# ---- gpucmp's own picks and the re-time command ----

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
    cmd = ["gpucmp-bench"] + (["--size", size] if size else []) + [
        f"--benchmark_filter=^({'|'.join(shapes)})/"] + RETIME_FLAGS + local_args + [
        f"--benchmark_out={args.retime_out}", "--benchmark_out_format=json"]
    return {"local_args": local_args, "shapes": shapes, "command": shlex.join(cmd)}


# ---- main ----

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


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    try:
        return run(args, argv)
    except BadInput as e:
        fail(str(e))


def run(args, argv):
    if "cuda" in args.backends:
        cuda_home()  # before Kernel Tuner's CUDA backend looks for NVRTC
    if args.bench:
        space, origin = space_from_bench(args.bench, args.size, args.kernels)
    else:
        space, origin = space_from_sweeps(args.sweep, args.kernels)
    missing = [k for k in args.kernels if not any(key[0] == k for key in space)]
    if missing:
        raise BadInput(f"no local:<shape> rows of {', '.join(missing)} in the "
                       + (origin.get("command") or ", ".join(origin["files"])))
    ours = our_picks(args.ours, {label_of(*key): dims_of(apis) for key, apis in space.items()}) \
        if args.ours else {}
    try:
        kt = importlib.import_module("kernel_tuner")
    except ImportError as e:
        raise BadInput(f"kernel_tuner is not importable ({e}): pip install kernel-tuner "
                       "(scripts/fetch_wheels.sh carries it to a machine without network)") \
            from e
    try:
        jobs = build_jobs(space)
    except KernelError as e:
        raise BadInput(str(e)) from e
    previous = earlier_runs(args) if args.resume and os.path.exists(args.resume) else {}
    if args.resume and not previous:
        say(f"--resume {args.resume}: nothing finished to keep, every kernel and backend runs")
    backends = {b: open_backend(b, args) if b in args.backends else
                {"status": "skipped", "why": "not in --backends"} for b in BACKENDS}
    for b, info in backends.items():
        say(f"{b}: " + (f"{info['device']}" if info["status"] == "ok"
                        else f"skipped: {info['why']}"))
    doc = {
        "tool": {"kernel_tuner": version("kernel_tuner"),
                 "packages": {p: version(p) for p in PACKAGES}, **settings(args),
                 "gpucmp_tuner_budget": "min(candidates, max(candidates // 10, 3))",
                 "timing": TIMING, "selection": SELECTION},
        "space": origin,
        "command": "scripts/kernel_tuner_side.py " + shlex.join(argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": socket.gethostname(),
        "backends": backends,
        "gpucmp_tuner": ours,
    }
    if args.resume:
        doc["resumed_from"] = args.resume
    signal.signal(signal.SIGTERM, stop_all)
    rc = 0
    try:
        for job in jobs:
            for backend, info in backends.items():
                entry = job["backends"][backend]
                kept, device = previous.get((job["label"], backend), (None, None))
                if kept and kept.get("candidates") == entry["candidates"] and \
                        info["status"] == "ok" and device == info["device"]:
                    entry.clear()
                    entry.update(kept)
                    say(f"{job['label']} {backend}: kept from --resume {args.resume}")
                elif info["status"] != "ok":
                    entry.update(status="skipped", why=info["why"])
                elif not entry["candidates"]:
                    entry.update(status="skipped", why=f"no {backend} rows of {job['label']} "
                                 "in the listing or sweep")
                else:
                    entry["status"] = "ok"
                    tune_kernel_backend(kt, job, backend, info, args)
                    write(args.out, doc, jobs, ours, args, "running: the kernels and backends "
                          "after the last with \"strategies\" had not run yet")
    except Stopped as e:
        rc = SIGTERM_RC
        stopped = f"stopped by {e}: the kernels and backends without \"strategies\" did not run"
        say(stopped)
        write(args.out, doc, jobs, ours, args, stopped)
    else:
        write(args.out, doc, jobs, ours, args, None)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    say(f"wrote {args.out}; re-time every pick in one run: {doc['retime']['command']}")
    print(shlex.join(doc["retime"]["local_args"]))
    return rc


def settings(args):
    """What makes two runs' picks comparable (--resume keeps a run's only when equal)."""
    return {"strategies": args.strategies, "seeds": args.seeds, "iterations": args.iterations,
            "budget": "max(candidates // 10, 3)" if args.budget is None else args.budget}


def earlier_runs(args):
    """{(label, backend): (entry, its device)} of the finished kernels and backends of
    --resume (a kernel-tuner.json of this script with the same settings)."""
    try:
        with open(args.resume, encoding="utf-8") as f:
            doc = json.load(f)
        tool, kernels = doc["tool"], doc["kernels"]
        ok = isinstance(tool, dict) and isinstance(kernels, list)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BadInput(f"--resume {args.resume}: not a kernel-tuner.json of this script "
                       f"({e})") from e
    if not ok:
        raise BadInput(f"--resume {args.resume}: not a kernel-tuner.json of this script")
    for key, want in settings(args).items():
        if tool.get(key) != want:
            raise BadInput(f"--resume {args.resume}: its {key} {tool.get(key)!r} differ from "
                           f"this run's {want!r}")
    devices = {b: (i or {}).get("device") for b, i in (doc.get("backends") or {}).items()}
    return {(k.get("label"), b): (e, devices.get(b)) for k in kernels if isinstance(k, dict)
            for b, e in (k.get("backends") or {}).items()
            if isinstance(e, dict) and e.get("status") == "ok" and "strategies" in e}


def finished(entry, partial):
    """A backend's entry as written: one not run to its end is a skip saying why."""
    if entry.get("status") in ("skipped", "error") or "strategies" in entry:
        return entry
    return {**{k: v for k, v in entry.items() if k != "status"}, "status": "skipped",
            "why": f"not run to its end: {partial}"}


def write(path, doc, jobs, ours, args, partial):
    """Writes the document as it stands (after each kernel and backend, so that a run
    cut short keeps what finished), "partial" saying why where it is not complete."""
    doc["kernels"] = [{**{k: v for k, v in j.items() if k not in (
        "arguments", "source", "candidates", "backends")},
        "backends": {b: finished(e, partial) for b, e in j["backends"].items()}}
        for j in jobs]
    doc["retime"] = retime(jobs, ours, args, doc["space"].get("size"))
    doc.pop("partial", None)
    if partial:
        doc["partial"] = partial
    try:
        gbench_json.write_atomically(path, json.dumps(doc, indent=1) + "\n")
    except OSError as e:
        raise BadInput(f"--out {path}: cannot write ({e.strerror or e})") from e


if __name__ == "__main__":
    sys.exit(main())
