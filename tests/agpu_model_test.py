#!/usr/bin/env python3
"""Tests scripts/agpu_model.py and agpu_terms.py on synthetic gpucmp-bench JSON:
rows timed exactly as the model says with known constants are fitted back to
those constants at one size and predicted at the others with no error, as
stated and with the measured terms (launch latency per command, L2 rate for
rows within the L2) when the rows carry them; a row off the model shows as its
error; rows without the model's parameters, or too few at the fitted size, are
one line and exit 2."""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "agpu_model.py")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import agpu_model  # noqa: E402
import agpu_terms  # noqa: E402

CONTEXT = {"cuda.agpu.p": "16896", "cuda.agpu.b": "32", "cuda.agpu.M_words": "58368",
           "cuda.agpu.units": "132"}
MACHINE = {"p": 16896, "b": 32, "M": 58368, "units": 132}
C_T, C_I = 2e-4, 3e-3  # us per step, us per block


def model_us(workload, variant, n, alpha):
    t, io, mu = agpu_model.complexities(workload, variant, n, alpha, MACHINE)
    return C_T * t + C_I * io / min(1.0, mu)


def row(name, us):
    full = f"{name}/iterations:1/manual_time"
    return [{"name": full, "run_name": full, "run_type": "iteration", "repetitions": 3,
             "repetition_index": i, "threads": 1, "iterations": 1, "real_time": us * f,
             "cpu_time": us, "time_unit": "us"} for i, f in enumerate((1.0, 0.99, 1.01))]


def rows(sizes, skew=None):
    out = []
    for n in sizes:
        for v in ("tree", "cascading", "pipeline"):
            out += row(f"reduce/cuda/{v}/type:int32/n:{n}", model_us("reduce", v, n, None))
        for v in ("alpha", "lookback"):
            for a in (1, 4, 32):
                us = model_us("scan", v, n, a)
                if skew and skew == (v, n, a):
                    us *= 1.5
                out += row(f"scan/cuda/{v}/type:int32/n:{n}/alpha:{a}", us)
        out += row(f"scan/cuda/cub/type:int32/n:{n}", 100.0)  # not modelled
    return out


class AgpuModel(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, benchmarks, context=None):
        path = os.path.join(self.tmp.name, "r.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"context": CONTEXT if context is None else context,
                       "benchmarks": benchmarks}, f)
        return path

    def run_script(self, *args):
        r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                           check=False)
        return r.returncode, r.stdout, r.stderr

    def test_constants_are_recovered_and_other_sizes_predicted(self):
        path = self.write(rows([1 << 16, 1 << 20, 1 << 24]))
        out = os.path.join(self.tmp.name, "m.json")
        code, md, err = self.run_script(path, "--fit-n", str(1 << 24), "--out-json", out)
        self.assertEqual(code, 0, err)
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
        self.assertAlmostEqual(result["constants"]["cuda"]["c_T_us"], C_T, delta=C_T * 1e-6)
        self.assertAlmostEqual(result["constants"]["cuda"]["c_I_us"], C_I, delta=C_I * 1e-6)
        self.assertLess(result["summary"]["cuda"]["median_abs_error"], 1e-9)
        self.assertEqual(len(result["rows"]), 3 * 9)  # CUB's rows left out
        self.assertIn("| cuda | scan/lookback alpha 4 int32 | 2^16 |", md)

    def test_a_row_off_the_model_shows_its_error(self):
        path = self.write(rows([1 << 20, 1 << 24], skew=("lookback", 1 << 20, 4)))
        out = os.path.join(self.tmp.name, "m.json")
        code, _, err = self.run_script(path, "--out-json", out)  # fits at the largest size
        self.assertEqual(code, 0, err)
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
        off = [r for r in result["rows"] if r["row"] == "scan/lookback alpha 4 int32"
               and r["n"] == 1 << 20]
        self.assertAlmostEqual(off[0]["error"], 1 / 1.5 - 1, places=6)
        self.assertEqual(result["fit_n"], 1 << 24)

    def test_multiplicity_follows_threads_and_shared_memory(self):
        _, _, mu_small = agpu_model.complexities("scan", "alpha", 1 << 16, 32, MACHINE)
        self.assertAlmostEqual(mu_small, (1 << 16) / 32 / 16896)
        _, _, mu_large = agpu_model.complexities("scan", "alpha", 1 << 28, 32, MACHINE)
        self.assertAlmostEqual(mu_large, 58368 / (32 * 32))
        _, io, _ = agpu_model.complexities("scan", "lookback", 1 << 20, 8, MACHINE)
        self.assertEqual(io, 2 * (1 << 20) / 32)
        steps, _, _ = agpu_model.complexities("reduce", "tree", 1 << 20, None, MACHINE)
        self.assertAlmostEqual(steps, (1 << 20) * math.log2(32) / 16896)

    def test_measured_terms_recover_the_constants_and_the_stated_form_misses(self):
        launch_us, l2_bytes = 4.0, 1 << 25  # 2^20 words fit (scan: 8 MiB), 2^24 not
        terms = {"launch_us": launch_us, "l2_speedup": 2.0, "l2_bytes": l2_bytes}
        out = []
        for n in (1 << 16, 1 << 20, 1 << 24):
            for v in ("tree", "cascading", "pipeline", "alpha", "lookback"):
                workload = "reduce" if v in ("tree", "cascading", "pipeline") else "scan"
                a = None if workload == "reduce" else 8
                k, L, s = agpu_terms.row_terms(workload, v, n, {}, terms)
                t, io, mu = agpu_model.complexities(workload, v, n, a, MACHINE)
                name = f"{workload}/cuda/{v}/type:int32/n:{n}" + (f"/alpha:{a}" if a else "")
                out += row(name, L * k + C_T * t + C_I * s * io / min(1.0, mu))
        out += row("ceiling/cuda/launch", launch_us)
        for name, us, rate in (("ceiling/cuda/l2", 100.0, 8000.0),
                               ("bandwidth/cuda/d2d/bytes:1073741824", 500.0, 4000.0)):
            out += [dict(r, **{"GB/s": rate}) for r in row(name, us)]
        path = self.write(out, context={**CONTEXT, "cuda.l2_bytes": str(l2_bytes)})
        jpath = os.path.join(self.tmp.name, "m.json")
        code, md, err = self.run_script(path, "--out-json", jpath)
        self.assertEqual(code, 0, err)
        with open(jpath, encoding="utf-8") as f:
            result = json.load(f)
        self.assertAlmostEqual(result["terms"]["cuda"]["launch_us"], launch_us)
        self.assertAlmostEqual(result["terms"]["cuda"]["l2_speedup"], 2.0)
        self.assertAlmostEqual(result["constants"]["cuda"]["c_T_us"], C_T, delta=C_T * 1e-6)
        self.assertAlmostEqual(result["constants"]["cuda"]["c_I_us"], C_I, delta=C_I * 1e-6)
        self.assertLess(result["summary"]["cuda"]["median_abs_error"], 1e-9)
        self.assertGreater(result["summary_stated"]["cuda"]["median_abs_error"], 0.05)
        self.assertIn("Measured terms: cuda: L = 4.00 us (r.json) a command, each file's rows "
                      "their own; L2 at 2.00x the copy's rate up to 32 MiB.", md)

    def test_commands_and_the_l2_scale_follow_the_runners(self):
        self.assertEqual(agpu_terms.commands("reduce", "tree", 1 << 16), 2)  # 256, then 1
        self.assertEqual(agpu_terms.commands("reduce", "tree", 1 << 24), 3)
        self.assertEqual(agpu_terms.commands("reduce", "tree", 256), 1)
        self.assertEqual(agpu_terms.commands("reduce", "cascading", 1 << 24), 2)
        self.assertEqual(agpu_terms.commands("scan", "alpha", 1 << 24), 3)
        self.assertEqual(agpu_terms.commands("scan", "lookback", 1 << 24), 2)
        terms = {"launch_us": 3.0, "l2_speedup": 2.0, "l2_bytes": 8 << 20}
        self.assertEqual(agpu_terms.row_terms("scan", "alpha", 1 << 20, {}, terms), (3, 3.0, 0.5))
        self.assertEqual(agpu_terms.row_terms("scan", "alpha", 1 << 21, {}, terms)[2], 1.0)
        self.assertEqual(agpu_terms.row_terms("reduce", "tree", 1 << 21, {}, terms)[2], 0.5)
        cold = agpu_terms.row_terms("scan", "alpha", 1 << 20, {"cache": "cold"}, terms)
        self.assertEqual(cold[2], 1.0)  # a cold row reads DRAM
        self.assertEqual(agpu_terms.row_terms("scan", "alpha", 1 << 20, {}, None), (3, 0.0, 1.0))

    def test_missing_parameters_are_one_line_and_exit_2(self):
        path = self.write(rows([1 << 20]), context={"cuda.agpu.p": "16896"})
        code, _, err = self.run_script(path)
        self.assertEqual(code, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("cuda.agpu.b", err)

    def test_too_few_rows_at_the_fitted_size_is_exit_2(self):
        path = self.write(row("reduce/cuda/tree/type:int32/n:1024", 5.0)
                          + rows([1 << 20]))
        code, _, err = self.run_script(path, "--fit-n", "1024")
        self.assertEqual(code, 2)
        self.assertIn("1 row(s) at n 1024", err)

    def test_no_modelled_rows_is_exit_2(self):
        path = self.write(row("scan/cuda/cub/type:int32/n:1024", 5.0))
        code, _, err = self.run_script(path)
        self.assertEqual(code, 2)
        self.assertIn("no reduce or scan rows", err)


if __name__ == "__main__":
    unittest.main()
