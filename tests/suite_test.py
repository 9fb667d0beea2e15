#!/usr/bin/env python3
"""Tests scripts/suite.py with a real gpucmp-bench on the default OpenCL device
(PoCL without a GPU) at quick size: one folder with each part's JSON and log,
the manifest, the journal, REPORT.md from that folder; --resume runs only what
the journal does not hold as done; bad input is one line and exit 2.

usage: suite_test.py GPUCMP_BENCH"""
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "suite.py")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from suite_parts import sass_part  # noqa: E402
BENCH = None
PARTS = "triad,ceiling"


def run_suite(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, "--bench", BENCH, *args],
                          capture_output=True, text=True, timeout=900,
                          env=None if env is None else {**os.environ, **env})


def journal(out):
    """The journal's entries, a line cut by a kill left out (as suite.py reads it)."""
    entries = []
    with open(os.path.join(out, "journal.jsonl"), encoding="utf-8") as f:
        for line in f:
            try:
                entries.append(json.loads(line))
            except ValueError:
                pass
    return entries


class Suite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(tempfile.mkdtemp(), "run")
        # As scripts/suite.sh runs it: the set-up and build's seconds given.
        cls.first = run_suite("--out", cls.out, "--size", "quick", "--part", PARTS,
                              env={"GPUCMP_SETUP_SECONDS": "42"})

    def test_one_folder_holds_the_run_and_its_report(self):
        r = self.first
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        for name in ("triad.json", "triad.log", "ceiling.json", "ceiling.log", "manifest.json",
                     "journal.jsonl", "REPORT.md"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, name)), name)
        with open(os.path.join(self.out, "triad.json"), encoding="utf-8") as f:
            rows = json.load(f)["benchmarks"]
        self.assertTrue(any(b["name"].startswith("triad/opencl/base/") for b in rows))
        with open(os.path.join(self.out, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        for key in ("revision", "clean_tree", "date", "command", "gpus", "toolkit", "clocks"):
            self.assertIn(key, manifest)
        self.assertEqual(manifest["parts"], PARTS.split(","))
        self.assertEqual(manifest["setup_and_build_s"], 42)
        self.assertIn("with the set-up and build (42 s)", r.stderr)
        self.assertEqual([e["part"] for e in journal(self.out)], ["triad", "ceiling"])
        self.assertTrue(all(e["rc"] == 0 for e in journal(self.out)))
        with open(os.path.join(self.out, "REPORT.md"), encoding="utf-8") as f:
            report = f.read()
        self.assertIn("triad", report)
        # The progress line names each part and the time left.
        self.assertIn("[1/2] triad:", r.stderr)
        self.assertIn("left", r.stderr)

    def test_resume_runs_only_what_is_not_done(self):
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = run_suite("--out", out, "--size", "quick", "--part", "triad", "--no-report")
        self.assertEqual(r.returncode, 0, r.stderr)
        # As if a kill had stopped the run during ceiling: triad done, a cut line.
        manifest_path = os.path.join(out, "manifest.json")
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        manifest["parts"] = ["triad", "ceiling"]
        with open(manifest_path, "w", encoding="utf-8") as f:
            json.dump(manifest, f)
        with open(os.path.join(out, "journal.jsonl"), "a", encoding="utf-8") as f:
            f.write('{"part": "ceil')
        before = os.path.getmtime(os.path.join(out, "triad.json"))
        r = run_suite("--resume", out, "--size", "quick")
        self.assertEqual(r.returncode, 0, r.stderr)
        # The report reads every part's file in the folder, the earlier run's too.
        with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
            report = f.read()
        self.assertIn("triad.json", report)
        self.assertIn("ceiling.json", report)
        self.assertIn("1 parts done, 1 to run", r.stderr)
        self.assertIn("not a journal line", r.stderr)
        self.assertEqual(os.path.getmtime(os.path.join(out, "triad.json")), before)
        self.assertTrue(os.path.isfile(os.path.join(out, "ceiling.json")))
        self.assertEqual([e["part"] for e in journal(out)], ["triad", "ceiling"])

    def test_a_resume_that_names_new_parts_adds_them_to_the_manifest(self):
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = run_suite("--out", out, "--size", "quick", "--part", "triad", "--no-report")
        self.assertEqual(r.returncode, 0, r.stderr)
        # The second resume names only parts the manifest has: an invocation too.
        for parts, extra in (("ceiling,triad", ()), ("triad", ("--no-report",))):
            r = run_suite("--resume", out, "--size", "quick", "--part", parts, *extra)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(out, "manifest.json"), encoding="utf-8") as f:
                manifest = json.load(f)
            self.assertEqual(manifest["parts"], ["triad", "ceiling"])
            self.assertIn(f"--part {parts}", manifest["resumed"][-1])
        self.assertEqual(len(manifest["resumed"]), 2)
        self.assertEqual([e["part"] for e in journal(out)], ["triad", "ceiling"])

    def test_a_part_that_did_not_finish_runs_again_and_its_rows_are_kept(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        out = os.path.join(tempfile.mkdtemp(), "run")
        shutil.copytree(self.out, out)
        with open(os.path.join(out, "ceiling.json"), encoding="utf-8") as f:
            done = json.load(f)
        # As if the machine had gone during ceiling's second attempt: the first
        # attempt's log, the second's row journal and log, triad done.
        with open(os.path.join(out, "journal.jsonl"), "w", encoding="utf-8") as f:
            f.write(json.dumps(journal(self.out)[0]) + "\n")
        with open(os.path.join(out, "ceiling.attempt-1.log"), "w", encoding="utf-8") as f:
            f.write("a failed attempt\n")
        with open(os.path.join(out, "ceiling.json.journal.jsonl"), "w", encoding="utf-8") as f:
            f.write(json.dumps({"context": done["context"]}) + "\n")
            f.write(json.dumps(done["benchmarks"][0]) + "\n")
            f.write('{"name": "cut by the ki')
        with open(os.path.join(out, "ceiling.log"), "w", encoding="utf-8") as f:
            f.write("the interrupted attempt\n")
        os.remove(os.path.join(out, "ceiling.json"))
        r = run_suite("--resume", out, "--size", "quick", "--no-report")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 parts done, 1 to run", r.stderr)
        self.assertIn("ceiling: 1 finished rows of the earlier attempt recovered", r.stderr)
        self.assertIn("(1 cut lines left out)", r.stderr)
        self.assertIn("kept as ceiling.attempt-2.json, ceiling.attempt-2.log", r.stderr)
        with open(os.path.join(out, "ceiling.attempt-2.json"), encoding="utf-8") as f:
            kept = json.load(f)
        self.assertEqual(kept["benchmarks"], done["benchmarks"][:1])
        self.assertIn("gpucmp.partial", kept["context"])
        with open(os.path.join(out, "ceiling.attempt-2.log"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "the interrupted attempt\n")
        with open(os.path.join(out, "ceiling.attempt-1.log"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "a failed attempt\n")
        self.assertFalse(os.path.exists(os.path.join(out, "ceiling.json.journal.jsonl")))
        with open(os.path.join(out, "ceiling.json"), encoding="utf-8") as f:
            again = json.load(f)
        self.assertNotIn("gpucmp.partial", again["context"])
        self.assertEqual(len(again["benchmarks"]), len(done["benchmarks"]))
        entry = journal(out)[-1]
        self.assertEqual((entry["part"], entry["rc"]), ("ceiling", 0))
        self.assertIn("ceiling.attempt-2.json", entry["earlier_attempt"])

    def test_bad_input_is_one_line_and_exit_2(self):
        busy = tempfile.mkdtemp()
        with open(os.path.join(busy, "keep.json"), "w") as f:
            f.write("{}")
        other = tempfile.mkdtemp()
        with open(os.path.join(other, "manifest.json"), "w") as f:
            json.dump({"revision": "0000000", "parts": ["triad"]}, f)
        cases = [
            ["--part", "nope"],
            ["--part", "triad,triad"],
            ["--part", ""],
            ["--size", "huge"],
            ["--out", busy],                      # never written over
            ["--resume", tempfile.mkdtemp()],     # no manifest
            ["--resume", other],                  # another revision
            ["--out", busy, "--resume", other],
        ]
        for args in cases:
            with self.subTest(args=args):
                r = run_suite(*args)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertTrue(r.stderr.startswith("suite: error: "), r.stderr)
        self.assertEqual(os.listdir(busy), ["keep.json"])
        r = subprocess.run([sys.executable, SCRIPT, "--bench", "/nonexistent/gpucmp-bench",
                            "--part", "triad"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2, r.stderr)
        r = run_suite("--part", "sass", "--ptx", "/nonexistent/gpucmp-ptx")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("no gpucmp-ptx", r.stderr)
        fresh = os.path.join(tempfile.mkdtemp(), "run")
        r = run_suite("--out", fresh, "--part", "triad", env={"GPUCMP_SETUP_SECONDS": "1.5"})
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("GPUCMP_SETUP_SECONDS='1.5'", r.stderr)
        self.assertFalse(os.path.exists(fresh))


# A stand-in for gpucmp-ptx dump: the files each API's dump writes (opencl:
# <program>.ptx, .sass; cuda: <kernel>.sass), one OpenCL program a shard
# (--shard K/N: the first two shards; a program without SASS in the second),
# a failing build where FAIL is in the environment.
FAKE_PTX = """#!/bin/sh
api=$3; out=$5
mkdir -p "$out"
if [ "$api" = opencl ]; then
  shard=$9
  case "$shard" in
    1/*) echo ptx > "$out/matrixMul-tile16.ptx"
         echo "ptxas info: Used 40 registers" > "$out/matrixMul-tile16.log"
         echo "// SASS: driver JIT" > "$out/matrixMul-tile16.sass" ;;
    2/*) echo ptx > "$out/cp-base.ptx" ;;
  esac
else
  echo "// SASS: nvcc cubin" > "$out/matrixmul.sass"
  echo "Function matrixMul: REG:40" > "$out/matrixmul.res-usage"
fi
[ -n "$FAIL" ] && exit 3
exit 0
"""


# A stand-in for gpucmp-bench killed midway (SIGKILL): its journal holds the
# context and one finished row, and no report was written.
KILLED_BENCH = """#!/usr/bin/env python3
import json, os, signal, sys
out = [a for a in sys.argv if a.startswith("--benchmark_out=")][0].split("=", 1)[1]
with open(out + ".journal.jsonl", "w") as f:
    f.write(json.dumps({"context": {"gpucmp.revision": "abc1234"}}) + "\\n")
    f.write(json.dumps({"name": "triad/cuda/base/n:1024/iterations:1/manual_time",
                        "run_type": "iteration", "real_time": 2.0}) + "\\n")
os.kill(os.getpid(), signal.SIGKILL)
"""


class KilledPart(unittest.TestCase):
    def test_the_rows_a_killed_part_finished_are_kept(self):
        bench = os.path.join(tempfile.mkdtemp(), "gpucmp-bench")
        with open(bench, "w") as f:
            f.write(KILLED_BENCH)
        os.chmod(bench, 0o755)
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = subprocess.run([sys.executable, SCRIPT, "--bench", bench, "--out", out, "--part",
                            "triad", "--no-report"], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(journal(out)[0]["rc"], -9)
        with open(os.path.join(out, "triad.json")) as f:
            report = json.load(f)
        self.assertEqual([b["name"] for b in report["benchmarks"]],
                         ["triad/cuda/base/n:1024/iterations:1/manual_time"])
        self.assertIn("exit code -9", report["context"]["gpucmp.partial"])
        self.assertFalse(os.path.exists(os.path.join(out, "triad.json.journal.jsonl")))
        with open(os.path.join(out, "triad.log")) as f:
            self.assertIn("1 finished rows recovered from the journal", f.read())


class SassPart(unittest.TestCase):
    def fake_ptx(self):
        path = os.path.join(tempfile.mkdtemp(), "gpucmp-ptx")
        with open(path, "w") as f:
            f.write(FAKE_PTX)
        os.chmod(path, 0o755)
        return path

    def test_each_apis_sass_lands_under_the_reports_names(self):
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = run_suite("--out", out, "--part", "sass", "--ptx", self.fake_ptx(), "--no-report")
        self.assertEqual(r.returncode, 0, r.stderr)
        # One archive, sass/ inside; offline ptxas (not what ran) left out.
        self.assertFalse(os.path.exists(os.path.join(out, "sass")))
        with tarfile.open(os.path.join(out, "sass.tar.xz")) as tar:
            names = sorted(m.name for m in tar.getmembers() if m.isfile())
            sources = tar.extractfile("sass/SOURCES.txt").read().decode()
        # Each SASS with what says its registers: the JIT's build log for
        # OpenCL, cuobjdump -res-usage for CUDA.
        self.assertEqual(names, ["sass/SOURCES.txt", "sass/matrixMul-tile16.opencl-jit.log",
                                 "sass/matrixMul-tile16.opencl-jit.sass",
                                 "sass/matrixmul.cuda.res-usage", "sass/matrixmul.cuda.sass"])
        self.assertIn("matrixMul-tile16.opencl-jit.sass: // SASS: driver JIT", sources)
        # The OpenCL programs shared among a process per core, none making
        # offline ptxas SASS.
        with open(os.path.join(out, "sass.log")) as f:
            commands = [line for line in f if line.startswith("$ ") and "--api opencl" in line]
        n = min(sass_part.SHARDS, os.cpu_count())
        self.assertEqual(len(commands), n)
        for k, command in enumerate(commands, 1):
            self.assertIn(f"--shard {k}/{n} --no-ptxas-sass", command)
        self.assertEqual(journal(out), [{"part": "sass", "rc": 0, "seconds": journal(out)[0][
            "seconds"], "file": "sass.tar.xz"}])

    def test_a_failed_dump_fails_the_part(self):
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = subprocess.run([sys.executable, SCRIPT, "--bench", BENCH, "--out", out, "--part",
                            "sass", "--ptx", self.fake_ptx(), "--no-report"],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, FAIL="1"))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(journal(out)[0]["rc"], 3)


# A stand-in for gpucmp-bench that lists NVIDIA's OpenCL as platform 1 and
# writes its arguments (one a line) where ARGS_OUT says.
LISTING_BENCH = """#!/bin/sh
if [ "$1" = --list-devices ]; then
  echo "OpenCL platform 0: Portable Computing Language (OpenCL 3.0 PoCL)"
  echo "OpenCL platform 1: NVIDIA CUDA (OpenCL 3.0 CUDA 13.0.0)"
  exit 0
fi
printf '%s\\n' "$@" > "$ARGS_OUT"
"""


class PartSets(unittest.TestCase):
    def test_the_standard_set_and_the_parts_only_named(self):
        r = run_suite("--list")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = {line.split()[0]: line for line in r.stdout.splitlines()}
        for name in ("triad", "sass", "counters", "multigpu-advection", "multigpu-inprocess",
                     "multigpu-judged-4", "jacobi"):
            self.assertNotIn("only with --part", lines[name])
        for name in ("sanitizer", "judged", "gputests"):
            self.assertIn("only with --part", lines[name])
        self.assertIn("2 GPUs or more", lines["multigpu-split"])
        self.assertIn("4 GPUs or more", lines["multigpu-judged-4"])
        self.assertRegex(lines["standard"], r"s on 1 GPU, ~ *\d+ s on 2 GPUs, ~ *\d+ s on 4 GPUs$")

    def test_a_part_this_machine_cannot_run_is_a_said_skip(self):
        # A gpucmp-bench outside a build folder: no tests for the gputests part.
        bench = os.path.join(tempfile.mkdtemp(), "gpucmp-bench")
        os.symlink(os.path.abspath(BENCH), bench)
        out = os.path.join(tempfile.mkdtemp(), "run")
        r = subprocess.run([sys.executable, SCRIPT, "--bench", bench, "--out", out, "--part",
                            "gputests", "--no-report"], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("gputests: skipped: ", r.stderr)
        entry, = journal(out)
        self.assertEqual(entry["part"], "gputests")
        self.assertIn("not a build folder with tests", entry["skipped"])
        self.assertFalse(os.path.exists(os.path.join(out, "gputests.log")))

    def test_nvidia_platform_and_mpirun_fill_a_multi_gpu_part(self):
        sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
        from suite_parts import parts, tools
        bench = os.path.join(tempfile.mkdtemp(), "gpucmp-bench")
        with open(bench, "w") as f:
            f.write(LISTING_BENCH)
        os.chmod(bench, 0o755)
        part = parts.by_name()["multigpu-advection"]
        args = tools.fill(part.args, bench)
        self.assertIn("1:0,1:1", args)
        self.assertFalse(any("{nv_cl}" in a for a in args))
        prefix = tools.launch_prefix(part)
        self.assertEqual(prefix[:5], ["mpirun", "--bind-to", "none", "-np", "2"])
        self.assertIn("NCCL_NVLS_ENABLE=0", prefix)
        self.assertEqual(tools.launch_prefix(parts.by_name()["triad"]), [])


if __name__ == "__main__":
    BENCH = sys.argv.pop(1)
    unittest.main()
