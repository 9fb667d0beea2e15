#!/usr/bin/env python3
"""Fuzzes the command lines of gpucmp-bench and gpucmp-ptx: seeded random
combinations of their options (names parsed from their own --help, Google
Benchmark's --benchmark_* flags beside them, gpucmp-ptx's subcommands) with
hostile values (NaN, inf, negative, 0, overflow, empty, "4,,8", "8,", "8,8",
unicode, very long strings, a folder, /dev/null, /dev/full, a symbolic link to
a folder, a missing path, a FIFO) and some valid ones from --help, so that some
runs get deep.

Every case must end by itself with exit code 0, 1 or 2 (docs/usage.md, "Exit
codes"): no signal, no time-out. Exit code 2 is bad input, in one of two forms:
  - before the run (what can be known then): stderr is one line,
    "<program>: error: ...", with a build log under it
    ("--- build log ---" ... "--- end of build log ---") for a kernel that does
    not build, and nothing at all is left in the case's folder (no
    --benchmark_out report, journal, -o file or --out folder, not even a
    temporary one);
  - gpucmp-bench only, once the benchmarks ran (what only running shows): a
    benchmark's own error (a kernel file that cannot be read or does not
    build, a --mriq-output that cannot be written: "gpucmp-bench: error:
    <benchmark>: ...", a build log under it, and its "FAILED: <benchmark>: ..."
    line at the end; the report, which holds the failure, is written) or the
    report that could not be written (the last line, "gpucmp-bench: error:
    --benchmark_out=...: cannot write: ..." or "stdout: cannot write", and no
    report left behind); every "gpucmp-bench: error:" line is one of those.
Nothing is written outside the case's temporary folder (/dev/null and /dev/full
aside): every path given is in it, and the process runs in it.

Each case runs with --size quick --samples 2 --startup off --progress off and a
--benchmark_filter that selects a few rows (unless the case fuzzes one of them)
and a time limit (--timeout, default 60 s). The cases are drawn from --seed
(fixed by default: CI is deterministic) for --seconds (default 60); case K of a
seed is always the same command, rerun alone with --case K. A failing case's
folder is kept and its command printed, to be run again as it is.

The values and the programs' vocabulary are in fuzz_vocabulary.py, a case's
command line in fuzz_case.py, running and judging a case in fuzz_run.py; this
file holds the session's shared inputs, the test and its command line.

usage: cli_fuzz_test.py GPUCMP_BENCH GPUCMP_PTX [--seconds S] [--seed N]
                        [--case K] [--cases N] [--timeout S] [--keep] [--show]"""
import argparse
import collections
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from fuzz_case import Case
from fuzz_run import check, child_env, lines_of, run_case, tree
from fuzz_vocabulary import BASE, Vocabulary

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

BENCH = None
PTX = None
OPTS = argparse.Namespace(seconds=60.0, seed=20251126, case=None, cases=None, timeout=60.0,
                          keep=False, show=False)

# ---- the session ----

def make_session(root):
    """The inputs shared by every case (read only by the options given them):
    the OpenCL kernels, the same with kernels that do not build, Parboil inputs."""
    session = {"root": root}
    kernels = os.path.join(root, "kernels")
    broken = os.path.join(root, "broken-kernels")
    for dirpath, _, filenames in os.walk(os.path.join(REPO, "opencl")):
        for name in filenames:
            if name.endswith(".cl"):
                rel = os.path.relpath(os.path.join(dirpath, name), os.path.join(REPO, "opencl"))
                for dest in (kernels, broken):
                    os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
                shutil.copyfile(os.path.join(dirpath, name), os.path.join(kernels, rel))
                with open(os.path.join(broken, rel), "w", encoding="utf-8") as f:
                    f.write("__kernel void broken(__global float* x) { x[0] = no_such_name; }\n")
    session["kernels"], session["broken-kernels"] = kernels, broken
    parboil = os.path.join(root, "parboil")
    os.makedirs(parboil)
    subprocess.run([BENCH, *[a for kv in BASE for a in kv],
                    "--benchmark_filter=^mri(q|fhd)/opencl/precise/",
                    "--mriq-save-inputs", parboil, "--mrifhd-save-inputs", parboil],
                   capture_output=True, timeout=300, cwd=root, env=child_env())
    for name in sorted(os.listdir(parboil)):
        session.setdefault(name.split("-")[0], os.path.join(parboil, name))
    return session


class CliFuzz(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.vocab = Vocabulary(BENCH, PTX)
        cls.root = tempfile.mkdtemp(prefix="gpucmp-cli-fuzz-")
        cls.session = make_session(cls.root)

    def test_vocabulary_is_read_from_the_help(self):
        v = self.vocab
        for name in ("--size", "--samples", "--cl-kernel-dir", "--benchmark_out",
                     "--benchmark_filter", "--v"):
            self.assertIn(name, list(v.bench) + v.gbench)
        self.assertIn("quick", v.bench_valid["--size"])
        self.assertTrue({"dump", "normalize", "stats", "opt", "diff"} <= set(v.subcommands))
        self.assertTrue(v.passes, "no pass names in gpucmp-ptx opt --help")
        self.assertIn("^triad/opencl/base/", v.prefixes["triad"])

    def test_fuzz(self):
        seed, timeout = OPTS.seed, OPTS.timeout
        indices = [OPTS.case] if OPTS.case is not None else None
        start = time.monotonic()
        codes = collections.Counter()
        per_program = collections.Counter()
        late = 0
        failures = []
        signatures = collections.Counter()
        index = -1
        while True:
            if indices is not None:
                if not indices:
                    break
                index = indices.pop()
            else:
                index += 1
                if OPTS.cases is not None and index >= OPTS.cases:
                    break
                if OPTS.cases is None and time.monotonic() - start >= OPTS.seconds:
                    break
            case = Case(self.root, index, seed, self.session)
            if case.rng.random() < 0.7:
                case.make_bench(self.vocab)
            else:
                case.make_ptx(self.vocab)
            case.check_safe()
            before = tree(case.dir)
            rc, out, err, seconds, timed_out = run_case(case, timeout)
            after = tree(case.dir)
            problems, ran = check(case, rc, err, timed_out, timeout, before, after)
            codes["timeout" if timed_out else rc] += 1
            per_program[case.program] += 1
            late += ran and not problems
            if OPTS.show:
                first = lines_of(err)[0][:160] if err else ""
                print(f"case {index}: exit {rc}{' (timed out)' if timed_out else ''} "
                      f"{seconds:.1f} s: {shlex.join(case.argv)[:400]}\n    {first}", flush=True)
            if problems:
                failures.append((index, problems[0], shlex.join(case.argv)))
                sig = (case.program, problems[0][:40])
                signatures[sig] += 1
                if signatures[sig] <= 3:
                    self.report(case, rc, out, err, seconds, problems)
            elif not OPTS.keep:
                shutil.rmtree(case.dir, ignore_errors=True)
        elapsed = time.monotonic() - start
        histogram = ", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=str))
        print(f"cli_fuzz: seed {seed}: {sum(codes.values())} cases in {elapsed:.0f} s "
              f"({', '.join(f'{p} {n}' for p, n in sorted(per_program.items()))}); "
              f"exit codes {{{histogram}}}, {len(codes)} distinct; "
              f"{late} exit-2 runs ended by a benchmark's or the report's error; "
              f"{len(failures)} failed", flush=True)
        if failures:
            print(f"cli_fuzz: the failing cases (their folders kept under {self.root}; "
                  f"each printed in full above, or rerun it with --case):", flush=True)
            for index, what, command in failures[:100]:
                print(f"  case {index}: {what[:100]}\n    {command[:300]}", flush=True)
        elif not OPTS.keep:
            shutil.rmtree(self.root, ignore_errors=True)
        if failures:
            self.fail(f"{len(failures)} of {sum(codes.values())} cases failed; see above")

    def report(self, case, rc, out, err, seconds, problems):
        rerun = shlex.join([sys.executable, os.path.abspath(__file__), BENCH, PTX,
                            "--seed", str(OPTS.seed), "--case", str(case.index),
                            "--timeout", f"{OPTS.timeout:g}"])
        fifo = " (with a FIFO: --case gives it its other end)" if "fifo-" in \
            "\0".join(case.argv) else ""
        tail = err if len(err) < 3000 else err[:1500] + "\n[...]\n" + err[-1500:]
        print(f"\ncli_fuzz: FAIL case {case.index} (seed {OPTS.seed}), exit {rc}, "
              f"{seconds:.1f} s:\n  " + "\n  ".join(problems) +
              f"\n  command{fifo}:\n    cd {shlex.quote(case.dir)} && {shlex.join(case.argv)}"
              f"\n  rerun: {rerun}\n  stdout: {len(out)} characters\n  stderr:\n{tail}",
              flush=True)


def main():
    global BENCH, PTX, OPTS
    if len(sys.argv) < 3 or sys.argv[1].startswith("-") or sys.argv[2].startswith("-"):
        sys.exit(__doc__.rsplit("usage: ", 1)[-1])
    BENCH, PTX = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    parser = argparse.ArgumentParser(prog="cli_fuzz_test.py")
    parser.add_argument("--seconds", type=float, default=OPTS.seconds,
                        help="fuzz for this long (default %(default)g)")
    parser.add_argument("--seed", type=int, default=OPTS.seed,
                        help="the cases' seed (default %(default)d)")
    parser.add_argument("--case", type=int, help="run only this case of the seed")
    parser.add_argument("--cases", type=int, help="run cases 0..N-1, not for --seconds")
    parser.add_argument("--timeout", type=float, default=OPTS.timeout,
                        help="seconds one case may take (default %(default)g)")
    parser.add_argument("--keep", action="store_true", help="keep every case's folder")
    parser.add_argument("--show", action="store_true",
                        help="print each case: exit code, seconds, command, stderr's first line")
    OPTS, rest = parser.parse_known_args(sys.argv[3:])
    sys.argv[1:] = rest
    unittest.main()


if __name__ == "__main__":
    main()
