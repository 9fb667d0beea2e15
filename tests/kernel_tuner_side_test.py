#!/usr/bin/env python3
"""Tests scripts/kernel_tuner_side.py. With stub kernel_tuner, pyopencl, cuda.bindings
and gpucmp-bench (no GPU, no Kernel Tuner needed): the candidate space is gpucmp's
listing of every --<kernel>-local sweep (per API, rules and other rows left out), the
size is the listing's, the kernels' sources and arguments are the repository's
(CUDA's kernel out of its namespace, sort on one pass), exhaustive once and each
strategy per seed at max(candidates // 10, 3), the median and worst pick over seeds
by the exhaustive times, failed configurations and a strategy run that raises kept,
OpenCL on NVIDIA's platform where there is one, a missing backend a stated skip (bad
input when --backends names it), gpucmp's own picks (--ours) and every pick in the
printed --<kernel>-local arguments; SIGTERM keeps what finished (exit 143, the JSON
marked partial) and --resume goes on from it; bad input is one line and exit 2.
`KernelSources`: the kernels' sources pair across the APIs, arguments come in order
and type, and what does not parse (scripts/worksize_kernels.py) is a KernelError
naming it.

`PoclEndToEnd` (CTest kernel_tuner_side_pocl) runs the real Kernel Tuner on PoCL's
OpenCL device at tiny sizes, `CudaUnderNvrtc` (kernel_tuner_side_nvrtc) compiles the
CUDA kernels with NVRTC as Kernel Tuner's CUDA backend does; each skips, saying so,
where kernel_tuner, pyopencl or an OpenCL device, or cuda-python's NVRTC, is not
there. Run alone: kernel_tuner_side_test.py Stubbed|KernelSources|PoclEndToEnd|
CudaUnderNvrtc."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
SCRIPT = os.path.join(SCRIPTS, "kernel_tuner_side.py")
sys.path.insert(0, SCRIPTS)
import kernel_tuner_side  # noqa: E402
import worksize_kernels  # noqa: E402

SKIPPED = "kernel_tuner_side_test: SKIPPED"
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


class Stubbed(unittest.TestCase):
    """The script against stub modules and a stub gpucmp-bench."""

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
                                f'no device" >&2; exit 2; }}\ncat {listing}\n')
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

    def test_space_runs_picks_and_json(self):
        ours = write_json(os.path.join(self.dir, "ours.json"), gbench_rows(
            [(f"mmnaive/{api}/base/n:256/local:tuner", {"local_x": 16, "local_y": 16,
                                                        "tuner_measured": 6,
                                                        "tuner_candidates": 12})
             for api in ("cuda", "opencl")] +
            [("sort/cuda/bitonic/n:16384/local:tuner", {"local_x": 512, "local_y": 1,
                                                         "tuner_measured": 0,
                                                         "tuner_candidates": 11})]))
        doc, out, _ = self.tune("--ours", ours)
        with open(self.bench_args, encoding="utf-8") as f:
            listed = f.read().split()
        self.assertIn("--benchmark_list_tests=true", listed)
        self.assertEqual(listed[listed.index("--size") + 1], "quick")
        for k in worksize_kernels.KERNELS:
            self.assertEqual(listed[listed.index(f"--{k}-local") + 1], "sweep")

        self.assertEqual([k["kernel"] for k in doc["kernels"]],
                         ["mmnaive", "bilinear", "sort", "trapezoid"])
        self.assertEqual(doc["backends"]["cuda"], {"status": "ok", "device": "Stub CUDA GPU",
                                                   "device_index": 0})
        self.assertEqual(doc["backends"]["opencl"]["platform_index"], 1)  # NVIDIA's
        self.assertEqual(doc["tool"]["seeds"], [1, 2, 3])
        self.assertEqual(doc["tool"]["strategies"], STRATEGIES)
        by = {k["kernel"]: k for k in doc["kernels"]}
        self.assertEqual(by["mmnaive"]["label"], "mmnaive base n:256")
        self.assertEqual(by["mmnaive"]["problem_size"], [256, 256])
        self.assertEqual(by["bilinear"]["problem_size"], [256, 256])
        self.assertEqual(by["sort"]["problem_size"], [8192, 1])
        self.assertIn("one pass", by["sort"]["tuned"])
        self.assertEqual([(a["name"], a.get("value")) for a in by["sort"]["args"]],
                         [("a", None), ("k", 16384), ("j", 1)])
        self.assertEqual(by["trapezoid"]["args"][1]["value"], 1.0 / (16384 * 64))
        self.assertEqual(by["bilinear"]["args"][5]["value"], 0.5)  # scale_x = in / out
        self.assertEqual(by["sort"]["backends"]["opencl"]["candidates"],
                         [s for s in SHAPES_1D if s != "2"])
        for k in doc["kernels"]:
            shapes = SHAPES_2D if k["dims"] == 2 else SHAPES_1D
            best = "32x8" if k["dims"] == 2 else "64"
            for api, entry in k["backends"].items():
                self.assertEqual(entry["status"], "ok", (k["label"], api))
                cands = entry["candidates"]
                self.assertEqual(set(cands) - set(shapes), set())
                self.assertEqual(entry["budget"], max(len(cands) // 10, 3))
                self.assertEqual(entry["gpucmp_tuner_budget"],
                                 min(len(cands), max(3, len(cands) // 10)))
                runs = entry["runs"]
                self.assertEqual(len(runs), 1 + len(STRATEGIES) * 3)
                self.assertEqual((runs[0]["strategy"], runs[0]["seed"]), ("brute_force", None))
                self.assertEqual(sorted(e["shape"] for e in runs[0]["evaluated"]), sorted(cands))
                self.assertEqual(entry["exhaustive"]["pick"], best)
                failed = [e for e in runs[0]["evaluated"] if "error" in e]
                self.assertEqual([e["shape"] for e in failed],
                                 [s for s in cands if s.split("x")[0] == "1024"])
                self.assertEqual(failed[0]["error"], "RuntimeFailedConfig")
                exhaustive = {e["shape"]: e["time_ms"] for e in runs[0]["evaluated"]
                              if "time_ms" in e}
                for run in runs[1:]:
                    self.assertEqual(len(run["evaluated"]), entry["budget"])
                    self.assertEqual(run["options"]["max_fevals"], entry["budget"])
                for name in STRATEGIES:
                    s = entry["strategies"][name]
                    self.assertEqual([p["seed"] for p in s["picks"]], [1, 2, 3])
                    ranked = sorted(s["picks"], key=lambda p: (exhaustive[p["pick"]], p["seed"]))
                    self.assertEqual(s["median"]["pick"], ranked[1]["pick"])
                    self.assertEqual(s["worst"]["pick"], ranked[2]["pick"])
                    self.assertEqual(s["worst"]["exhaustive_time_ms"],
                                     exhaustive[ranked[2]["pick"]])
        calls = self.calls()
        self.assertEqual({c["lang"] for c in calls}, {"nvcuda", "OpenCL"})
        for c in calls:
            if c["lang"] == "OpenCL":
                self.assertEqual((c["platform"], c["compiler_options"]), (1, ["-cl-std=CL1.2"]))
                self.assertIn("__kernel void", c["source"])
            else:
                self.assertIn("__global__ void", c["source"])
                self.assertNotIn("namespace", c["source"])
                self.assertNotIn("::", c["source"])
            self.assertEqual(c["iterations"], 7)
            if c["strategy"] == "bayes_opt":
                self.assertEqual(c["options"]["popsize"], max(2, c["options"]["max_fevals"] // 2))
        self.assertIn("constexpr unsigned kSteps = 64;",
                      next(c["source"] for c in calls if c["kernel"] == "trapezoid_sum"
                           and c["lang"] == "nvcuda"))
        self.assertEqual(doc["gpucmp_tuner"]["mmnaive base n:256"]["cuda"]["picks"], ["16x16"])
        self.assertEqual(doc["gpucmp_tuner"]["sort bitonic n:16384"]["cuda"]["measured"], 0)
        line = out.strip().splitlines()
        self.assertEqual(len(line), 1, out)
        words = line[0].split()
        self.assertEqual(words[0::2], ["--mmnaive-local", "--bilinear-local", "--sort-local",
                                       "--trapezoid-local"])
        specs = dict(zip(words[0::2], (w.split(",") for w in words[1::2])))
        self.assertEqual(specs["--mmnaive-local"][0], "tuner")
        self.assertIn("16x16", specs["--mmnaive-local"])  # ours, from --ours
        self.assertIn("512", specs["--sort-local"])
        for k in doc["kernels"]:
            picks = {p["pick"] for e in k["backends"].values() for s in e["strategies"].values()
                     for p in s["picks"]} | {e["exhaustive"]["pick"]
                                             for e in k["backends"].values()}
            self.assertLessEqual(picks, set(specs[f"--{k['kernel']}-local"]))
        self.assertEqual(doc["retime"]["local_args"], words)
        self.assertIn("--benchmark_enable_random_interleaving=true", doc["retime"]["command"])
        self.assertIn("--size quick", doc["retime"]["command"])

    def test_same_seed_same_picks(self):
        first, _, _ = self.tune("--kernels", "sort", "--backends", "opencl")
        second, _, _ = self.tune("--kernels", "sort", "--backends", "opencl")
        pick = [[r["pick"] for r in d["kernels"][0]["backends"]["opencl"]["runs"]]
                for d in (first, second)]
        self.assertEqual(pick[0], pick[1])

    def test_sweep_rows_give_the_space(self):
        sweep = write_json(os.path.join(self.dir, "sweep.json"), gbench_rows(
            [(f"trapezoid/{api}/base/items:1024/local:{s}", {}) for api in ("cuda", "opencl")
             for s in ("32", "64", "128", "tuner")]) + [
            {"name": "trapezoid/opencl/base/items:1024/local:2048/iterations:1/manual_time",
             "run_name": "trapezoid/opencl/base/items:1024/local:2048/iterations:1/manual_time",
             "run_type": "iteration", "error_occurred": True,
             "error_message": "skipped: over the device limit"}])
        code, _, err = self.run_script("--out", self.out, "--sweep", sweep, "--kernels",
                                       "trapezoid", "--seeds", "5", "--budget", "2",
                                       "--strategies", "random_sample")
        self.assertEqual(code, 0, err)
        with open(self.out, encoding="utf-8") as f:
            doc = json.load(f)
        entry = doc["kernels"][0]["backends"]["opencl"]
        self.assertEqual(entry["candidates"], ["32", "64", "128"])
        self.assertEqual(entry["budget"], 2)
        self.assertEqual(doc["space"], {"from": "sweep JSON rows", "files": [sweep]})
        self.assertNotIn("--size", doc["retime"]["command"])  # its context says none
        sized = write_json(os.path.join(self.dir, "sized.json"), gbench_rows(
            [("trapezoid/cuda/base/items:1024/local:64", {})]), {"gpucmp.size": "standard"})
        code, _, err = self.run_script("--out", self.out, "--sweep", sized, "--kernels",
                                       "trapezoid", "--seeds", "1", "--strategies",
                                       "random_sample")
        self.assertEqual(code, 0, err)
        with open(self.out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["space"]["size"], "standard")
        self.assertIn("gpucmp-bench --size standard ", doc["retime"]["command"])

    def test_missing_backend_is_a_stated_skip_unless_named(self):
        doc, _, err = self.tune("--kernels", "trapezoid", env={"FAKE_NO_CUDA": "1"})
        self.assertEqual(doc["backends"]["cuda"]["status"], "skipped")
        self.assertIn("cuda-python is not importable", doc["backends"]["cuda"]["why"])
        entry = doc["kernels"][0]["backends"]["cuda"]
        self.assertEqual(entry["status"], "skipped")
        self.assertNotIn("runs", entry)
        self.assertEqual(doc["kernels"][0]["backends"]["opencl"]["status"], "ok")
        self.assertIn("cuda: skipped", err)
        code, out, err = self.run_script("--out", self.out, "--bench", self.bench,
                                         "--backends", "cuda", env={"FAKE_NO_CUDA": "1"})
        self.assertEqual(code, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("--backends cuda: cuda-python is not importable", err)

    def test_a_strategy_run_that_raises_is_kept(self):
        doc, _, _ = self.tune("--kernels", "trapezoid", "--backends", "opencl",
                              env={"FAKE_KT_RAISE": "genetic_algorithm"})
        entry = doc["kernels"][0]["backends"]["opencl"]
        failed = [r for r in entry["runs"] if "error" in r]
        self.assertEqual([r["strategy"] for r in failed], ["genetic_algorithm"] * 3)
        self.assertIn("stub: the strategy failed", failed[0]["error"])
        self.assertEqual(entry["strategies"]["genetic_algorithm"]["median"], None)
        self.assertEqual(entry["status"], "ok")

    def test_sigterm_keeps_what_finished(self):
        proc = subprocess.Popen(
            [sys.executable, SCRIPT, "--out", self.out, "--bench", self.bench, "--kernels",
             "mmnaive,sort", "--backends", "opencl", "--seeds", "1", "--strategies",
             "random_sample"], env=dict(self.env, FAKE_KT_SLEEP="1"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not os.path.exists(self.out) and time.monotonic() < deadline:
            time.sleep(0.05)  # written once mmnaive's OpenCL runs finished
        proc.terminate()
        out, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 143, err)
        self.assertIn("stopped by SIGTERM", err)
        with open(self.out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertIn("stopped by SIGTERM", doc["partial"])
        mm, sort = doc["kernels"]
        self.assertIn("strategies", mm["backends"]["opencl"])
        self.assertEqual(sort["backends"]["opencl"]["status"], "skipped")
        self.assertIn("not run to its end: stopped by SIGTERM",
                      sort["backends"]["opencl"]["why"])
        words = out.split()
        self.assertEqual(words[0::2], ["--mmnaive-local", "--sort-local"])
        self.assertIn("32x8", words[1].split(","))  # the exhaustive pick
        self.assertEqual(words[3], "tuner")  # sort did not run

    def test_resume_keeps_what_finished(self):
        args = ["--out", self.out, "--bench", self.bench, "--kernels", "mmnaive,sort",
                "--backends", "opencl", "--seeds", "1", "--strategies", "random_sample"]
        code, _, err = self.run_script(*args[:5], "mmnaive", *args[6:], "--resume", self.out)
        self.assertEqual(code, 0, err)
        self.assertIn("nothing finished to keep", err)  # no such file yet
        with open(self.out, encoding="utf-8") as f:
            first = json.load(f)["kernels"][0]["backends"]["opencl"]
        os.remove(self.log)
        code, out, err = self.run_script(*args, "--resume", self.out)
        self.assertEqual(code, 0, err)
        self.assertIn("mmnaive base n:256 opencl: kept from --resume", err)
        self.assertEqual({c["kernel"] for c in self.calls()}, {"bitonic_pass"})  # sort alone
        with open(self.out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["resumed_from"], self.out)
        self.assertEqual(doc["kernels"][0]["backends"]["opencl"], first)
        self.assertIn("strategies", doc["kernels"][1]["backends"]["opencl"])
        self.assertIn(first["exhaustive"]["pick"], out.split()[1].split(","))
        code, _, err = self.run_script(*args, "--seeds", "2", "--resume", self.out)
        self.assertEqual(code, 2, err)
        self.assertIn("its seeds [1] differ from this run's [2]", err)
        code, _, err = self.run_script(*args, "--resume", self.bench_args)
        self.assertEqual(code, 2, err)
        self.assertIn("not a kernel-tuner.json of this script", err)

    def test_bad_input_is_one_line_and_exit_2(self):
        sweep = write_json(os.path.join(self.dir, "sweep.json"), gbench_rows(
            [("sort/opencl/bitonic/n:1024/local:64", {})]))
        missing = os.path.join(self.dir, "no", "kt.json")
        cases = [
            (["--kernels", "matrixMul"], {}, "--kernels: unknown 'matrixMul'"),
            (["--backends", "hip"], {}, "--backends: unknown 'hip'"),
            (["--strategies", "pso"], {}, "--strategies: unknown 'pso'"),
            (["--seeds", "one"], {}, "--seeds: 'one' is not a whole number"),
            (["--seeds=-1"], {}, "--seeds: '-1' is not a whole number"),
            (["--budget", "0"], {}, "--budget: '0' is not a whole number of 1 or more"),
            (["--budget", "2,3"], {}, "--budget: '2,3': one whole number"),
            (["--iterations", "0"], {}, "--iterations: '0'"),
            (["--cl-platform", "nvidia"], {}, "--cl-platform: 'nvidia'"),
            ([], {"FAKE_NO_KT": "1"}, "kernel_tuner is not importable"),
            ([], {"FAKE_BENCH_FAIL": "1"}, "exited 2: gpucmp-bench: error: no device"),
            (["--ours", os.path.join(self.dir, "none.json")], {}, "none.json: no such file"),
        ]
        for extra, env, needle in cases:
            code, out, err = self.run_script("--out", self.out, "--bench", self.bench, *extra,
                                             env=env)
            self.assertEqual(code, 2, (extra, out, err))
            self.assertEqual(len(err.strip().splitlines()), 1, (extra, err))
            self.assertTrue(err.startswith("kernel_tuner_side: error: "), err)
            self.assertIn(needle, err, extra)
            self.assertFalse(os.path.exists(self.out), extra)
        for args, needle in (
                (["--out", missing, "--bench", self.bench], "no folder"),
                (["--out", self.dir, "--bench", self.bench], "is a folder"),
                (["--out", self.out, "--bench", os.path.join(self.dir, "listing.txt")],
                 "not an executable file"),
                (["--out", self.out, "--sweep", os.path.join(self.dir, "none.json")],
                 "no such file"),
                (["--out", self.out, "--sweep", os.path.join(self.dir, "listing.txt")],
                 "not valid JSON"),
                (["--out", self.out, "--sweep", sweep], "no local:<shape> rows of mmnaive, "
                 "bilinear, trapezoid in"),
                (["--out", self.out], "one of the arguments --bench --sweep is required")):
            code, out, err = self.run_script(*args)
            self.assertEqual(code, 2, (args, out, err))
            self.assertEqual(len(err.strip().splitlines()), 1, (args, err))
            self.assertIn(needle, err, args)
        if os.geteuid() != 0:  # root writes anywhere
            locked = os.path.join(self.dir, "locked")
            os.mkdir(locked, 0o500)
            code, _, err = self.run_script("--out", os.path.join(locked, "kt.json"), "--bench",
                                           self.bench)
            self.assertEqual(code, 2, err)
            self.assertIn("cannot write in", err)


class KernelSources(unittest.TestCase):
    """scripts/worksize_kernels.py: the repository's kernels, their signatures and
    arguments; what does not parse is a KernelError."""

    def test_the_four_kernels_pair(self):
        for kernel in worksize_kernels.KERNELS:
            cl = worksize_kernels.signature(
                worksize_kernels.read(f"opencl/worksize/{kernel}.cl"), kernel)
            cu = worksize_kernels.signature(worksize_kernels.cuda_source(kernel), kernel)
            self.assertEqual(cl[0], cu[0])
            self.assertEqual([p[0] for p in cl[1]], [p[0] for p in cu[1]])
            self.assertEqual([p[2] for p in cl[1]], [p[2] for p in cu[1]])

    def test_arguments_in_order_and_type(self):
        import numpy as np
        values, size, tuned = worksize_kernels.problem("bilinear", {"in": "8", "out": "16"})
        self.assertEqual(size, (16, 16))
        _, params = worksize_kernels.signature(
            worksize_kernels.read("opencl/worksize/bilinear.cl"), "bilinear")
        args, described = worksize_kernels.arguments(values, params, "bilinear")
        self.assertEqual([type(a).__name__ for a in args],
                         ["ndarray", "ndarray"] + ["int32"] * 3 + ["float32"] * 2
                         + ["int32"] * 2)
        self.assertEqual(args[0].size, 256)
        self.assertEqual(args[1].dtype, np.float32)
        self.assertEqual(described[5], {"name": "scale_x", "type": "float", "value": 0.5})
        self.assertEqual(tuned, "the kernel, one launch")

    def test_what_does_not_parse(self):
        two = "__kernel void a(int x) {}\n__kernel void b(int y) {}"
        cases = [
            (lambda: worksize_kernels.signature(two, "two.cl"), "two.cl: 2 kernels"),
            (lambda: worksize_kernels.signature("__kernel void a(int x[4]) {}", "a.cl"),
             "parameter 'int x[4]' does not parse"),
            (lambda: worksize_kernels.arguments({}, [("n", "int", False)], "k.cl"),
             "no value for its parameter 'n'"),
            (lambda: worksize_kernels.arguments({"n": 1}, [("n", "double", False)], "k.cl"),
             "parameter 'n' has type 'double'"),
            (lambda: worksize_kernels.problem("sort", {"n": "many"}),
             "sort: rows without the parameter n:<n>")]
        for call, words in cases:
            with self.assertRaises(worksize_kernels.KernelError) as e:
                call()
            self.assertIn(words, str(e.exception))


def have(*modules):
    import importlib.util
    return all(importlib.util.find_spec(m) is not None for m in modules)


class PoclEndToEnd(unittest.TestCase):
    """The real Kernel Tuner on PoCL, tiny sizes."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kt-side-pocl-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def skip(self, why):
        print(f"{SKIPPED}: {why}", flush=True)
        self.skipTest(why)

    def test_opencl_end_to_end(self):
        if not have("kernel_tuner", "pyopencl"):
            self.skip("kernel_tuner or pyopencl is not importable (requirements.txt)")
        import pyopencl
        try:
            if not any(p.get_devices() for p in pyopencl.get_platforms()):
                self.skip("no OpenCL device")
        except pyopencl.Error as e:
            self.skip(f"no OpenCL platform ({e})")
        # Every legal shape of tiny problems (as gpucmp's sweep lists them): Kernel
        # Tuner's genetic_algorithm can stall on a sparse 2-D space (--run-timeout).
        two_d = [f"{x}x{y}" for x in (1, 2, 4, 8) for y in (1, 2, 4, 8)]
        sweep = write_json(os.path.join(self.dir, "sweep.json"), gbench_rows(
            [(f"mmnaive/opencl/base/n:8/local:{s}", {}) for s in two_d] +
            [(f"bilinear/opencl/base/in:4/out:8/local:{s}", {}) for s in two_d] +
            [(f"sort/opencl/bitonic/n:64/local:{1 << i}", {}) for i in range(6)] +
            [(f"trapezoid/opencl/base/items:64/local:{1 << i}", {}) for i in range(7)]))
        out = os.path.join(self.dir, "kt.json")
        r = subprocess.run([sys.executable, SCRIPT, "--out", out, "--sweep", sweep,
                            "--backends", "opencl", "--seeds", "1,2", "--iterations", "1",
                            "--run-timeout", "120"],
                           capture_output=True, text=True, timeout=900, check=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["backends"]["opencl"]["status"], "ok")
        self.assertEqual(doc["backends"]["cuda"]["status"], "skipped")
        self.assertEqual(doc["tool"]["kernel_tuner"], "1.5.0")
        for k in doc["kernels"]:
            entry = k["backends"]["opencl"]
            self.assertEqual(entry["status"], "ok", k["label"])
            cands = entry["candidates"]
            timed = [e for e in entry["runs"][0]["evaluated"] if "time_ms" in e]
            self.assertEqual(sorted(e["shape"] for e in entry["runs"][0]["evaluated"]),
                             sorted(cands), k["label"])
            self.assertTrue(timed and all(e["time_ms"] > 0 for e in timed), k["label"])
            self.assertIn(entry["exhaustive"]["pick"], cands)
            for run in entry["runs"][1:]:
                self.assertNotIn("error", run, (k["label"], run["strategy"]))
                self.assertLessEqual(len({e["shape"] for e in run["evaluated"]}),
                                     entry["budget"], (k["label"], run["strategy"]))
                self.assertIn(run["pick"], cands)
            for name in STRATEGIES:
                self.assertIn(entry["strategies"][name]["worst"]["pick"], cands)
        words = r.stdout.split()
        self.assertEqual(words[0::2], ["--mmnaive-local", "--bilinear-local", "--sort-local",
                                       "--trapezoid-local"])



class CudaUnderNvrtc(unittest.TestCase):
    """The CUDA kernels as Kernel Tuner's nvcuda backend compiles them."""

    def skip(self, why):
        print(f"{SKIPPED}: {why}", flush=True)
        self.skipTest(why)

    def test_cuda_kernels_compile_under_nvrtc(self):
        if not have("cuda.bindings"):
            self.skip("cuda-python is not importable (requirements.txt)")
        kernel_tuner_side.cuda_home()
        try:
            from cuda.bindings import nvrtc
            err, prog = nvrtc.nvrtcCreateProgram(b"__global__ void k() {}", b"k.cu", 0, [], [])
        except Exception as e:  # noqa: BLE001  no libnvrtc here
            self.skip(f"NVRTC does not load ({e})")
        for kernel in worksize_kernels.KERNELS:
            source = worksize_kernels.cuda_source(kernel)
            name, _ = worksize_kernels.signature(source, kernel)
            # As Kernel Tuner's nvcuda backend: its defines first, the name expression.
            text = "#define block_size_x 32\n#define block_size_y 1\n#define block_size_z 1\n" \
                   "#define kernel_tuner 1\n" + source
            err, prog = nvrtc.nvrtcCreateProgram(text.encode(), b"k.cu", 0, [], [])
            self.assertEqual(err, nvrtc.nvrtcResult.NVRTC_SUCCESS)
            nvrtc.nvrtcAddNameExpression(prog, name.encode())
            opts = [b"--std=c++11", b"--gpu-architecture=compute_90"]
            err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
            _, size = nvrtc.nvrtcGetProgramLogSize(prog)
            log = b" " * size
            nvrtc.nvrtcGetProgramLog(prog, log)
            self.assertEqual(err, nvrtc.nvrtcResult.NVRTC_SUCCESS, (kernel, log.decode()))
            err, lowered = nvrtc.nvrtcGetLoweredName(prog, name.encode())
            self.assertEqual(err, nvrtc.nvrtcResult.NVRTC_SUCCESS, kernel)
            self.assertIn(name.encode(), lowered)


if __name__ == "__main__":
    unittest.main()
