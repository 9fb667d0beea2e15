"""Pairing CUDA and OpenCL rows and the analyses over the pairs: Data (the hot rows
by (workload, api, variant, params)), pairs and the ones shown, PTX chains and
controls, the best OpenCL variant, vendor libraries, bandwidth series, peaks."""
from .fmt import fmt_params, label_of
from .names import (CHAINS, MAX_SIZES_PER_VARIANT, PTX_CONTROLS, STARTUP, STEPS, TUNED, VENDOR,
                    is_cold, is_local, is_split, size_key, workload_rank)


class Data:
    """The measured benchmarks, indexed for the report: by_id holds the kernel and
    transfer times (hot); startup, cold, local rows (the work-size study's
    local:<spec>, read by worksize.py) and split rows (split:<spec>, one kernel
    across devices, read by split.py; they carry local:<shape> too, but are no
    local row) are apart and enter no pair.

    A row's base, kind, chain and step are its Bench's facts (variant_facts: from
    its label, else its name); derived() finds a PTX variant or cross-run row by
    them, never by its name."""

    def __init__(self, benches):
        self.by_id = {}  # (workload, api, variant, params) -> Bench
        self.by_facts = {}  # (workload, api, base, kind, params) -> Bench of a derived variant
        self.labelled = {}  # (workload, api, variant) -> Facts of a labelled row
        self.startup, self.cold, self.local, self.split = [], [], [], []
        self.all = [benches[k] for k in sorted(benches)]
        for b in self.all:
            if b.facts.labelled:
                self.labelled[(b.workload, b.api, b.variant)] = b.facts
            if b.workload == STARTUP:
                self.startup.append(b)
            elif is_split(b):
                self.split.append(b)
            elif is_cold(b):
                self.cold.append(b)
            elif is_local(b):
                self.local.append(b)
            else:
                self.by_id[(b.workload, b.api, b.variant, b.params)] = b
                if b.facts.family is not None:
                    key = (b.workload, b.api, b.facts.base, b.facts.kind, b.params)
                    old = self.by_facts.get(key)  # a labelled row, then the later file, wins
                    if old is None or (b.facts.labelled, b.order) >= (old.facts.labelled,
                                                                      old.order):
                        self.by_facts[key] = b

    def get(self, workload, api, variant, params):
        return self.by_id.get((workload, api, variant, params))

    def derived(self, workload, api, base, kind, params):
        """The Bench of base's PTX variant or cross-run row of that kind, or None."""
        return self.by_facts.get((workload, api, base, kind, params))

    def ids(self, api=None):
        return sorted((k for k in self.by_id if api is None or k[1] == api),
                      key=lambda k: (workload_rank(k[0]), k[2], size_key(k[3]), k[1]))


def ratio_of(cuda, opencl):
    """(OpenCL/CUDA time, lowest, highest) over the repetitions' extremes."""
    return (opencl.time / cuda.time, opencl.tmin / cuda.tmax, opencl.tmax / cuda.tmin)


PER_LAUNCH = "_per_launch"  # commands_per_launch, atoms_per_launch, k_per_launch, ..


def launch_mismatch(variant, cuda, opencl):
    """The per-launch counters (names ending in _per_launch: the commands one timed
    launch enqueues, the records a by-value launch passes) on which a pair's rows
    differ, [(counter, CUDA's value, OpenCL's value)] with None for a counter one
    row lacks. Rows that differ there do different work a launch: no pair. Tuned
    rows (TUNED: each API at its own best configuration) are exempt."""
    if variant == TUNED:
        return []
    names = sorted(k for k in set(cuda.counters) | set(opencl.counters) if k.endswith(PER_LAUNCH))
    return [(n, cuda.counters.get(n), opencl.counters.get(n)) for n in names
            if cuda.counters.get(n) != opencl.counters.get(n)]


def _candidates(data):
    """(workload, variant, params, cuda, opencl) of every CUDA row with an OpenCL row
    of the same name, vendor and PTX variants excepted, in report order."""
    for workload, _, variant, params in data.ids("cuda"):
        cuda = data.get(workload, "cuda", variant, params)
        if variant in VENDOR or cuda.facts.is_ptx:
            continue
        opencl = data.get(workload, "opencl", variant, params)
        if opencl is not None:
            yield workload, variant, params, cuda, opencl


def pairs(data):
    """Paired benchmarks [(workload, variant, params, cuda, opencl)], vendor and PTX
    variants and rows that launch differently (unpaired) excepted, in report order."""
    return [c for c in _candidates(data) if not launch_mismatch(c[1], c[3], c[4])]


def unpaired(data):
    """Rows of both APIs under one name that are no pair, [(workload, variant, params,
    launch_mismatch)], in report order."""
    return [(w, v, p, diff) for w, v, p, cuda, opencl in _candidates(data)
            if (diff := launch_mismatch(v, cuda, opencl))]


def shown_pairs(all_pairs):
    """Pairs of the table and Fig. 5: every size, or the smallest and largest where a
    variant has more than MAX_SIZES_PER_VARIANT sizes."""
    sizes = {}
    for p in all_pairs:
        sizes.setdefault((p[0], p[1]), []).append(p[2])
    out = []
    for p in all_pairs:
        s = sorted(sizes[(p[0], p[1])], key=size_key)
        if len(s) <= MAX_SIZES_PER_VARIANT or p[2] in (s[0], s[-1]):
            out.append(p)
    return out


def largest_pairs(all_pairs):
    """The pair of the largest size of each workload/variant."""
    best = {}
    for p in all_pairs:
        k = (p[0], p[1])
        if k not in best or size_key(p[2]) > size_key(best[k][2]):
            best[k] = p
    return [p for p in all_pairs if best[(p[0], p[1])] is p]


def ptx_bases(data):
    """{(workload, base): [params with any PTX-derived variant]}"""
    out = {}
    for key in data.ids("opencl"):
        facts = data.by_id[key].facts
        if facts.is_ptx:
            out.setdefault((key[0], facts.base), set()).add(key[3])
    return {k: sorted(v, key=size_key) for k, v in sorted(
        out.items(), key=lambda kv: (workload_rank(kv[0][0]), kv[0][1]))}


def most_varied(data, workload, base, sizes):
    """Of `sizes`, the one with the most PTX variants of `base` (the largest on a tie):
    the chains may be measured at one size only."""
    def count(params):
        return sum(1 for (w, api, _, p), b in data.by_id.items() if w == workload
                   and api == "opencl" and p == params and b.facts.is_ptx
                   and b.facts.base == base)
    return max(sizes, key=lambda p: (count(p), size_key(p)))


def chain_steps(data, workload, base, params, chain):
    """[(step, variant, Bench or None, change vs the previous step or None)] of a chain."""
    out = []
    prev = None
    for step, suffix in zip(STEPS, CHAINS[chain]):
        bench = data.derived(workload, "opencl", base, suffix, params)
        change = None
        if bench is not None and prev is not None and prev.time > 0:
            change = bench.time / prev.time - 1
        out.append((step, bench.variant if bench else f"{base}-{suffix}", bench, change))
        prev = bench
    return out


def ptx_analysis(data):
    """Per (workload, base) at the largest size with PTX variants: the controls and
    both chains. [{workload, base, params, cuda, source, controls, chains}]"""
    out = []
    for (workload, base), sizes in ptx_bases(data).items():
        params = most_varied(data, workload, base, sizes)
        controls = [(s, data.derived(workload, "opencl", base, s, params))
                    for s in ["ptx-O0"] + PTX_CONTROLS]
        chains = {c: chain_steps(data, workload, base, params, c) for c in CHAINS}
        out.append({"workload": workload, "base": base, "params": params,
                    "cuda": data.get(workload, "cuda", base, params),
                    "source": data.get(workload, "opencl", base, params),
                    "controls": [(s, b) for s, b in controls if b is not None],
                    "chains": {c: steps for c, steps in chains.items()
                               if any(b is not None for _, _, b, _ in steps[1:])}})
    return out


def best_opencl(data):
    """CUDA against the fastest OpenCL variant of the same kernel (the source or one of
    its PTX variants), per CUDA kernel (transfers excepted), at the largest size where
    PTX variants exist (else the largest paired size).
    [(workload, variant, params, cuda, source, best)]"""
    bases = ptx_bases(data)
    out = []
    for workload, variant, params, cuda, source in largest_pairs(pairs(data)):
        if workload == "bandwidth":
            continue  # transfers have no kernel to vary
        sizes = [p for p in bases.get((workload, variant), [])
                 if data.get(workload, "cuda", variant, p)]
        if sizes:
            params = most_varied(data, workload, variant, sizes)
            cuda = data.get(workload, "cuda", variant, params)
            source = data.get(workload, "opencl", variant, params)
        candidates = [b for (w, api, v, p), b in data.by_id.items()
                      if w == workload and api == "opencl" and p == params
                      and (v == variant or (b.facts.is_ptx and b.facts.base == variant))]
        if not candidates:
            continue
        best = min(candidates, key=lambda b: (b.time, b.variant))
        out.append((workload, variant, params, cuda, source, best))
    return out


def vendor_rows(data):
    """[(params, cuBLAS Bench or None, CLBlast Bench or None, tiled CUDA of the size)]"""
    sizes = sorted({k[3] for k in data.by_id if k[2] in VENDOR and k[0] == "matrixMul"},
                   key=size_key)
    out = []
    for params in sizes:
        tiled = [data.get("matrixMul", "cuda", v, params) for v in ("tile16", "tile32")]
        tiled = [b for b in tiled if b is not None]
        out.append((params, data.get("matrixMul", "cuda", "cublas", params),
                    data.get("matrixMul", "opencl", "clblast", params),
                    min(tiled, key=lambda b: b.time) if tiled else None))
    return out


def bandwidth_series(data):
    """{(direction, kind, api): [(bytes, GB/s)]} of the bandwidth workload."""
    out = {}
    for key in data.ids():
        workload, api, variant, params = key
        if workload != "bandwidth":
            continue
        b = data.by_id[key]
        nbytes = dict(params).get("bytes")
        try:
            nbytes = float(nbytes)
        except (TypeError, ValueError):
            continue
        rate = b.counters.get("GB/s")
        if rate is None and b.time > 0:
            rate = nbytes / b.time  # bytes per ns = GB/s
        direction, _, kind = variant.partition("-")
        out.setdefault((direction, kind, api), []).append((nbytes, rate))
    return {k: sorted(v) for k, v in sorted(out.items())}


def peak_entries(data, all_pairs):
    """[(label, {api: pct_peak})] of the largest size of each pair and vendor library."""
    entries = []
    for w, v, p, c, o in largest_pairs(all_pairs):
        vals = {api: b.counters["pct_peak"] for api, b in (("cuda", c), ("opencl", o))
                if "pct_peak" in b.counters}
        if vals:
            entries.append((label_of(w, v, p), vals))
    vendor = vendor_rows(data)
    if vendor:
        params, cublas, clblast, _ = vendor[-1]
        vals = {api: b.counters["pct_peak"] for api, b in (("cuda", cublas), ("opencl", clblast))
                if b is not None and "pct_peak" in b.counters}
        if vals:
            entries.append((f"matrixMul cuBLAS/CLBlast {fmt_params(params)}", vals))
    return entries
