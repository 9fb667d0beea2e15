"""The gap sections of report.py: "Profiler counters", "Compiler or runtime: the
split per pair" and "Why each gap", from the cross-run rows of the result files,
Nsight Compute profiles (<date>-ncu.json of scripts/ncu_to_json.py), driver-JIT
SASS (sass/*.sass) and a curated explanations.json, all beside the results.

Side inputs: report.py's arguments named explanations.json or *-ncu.json are
these files, never benchmark results (and jacobi.json, NVIDIA's Jacobi for
sections/scaling.py: gpucmp_report/jacobi.py; kernel-tuner.json and
kernel-tuner-retime.json, Kernel Tuner's picks and their re-time run for
sections/kernel_tuner.py: gpucmp_report/kernel_tuner.py; rodinia-heartwall.json or an
earlier attempt's rodinia-heartwall.attempt-N.json, Rodinia's own heartwall for
sections/rodinia_heartwall.py: gpucmp_report/rodinia_heartwall.py; a suite run's
manifest.json, read by none of them, is no result either); the same files and sass/*.sass
in the folders of the result files are read too, and for a suite run's folder (one
with manifest.json: results/<gpu>/<date>-<revision>/) the explanations.json
of the GPU's folder above it, where the causes found on that GPU are curated;
a run on several GPUs of one kind (results/<gpu>-x<N>/) without its own reads
that GPU's (results/<gpu>/explanations.json). "Why each gap" names the files.
explanations.json maps a pair name (without its api: matrixMul/tile16/n:4096, or
matrixMul/tile16 for every size, or ceiling/launch* for every variant that starts
so) to {"cause": one sentence, "evidence": the
instrument that settles it}. Causes come only from that file: a gap without an
entry is "unexplained". gpucmp-bench --tune's rows (variant best) pair each
API's fastest configuration, not one kernel: "Why each gap" counts them and
leaves them to "Each API at its best". Without any cross-run row, profile, SASS or
explanations the three sections are left out and the report is as before."""
import glob
import os
import re
import types

from .. import counters as report_counters
from .. import jacobi as report_jacobi
from .. import kernel_tuner as report_kt
from .. import rodinia_heartwall as report_rodinia
from .. import sass as report_sass
from ..fmt import fmt_params, md_table
from ..names import TUNED, parse_name, size_key, workload_rank

EXPLANATIONS = "explanations.json"
RUN_MANIFEST = "manifest.json"  # a suite run's folder (scripts/suite.py)
NCU_SUFFIX = "-ncu.json"
GAP = (0.95, 1.05)  # an OpenCL/CUDA ratio outside this is a gap to explain
TRANSFERS = {"bandwidth"}  # workloads without a kernel of their own: no SASS, no counters
NO_CROSS = "no cross-run rows"
STANDARD = "standard"  # the size preset of the standard suite (context gpucmp.size)
# Cross-run rows: (api, kind) of variant_facts (the label's from=, else the name's suffix).
PTX_JIT = ("cuda", "ptx-jit")  # nvcc's PTX, JIT-compiled by the CUDA driver
OPENCL_PTX = ("cuda", "opencl-ptx")  # OpenCL's PTX (envregs 0), CUDA driver JIT + runtime
OPENCL_CUBIN = ("cuda", "opencl-cubin")  # OpenCL's cubin launched under CUDA
FROM_NVCC = ("opencl", "ptx-from-nvcc")  # nvcc's PTX through OpenCL's JIT + runtime
NEW_ROWS = (PTX_JIT, OPENCL_PTX, OPENCL_CUBIN)
SPLIT_COLUMNS = [  # (key, header): each a ratio of times
    ("total", "OpenCL/CUDA"),
    ("jit", "JIT: ptx-jit/CUDA"),
    ("front", "front end: opencl-ptx/ptx-jit"),
    ("path", "OpenCL JIT+runtime: OpenCL/opencl-ptx"),
    ("cl_jit", "OpenCL JIT: opencl-cubin/opencl-ptx"),
    ("cl_runtime", "OpenCL runtime: OpenCL/opencl-cubin"),
    ("nvcc_path", "check: ptx-from-nvcc/ptx-jit"),
    ("cl_front", "check: OpenCL/ptx-from-nvcc"),
]
DEFINITIONS = [
    "Rows, all at the pair's size: **C** `cuda/<v>` (nvcc's cubin, CUDA runtime), "
    "**O** `opencl/<v>` (OpenCL's compiler, its driver JIT and runtime), "
    "**J** `cuda/<v>-ptx-jit` (nvcc's PTX JIT-compiled by the CUDA driver), "
    "**X** `cuda/<v>-opencl-ptx` (OpenCL's PTX, `%envreg` reads set to 0, JIT-compiled and "
    "launched by the CUDA driver), **K** `cuda/<v>-opencl-cubin` (the cubin of OpenCL's own "
    "JIT, launched by CUDA), **P** `opencl/<v>-ptx-from-nvcc` (nvcc's PTX through OpenCL's "
    "JIT and runtime).",
    "The total O/C = J/C × X/J × O/X: **JIT** J/C, the driver's JIT against offline ptxas on "
    "nvcc's PTX (both under CUDA); **front end** X/J, OpenCL's PTX against nvcc's, both "
    "JIT-compiled by the CUDA driver and run by CUDA (the compilers up to PTX); **OpenCL "
    "JIT+runtime** O/X, the same PTX (OpenCL's) JIT-compiled and run by OpenCL's driver "
    "against CUDA's. Where K exists O/X = K/X × O/K: **OpenCL JIT** K/X (OpenCL's JIT "
    "against CUDA's on the same PTX, both run by CUDA) and **OpenCL runtime** O/K (the same "
    "machine code, OpenCL's runtime against CUDA's). Without J the front-end cell holds X/C "
    "(front end and JIT together), marked *. Checks, not factors of the total: P/J, OpenCL's "
    "JIT+runtime measured on nvcc's PTX (near O/X when the path, not the PTX, is the cause); "
    "O/P, OpenCL's PTX against nvcc's, both through OpenCL (near X/J).",
]


class InputError(Exception):
    """A side input that cannot be read: report.py exits 2."""


class Side:
    """The side inputs: profiles, explanations and SASS, and the folders searched."""

    def __init__(self, ncu=(), explanations=(), dirs=(), jacobi=(), kernel_tuner=(),
                 rodinia=()):
        self.ncu_paths, self.explanation_paths, self.dirs = list(ncu), list(explanations), \
            list(dirs)
        self.jacobi_paths = list(jacobi)
        self.kernel_tuner_paths = list(kernel_tuner)
        self.rodinia_paths = list(rodinia)
        self.rodinia = []  # [gpucmp_report.rodinia_heartwall.Doc]
        self.ncu_docs, self.ncu_rows, self.explanations, self.sass = [], {}, {}, []
        self.jacobi = []  # [gpucmp_report.jacobi.Doc]
        self.kernel_tuner = []  # [gpucmp_report.kernel_tuner.Doc]
        self.kernel_tuner_retime = {}  # {(label, api): {spec: Retimed}}

    def load(self):
        try:
            self.ncu_docs, self.ncu_rows = report_counters.load(self.ncu_paths)
        except report_counters.InputError as e:
            raise InputError(str(e)) from e
        for path in self.explanation_paths:
            self.explanations.update(load_explanations(path))
        try:
            self.jacobi = report_jacobi.load(self.jacobi_paths)
        except report_jacobi.InputError as e:
            raise InputError(str(e)) from e
        named = {p: os.path.basename(p) for p in self.kernel_tuner_paths}
        try:
            self.kernel_tuner = report_kt.load([p for p, n in named.items()
                                                if n == report_kt.NAME])
            self.kernel_tuner_retime = report_kt.load_retime(
                [p for p, n in named.items() if n == report_kt.RETIME_NAME])
        except report_kt.InputError as e:
            raise InputError(str(e)) from e
        try:
            self.rodinia = report_rodinia.load(self.rodinia_paths)
        except report_rodinia.InputError as e:
            raise InputError(str(e)) from e
        self.sass = report_sass.load(self.dirs)
        return self

    def has_any(self):
        return bool(self.ncu_docs or self.explanations or self.sass)


def is_side_file(path):
    name = os.path.basename(path)
    return name in (EXPLANATIONS, report_jacobi.NAME, *report_kt.NAMES, RUN_MANIFEST) or \
        name.endswith(NCU_SUFFIX) or report_rodinia.is_name(name)


def split_inputs(paths):
    """(result paths, Side): arguments that are side files are taken out; the same
    files in the folders of the result files are added. Where Kernel Tuner's re-time
    run is the only gpucmp-bench JSON given, it is the results as well."""
    results = [p for p in paths if not is_side_file(p)]
    if not results:  # Kernel Tuner's re-time run alone: a gpucmp-bench run, results too
        results = [p for p in paths if os.path.basename(p) == report_kt.RETIME_NAME]
    given = [p for p in paths if is_side_file(p)]
    dirs = list(dict.fromkeys(os.path.dirname(p) or "." for p in results))
    found = list(given)
    seen = {os.path.realpath(p) for p in given}
    for d in dirs:
        gpu_folder = (gpu_explanations(os.path.dirname(os.path.abspath(d)))
                      if os.path.isfile(os.path.join(d, RUN_MANIFEST)) else [])
        for p in gpu_folder + [os.path.join(d, n) for n in (
                EXPLANATIONS, report_jacobi.NAME, *report_kt.NAMES, report_rodinia.NAME)] + sorted(
                glob.glob(os.path.join(d, "*" + NCU_SUFFIX))):
            if os.path.isfile(p) and os.path.realpath(p) not in seen:
                seen.add(os.path.realpath(p))
                found.append(p)
    ncu = [p for p in found if os.path.basename(p).endswith(NCU_SUFFIX)]
    explanations = [p for p in found if os.path.basename(p) == EXPLANATIONS]
    jacobi = [p for p in found if os.path.basename(p) == report_jacobi.NAME]
    kernel_tuner = [p for p in found if os.path.basename(p) in report_kt.NAMES]
    rodinia = [p for p in found if report_rodinia.is_name(os.path.basename(p))]
    return results, Side(ncu, explanations, dirs, jacobi, kernel_tuner, rodinia)


def gpu_explanations(gpu_dir):
    """[the explanations.json of a GPU's results folder]: its own, else, for a folder
    of several GPUs of one kind (<gpu>-x<N>), the one GPU's folder's; [] if neither."""
    own = os.path.join(gpu_dir, EXPLANATIONS)
    several = re.fullmatch(r"(.+)-x\d+", os.path.basename(gpu_dir))
    if os.path.isfile(own) or not several:
        return [own]
    return [own, os.path.join(os.path.dirname(gpu_dir), several.group(1), EXPLANATIONS)]


def load_explanations(path):
    """{pair name: {"cause", "evidence"}} of a curated file; keys starting with _ are notes."""
    try:
        doc = report_counters.read_json(path)
    except report_counters.InputError as e:
        raise InputError(str(e)) from e
    if not isinstance(doc, dict):
        raise InputError(f"{path}: not an object of pair name -> {{cause, evidence}}")
    out = {}
    for pair, entry in doc.items():
        if pair.startswith("_"):
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("cause"), str) \
                or not entry["cause"].strip():
            raise InputError(f"{path}: '{pair}': needs {{\"cause\": sentence, \"evidence\": "
                             "instrument}")
        if pair.endswith("*") and (pair.count("/") != 1 or "*" in pair[:-1]):
            raise InputError(f"{path}: '{pair}': a stem entry is workload/<variant prefix>*, "
                             "without parameters")
        out[pair] = {"cause": entry["cause"].strip(),
                     "evidence": str(entry.get("evidence", "")).strip()}
    return out


def shown_path(path):
    """A side file's path as a reader finds it: from the working folder where it is
    under it (results/<gpu>/explanations.json), else as given."""
    rel = os.path.relpath(os.path.abspath(path))
    return path if rel.startswith("..") else rel


def pair_name(workload, variant, params):
    return "/".join([workload, variant] + [f"{k}:{v}" for k, v in params])


def explanation(explanations, workload, variant, params):
    """The cause of the pair: its entry with parameters, else the variant's, else
    the longest "workload/<prefix>*" whose prefix starts the variant (one entry
    for variants that differ by a parameter in their name: ceiling/launch*)."""
    found = explanations.get(pair_name(workload, variant, params)) or \
        explanations.get(pair_name(workload, variant, ()))
    if found:
        return found
    name = pair_name(workload, variant, ())
    stems = [k for k in explanations if k.endswith("*") and name.startswith(k[:-1])]
    return explanations[max(stems, key=len)] if stems else None


def cross(data, workload, variant, params, row):
    api, kind = row
    return data.derived(workload, api, variant, kind, params)


def split(data, workload, variant, params, cuda, opencl):
    """{column key: ratio or None} of SPLIT_COLUMNS, and whether front is X/C."""
    j = cross(data, workload, variant, params, PTX_JIT)
    x = cross(data, workload, variant, params, OPENCL_PTX)
    k = cross(data, workload, variant, params, OPENCL_CUBIN)
    p = cross(data, workload, variant, params, FROM_NVCC)

    def r(a, b):
        return a.time / b.time if a is not None and b is not None and b.time > 0 else None

    s = {"total": r(opencl, cuda), "jit": r(j, cuda),
         "front": r(x, j) if j is not None else r(x, cuda),
         "path": r(opencl, x), "cl_jit": r(k, x), "cl_runtime": r(opencl, k),
         "nvcc_path": r(p, j), "cl_front": r(opencl, p)}
    return s, j is None and x is not None


def fmt_part(r):
    return "-" if r is None else f"{r:.3f}"


def has_new_rows(data):
    return any(b.facts.is_cross and (b.api, b.facts.kind) in NEW_ROWS
               for b in data.by_id.values())


def standard_pairs(all_pairs, contexts):
    """The pairs whose rows come from files of the standard size preset (or that name none)."""
    size = {p: c.get("gpucmp.size") for p, c, _ in contexts}
    return [p for p in all_pairs if all(size.get(b.path) in (None, STANDARD) for b in p[3:5])]


def split_lines(r, data, all_pairs):
    rows = []
    for w, v, p, c, o in all_pairs:
        s, combined = split(data, w, v, p, c, o)
        if all(s[key] is None for key, _ in SPLIT_COLUMNS[1:]):
            continue
        rows.append([w, v, r.fmt_params(p)] + [
            fmt_part(s[key]) + ("*" if key == "front" and combined and s[key] is not None
                                else "") for key, _ in SPLIT_COLUMNS])
    md = ["Each pair's OpenCL/CUDA time ratio split by the cross-run rows that hold one "
          "thing fixed. Every part is a ratio of the two runs' times (medians of the "
          "repetitions): above 1, the run in its denominator is faster.", ""]
    for paragraph in DEFINITIONS:
        md += [paragraph, ""]
    if rows:
        md += r.md_table(["workload", "variant", "size"] + [h for _, h in SPLIT_COLUMNS], rows,
                         right=tuple(range(3, 3 + len(SPLIT_COLUMNS))))
    else:
        md += ["No pair has a cross-run row (`cuda/<v>-opencl-ptx`, `cuda/<v>-ptx-jit`, "
               "`cuda/<v>-opencl-cubin`, `opencl/<v>-ptx-from-nvcc`) in the input: no split."]
    return md


def split_text(s, combined):
    parts = []
    if s["jit"] is not None:
        parts.append(f"JIT {fmt_part(s['jit'])}")
    if s["front"] is not None:
        parts.append(("front end + JIT " if combined else "front end ") + fmt_part(s["front"]))
    if s["path"] is not None:
        path = f"OpenCL JIT+runtime {fmt_part(s['path'])}"
        if s["cl_jit"] is not None:
            path += f" (OpenCL JIT {fmt_part(s['cl_jit'])} × runtime {fmt_part(s['cl_runtime'])})"
        parts.append(path)
    checks = [f"{label} {fmt_part(s[key])}" for key, label in
              (("nvcc_path", "ptx-from-nvcc/ptx-jit"), ("cl_front", "OpenCL/ptx-from-nvcc"))
              if s[key] is not None]
    text = " × ".join(parts) if parts else NO_CROSS
    return text + (f"; checks: {', '.join(checks)}" if checks else "")


def gap_lines(r, side, data, all_pairs, contexts):
    outside = [p for p in standard_pairs(all_pairs, contexts)
               if not GAP[0] <= p[4].time / p[3].time <= GAP[1]]
    # gpucmp-bench --tune's rows pair each API's own fastest configuration, not one
    # kernel: "Each API at its best" reads them, each configuration a pair here.
    gaps = [p for p in outside if p[1] != TUNED]
    tuned = len(outside) - len(gaps)
    md = [f"Every pair of the standard suite whose OpenCL/CUDA ratio is outside "
          f"{GAP[0]:.2f}-{GAP[1]:.2f}: its split (above), the largest differences of the SASS "
          "instruction mix between the CUDA cubin and the cubin of OpenCL's driver JIT, the "
          "counter differences (CUDA row against OpenCL's PTX under CUDA), and the cause "
          f"curated in `{EXPLANATIONS}` with the instrument that settles it, or "
          "\"unexplained\".", ""]
    if side.explanation_paths:
        md += ["Causes from " + ", ".join(f"`{shown_path(p)}`" for p in side.explanation_paths)
               + ".", ""]
    if tuned:
        md += [f"Not here: {tuned} pair(s) of tuned rows (`{TUNED}`, gpucmp-bench --tune) "
               "outside the range: each API's fastest configuration against the other's, "
               "not one kernel; \"Each API at its best\" reads them.", ""]
    if not gaps:
        return md + ["No pair of the standard suite is outside that range."]
    groups = {}
    for w, v, p, c, o in gaps:
        groups.setdefault((w, v), []).append((p, c, o))
    for (w, v), members in groups.items():
        md += [f"### {w} {v}", ""]
        splits = [(p, split(data, w, v, p, c, o)) for p, c, o in members]
        if all(split_text(*s) == NO_CROSS for _, s in splits):
            md.append("- OpenCL/CUDA: " + ", ".join(
                f"{r.fmt_params(p) or 'no parameters'} {fmt_part(s[0]['total'])}"
                for p, s in splits) + f"; split: {NO_CROSS}.")
        else:
            md += [f"- {r.fmt_params(p) or 'no parameters'}: OpenCL/CUDA "
                   f"{fmt_part(s[0]['total'])}; split: {split_text(*s)}." for p, s in splits]
        if w in TRANSFERS:
            md.append("- SASS and counters: a transfer, no kernel of gpucmp's to read.")
        else:
            md += report_sass.describe(side.sass, w, v)
        counters = []
        for p, _, _ in members:
            lines = report_counters.difference(side.ncu_rows, w, v, p)
            if not lines[0].startswith("- Counters: no ncu profile of this pair"):
                counters += [f"{lines[0][:2]}{r.fmt_params(p)}: {lines[0][2:]}"] + lines[1:]
        if w not in TRANSFERS:
            md += counters or ["- Counters: no ncu profile of this pair's CUDA rows."]
        causes = {}
        for p, _, _ in members:
            e = explanation(side.explanations, w, v, p)
            key = (e["cause"], e["evidence"]) if e else None
            causes.setdefault(key, []).append(r.fmt_params(p))
        for key, sizes in causes.items():
            where = f" ({', '.join(sizes)})" if len(causes) > 1 else ""
            if key is None:
                md.append(f"- Cause{where}: unexplained.")
            else:
                md.append(f"- Cause{where}: {key[0]}" + (f" (evidence: {key[1]})"
                                                         if key[1] else ""))
        md.append("")
    return md


# What split_lines and gap_lines format with.
HELPERS = types.SimpleNamespace(fmt_params=fmt_params, md_table=md_table, parse_name=parse_name,
                                size_key=size_key, workload_rank=workload_rank)


def section(rep):
    """The three sections of the report (rep: gpucmp_report.build.Report)."""
    return sections(getattr(rep.args, "side", None), rep.data, rep.all_pairs, rep.contexts)


def sections(side, data, all_pairs, contexts):
    """Markdown lines of the three sections, or [] where the input has none of their
    evidence."""
    if side is None or not (side.has_any() or has_new_rows(data)):
        return []
    r = HELPERS
    md = ["## Profiler counters", ""]
    md += report_counters.section(side.ncu_docs, side.ncu_rows, r.parse_name, r.size_key,
                                  r.workload_rank, r.fmt_params, r.md_table)
    md += ["", "## Compiler or runtime: the split per pair", ""]
    md += split_lines(r, data, all_pairs) + [""]
    md += ["## Why each gap", ""]
    md += gap_lines(r, side, data, all_pairs, contexts)
    md = [line for i, line in enumerate(md) if line or (i and md[i - 1])]
    while md and not md[-1]:
        md.pop()
    return md + [""]
