"""Kernel Tuner's side of scripts/kernel_tuner_side.py: its backends (CUDA through
cuda-python's NVRTC and driver API, OpenCL through pyopencl), each opened or a
stated skip, and its runs of one kernel on one backend: the exhaustive search once,
each strategy once per seed at the budget, every tune_kernel call under a time
limit, and the picks they give (the median and worst over seeds ranked by the
exhaustive run's times). SIGTERM stops the whole run (Stopped)."""
import contextlib
import importlib
import importlib.metadata
import os
import random
import shutil
import signal
import sys

from kernel_tuner_common import EXHAUSTIVE, BadInput, say, shape_key

LANG = {"cuda": "nvcuda", "opencl": "OpenCL"}
PACKAGE = {"cuda": ("cuda.bindings", "cuda-python"), "opencl": ("pyopencl", "pyopencl")}
CL_OPTIONS = ["-cl-std=CL1.2"]  # gpucmp's OpenCL build options (opencl.build_options)


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
