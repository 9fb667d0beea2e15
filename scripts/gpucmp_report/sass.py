"""SASS instruction mixes for report.py's "Why each gap": the CUDA cubin against
the cubin that OpenCL's driver JIT produced, read from results/<gpu>/sass/*.sass
or from the same names in a folder's sass.tar.xz.

A file is named <stem>.<source>.sass: stem <workload>-<variant> (one kernel) or
<workload> (every kernel of one .cu file, e.g. matrixmul.cuda.sass); source
`cuda` (the executable's cubin), `cuda-jit` (CUDA_FORCE_PTX_JIT), `opencl-jit`
(the driver's JIT output from its compute cache, of a build of the program by
gpucmp-ptx dump), `opencl-row` (the cubin the OpenCL row's own build left in
its compute cache, the suite's crosssass part: what the row ran, preferred
where both are committed; a dump's build was found to differ from the row's
for MRI-FHD's by-value programs) or `opencl-ptxas` (offline ptxas on OpenCL's
PTX: a guess at what ran, never shown as OpenCL's SASS).
Its first line `// SASS: ...` names where it came from. The body is cuobjdump
-sass or nvdisasm text: `Function : <name>` (or `.text.<name>:`) starts a
kernel; an instruction line holds `/*<offset>*/ [@[!]P] OPCODE[.SUFFIX...] ... ;`.
Opcodes are counted by mnemonic with their suffixes (LDS.128 and LDS apart)."""
import collections
import glob
import os
import re
import sys
import tarfile

SASS_DIR = "sass"
SASS_ARCHIVE = "sass.tar.xz"  # sass/*.sass inside, as the suite's sass part writes it
CROSS_SASS_ARCHIVE = "cross-sass.tar.xz"  # the same form, the suite's crosssass part
CUDA_SOURCE = "cuda"  # what CUDA ran: the executable's own cubin
HEADER = "// SASS:"
TOP = 5  # opcodes listed per difference
INSTRUCTION = re.compile(r"/\*[0-9a-fA-F]{4,}\*/\s+(.*?)\s*;")
FUNCTION = re.compile(r"^\s*(?:Function\s*:\s*(\S+)|\.text\.(\S+?):)")
PREDICATE = re.compile(r"^@!?U?P[T0-9]+\s+")


class SassFile:
    """One .sass file: its source line and the opcode counts of each function."""

    def __init__(self, path, text):
        self.path = path
        name = os.path.basename(path)[: -len(".sass")]
        self.stem, _, self.source = name.rpartition(".")
        if not self.stem:
            self.stem, self.source = self.source, ""
        lines = text.splitlines()
        first = lines[0].strip() if lines else ""
        self.origin = first[len(HEADER):].strip() if first.startswith(HEADER) else None
        self.functions = collections.OrderedDict()
        current = None
        for line in lines[1 if self.origin is not None else 0:]:
            m = FUNCTION.match(line)
            if m:
                current = m.group(1) or m.group(2)
                self.functions.setdefault(current, collections.Counter())
                continue
            m = INSTRUCTION.search(line)
            if not m:
                continue
            op = opcode(m.group(1))
            if op:
                self.functions.setdefault(current or "(unnamed)", collections.Counter())[op] += 1


def opcode(instruction):
    """The mnemonic with its suffixes ("@!P0 LDS.U.128 R4, [R2]" -> "LDS.U.128")."""
    text = PREDICATE.sub("", instruction.strip().lstrip("{").strip())
    token = text.split(None, 1)[0] if text else ""
    return token if re.match(r"^[A-Z][A-Z0-9_]*(\.[A-Za-z0-9_]+)*$", token) else None


def load(dirs):
    """[SassFile] from <dir>/sass/*.sass of each folder, and from the members
    sass/*.sass of <dir>/sass.tar.xz and <dir>/cross-sass.tar.xz (what
    scripts/suite.sh's sass and crosssass parts write), in name order."""
    out = []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, SASS_DIR, "*.sass"))):
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    out.append(SassFile(path, f.read()))
            except OSError:
                continue
        out += _load_archive(os.path.join(d, SASS_ARCHIVE))
        out += _load_archive(os.path.join(d, CROSS_SASS_ARCHIVE))
    return out


def _load_archive(path):
    if not os.path.isfile(path):
        return []
    found = []
    try:
        with tarfile.open(path, "r:*") as tar:
            for member in sorted(tar.getmembers(), key=lambda m: m.name):
                parent, _, name = member.name.rpartition("/")
                if not (member.isfile() and parent == SASS_DIR and name.endswith(".sass")):
                    continue
                text = tar.extractfile(member).read().decode("utf-8", errors="replace")
                found.append(SassFile(os.path.join(path, member.name), text))
    except (OSError, tarfile.TarError) as e:
        print(f"report: warning: {path}: not a readable archive ({e}); its SASS left out",
              file=sys.stderr)
        return []
    return found


def is_opencl_jit(source):
    """A file of what OpenCL's driver JIT produced (never offline ptxas)."""
    s = source.lower()
    return "opencl" in s and "jit" in s and "ptxas" not in s


OPENCL_ROW_SOURCE = "opencl-row"


def is_opencl_row(source):
    """A file of the cubin an OpenCL row's own build made (its compute cache)."""
    return source.lower() == OPENCL_ROW_SOURCE


def tokens(variant):
    """The parts of a variant name that may appear in a kernel's (mangled) name."""
    out = []
    for part in re.split(r"[-_]", variant.lower()):
        if part:
            out.append(part)
            out += re.findall(r"\d+", part)
    return list(dict.fromkeys(out))


# The kernel each pair's timed launch spends its time in, per workload: the
# CUDA .cu file's SASS, named as the workload in lower case (one file holds
# every kernel of it, both math modes in <file>.cuda.sass and
# <file>-fast.cuda.sass), and the name patterns that pick the variant's kernel
# in the CUDA and the OpenCL cubin.


# advection's kernel per variant: CUDA's one-GPU instantiation (where the
# kernel's template has the flag that stores rows into a neighbour GPU's
# buffer as well, over:p2p, that flag false: Lb0E), OpenCL's kernel of the
# variant's program (each program holds every kernel of its .cl file).
_ADV_PLAIN = r"(ILb0EEEv|E)PKf"  # a kernel without template arguments but the flag
_ADV_ASYNC = r"advection_asyncILb{}E(Lb0E)?EEv"
ADVECTION_KERNELS = {
    "blocked": (r"advection_blockedI\w*_10BranchFreeE(Lb0E)?EEv", r"^advection_blocked$"),
    "branchy": (r"advection_blockedI\w*_9TwoBranchE(Lb0E)?EEv", r"^advection_blocked$"),
    "plain": (r"advection_plain" + _ADV_PLAIN, r"^advection_plain$"),
    "weights": (r"advection_weights" + _ADV_PLAIN, r"^advection_weights$"),
    "stream": (r"advection_stream" + _ADV_PLAIN, r"^advection_stream$"),
    "async": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-maxl1": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-cpasync": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-ptx-cpasync": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-ptx-cpasync-nobar": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-cpasync-wait0": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-cpasync-4b": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "async-cpasync-4b-wait0": (_ADV_ASYNC.format(1), r"^advection_async$"),
    "ring": (_ADV_ASYNC.format(0), r"^advection_async$"),
    "ring-vec4": (_ADV_ASYNC.format(0), r"^advection_async$"),  # OpenCL's form of ring
}


# reduce and scan: the float instantiation (agpu_ops::SumFloat) of each
# algorithm's main kernel, beside OpenCL's float program; scan's alpha and
# onepass at alpha 32 (their headline rows), beside OpenCL's build of that
# alpha (AGPU_OPENCL_PROGRAM: the program <variant>-a32, which runs before
# it was registered did not dump; then no OpenCL side is shown rather than
# another build's).
_SUM_FLOAT = "INS0_8agpu_ops8SumFloatE"
AGPU_KERNELS = {
    **{("reduce", v): (f"reduce_{v}{_SUM_FLOAT}", f"^reduce_{v}$")
       for v in ("tree", "cascading", "pipeline")},
    # each load order's own kernel (Lb0E: as written; Lb1E: load:batched; an
    # archive from before the template had neither)
    ("scan", "alpha"): (f"scan_tiles{_SUM_FLOAT}Li32E(?:Lb0E)?fE", r"^scan_tiles$"),
    ("scan", "lookback"): (f"scan_lookback{_SUM_FLOAT}", r"^scan_lookback$"),
    ("scan", "onepass"): (f"scan_onepass{_SUM_FLOAT}Li32E", r"^scan_onepass$"),
}
AGPU_OPENCL_PROGRAM = {("scan", "alpha"): "alpha-a32", ("scan", "onepass"): "onepass-a32"}


def kernel_patterns(workload, variant):
    """(CUDA regex, OpenCL regex) naming the variant's main kernel, or None."""
    v = variant.lower()
    if (workload, v) in AGPU_KERNELS:
        return AGPU_KERNELS[(workload, v)]
    if workload == "matrixMul":
        m = re.match(r"tile(\d+)(-aligned)?$", v)
        if not m:
            return None
        tile = m.group(1)  # matrixMul<TILE, ALIGN>; unaligned: ALIGN 4, or the first form <TILE>
        cuda = rf"matrixMulILi{tile}ELi16E" if m.group(2) else rf"matrixMulILi{tile}E(?!Li16E)"
        return cuda, r"^matrixMul$"
    if workload == "cp":
        kernel = "cp_base" if v == "base" else "cp_unrollx8"
        for form in ("byvalue", "prefetch"):  # cp::Form: a kernel of its own
            if f"-{form}" in v:
                kernel += "_" + form
        return rf"\d{kernel}E", rf"^{kernel}$"
    if workload in ("mriq", "mrifhd"):
        kernel = "ComputeQ" if workload == "mriq" else "ComputeFH"
        if "-byvalue" in v:  # mri::KFrom::byvalue: a kernel of its own
            return rf"\d{kernel}ByValueE", rf"^{kernel}ByValue$"
        # mri::KLoop: tile_and_count 0, count_only 1, prefetch 2
        loop = 1 if v.startswith("uniform-tile") else 2 if "-prefetch" in v else 0
        return rf"{kernel}ILNS_3mri5KLoopE{loop}E", rf"^{kernel}$"
    if workload == "advection":
        return ADVECTION_KERNELS.get(v)
    if workload == "lavamd" and v in ("base", "aligned"):
        # lavamd_kernel<LAYOUT, TILE, LOCAL_ALIGN>: the AoS kernel (layout 0) of the
        # variant; its OpenCL program <workload>-<variant> is the AoS build.
        align = 16 if v == "aligned" else 4
        return rf"lavamd_kernelILi0ELi\d+ELi{align}E", r"^lavamd$"
    return None


def select(files, workload, variant, accept):
    """(file, [function names], opcode Counter) for the variant's kernel, or None.

    CUDA (accept(cuda)): the workload's .cu file of the variant's math mode;
    OpenCL: the program's file, <workload>-<variant>. Within a file the kernel is
    picked by kernel_patterns(); a workload it does not know falls back to the
    functions whose names hold the most of the variant's name parts."""
    cuda_side = accept(CUDA_SOURCE)
    patterns = kernel_patterns(workload, variant)
    stem = workload.lower()
    fast = stem + "-fast"
    if cuda_side and "fast" in variant.lower() and any(
            accept(f.source) and f.stem.lower() == fast for f in files):
        wanted = [fast]  # the fast-math build's file
    elif cuda_side:
        wanted = [stem]
    elif (workload, variant.lower()) in AGPU_OPENCL_PROGRAM:
        wanted = [f"{workload}-{AGPU_OPENCL_PROGRAM[(workload, variant.lower())]}"]
    else:
        wanted = [f"{workload}-{variant}".lower(), workload.lower()]
    # CUDA: a workload's kernels may sit in several .cu files, <workload>_<part>
    # (advection_async.cu beside advection.cu): each is a candidate.
    others = workload.lower() + "_"
    candidates = [f for f in files if accept(f.source) and (
        f.stem.lower() in wanted or (cuda_side and f.stem.lower().startswith(others)))]
    if not candidates:
        return None
    parts = tokens(variant)

    def score(name):
        low = name.lower()
        return sum(1 for t in parts if (f"li{t}e" in low if t.isdigit() else t in low))

    def rank(f):
        stem = f.stem.lower()
        return wanted.index(stem) if stem in wanted else len(wanted)

    if patterns is not None and len(candidates) > 1:
        # The files that hold the pattern's kernel (a workload's kernels may
        # sit in several .cu files).
        pattern = re.compile(patterns[0 if cuda_side else 1])
        holding = [f for f in candidates if any(pattern.search(n) for n in f.functions)]
        candidates = holding or candidates
    if patterns is None and len(candidates) > 1:
        # The file whose kernel names hold most of the variant's name parts
        # (ties: the exact stems first).
        f = max(candidates, key=lambda f: (max(map(score, f.functions), default=-1), -rank(f)))
    else:
        f = min(candidates, key=rank)
    if not f.functions:
        return None
    names = list(f.functions)
    if patterns is not None:
        pattern = re.compile(patterns[0 if cuda_side else 1])
        names = [n for n in names if pattern.search(n)]
        if not names:
            return None
    elif len(names) > 1:
        best = max(score(n) for n in names)
        names = [n for n in names if score(n) == best]
    total = collections.Counter()
    for n in names:
        total.update(f.functions[n])
    return f, names, total


def differences(cuda, opencl, top=TOP):
    """[(opcode, CUDA count, OpenCL count)], the largest |difference| first."""
    ops = set(cuda) | set(opencl)
    diff = [(op, cuda.get(op, 0), opencl.get(op, 0)) for op in ops
            if cuda.get(op, 0) != opencl.get(op, 0)]
    diff.sort(key=lambda d: (-abs(d[2] - d[1]), d[0]))
    return diff[:top]


def describe(files, workload, variant):
    """Markdown lines on the SASS mix of a pair's CUDA and OpenCL-JIT cubins."""
    if not files:
        return ["- SASS: no driver-JIT SASS committed (no `sass/*.sass` beside the results)."]
    cuda = select(files, workload, variant, lambda s: s.lower() == CUDA_SOURCE)
    opencl = (select(files, workload, variant, is_opencl_row)
              or select(files, workload, variant, is_opencl_jit))
    lines = []
    missing = [label for label, x in (("CUDA cubin (`*.cuda.sass`)", cuda),
                                      ("OpenCL driver JIT (`*.opencl-row.sass`, "
                                       "`*.opencl-jit.sass`)", opencl))
               if x is None]
    if opencl is None:
        build = AGPU_OPENCL_PROGRAM.get((workload, variant.lower()))
        what = (f"OpenCL's `{workload}-{build}` build (the rows' alpha)" if build
                else f"{workload} {variant}")
        lines.append(f"- SASS: no driver-JIT SASS committed for {what}"
                     + ("" if cuda is not None else " (nor a CUDA cubin)") + ".")
        return lines
    if missing:
        return [f"- SASS: missing {', '.join(missing)} for {workload} {variant}."]
    for label, (f, names, counts) in (("CUDA", cuda), ("OpenCL", opencl)):
        lines.append(f"- SASS {label}: `{os.path.basename(f.path)}` "
                     f"({f.origin or 'no // SASS: line'}); {sum(counts.values())} instructions"
                     + (f" in {', '.join(f'`{n}`' for n in names)}" if names != ["(unnamed)"]
                        else ""))
    diff = differences(cuda[2], opencl[2])
    if diff:
        lines.append("- SASS mix, CUDA → OpenCL (largest differences): "
                     + ", ".join(f"{op} {c} → {o} ({o - c:+d})" for op, c, o in diff) + ".")
    else:
        lines.append("- SASS mix: the same opcode counts in both cubins.")
    return lines
