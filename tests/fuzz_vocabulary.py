"""What cli_fuzz_test.py fuzzes the programs with: the hostile values, the
valid ones beside those that --help names, what each path option does with its
path (ROLES), the input files; and the programs' vocabulary, read from their
--help (gpucmp-bench's options and Google Benchmark's flags, its workloads' rows,
gpucmp-ptx's subcommands, their options and positionals)."""
import collections
import os
import re
import shlex
import subprocess

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
    "--heartwall-frames": ["2", "3"], "--heartwall-layout": ["aos", "soa", "aos,soa", "aosoa"],
    "--layoutconv-boxes": ["2"], "--bodies-n": ["256"], "--bodies-layout": ["aos", "soa,aosoa"],
    "--reduce-n": ["1", "5", "257"], "--reduce-type": ["int32", "float", "affine16,int32"],
    "--scan-n": ["1", "5", "257"], "--scan-type": ["int32", "float", "affine16"],
    "--scan-alpha": ["1", "4", "32"], "--scan-poll": ["wait", "spin", "wait,spin"],
    "--scan-load": ["each", "batched", "each,batched"],
    "--advection-grid": ["64x64", "128x64"], "--advection-gpus": ["1", "4"],
    "--advection-exchange": ["sync", "overlap"], "--advection-graph": ["on", "off"],
    "--advection-over": ["host", "p2p", "p2p-copy", "context", "host,context"],
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
    "--heartwall-write-rodinia": "out-dir",
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
    """gpucmp-bench's options and workloads; gpucmp-ptx's subcommands and theirs;
    the two programs' paths, as given."""

    def __init__(self, bench, ptx):
        self.bench_program, self.ptx_program = bench, ptx
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
