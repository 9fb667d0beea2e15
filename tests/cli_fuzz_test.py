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

usage: cli_fuzz_test.py GPUCMP_BENCH GPUCMP_PTX [--seconds S] [--seed N]
                        [--case K] [--cases N] [--timeout S] [--keep] [--show]"""
import argparse
import collections
import os
import random
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures")

BENCH = None
PTX = None
OPTS = argparse.Namespace(seconds=60.0, seed=20251126, case=None, cases=None, timeout=60.0,
                          keep=False, show=False)

# ---- values ----

HOSTILE = [
    "NaN", "nan", "inf", "-inf", "+inf", "1e999", "-1e999", "-1", "-64", "-0", "0", "0.0",
    "99999999999999999999", "-99999999999999999999", "18446744073709551616", "4294967296",
    "", " ", "4,,8", ",8", "8,", ",", "8,8", "256,256", "64x64,64x64", "4K,,8K", "share:,",
    "ü", "名", "\U0001F600", "ü,名", "\u202e8", "%s%n%x", "-", "--", "=", "a=b=c", "0x10",
    "1.5", "8 ", " 8", "1e3", "2^30", "x", "0:", ":0", "0:0:0", "-1:0", "16x", "x16", "0x0",
    "A" * 5000, "9" * 400, "4," * 2000 + "4", "ü" * 2000,
    os.fsdecode(b"\xff\xfe"),  # not UTF-8: the bytes as they are
]
# Regular expressions for --benchmark_filter: broken ones, and ones that match
# nothing or a few rows.
HOSTILE_FILTERS = [
    "(", ")", "[", "[[:alpha:]", "*", "+", "\\", "a{2,1}", "a{99999}", "(a*)*b", "(.*)*x",
    "^$", "-", "-^", "^nothing_matches", "-.*", "ü", "名", "^triad/opencl/|(", "(" * 2000,
]
CHEAP_FILTERS = ["^triad/opencl/", "^nothing_matches", "^ceiling/opencl/launch/",
                 "^bandwidth/opencl/d2d/", "^reduce/opencl/tree/"]
BASE = [("--size", "quick"), ("--samples", "2"), ("--startup", "off"), ("--progress", "off")]

# Valid values beside those harvested from --help (small sizes: each run stays short).
BENCH_VALID = {
    "--cuda-device": ["0"], "--cl-platform": ["0"], "--cl-device": ["0"], "--size": ["quick"],
    "--split": ["equal", "pe", "share:0.5", "share:0,0.5,1", "calibrated", "study-k",
                "equal,pe"],
    "--split-axis": ["x", "y"], "--split-launches": ["1", "3"], "--split-over": ["threads"],
    "--cuda-split-devices": ["0"], "--cl-split-devices": ["0:0", "0:0,0:0"],
    "--batch-ms": ["1", "5", "0.5"], "--samples": ["1", "2", "3"], "--min-samples": ["2", "3"],
    "--max-noise": ["50", "100"], "--time-limit": ["0.01", "0.1"], "--cache": ["hot", "cold"],
    "--startup": ["on", "off"], "--startup-samples": ["1", "2"], "--progress": ["on", "off"],
    "--bw-bytes": ["4", "4K", "1024,4K"], "--mm-n": ["32", "64"], "--cp-grid": ["128"],
    "--cp-atoms": ["1", "100"], "--cp-local": ["16x8", "8x8", "sweep"],
    "--mriq-local": ["64", "256"], "--mrifhd-local": ["64", "256"],
    "--triad-n": ["256", "1024,2048"], "--mmnaive-n": ["16", "32"],
    "--mmnaive-local": ["16x16", "8x8", "driver", "query", "study-x", "study-y", "tuner"],
    "--bilinear-out": ["16", "32"],
    "--bilinear-local": ["16x16", "driver", "query", "study-x", "study-y", "tuner", "sweep"],
    "--sort-n": ["1024"], "--sort-local": ["256", "64", "driver", "query", "study", "tuner"],
    "--trapezoid-items": ["1024"],
    "--trapezoid-local": ["256", "driver", "query", "study", "tuner", "sweep"],
    "--lavamd-boxes": ["1", "2"], "--lavamd-layout": ["aos", "soa", "aosoa", "aos,soa"],
    "--layoutconv-boxes": ["2"], "--bodies-n": ["256"], "--bodies-layout": ["aos", "soa,aosoa"],
    "--reduce-n": ["1", "5", "257"], "--reduce-type": ["int32", "float", "affine16,int32"],
    "--scan-n": ["1", "5", "257"], "--scan-type": ["int32", "float", "affine16"],
    "--scan-alpha": ["1", "4", "32"], "--scan-poll": ["wait", "spin", "wait,spin"],
    "--advection-grid": ["64x64", "128x64"], "--advection-gpus": ["1"],
    "--advection-exchange": ["sync", "overlap"], "--advection-graph": ["on", "off"],
    "--benchmark_repetitions": ["1", "2"], "--benchmark_min_time": ["1s", "0.5", "10x"],
    "--benchmark_min_warmup_time": ["0"], "--benchmark_context": ["a=b", "k=v,x=y"],
    "--v": ["0", "1", "2"],
}
PTX_VALID = {"--variant": ["triad", "cp", "matrixMul"], "--label": ["x", "CUDA, driver 580"],
             "--cl-platform": ["0"], "--cl-device": ["0"]}
# Options whose harvested values could be long runs (the full-length judged
# problems, the larger presets, a warm-up of any length): the table above only.
NO_HARVEST = {"--size", "--advection-problems", "--benchmark_min_warmup_time",
              "--benchmark_min_time", "--batch-ms", "--benchmark_repetitions"}

# What a path option does with its path: read or write a file or a folder.
ROLES = {
    "--cl-kernel-dir": "in-dir", "--mriq-input": "in-file", "--mrifhd-input": "in-file",
    "--mriq-output": "out-file", "--mrifhd-output": "out-file",
    "--mriq-save-inputs": "out-dir", "--mrifhd-save-inputs": "out-dir",
    "--benchmark_out": "out-file",
    "dump --out": "out-dir", "dump --jit-cache": "out-dir", "cache-sass --out": "out-dir",
    "cache-sass --cache": "in-dir", "normalize -o": "out-file", "opt -o": "out-file",
    "stats --sass": "in-sass",
}
PTX_INPUTS = ["ptx/nvcc-local/cp.ptx", "ptx/nvcc-local/matrixmul.ptx",
              "ptx/nvcc-local/mriq-fast.ptx", "ptx/nvcc-local/cp-lineinfo.ptx",
              "ptx/gpu/h200-driver580.159.04-nvcc13.0/opencl-O0/cp-clnvoptlevel0.ptx"]
SASS_INPUTS = ["ptx/gpu/h200-driver580.159.04-nvcc13.0/cuda/cp.sass",
               "ptx/gpu/h200-driver580.159.04-nvcc13.0/cuda/cp-fast.sass"]
JIT_CACHE = "jit_cache/gpu/h200-driver580.159.04"


# ---- the programs' vocabulary, from their --help ----

OPTION_LINE = re.compile(
    r"^  (?:(-\w),)?(--[A-Za-z][\w-]*)(\{\w*\})?( [^ ].*?)?(?: {2,}(.*))?$")
POSITIONAL_LINE = re.compile(r"^  ([a-z]\w*) ([A-Z]+)( \.\.\.)?( REQUIRED)?(?: {2,}(.*))?$")


class Option:
    def __init__(self, name, short, metavar, desc):
        self.name, self.short, self.metavar, self.desc = name, short, metavar, desc
        self.flag = not metavar  # takes no value
        self.required = "REQUIRED" in metavar

    def __repr__(self):
        return self.name


def help_text(argv):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60, errors="replace")
    if r.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)}: exit {r.returncode}\n{r.stderr}")
    return r.stdout


def parse_help(text):
    """(options, positionals, subcommands, gbench flags) of one --help text; an
    option's description continues on the lines indented below it."""
    options, positionals, subcommands, gbench = [], [], [], []
    section = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.split(":")[0].strip()
            if section == "benchmark [--benchmark_list_tests={true|false}]":
                section = "Google Benchmark"
        if section.startswith("Google Benchmark") or line.lstrip().startswith("[--"):
            for m in re.finditer(r"\[--(\w+)(=[^\]]*)?\]", line):
                gbench.append(("--" + m.group(1), m.group(2) or ""))
            continue
        if section == "Options":
            m = OPTION_LINE.match(line)
            if m:
                metavar = (m.group(4) or "").strip() + (m.group(3) or "")
                options.append(Option(m.group(2), m.group(1), metavar.replace("{false}", ""),
                                      m.group(5) or ""))
                if m.group(3):  # "--no-sass{false}": a flag
                    options[-1].flag = True
            elif line.startswith(" " * 8) and options:
                options[-1].desc += " " + line.strip()
        elif section == "Positionals":
            m = POSITIONAL_LINE.match(line)
            if m:
                positionals.append((m.group(1), bool(m.group(3)), bool(m.group(4))))
        elif section == "Subcommands":
            m = re.match(r"^  ([a-z][\w-]*) {2,}", line)
            if m:
                subcommands.append(m.group(1))
    return options, positionals, subcommands, gbench


def harvest(option):
    """Valid-looking values named by an option's help: its choices, its
    examples, its default and the low end of its range."""
    text = option.metavar + " " + option.desc
    found = []
    for m in re.finditer(r"\{([^}]*)\}", option.metavar):
        found += [c for c in m.group(1).split(",") if c]
    found += [m.group(1).rstrip(",.:;") for m in re.finditer(r"e\.g\. ([^\s;)]+)", text)]
    found += [m.group(1) for m in re.finditer(r"default ([\w.:-]+(?:,[\w.:-]+)*)", text)]
    found += [m.group(1) for m in re.finditer(r"(\d+(?:\.\d+)?) ?\.\.", text)]
    for m in re.finditer(r"Known: ([\w-]+(?:, [\w-]+)*)", text):
        found += m.group(1).split(", ")
    return [v for v in dict.fromkeys(found) if v and small(v)]


def small(value):
    """No size in `value` that would make a long run (above 65536, or 1M, 1G)."""
    for number, unit in re.findall(r"(\d+)([KMGkmg]?)", value):
        scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[unit.lower()]
        if int(number) * scale > 65536:
            return False
    return True


def role_of(key, option):
    """What an option does with its path ("in-file", "out-dir", ...; None: no
    path): the table above, else its help's words."""
    if key in ROLES:
        return ROLES[key]
    if option is None or option.metavar.split(" ")[0] not in ("FILE", "DIR", "PATH"):
        return None
    folder = option.metavar.startswith("DIR") or "folder" in option.desc
    writes = re.search(r"\b(write|output)\b", option.desc, re.I)
    return ("out-" if writes else "in-") + ("dir" if folder else "file")


def gbench_choices(spec):
    """Google Benchmark's =<a|b> or ={a|b} usage: its words."""
    m = re.match(r"=[<{]([a-z|]+)[>}]$", spec)
    return m.group(1).split("|") if m else []


class Vocabulary:
    """gpucmp-bench's options and workloads; gpucmp-ptx's subcommands and theirs."""

    def __init__(self, bench, ptx):
        options, _, _, gbench = parse_help(help_text([bench, "--help"]))
        self.bench = {o.name: o for o in options}
        self.bench_valid = {}
        for o in options:
            harvested = [] if o.name in NO_HARVEST else harvest(o)
            self.bench_valid[o.name] = list(dict.fromkeys(BENCH_VALID.get(o.name, []) +
                                                          harvested))
        listed = dict(gbench)
        for name in ("--benchmark_filter", "--benchmark_repetitions", "--benchmark_min_time",
                     "--benchmark_out", "--benchmark_out_format", "--benchmark_format",
                     "--benchmark_time_unit", "--benchmark_color",
                     "--benchmark_min_warmup_time", "--benchmark_context", "--v"):
            listed.setdefault(name, "")
        self.gbench = sorted(listed)
        for name, spec in listed.items():
            self.bench_valid[name] = list(dict.fromkeys(BENCH_VALID.get(name, []) +
                                                        gbench_choices(spec)))
        # The rows: "^<workload>/<api>/<variant>/" prefixes, by workload.
        r = subprocess.run([bench, "--benchmark_list_tests=true", "--size", "quick",
                            "--startup", "off"], capture_output=True, text=True, timeout=120)
        self.prefixes = collections.defaultdict(list)
        for line in r.stdout.splitlines():
            parts = line.split("/")
            if len(parts) > 3 and parts[1] in ("cuda", "opencl"):
                prefix = "^" + "/".join(parts[:3]) + "/"
                if prefix not in self.prefixes[parts[0]]:
                    self.prefixes[parts[0]].append(prefix)
        _, _, subs, _ = parse_help(help_text([ptx, "--help"]))
        self.subcommands = {}
        for sub in subs:
            options, positionals, _, _ = parse_help(help_text([ptx, sub, "--help"]))
            self.subcommands[sub] = (options, positionals)
        self.passes = [v for o in self.subcommands.get("opt", ([], []))[0]
                       if o.name == "--passes" for v in harvest(o) if "," not in v]

    def prefix(self, rng, workload):
        """A "^workload/api/variant/" filter, OpenCL's mostly (CUDA's rows are
        skipped without a CUDA device)."""
        rows = self.prefixes[workload]
        opencl = [p for p in rows if p.startswith(f"^{workload}/opencl/")]
        return rng.choice(opencl if opencl and rng.random() < 0.8 else rows)

    def workload_of(self, option):
        """The workload an option of gpucmp-bench sets, e.g. --mm-n: matrixMul."""
        head = option.lstrip("-").split("-")[0].lower()
        head = {"mm": "matrixmul", "bw": "bandwidth"}.get(head, head)
        for w in self.prefixes:
            if w.lower() == head:
                return w
        return None


# ---- one case ----

class Case:
    """One fuzzed command line and the folder it runs in: an empty folder, a
    link to it, FIFOs, an empty and a garbage file, and copies of the inputs."""

    def __init__(self, root, index, seed, session):
        self.index = index
        self.rng = random.Random(f"{seed}:{index}")
        self.dir = os.path.join(root, f"case-{index}")
        self.session = session
        os.makedirs(os.path.join(self.dir, "dir"))
        os.symlink("dir", os.path.join(self.dir, "link"))
        for name in ("fifo-in", "fifo-out"):
            os.mkfifo(os.path.join(self.dir, name))
        open(os.path.join(self.dir, "empty.bin"), "wb").close()
        with open(os.path.join(self.dir, "garbage.bin"), "wb") as f:
            f.write(bytes(self.rng.randrange(256) for _ in range(4096)))
        self.argv = []
        self.program = ""
        self.out_paths = []  # --benchmark_out values

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def copy_input(self, src):
        """A copy of an input file or folder in the case's folder (its own: a
        run that wrote it would change nothing else)."""
        dest = self.path("in", os.path.basename(src.rstrip("/")))
        if not os.path.exists(dest):
            os.makedirs(self.path("in"), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, dest)
            else:
                shutil.copyfile(src, dest)
        return dest

    def hostile_path(self, role):
        """A path that is no good for most options. A FIFO only for an option
        known to read (its other end writes) or to write (its other end reads)."""
        r = self.rng
        paths = [self.path("dir"), "/dev/null", "/dev/full", self.path("link"),
                 self.path("missing", "x"), self.path("absent"), self.path("empty.bin"),
                 self.path("garbage.bin"), self.path("link", "x"), self.path("dir") + "/"]
        if role:
            paths.append(self.path("fifo-out" if role.startswith("out") else "fifo-in"))
        return r.choice(paths)

    def valid_path(self, role, option):
        r = self.rng
        if role == "out-file":
            return self.path(r.choice(["out.json", "out.txt", "dir/out"]))
        if role == "out-dir":
            return r.choice([self.path("dir"), self.path("new"), self.path("new", "deeper")])
        if role == "in-dir":
            if option.endswith("--cache"):
                return self.copy_input(os.path.join(FIXTURES, JIT_CACHE))
            return self.copy_input(self.session[r.choice(["kernels", "broken-kernels"])])
        if role == "in-sass":
            return self.copy_input(os.path.join(FIXTURES, r.choice(SASS_INPUTS)))
        for workload in ("mriq", "mrifhd"):
            if option.startswith(f"--{workload}-") and workload in self.session:
                return self.copy_input(self.session[workload])
        return self.copy_input(os.path.join(FIXTURES, r.choice(PTX_INPUTS + SASS_INPUTS[:1])))

    def value(self, key, valid, role):
        """A value for option `key`: a valid one (about 1 in 3), else a hostile one."""
        r = self.rng
        x = r.random()
        if role:
            if x < 0.3:
                return self.valid_path(role, key)
            if valid and x < 0.45:
                return r.choice(valid)
            return self.hostile_path(role) if x < 0.8 else r.choice(HOSTILE)
        if valid and x < 0.45:
            return r.choice(valid)
        return self.hostile_path(None) if x < 0.55 else r.choice(HOSTILE)

    def mangled(self, name):
        """An option name gone wrong."""
        r = self.rng
        return r.choice([name + "x", name.upper(), "-" + name, name[1:], name[:-1],
                         name.replace("-", "_"), name + "=", "--" + "x" * 300, "-",
                         "--ü", name + "\u00a0"])

    def args_of(self, option, value, short=None):
        """The option and its value as one word or two, in either form."""
        r = self.rng
        name = short if short and r.random() < 0.5 else option
        if value is None:
            return [name]
        if name.startswith("--benchmark_") or name == "--v":
            y = r.random()
            if y < 0.05:
                return [name]  # no value
            if y < 0.08:
                return [name, value]  # a word of its own: not Google Benchmark's form
            return [f"{name}={value}"]
        if len(name) == 2 and r.random() < 0.3:
            return [name + value]  # -ofile
        return [f"{name}={value}"] if r.random() < 0.3 else [name, value]

    # -- gpucmp-bench --

    def make_bench(self, vocab):
        r = self.rng
        self.program = "gpucmp-bench"
        names = [n for n in sorted(vocab.bench) if n != "--help"] + vocab.gbench
        fuzzed = [r.choice(names) for _ in range(r.choice([1, 1, 2, 2, 3, 4]))]
        if r.random() < 0.02:
            fuzzed.append("--help")
        base = dict(BASE)
        words = []
        filter_value = None
        workloads = []
        for name in fuzzed:
            option = vocab.bench.get(name)
            role = role_of(name, option)
            valid = vocab.bench_valid.get(name, [])
            if name == "--benchmark_filter":
                filter_value = r.choice(HOSTILE_FILTERS + HOSTILE[:20] + CHEAP_FILTERS +
                                        [vocab.prefix(r, w) for w in sorted(vocab.prefixes)])
                words += self.args_of(name, filter_value)
                continue
            value = None if option is not None and option.flag and r.random() < 0.9 else \
                self.value(name, valid, role)
            if name == "--benchmark_out" and isinstance(value, str):
                self.out_paths.append(value)
            if name in base:
                del base[name]  # this case sets it
            if name in ("--max-noise", "--min-samples", "--time-limit") and r.random() < 0.5:
                base.pop("--samples", None)  # so that they can take effect
            if name == "--startup-samples" and r.random() < 0.5:
                base["--startup"] = "on"
            w = vocab.workload_of(name)
            if w:
                workloads.append(w)
            if r.random() < 0.05:
                name = self.mangled(name)
            words += self.args_of(name, value, option.short if option else None)
        head = [a for k, v in base.items() for a in (k, v)]
        if filter_value is None:
            if workloads and r.random() < 0.7:
                f = vocab.prefix(r, r.choice(workloads))
            elif r.random() < 0.5:
                f = r.choice(CHEAP_FILTERS)
            else:
                f = vocab.prefix(r, r.choice(sorted(vocab.prefixes)))
            head.append(f"--benchmark_filter={f}")
        if "--benchmark_out" not in fuzzed and r.random() < 0.4:
            out = self.path(r.choice(["report.json", "dir/report.json"]))
            self.out_paths.append(out)
            head.append(f"--benchmark_out={out}")
            if r.random() < 0.3:
                head.append("--benchmark_out_format=" + r.choice(["json", "csv", "console"]))
        args = head + words
        if r.random() < 0.05:
            args.insert(r.randrange(len(args) + 1), r.choice(HOSTILE))  # a stray word
        if r.random() < 0.05 and "fifo-" not in "\0".join(args):
            r.shuffle(args)  # (a FIFO stays with its option: its other end knows the way)
        self.argv = [BENCH] + args

    # -- gpucmp-ptx --

    def make_ptx(self, vocab):
        r = self.rng
        self.program = "gpucmp-ptx"
        subs = sorted(vocab.subcommands)
        x = r.random()
        if x < 0.04:
            self.argv = [PTX] + ([r.choice(HOSTILE)] if r.random() < 0.7 else [])
            return
        sub = r.choice(subs)
        options, positionals = vocab.subcommands[sub]
        args = [sub]
        for o in options:
            if o.name == "--help" and r.random() > 0.02:
                continue
            if not (o.required and r.random() < 0.9) and r.random() > 0.35:
                continue
            key = f"{sub} {o.short or o.name}"
            role = ROLES.get(key) or role_of(f"{sub} {o.name}", o)
            if o.flag:
                value = None if r.random() < 0.9 else r.choice(HOSTILE)
            elif o.name == "--passes":
                value = ",".join(r.sample(vocab.passes, r.randint(1, 3))) \
                    if vocab.passes and r.random() < 0.5 else self.value(key, [], None)
            else:
                valid = harvest(o) + PTX_VALID.get(o.name, [])
                value = self.value(key, valid, role)
            name = o.name if r.random() > 0.05 else self.mangled(o.name)
            args += self.args_of(name, value, o.short)
        if r.random() < 0.1:  # an option of another subcommand
            other, _ = vocab.subcommands[r.choice(subs)]
            if other:
                o = r.choice(other)  # what it does here is what this subcommand's does
                role = ROLES.get(f"{sub} {o.short or o.name}") or ROLES.get(f"{sub} {o.name}")
                args += self.args_of(o.name, None if o.flag else self.value(o.name, [], role))
        for _, many, required in positionals:
            count = r.choice([1, 1, 2, 3]) if many else 1
            if not required or r.random() < 0.05:
                count = r.choice([0, count])
            for _ in range(count):
                y = r.random()
                args.append(self.valid_path("in-file", "") if y < 0.6 else
                            self.hostile_path("in-file") if y < 0.85 else r.choice(HOSTILE))
        if r.random() < 0.05:
            args.append(r.choice(HOSTILE))  # one word too many
        self.argv = [PTX] + args

    def check_safe(self):
        """Every absolute path in the command is in the case's folder, or is
        /dev/null or /dev/full: nothing else can be written."""
        allowed = self.dir + os.sep
        for word in self.argv[1:]:
            for part in (word, word.split("=", 1)[-1]):
                if part.startswith("/") and not part.startswith(allowed) and \
                        part not in ("/dev/null", "/dev/full"):
                    raise AssertionError(f"case {self.index}: unsafe path {part!r}")
                if ".." in part.split("/"):
                    raise AssertionError(f"case {self.index}: '..' in {part!r}")


# ---- running a case ----

class FifoPeer(threading.Thread):
    """The other end of a FIFO: reads what the program writes to it (out) or
    writes a few bytes for it to read (in), as often as the program opens it."""

    def __init__(self, path, writes):
        super().__init__(daemon=True)
        self.path, self.writes = path, writes
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                if self.writes:
                    fd = os.open(self.path, os.O_WRONLY)  # waits for a reader
                    try:
                        os.write(fd, b"not what you want\n" * 4)
                    except OSError:
                        pass
                    os.close(fd)
                else:
                    fd = os.open(self.path, os.O_RDONLY)  # waits for a writer
                    while os.read(fd, 1 << 16):
                        pass
                    os.close(fd)
            except OSError:
                return

    def finish(self):
        self.stop.set()
        flags = (os.O_RDONLY if self.writes else os.O_WRONLY) | os.O_NONBLOCK
        deadline = time.monotonic() + 5
        while self.is_alive() and time.monotonic() < deadline:
            try:  # the other end: the peer's open returns
                os.close(os.open(self.path, flags))
            except OSError:
                pass
            self.join(0.05)


def tree(folder):
    """Every path under `folder`, relative, links not followed."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), folder))
    return found


def child_env():
    # Google Benchmark's environment variables would change what each case means.
    return {k: v for k, v in os.environ.items() if not k.startswith("BENCHMARK_")}


def spawn(argv, cwd):
    """Popen, waiting out a binary that a build is writing (ETXTBSY and kin)."""
    for attempt in range(60):
        try:
            return subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=child_env(), start_new_session=True)
        except OSError:
            if attempt == 59:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def run_case(case, timeout):
    """(exit code, negative for a signal; stdout; stderr; seconds; timed out)."""
    peers = []
    joined = "\0".join(case.argv)
    for name, writes in (("fifo-in", True), ("fifo-out", False)):
        if case.path(name) in joined:
            peers.append(FifoPeer(case.path(name), writes))
    for p in peers:
        p.start()
    start = time.monotonic()
    proc = spawn(case.argv, case.dir)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    seconds = time.monotonic() - start
    for p in peers:
        p.finish()
    return (proc.returncode, out.decode("utf-8", errors="replace"),
            err.decode("utf-8", errors="replace"), seconds, timed_out)


def lines_of(text):
    """The lines of `text` as the program wrote them (splitlines would also
    split at the unicode line breaks that a hostile value may hold)."""
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n") if text else []


BUILD_LOG = "--- build log ---"
END_OF_LOG = "--- end of build log ---"
REPORT_LOST = re.compile(r"^gpucmp-bench: error: (--benchmark_out=.*|stdout): cannot write: ")


def without_build_logs(lines):
    """The lines, every build log block (from its header to its end) left out;
    None when a block does not end or does not follow an error line."""
    kept, i = [], 0
    while i < len(lines):
        if lines[i] == BUILD_LOG:
            if not kept or ": error: " not in kept[-1]:
                return None
            try:
                i = lines.index(END_OF_LOG, i) + 1
            except ValueError:
                return None
            continue
        kept.append(lines[i])
        i += 1
    return kept


def exit2_problems(case, err, before, after):
    """What is wrong with an exit code 2 (an empty list when nothing is), and
    whether the benchmarks had run."""
    prefix = f"{case.program}: error: "
    lines = lines_of(err)
    kept = without_build_logs(lines)
    if kept is None:
        return [f"exit 2: a build log that is not one under an error line:\n{err}"], False
    if len(kept) == 1 and kept[0].startswith(prefix):  # before the run
        created = sorted(after - before)
        if created:
            return ["exit 2 before the run, yet it left behind: " + ", ".join(created[:8])], False
        return [], False
    if case.program != "gpucmp-bench":
        return [f"exit 2: stderr is {len(kept)} lines (build logs aside), "
                f"want one '{prefix}...' line"], False
    errors = [line for line in kept if line.startswith(prefix)]
    failed = {line[len("FAILED: "):] for line in kept if line.startswith("FAILED: ")}
    problems = []
    if not errors:
        problems.append(f"exit 2 without a '{prefix}...' line")
    for i, line in enumerate(kept):
        if not line.startswith(prefix):
            continue
        if REPORT_LOST.match(line):
            if i != len(kept) - 1:
                problems.append(f"exit 2: the report's error is not the last line: {line!r}")
            home = os.path.realpath(case.dir)
            for out in case.out_paths:
                real = os.path.realpath(os.path.join(case.dir, out))
                if real.startswith(home + os.sep) and os.path.isfile(real) and \
                        os.path.relpath(real, home) in after - before:
                    problems.append(f"exit 2: the report that could not be written is "
                                    f"there: {out}")
        elif line[len(prefix):] not in failed:
            problems.append("exit 2: more than one line, and this error is neither a "
                            f"benchmark's (no FAILED line for it) nor the report's: {line!r}")
    if len(errors) > 1 + len(failed):
        problems.append(f"exit 2: {len(errors)} error lines for {len(failed)} FAILED lines")
    return problems, True


def check(case, rc, err, timed_out, timeout, before, after):
    """Every problem with one case's ending, and whether it was an exit code 2
    once the benchmarks had run."""
    if timed_out:
        return [f"no end within {timeout:g} s (killed)"], False
    if rc < 0:
        return [f"killed by signal {-rc} ({signal.Signals(-rc).name})"], False
    if rc not in (0, 1, 2):
        return [f"exit code {rc}, not 0, 1 or 2"], False
    problems, late = exit2_problems(case, err, before, after) if rc == 2 else ([], False)
    for dev in ("/dev/null", "/dev/full"):
        if not stat.S_ISCHR(os.stat(dev).st_mode):
            problems.append(f"{dev} is no longer a character device")
    strays = [n for n in os.listdir("/dev") if re.match(r"(null|full)[.-]", n)]
    if strays:
        problems.append("files written into /dev: " + ", ".join(strays))
    return problems, late


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
