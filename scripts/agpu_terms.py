"""The two machine terms gpucmp adds to the AGPU model (scripts/agpu_model.py),
each measured by the suite itself on the GPU, none fitted:

  launch   L, the time one launch adds to a batch of back-to-back launches:
           the median of ceiling/<api>/launch (one block, one word a thread).
           A row pays L for every command its timed launch enqueues: reduce
           tree one kernel a pass (until one partial is left), cascading and
           pipeline two kernels, scan alpha three, lookback a status fill and
           its kernel. It dominates the small sizes, where the model's steps
           and blocks are next to nothing.
  L2       the I/O of a row whose words fit the L2 (<api>.l2_bytes in the
           context; reduce's n words, scan's n words in and n out), in the hot
           cache mode, moves at the L2's rate, not DRAM's: its I/O term is
           scaled by the copy's GB/s over the L2 ceiling's (the device copy of
           1 GiB, bandwidth/<api>/d2d/bytes:1073741824, over ceiling/<api>/l2).

L moves from run to run: one H100 gave 3.6 and 4.7 us minutes apart (that a
batch of short launches waits on the host is a hypothesis). So a row takes L
from the launch rows of its own file, measured in the same run, where that
file has them, else from the latest file that has them.
The L2 terms are the GPU's and come from the latest files that have them. A
term whose rows are missing is left out (L = 0, scale 1) and said so.
"""
import math

BLOCK = 256  # reduce::kBlock: tree's threads a block, one word each
GIB = 1 << 30


def _parts(name):
    parts = [p for p in name.split("/") if p]
    params = dict(p.split(":", 1) for p in parts[3:] if ":" in p)
    return (parts[0], parts[1], parts[2], params) if len(parts) >= 3 else None


def from_rows(rows):
    """{api: {"launch_us", "l2_speedup", "l2_bytes"}} of rows [(name, median us, counters,
    context)] in file order; a value is None where its rows are missing."""
    launch, l2_rate, copy_rate, l2_bytes = {}, {}, {}, {}
    for name, us, counters, context in rows:
        got = _parts(name)
        if got is None:
            continue
        workload, api, variant, params = got
        text = (context or {}).get(f"{api}.l2_bytes")
        if text is not None and str(text).isdigit() and int(text) > 0:
            l2_bytes[api] = int(text)
        rate = (counters or {}).get("GB/s")
        if (workload, variant) == ("ceiling", "launch") and us > 0:
            launch[api] = us
        elif (workload, variant) == ("ceiling", "l2") and rate:
            l2_rate[api] = float(rate)
        elif (workload, variant) == ("bandwidth", "d2d") and params.get("bytes") == str(GIB) \
                and rate:
            copy_rate[api] = float(rate)
    apis = set(launch) | set(l2_rate) | set(copy_rate) | set(l2_bytes)
    return {api: {"launch_us": launch.get(api),
                  "l2_speedup": (l2_rate[api] / copy_rate[api]
                                 if api in l2_rate and api in copy_rate else None),
                  "l2_bytes": l2_bytes.get(api)} for api in sorted(apis)}


def for_file(terms, file_terms):
    """One API's terms for the rows of one file: `terms` (the latest files') with the
    file's own launch latency where the file measured one (file_terms: its entry of
    from_rows over the file alone, or None)."""
    merged = dict(terms or {})
    if file_terms and file_terms.get("launch_us"):
        merged["launch_us"] = file_terms["launch_us"]
    return merged


def commands(workload, variant, n):
    """Commands one timed launch of the row enqueues (cuda/agpu, opencl/agpu runners)."""
    if workload == "reduce":
        if variant != "tree":
            return 2
        passes, m = 0, n
        while True:
            passes += 1
            m = math.ceil(m / BLOCK)
            if m <= 1:
                return passes
    return 3 if variant == "alpha" else 2


def footprint_bytes(workload, n):
    """Bytes of words a row reads and writes (its tile sums or status aside)."""
    return (4 if workload == "reduce" else 8) * n


def row_terms(workload, variant, n, params, terms):
    """(commands, L in us, I/O scale) of one row under its API's terms (None: none)."""
    terms = terms or {}
    k = commands(workload, variant, n)
    launch = terms.get("launch_us") or 0.0
    scale = 1.0
    speedup, l2 = terms.get("l2_speedup"), terms.get("l2_bytes")
    hot = params.get("cache", "hot") != "cold"
    if hot and speedup and l2 and footprint_bytes(workload, n) <= l2:
        scale = 1.0 / speedup
    return k, launch, scale


def describe(terms, file_launch=None):
    """One line per API: the terms as measured, or which are missing; file_launch:
    {api: [(file name, L)]} of the files whose rows use their own L."""
    out = []
    for api, t in sorted(terms.items()):
        own = (file_launch or {}).get(api)
        if own:
            launch = "L = " + ", ".join(f"{us:.2f} us ({name})" for name, us in own) + \
                " a command, each file's rows their own"
        elif t.get("launch_us"):
            launch = f"L = {t['launch_us']:.2f} us a command"
        else:
            launch = "no launch ceiling (L = 0)"
        cache = (f"L2 at {t['l2_speedup']:.2f}x the copy's rate up to "
                 f"{t['l2_bytes'] / 2**20:.0f} MiB" if t.get("l2_speedup") and t.get("l2_bytes")
                 else "no L2 or copy ceiling (no cache term)")
        out.append(f"{api}: {launch}; {cache}")
    return out
