"""What the tests of scripts/kernel_tuner_side.py share: stub kernel_tuner, pyopencl
and cuda.bindings modules, the listing a stub gpucmp-bench prints, gbench JSON rows,
and StubbedRun, the script run against those stubs (no GPU, no Kernel Tuner)."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
SCRIPT = os.path.join(SCRIPTS, "kernel_tuner_side.py")
STRATEGIES = ["random_sample", "genetic_algorithm", "simulated_annealing", "bayes_opt"]

# Stubs first on PYTHONPATH. kernel_tuner: every configuration of tune_params that
# passes the restriction (brute_force) or a random sample of max_fevals of them; a
# time in ms fastest at 64 (1-D) and 32x8 (2-D); 1024 fails as Kernel Tuner marks a
# launch that fails; each call logged. FAKE_NO_<X> makes a module unimportable.
STUB_KT = r'''
import itertools, json, math, os, random, time
if os.environ.get("FAKE_NO_KT"):
    raise ImportError("stub: no kernel_tuner")

class RuntimeFailedConfig(str):
    pass

def cost(c):
    x, y = c["block_size_x"], c.get("block_size_y")
    if y is None:
        return 0.010 * (1 + abs(math.log2(x) - 6))
    return 0.010 * (1 + abs(math.log2(x) - 5) + abs(math.log2(y) - 3))

def tune_kernel(kernel_name, kernel_source, problem_size, arguments, tune_params,
                restrictions=None, strategy=None, strategy_options=None, **kw):
    time.sleep(float(os.environ.get("FAKE_KT_SLEEP", "0")))
    names = list(tune_params)
    configs = [dict(zip(names, v)) for v in itertools.product(*tune_params.values())]
    if restrictions is not None:
        configs = [c for c in configs if restrictions(c)]
    if strategy != "brute_force":
        configs = random.sample(configs, min(strategy_options["max_fevals"], len(configs)))
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write(json.dumps({"kernel": kernel_name, "strategy": strategy,
            "options": strategy_options, "lang": kw.get("lang"),
            "platform": kw.get("platform"), "compiler_options": kw.get("compiler_options"),
            "iterations": kw.get("iterations"), "problem_size": list(problem_size),
            "args": [type(a).__name__ for a in arguments],
            "scalars": [a.item() for a in arguments if not hasattr(a, "size") or a.size == 1],
            "source": kernel_source, "evaluated": len(configs)}) + "\n")
    if os.environ.get("FAKE_KT_RAISE") == strategy:
        raise RuntimeError("stub: the strategy failed")
    results = []
    for c in configs:
        r = dict(c)
        if c["block_size_x"] == 1024:
            r["time"] = r["__error__"] = RuntimeFailedConfig("RuntimeFailedConfig")
        else:
            r["time"] = cost(c)
        results.append(r)
    return results, {}
'''
STUB_CL = r'''
import os
if os.environ.get("FAKE_NO_CL"):
    raise ImportError("stub: no pyopencl")

class _Device:
    name = "Stub GPU"

class _Platform:
    def __init__(self, name):
        self.name = name
    def get_devices(self):
        return [_Device()]

def get_platforms():
    return [_Platform("Portable Computing Language"), _Platform("NVIDIA CUDA")]
'''
STUB_CUDA = r'''
import os
if os.environ.get("FAKE_NO_CUDA"):
    raise ImportError("stub: no cuda-python")
'''
STUB_DRIVER = r'''
class CUresult:
    CUDA_SUCCESS = 0

def cuInit(flags):
    return (0,)

def cuDeviceGetCount():
    return (0, 1)

def cuDeviceGet(index):
    return (0, index)

def cuDeviceGetName(length, device):
    return (0, b"Stub CUDA GPU\0\0")
'''
SHAPES_2D = ["8x8", "16x4", "16x16", "32x8", "64x4", "64x8", "128x8", "256x4", "512x2",
             "1024x1", "4x4", "2x2"]
SHAPES_1D = [str(1 << i) for i in range(11)]


def listing_lines():
    """What gpucmp-bench --benchmark_list_tests prints, at quick size, with sweeps."""
    lines = []
    for api in ("cuda", "opencl"):
        for shape in SHAPES_2D + ["tuner", "study-x"]:
            lines.append(f"mmnaive/{api}/base/n:256/local:{shape}/iterations:1/manual_time")
            lines.append(f"bilinear/{api}/base/in:128/out:256/local:{shape}/iterations:1/"
                         "manual_time")
        for shape in SHAPES_1D + ["tuner", "study"]:
            if api == "opencl" and shape == "2":
                continue  # the APIs' spaces may differ: each is taken as listed
            lines.append(f"sort/{api}/bitonic/n:16384/local:{shape}/iterations:1/manual_time")
            lines.append(f"trapezoid/{api}/base/items:16384/local:{shape}/iterations:1/"
                         "manual_time")
        lines.append(f"mmnaive/{api}/base/n:256/split:equal/iterations:1/manual_time")
    lines.append("triad/cuda/base/n:1024/iterations:1/manual_time")
    return lines


def gbench_rows(names_times):
    rows = []
    for name, extra in names_times:
        full = f"{name}/iterations:1/manual_time"
        rows.append({"name": full, "run_name": full, "run_type": "iteration",
                     "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 1,
                     "real_time": 10.0, "cpu_time": 10.0, "time_unit": "us", **extra})
    return rows


def write_json(path, benchmarks, context=None):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"context": context or {}, "benchmarks": benchmarks}, f)
    return path


def write_exec(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class StubbedRun:
    """A unittest.TestCase mixin: the script run against stub modules and a stub
    gpucmp-bench (which records its arguments in self.bench_args and lists sort at
    its --sort-n, 16384 without), its Kernel Tuner calls logged."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kt-side-test-")
        stubs = os.path.join(self.dir, "stubs")
        for rel, text in (("kernel_tuner/__init__.py", STUB_KT), ("pyopencl/__init__.py", STUB_CL),
                          ("cuda/__init__.py", ""), ("cuda/bindings/__init__.py", STUB_CUDA),
                          ("cuda/bindings/driver.py", STUB_DRIVER)):
            os.makedirs(os.path.dirname(os.path.join(stubs, rel)), exist_ok=True)
            with open(os.path.join(stubs, rel), "w", encoding="utf-8") as f:
                f.write(text)
        self.log = os.path.join(self.dir, "kt.log")
        self.bench_args = os.path.join(self.dir, "bench-args")
        listing = os.path.join(self.dir, "listing.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("\n".join(listing_lines()) + "\n")
        self.bench = write_exec(os.path.join(self.dir, "gpucmp-bench"),
                                f'#!/bin/sh\necho "$@" > {self.bench_args}\n'
                                f'[ -z "$FAKE_BENCH_FAIL" ] || {{ echo "gpucmp-bench: error: '
                                f'no device" >&2; exit 2; }}\n'
                                'n=16384\nwhile [ $# -gt 0 ]; do\n'
                                '  [ "$1" = --sort-n ] && n=$2\n  shift\ndone\n'
                                f'sed "s#^\\(sort/[^ ]*\\)/n:16384/#\\1/n:$n/#" {listing}\n')
        self.env = dict(os.environ, PYTHONPATH=stubs, FAKE_LOG=self.log)
        self.out = os.path.join(self.dir, "kt.json")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_script(self, *args, env=None):
        r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                           env=dict(self.env, **(env or {})), timeout=300, check=False)
        return r.returncode, r.stdout, r.stderr

    def calls(self):
        with open(self.log, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def tune(self, *extra, env=None):
        code, out, err = self.run_script("--out", self.out, "--bench", self.bench, "--size",
                                         "quick", "--seeds", "1,2,3", *extra, env=env)
        self.assertEqual(code, 0, err)
        with open(self.out, encoding="utf-8") as f:
            return json.load(f), out, err
