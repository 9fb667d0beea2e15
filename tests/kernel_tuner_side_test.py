#!/usr/bin/env python3
"""Tests scripts/kernel_tuner_side.py. With stub kernel_tuner, pyopencl, cuda.bindings
and gpucmp-bench (no GPU, no Kernel Tuner needed): the candidate space is gpucmp's
listing of every --<kernel>-local sweep (per API, rules and other rows left out), the
size is the listing's (--bench-args reach it, e.g. --sort-n, and lead the printed
re-time arguments), the kernels' sources and arguments are the repository's
(CUDA's kernel out of its namespace, sort on one pass), exhaustive once and each
strategy per seed at max(candidates // 10, 3), the median and worst pick over seeds
by the exhaustive times, failed configurations and a strategy run that raises kept,
OpenCL on NVIDIA's platform where there is one, a missing backend a stated skip (bad
input when --backends names it), gpucmp's own picks (--ours) and every pick in the
printed --<kernel>-local arguments; SIGTERM keeps what finished (exit 143, the JSON
marked partial) and --resume goes on from it; bad input is one line and exit 2.
The kernels' sources, PoCL and NVRTC: kernel_tuner_kernels_test.py."""
import json
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import worksize_kernels  # noqa: E402
from kernel_tuner_fixtures import (SCRIPT, SHAPES_1D, SHAPES_2D, STRATEGIES,  # noqa: E402
                                   StubbedRun, gbench_rows, write_json)


class Stubbed(StubbedRun, unittest.TestCase):
    """The script against stub modules and a stub gpucmp-bench."""

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
        self.assertNotIn("bench_args", doc["retime"])
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

    def test_bench_args_set_the_listed_size_and_lead_the_retime_arguments(self):
        doc, out, _ = self.tune("--kernels", "sort", "--backends", "opencl", "--strategies",
                                "random_sample", "--bench-args", "--sort-n 4194304")
        with open(self.bench_args, encoding="utf-8") as f:
            listed = f.read().split()
        self.assertEqual(listed[listed.index("--sort-n") + 1], "4194304")
        self.assertIn("--benchmark_list_tests=true", listed)
        sort = doc["kernels"][0]
        self.assertEqual(sort["label"], "sort bitonic n:4194304")  # the listed size
        self.assertEqual(sort["problem_size"], [2097152, 1])
        self.assertEqual(sort["args"][1], {"name": "k", "type": "uint", "value": 4194304})
        self.assertEqual({tuple(c["problem_size"]) for c in self.calls()}, {(2097152, 1)})
        self.assertIn("--sort-n 4194304", doc["space"]["command"])
        words = out.split()
        self.assertEqual(words[:3], ["--sort-n", "4194304", "--sort-local"])
        self.assertEqual(words[2:], doc["retime"]["local_args"])
        self.assertEqual(doc["retime"]["bench_args"], ["--sort-n", "4194304"])
        self.assertIn("gpucmp-bench --size quick --sort-n 4194304 '--benchmark_filter=",
                      doc["retime"]["command"])

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
            (["--bench-args", "--sort-n '4194304"], {},
             "--bench-args '--sort-n '4194304': No closing quotation"),
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



if __name__ == "__main__":
    unittest.main()
