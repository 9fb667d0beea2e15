"""One case of cli_fuzz_test.py: a seeded random command line of gpucmp-bench or
gpucmp-ptx (Case: options and values drawn from the Vocabulary, the hostile and
valid values of fuzz_vocabulary) and the folder it runs in."""
import os
import random
import shutil

from fuzz_vocabulary import (
    BASE, CHEAP_FILTERS, HOSTILE, HOSTILE_FILTERS, JIT_CACHE, PTX_INPUTS, PTX_VALID, ROLES,
    SASS_INPUTS, harvest, role_of)

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

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
        self.argv = [vocab.bench_program] + args

    # -- gpucmp-ptx --

    def make_ptx(self, vocab):
        r = self.rng
        self.program = "gpucmp-ptx"
        subs = sorted(vocab.subcommands)
        x = r.random()
        if x < 0.04:
            self.argv = [vocab.ptx_program] + ([r.choice(HOSTILE)] if r.random() < 0.7 else [])
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
        self.argv = [vocab.ptx_program] + args

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
