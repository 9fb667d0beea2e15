"""What a benchmark's variant is: its base (the source variant it derives from), its
kind (a PTX variant's suffix, e.g. ptx-O0, auto-unroll-cse, ptx-align; or a CUDA
cross-run row's, e.g. opencl-ptx), the PTX chain and step it holds, read from the
row's label where it has one.

gpucmp-bench labels each timed row of a variant it builds (the JSON field "label",
harness/workload.cpp): OpenCL programs "from=<how>; base=<source variant>;
options=...; passes=a,b; chain=<auto|hand>; step=<n>" (opencl/programs.h
describe()), CUDA cross-run rows "from=<opencl-ptx|ptx-jit>; base=<variant>".

Name parsing (names.split_variant, names.CROSS_SUFFIXES) is only the fallback for
rows without a label: every row of a result file written before the harness
labelled its rows (all files committed under results/ are such files), and the
rows it leaves unlabelled (CUDA kernels, vendor libraries, bandwidth copies,
startup rows, -opencl-cubin rows)."""
from typing import NamedTuple, Optional

from .names import CHAINS, CROSS_SUFFIXES, split_variant

PTX = "ptx"      # an OpenCL variant built from a PTX of its base
CROSS = "cross"  # a CUDA cross-run row of its base
# The label's from= of an OpenCL program loaded from one PTX, and its kind.
FROM_KIND = {"ptx_O0": "ptx-O0", "ptx_as_built": "ptx-as-built",
             "ptx_from_nvcc": "ptx-from-nvcc"}
SOURCE = "source"
CROSS_FROM = tuple(s[1:] for s in CROSS_SUFFIXES)  # "opencl-ptx", "ptx-jit", "opencl-cubin"


class Facts(NamedTuple):
    """base: the source variant (the variant itself where it is one); kind: the PTX
    variant's suffix or the cross-run row's, None for a source kernel or plain row;
    chain/step: the PTX chain ("auto", "hand") and the place in it (0: ptx-O0, the
    start of both chains, with no chain); family: PTX, CROSS or None; labelled:
    read from the label (else from the name)."""
    base: str
    kind: Optional[str] = None
    chain: Optional[str] = None
    step: Optional[int] = None
    family: Optional[str] = None
    labelled: bool = False

    @property
    def is_ptx(self):
        return self.family == PTX

    @property
    def is_cross(self):
        return self.family == CROSS


def parse_label(label):
    """{key: value} of a "k=v; k=v" label, or None where it is not one (no from=)."""
    if not isinstance(label, str) or not label.strip():
        return None
    fields = {}
    for part in label.split(";"):
        key, eq, value = part.strip().partition("=")
        if eq and key.strip():
            fields[key.strip()] = value.strip()
    return fields if fields.get("from") else None


def step_of(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def from_label(variant, fields):
    """Facts of a labelled row (fields: parse_label's)."""
    how, base = fields["from"], fields.get("base") or variant
    chain, step = fields.get("chain") or None, step_of(fields.get("step"))
    passes = [p for p in (fields.get("passes") or "").split(",") if p]
    if how == SOURCE:
        return Facts(base, labelled=True)
    if how in CROSS_FROM:
        return Facts(base, how, family=CROSS, labelled=True)
    if chain in CHAINS and step is not None and 0 <= step < len(CHAINS[chain]):
        kind = CHAINS[chain][step]
    elif how in FROM_KIND:
        kind = FROM_KIND[how]
    elif how == "ptx_as_built_passes" and passes:
        kind = "ptx-" + "-".join(passes)  # the controls ptx-align, ptx-ftz, ptx-shared32
    elif chain:
        kind = f"{chain}-step{step}"  # a step no chain of names.CHAINS has
    else:
        kind = how.replace("_", "-")
    return Facts(base, kind, chain, step, PTX, True)


def from_name(variant):
    """Facts parsed from the variant's name: the fallback for rows without a label."""
    base, suffix = split_variant(variant)
    if suffix:
        chain = next((c for c, steps in CHAINS.items() if suffix in steps[1:]), None)
        step = CHAINS[chain].index(suffix) if chain else (0 if suffix == CHAINS["auto"][0]
                                                          else None)
        return Facts(base, suffix, chain, step, PTX)
    for tail in CROSS_SUFFIXES:
        if variant.endswith(tail) and len(variant) > len(tail):
            return Facts(variant[: -len(tail)], tail[1:], family=CROSS)
    return Facts(variant)


def of(variant, label=None):
    """Facts of a row: from its label where it has one, else from its name."""
    fields = parse_label(label)
    return from_label(variant, fields) if fields is not None else from_name(variant)


def label_of_rows(rows):
    """The first non-empty label of Google Benchmark rows, or None."""
    for r in rows:
        label = r.get("label")
        if isinstance(label, str) and label.strip():
            return label
    return None
