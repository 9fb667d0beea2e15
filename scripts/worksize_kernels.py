"""The work-size kernels (mmnaive, bilinear, sort, trapezoid) as a tool outside
gpucmp takes them (scripts/kernel_tuner_side.py: Kernel Tuner): each kernel's source
from the repository's own files (opencl/worksize/<kernel>.cl as written; the kernel
of cuda/worksize/<kernel>.cu, its anonymous namespace's body with the harness
constants it names replaced by their values from harness/workloads/worksize/*.h,
for NVRTC), its signature, and numpy arguments in its parameter order and types for
the problem sizes of gpucmp's row names (seeded uniform inputs, as the harness's
sizes and scalars). KernelError names the file and what does not parse."""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ("mmnaive", "bilinear", "sort", "trapezoid")
# sort: the pass Kernel Tuner times (stage k = n, distance j = 1).
SORT_TUNED = ("bitonic_pass on one pass, the last (k = n, j = 1: stride-1 pairs, the kind "
              "every stage ends with); gpucmp's rows time a whole sort, a restoring copy and "
              "every pass ({passes} at {n} keys), all launches of this kernel")
NUMPY_TYPES = {"float": "float32", "int": "int32", "uint": "uint32", "unsigned": "uint32",
               "unsigned int": "uint32"}


class KernelError(Exception):
    """A kernel source, header or size that does not parse."""


def read(path):
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        return f.read()


def header_constants(workload):
    """{namespace::name: value} of harness/workloads/worksize/<workload>.h's constexpr ints."""
    text = read(f"harness/workloads/worksize/{workload}.h")
    ns = re.search(r"namespace gpucmp::(\w+) \{", text)
    if ns is None:
        raise KernelError(f"harness/workloads/worksize/{workload}.h: no namespace gpucmp::<name>")
    return {f"{ns.group(1)}::{k}": v
            for k, v in re.findall(r"constexpr int (\w+) = (-?\d+);", text)}


def cuda_source(workload):
    """The kernel of cuda/worksize/<workload>.cu for NVRTC: its anonymous namespace's
    body, with the harness constants it names replaced by their values."""
    path = f"cuda/worksize/{workload}.cu"
    text = read(path)
    body = re.search(r"\nnamespace \{\n(.*?)\n\}  // namespace\n", text, re.S)
    if body is None:
        raise KernelError(f"{path}: no anonymous namespace holding the kernel")
    source = body.group(1)
    for include in re.findall(r'#include "workloads/worksize/(\w+)\.h"', text):
        for name, value in header_constants(include).items():
            source = re.sub(rf"\b{re.escape(name)}\b", value, source)
    left = re.search(r"\b\w+::\w+", source)
    if left:
        raise KernelError(f"{path}: the kernel names {left.group(0)}, which NVRTC cannot see")
    return source


def signature(source, where):
    """(kernel name, [(parameter name, type, is pointer)]) of the one kernel in source."""
    found = re.findall(r"(?:__kernel|__global__)\s+void\s+(\w+)\s*\(([^)]*)\)", source)
    if len(found) != 1:
        raise KernelError(f"{where}: {len(found)} kernels (one expected)")
    name, params = found[0]
    out = []
    for p in (" ".join(p.split()) for p in params.split(",")):
        m = re.fullmatch(r"(?:__global\s+)?(?:const\s+)?([\w ]+?)\s*(\*?)\s*(\w+)", p)
        if m is None:
            raise KernelError(f"{where}: parameter '{p}' does not parse")
        out.append((m.group(3), m.group(1), bool(m.group(2))))
    return name, out


def problem(workload, params):
    """(values by parameter name, problem size, what is tuned) of a kernel at its size."""
    import numpy as np

    rng = np.random.default_rng(12345)

    def uniform(n):
        return rng.uniform(-1.0, 1.0, n).astype(np.float32)

    def size(key):
        if key not in params or not str(params[key]).isdigit():
            raise KernelError(f"{workload}: rows without the parameter {key}:<n>")
        return int(params[key])

    if workload == "mmnaive":
        n = size("n")
        return ({"c": np.zeros(n * n, np.float32), "a": uniform(n * n), "b": uniform(n * n),
                 "n": n, "x0": 0, "y0": 0}, (n, n), "the kernel, one launch")
    if workload == "bilinear":
        inn, out = size("in"), size("out")
        scale = np.float32(inn) / np.float32(out)
        return ({"out": np.zeros(out * out, np.float32),
                 "in": rng.uniform(0.0, 1.0, inn * inn).astype(np.float32), "in_w": inn,
                 "in_h": inn, "out_w": out, "scale_x": scale, "scale_y": scale, "x_first": 0,
                 "y_first": 0}, (out, out), "the kernel, one launch")
    if workload == "sort":
        n = size("n")
        log = n.bit_length() - 1  # n is a power of two (the workload's rule)
        tuned = SORT_TUNED.format(passes=log * (log + 1) // 2, n=f"2^{log}")
        return ({"a": uniform(n), "k": n, "j": 1}, (n // 2, 1), tuned)
    items = size("items")
    steps = int(header_constants("trapezoid")["trapezoid::kSteps"])
    return ({"partials": np.zeros(items, np.float32), "h": 1.0 / (items * steps),
             "first_item": 0}, (items, 1), "the kernel, one launch")


def arguments(values, params, where):
    """The numpy arguments in the kernel's parameter order and types."""
    import numpy as np

    out, described = [], []
    for name, ctype, pointer in params:
        if name not in values:
            raise KernelError(f"{where}: no value for its parameter '{name}'")
        v = values[name]
        if pointer:
            if not isinstance(v, np.ndarray):
                raise KernelError(f"{where}: parameter '{name}' is a pointer")
            out.append(v)
            described.append({"name": name, "type": f"{ctype}*", "elements": int(v.size)})
            continue
        dtype = NUMPY_TYPES.get(ctype)
        if dtype is None:
            raise KernelError(f"{where}: parameter '{name}' has type '{ctype}'")
        out.append(getattr(np, dtype)(v))
        described.append({"name": name, "type": ctype, "value": out[-1].item()})
    return out, described
