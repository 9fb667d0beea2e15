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
own time of it as JSON and prints, on stdout, the arguments (--bench-args, then
the --<kernel>-local ones) of one gpucmp-bench run that re-times all the picks by
gpucmp's protocol, `tuner` (gpucmp's tuner, choosing again in that run) first; the
report's "Kernel Tuner beside gpucmp's tuner" reads both files (kernel-tuner.json
and that run's kernel-tuner-retime.json).

What is tuned is what gpucmp runs: the candidate space is the legal shapes of
gpucmp itself, from `gpucmp-bench --benchmark_list_tests` with every
--<kernel>-local sweep (--bench) or from the local:<shape> rows of a sweep's JSON
(--sweep; rows skipped there, e.g. over a device's limit, are left out), per API,
and so are the problem sizes (the listing's or the rows' parameters: with
--bench, the size preset --size, standard as the suite's worksize part, and what
--bench-args sets, e.g. "--sort-n 4194304": sort at 2^22 keys, where 2^18 is
launch-bound). The
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
              "bench_args": [...] (only with --bench-args: the printed arguments' first),
              "command": a gpucmp-bench command line that re-times them},
   "partial": why (only while running, or when stopped by SIGTERM)}
  The file is rewritten after each kernel and backend, so a run cut short keeps what
  finished, and --resume (that file, as --out too) goes on from there: the kernels and
  backends it finished are kept (same strategies, seeds, iterations and budget, same
  candidates and device; "resumed_from" names it), the rest run; a --resume file that
  does not exist keeps nothing, so the same command run again goes on where it stopped.
  Shapes are gpucmp's specs: "256" (1-D), "32x8" (2-D, x by y).

usage: scripts/kernel_tuner_side.py --out FILE.json (--bench GPUCMP_BENCH | --sweep JSON...)
           [--size standard] [--bench-args "ARGS"]
           [--kernels mmnaive,bilinear,sort,trapezoid]
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
      a --resume file of other settings, --bench-args that do not split (a quote left open),
      a listing or sweep without the kernels' local:<shape> rows, a kernel source
      that does not parse; one line on stderr
"""
import datetime
import importlib
import json
import os
import shlex
import signal
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cli_args  # noqa: E402
import gbench_json  # noqa: E402  (write_atomically)
from kernel_tuner_common import BACKENDS, NAME, BadInput, fail, say  # noqa: E402
from kernel_tuner_runs import (Stopped, cuda_home, open_backend, stop_all,  # noqa: E402
                               tune_kernel_backend, version)
from kernel_tuner_space import (build_jobs, dims_of, label_of, our_picks,  # noqa: E402
                                retime, space_from_bench, space_from_sweeps)
from worksize_kernels import KERNELS, KernelError  # noqa: E402

STRATEGIES = ("random_sample", "genetic_algorithm", "simulated_annealing", "bayes_opt")
PACKAGES = ("kernel_tuner", "cuda-python", "cuda-bindings", "pyopencl", "numpy", "scipy",
            "scikit-learn")
SIGTERM_RC = 128 + signal.SIGTERM
TIMING = ("each configuration launched --iterations times, each launch "
          "alone after a synchronize (CUDA: events recorded on its stream around the one "
          "launch; OpenCL: the launch's own profiling START..END), ranked by the mean")
SELECTION = ("a strategy's pick per seed is the fastest configuration it timed; the median "
             "and worst over seeds rank the picks by the exhaustive run's time of the picked "
             "shape (the lower median for an even count)")


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
    p.add_argument("--bench-args", default="", help="more gpucmp-bench arguments, one "
                   "shell-quoted string (e.g. \"--sort-n 4194304\"; one word: "
                   "--bench-args=WORD): passed to its listing (--bench) and put first in the "
                   "printed re-time arguments")
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
    try:
        args.bench_args = shlex.split(args.bench_args)
    except ValueError as e:
        fail(f"--bench-args '{args.bench_args}': {e}")
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


# ---- the run, --resume and the JSON ----

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
        space, origin = space_from_bench(args.bench, args.size, args.kernels, args.bench_args)
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
    print(shlex.join(args.bench_args + doc["retime"]["local_args"]))
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
