"""kernel-tuner.json of scripts/kernel_tuner_side.py (Kernel Tuner's exhaustive search
and strategies on the four work-size kernels, per backend, with its own times) and
kernel-tuner-retime.json (the gpucmp-bench run of the --<kernel>-local arguments
that script printed: every pick and gpucmp's `tuner` re-timed in one process). Side
inputs, never benchmark results: sections/gaps.py's split_inputs takes them out of
report.py's arguments and finds them beside the result files; the section "Kernel
Tuner beside gpucmp's tuner" (sections/kernel_tuner.py) reads them.

load(paths) -> [Doc]; load_retime(paths) -> {(label, api): {spec: Retimed}} with
label "mmnaive base n:1024" as kernel_tuner_side.py names a kernel; InputError names
the file and what is wrong with it."""
import statistics

import gbench_json

from . import side_json
from .names import APIS, parse_name

NAME = "kernel-tuner.json"
RETIME_NAME = "kernel-tuner-retime.json"
NAMES = (NAME, RETIME_NAME)


class InputError(Exception):
    """A kernel-tuner.json or its re-time run that cannot be read: report.py exits 2."""


class Doc:
    """One kernel-tuner.json: path, tool (its "tool" object), backends and kernels."""

    def __init__(self, path, doc):
        self.path = path
        self.tool = doc.get("tool", {})
        self.backends = doc.get("backends", {})
        self.kernels = doc["kernels"]
        self.ours = doc.get("gpucmp_tuner", {})
        self.space = doc.get("space", {})
        self.partial = doc.get("partial")  # why the run did not finish, or None


class Retimed:
    """The re-timed row of one spec: its median time (ns), repetitions, and the shapes
    it ran, [(local_x, local_y)] in order (several where gpucmp's tuner chose
    differently between repetitions)."""

    def __init__(self, median_ns, repetitions, shapes):
        self.median_ns, self.repetitions, self.shapes = median_ns, repetitions, shapes


def check_kernel(path, i, k):
    where = f"{path}: kernels[{i}]"
    if not isinstance(k, dict) or not isinstance(k.get("label"), str):
        raise InputError(f"{where}: not an object with a \"label\"")
    if k.get("dims") not in (1, 2):
        raise InputError(f"{where}: \"dims\" is not 1 or 2")
    backends = k.get("backends")
    if not isinstance(backends, dict) or not set(backends) <= set(APIS):
        raise InputError(f"{where}: \"backends\" is not an object of cuda and opencl")
    for api, b in backends.items():
        if not isinstance(b, dict) or b.get("status") not in ("ok", "skipped", "error"):
            raise InputError(f"{where}: backends.{api}: no \"status\" ok, skipped or error")
        if b["status"] == "ok" and not isinstance(b.get("strategies"), dict):
            raise InputError(f"{where}: backends.{api}: ok without \"strategies\"")


def load(paths):
    """[Doc] of the kernel-tuner.json files, in order."""
    return [Doc(path, doc) for path, doc in side_json.read_docs(
        paths, "kernels", "tool", "a kernel-tuner.json of scripts/kernel_tuner_side.py",
        InputError, check_kernel)]


def shape_text(shape, dims):
    """"256" (1-D) or "32x8" (2-D) of (x, y)."""
    x, y = shape
    return str(x) if dims == 1 else f"{x}x{y}"


def load_retime(paths):
    """{(label, api): {spec: Retimed}} of the local:<spec> rows of the re-time runs (a
    later file wins per row)."""
    out = {}
    for path in paths:
        try:
            _, entries = gbench_json.load(path)
        except gbench_json.InputError as e:
            raise InputError(str(e)) from e
        for key, entry in entries.items():
            parsed = parse_name(key)
            if parsed is None or not entry["rows"]:
                continue
            workload, api, variant, params = parsed
            spec = dict(params).get("local")
            if spec is None:
                continue
            label = " ".join([workload, variant] + [f"{k}:{v}" for k, v in params
                                                    if k != "local"])
            times = [r["real_time"] * gbench_json.TIME_UNITS_NS[r.get("time_unit", "ns")]
                     for r in entry["rows"]]
            shapes = []
            for r in entry["rows"]:
                x, y = r.get("local_x"), r.get("local_y", 1)
                if isinstance(x, (int, float)) and x > 0 and isinstance(y, (int, float)):
                    if (int(x), int(y)) not in shapes:
                        shapes.append((int(x), int(y)))
            out.setdefault((label, api), {})[spec] = Retimed(statistics.median(times),
                                                             len(times), shapes)
    return out
