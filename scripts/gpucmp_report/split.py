"""One kernel's work split across devices (after Takemoto et al.,
IPSJ 2015): the rows with a parameter split:<spec> (Data.split), grouped per device
group (the <api>.split_devices of the row's file context), API and kernel (workload,
variant, the other parameters).

A spec is a rule (equal, pe, study-k, calibrated) or a fixed share of device 0
(share:F, the rest shared equally by the others). A row's time is one whole job
(each part's upload, launches_per_job launches, each part's download), wall clock;
its counters say the shares each device was given (share_<i>, rounded to whole
work-groups along the axis). A row that gave one device everything is a
single-device row: the split rows are compared with the fastest of the fixed
shares' (share:1 or share:0 of two devices), else of the rules'."""
import re
import statistics

from .fmt import fmt_params
from .names import API_LABEL, APIS, SPLIT_PARAM, size_key, workload_rank

RULE_ORDER = ["equal", "pe", "study-k", "calibrated"]
SHARE = "share:"
ALONE = 1 - 1e-9  # a share at least this: the device ran the whole job
# Where a device's entry in <api>.split_devices starts: "opencl:1:0 NVIDIA H200 (...)",
# or in <api>.split_ranks: "rank1:opencl:1:0 NVIDIA H200 (...)".
DEVICE_START = re.compile(r", (?=(?:rank\d+:)?(?:cuda|opencl):\d)")


def parse_devices(text):
    """[device] of a split_devices text, in device order ([] for None or "")."""
    if not text or not text.strip():
        return []
    return [d.strip() for d in DEVICE_START.split(text.strip())]


def fixed_share(spec):
    """F of "share:F", else None (a rule, or not a number)."""
    if not spec.startswith(SHARE):
        return None
    try:
        return float(spec[len(SHARE):])
    except ValueError:
        return None


def stddev_ns(bench):
    """The standard deviation of the job time over the repetitions (ns), or None:
    from the repetitions' rows, else from the cv aggregate (a file of aggregates only)."""
    if bench.n >= 2:
        return statistics.stdev(bench.times)
    if bench.spread_kind == "cv" and bench.spread is not None:
        return bench.spread * bench.time
    return None


class SplitRow:
    """One split row: its spec, the fixed share asked (share:F) or None (a rule),
    the shares given per device (None where the counter is missing), the device it
    ran alone on (or None), its time and standard deviation (ns)."""

    def __init__(self, bench, spec, count):
        self.bench, self.spec = bench, spec
        self.asked = fixed_share(spec)
        self.time, self.sd = bench.time, stddev_ns(bench)
        self.shares = [bench.counters.get(f"share_{i}") for i in range(count)]
        if self.shares and self.shares[0] is None and self.asked is not None:
            self.shares[0] = self.asked  # older rows without counters: the share asked
        alone = [i for i, s in enumerate(self.shares) if s is not None and s >= ALONE]
        self.alone = alone[0] if alone else None

    @property
    def is_rule(self):
        return self.asked is None

    @property
    def share_0(self):
        return self.shares[0] if self.shares else None

    def rule_text(self):
        """The spec as the table writes it: study-k with its k, the older
        (throughput-only) calibrated rule named so."""
        c = self.bench.counters
        if self.spec == "study-k" and "study_k" in c:
            return f"study-k (k={c['study_k']:g})"
        if self.spec == "calibrated" and "probe_launch_ms_0" in c and "probe_fixed_ms_0" not in c:
            return "calibrated (throughput only)"
        return self.spec

    def order(self):
        if self.asked is not None:
            return (0, -self.asked, "")
        return (1, RULE_ORDER.index(self.spec) if self.spec in RULE_ORDER else len(RULE_ORDER),
                self.spec)


class SplitKernel:
    """One kernel on one API and device group: rows [SplitRow] (fixed shares from
    device 0's largest, then the rules), devices [name] (as the context names them;
    [] where it names none), files [path]; best, the fastest row; single, the
    fastest single-device row of a fixed share (share:1, share:0), else of a rule
    (or None); closest, the fastest rule row (or None)."""

    def __init__(self, workload, variant, params, api, devices):
        self.workload, self.variant, self.params = workload, variant, params
        self.api, self.devices = api, devices
        self.rows, self.files = [], []
        self.best = self.single = self.closest = None

    @property
    def label(self):
        return f"{self.workload} {self.variant} {fmt_params(self.params)}".strip()

    @property
    def launches(self):
        values = {r.bench.counters.get("launches_per_job") for r in self.rows} - {None}
        return int(max(values)) if values else None

    def finish(self):
        self.rows.sort(key=SplitRow.order)
        self.best = min(self.rows, key=lambda r: (r.time, r.order()))
        alone = [r for r in self.rows if r.alone is not None and not r.is_rule] or \
            [r for r in self.rows if r.alone is not None]
        self.single = min(alone, key=lambda r: (r.time, r.order())) if alone else None
        rules = [r for r in self.rows if r.is_rule]
        self.closest = min(rules, key=lambda r: (r.time, r.order())) if rules else None
        self.files = sorted({r.bench.path for r in self.rows},
                            key=lambda p: min(r.bench.order for r in self.rows
                                              if r.bench.path == p))

    def over_best(self, row):
        return row.time / self.best.time if self.best.time > 0 else None

    def speedup(self, row):
        """The single-device row's time / row's time (above 1: the split is faster)."""
        if self.single is None or row.time <= 0:
            return None
        return self.single.time / row.time

    def device_name(self, i):
        return self.devices[i] if i < len(self.devices) else f"device {i}"

    def device_count(self):
        """How many devices the rows split over (the counters' devices, else the names)."""
        counts = {int(r.bench.counters["devices"]) for r in self.rows
                  if "devices" in r.bench.counters}
        return max(counts) if counts else max(len(self.devices), 2)


def api_rank(api):
    return (APIS.index(api) if api in APIS else len(APIS), api)


def split_kernels(data):
    """[SplitKernel] of data.split, grouped by API and device group (the group of the
    first file first, then CUDA before OpenCL), then in report order (workload,
    variant, size)."""
    found = {}
    for b in data.split:
        spec = dict(b.params)[SPLIT_PARAM]
        params = tuple(p for p in b.params if p[0] != SPLIT_PARAM)
        devices = parse_devices(b.split_devices)
        key = (b.split_devices or "", b.api, b.workload, b.variant, params)
        k = found.setdefault(key, SplitKernel(b.workload, b.variant, params, b.api, devices))
        k.rows.append((b, spec))
    for k in found.values():
        count = max([int(b.counters.get("devices", 0)) for b, _ in k.rows] + [len(k.devices)])
        k.rows = [SplitRow(b, spec, max(count, 1)) for b, spec in k.rows]
        k.finish()
    first = {}
    for key, k in found.items():
        first[key[:2]] = min(first.get(key[:2], len(data.all)), min(r.bench.order
                                                                     for r in k.rows))
    return [found[key] for key in sorted(found, key=lambda k: (
        first[k[:2]], api_rank(k[1]), k[0], workload_rank(k[2]), k[3], size_key(k[4])))]


def groups(kernels):
    """[(api, devices text, [SplitKernel])] in the order of kernels."""
    out = []
    for k in kernels:
        key = (k.api, ", ".join(k.devices))
        if not out or out[-1][:2] != key:
            out.append((key[0], key[1], []))
        out[-1][2].append(k)
    return out


def api_label(api):
    return API_LABEL.get(api, api)
