"""The work-size study (after Takemoto et al., IPSJ 2015): the rows with
a parameter local:<spec> (Data.local), grouped per kernel (workload, variant, the
other parameters) and API into the shapes of the sweep and the rules' rows.

A spec is a shape, "256" (1-D) or "32x8" (2-D, x by y work-items, x contiguous),
or a rule: study (1-D), study-x and study-y (2-D), driver (the API's choice),
tuner (gpucmp's tuner). The shapes measured are the sweep's (and any fixed shape
given); the rules are compared with the best of them."""
import re
import statistics

from .fmt import fmt_params
from .names import API_LABEL, APIS, LOCAL_PARAM, is_cold, size_key, workload_rank

RULES = {1: ["study", "driver", "tuner"], 2: ["study-x", "study-y", "driver", "tuner"]}
STUDY_RULES = ("study", "study-x", "study-y")
# The workloads' default fixed shape (harness/workloads/worksize/: 16x16, 256): shown
# among the rules where its row was measured.
DEFAULT_SHAPE = {1: (256, 1), 2: (16, 16)}
NEAR_BEST = 0.05  # shapes within this of the best are counted as near it
# The study's own figures (Takemoto et al., IPSJ 2015, Tesla K20, its Tables 5 and 6),
# quoted beside ours for the kernels it measured; shapes as (x, y).
STUDY_2015 = {
    "mmnaive": {"kernel": "matrix product", "best_ms": 30.6,
                "best_at": "many shapes with x >= 32", "worst_ms": 2353.0, "worst_at": "(1, 1)"},
    "bilinear": {"kernel": "bilinear interpolation", "best_ms": 0.09, "best_at": "(1, 128)"},
}
SHAPE_RE = re.compile(r"^(\d+)(?:x(\d+))?$")


def parse_spec(spec):
    """(shape (x, y) or None, dims or None) of a local:<spec> value: "256" is
    ((256, 1), 1), "32x8" ((32, 8), 2); a rule is (None, its dims where it has
    one: study 1, study-x/-y 2)."""
    m = SHAPE_RE.match(spec)
    if m:
        return (int(m.group(1)), int(m.group(2) or 1)), 2 if m.group(2) else 1
    return None, {"study": 1, "study-x": 2, "study-y": 2}.get(spec)


def fmt_shape(shape, dims):
    if shape is None:
        return "-"
    return f"{shape[0]}x{shape[1]}" if dims == 2 else str(shape[0])


class Tuning:
    """One kernel on one API: shapes {(x, y): Bench} measured with a fixed shape
    (the sweep and any fixed shape), rules {spec: Bench}; best and worst of the
    shapes ((shape, Bench) or None); candidates: the legal shapes as the tuner
    counted them (tuner_candidates), else None."""

    def __init__(self, api):
        self.api = api
        self.shapes, self.rules = {}, {}
        self.best = self.worst = None
        self.candidates = None

    def finish(self):
        if self.shapes:
            order = sorted(self.shapes.items(), key=lambda kv: (kv[1].time, kv[0]))
            self.best, self.worst = order[0], order[-1]
        tuner = self.rules.get("tuner")
        if tuner is not None and "tuner_candidates" in tuner.counters:
            self.candidates = int(tuner.counters["tuner_candidates"])

    @property
    def complete(self):
        """Every legal shape measured (known only where a tuner row counted them)."""
        return self.candidates is not None and len(self.shapes) >= self.candidates

    def over_best(self, bench):
        """bench's time / the best shape's time, or None."""
        if bench is None or self.best is None or self.best[1].time <= 0:
            return None
        return bench.time / self.best[1].time

    def near_best(self):
        """The shapes within NEAR_BEST of the best, in (x, y) order."""
        if self.best is None:
            return []
        limit = self.best[1].time * (1 + NEAR_BEST)
        return sorted(s for s, b in self.shapes.items() if b.time <= limit)


class Kernel:
    """One kernel of the study: workload, variant, params (without local), dims,
    apis {api: Tuning} in APIS order."""

    def __init__(self, workload, variant, params):
        self.workload, self.variant, self.params = workload, variant, params
        self.dims = 1
        self.apis = {}

    @property
    def label(self):
        return f"{self.workload} {self.variant} {fmt_params(self.params)}".strip()

    def ratio(self):
        """OpenCL best / CUDA best, or None where either has no shape measured."""
        c, o = self.apis.get("cuda"), self.apis.get("opencl")
        if c is None or o is None or c.best is None or o.best is None or c.best[1].time <= 0:
            return None
        return o.best[1].time / c.best[1].time

    def rule_names(self):
        """The rules of the table: the dims' own, then any other spec measured, then
        the default fixed shape."""
        extra = sorted({r for t in self.apis.values() for r in t.rules} - set(RULES[self.dims]))
        return RULES[self.dims] + extra + ["default"]


def rule_row(tuning, rule, dims):
    """The Bench of a rule (default: the default shape's row) or None, and its
    shape (x, y) as it ran (None: not known: the driver's choice, or no row)."""
    if rule == "default":
        shape = DEFAULT_SHAPE[dims]
        bench = tuning.shapes.get(shape)
        return bench, shape if bench is not None else None
    bench = tuning.rules.get(rule)
    if bench is None:
        return None, None
    x, y = bench.counters.get("local_x"), bench.counters.get("local_y", 1)
    if not x:
        return bench, None  # 0: the driver chose, unknown to the host
    return bench, (int(x), int(y or 1))


def measured_count(rule, bench):
    """How many shapes the rule's row measured: (tuner_measured, tuner_candidates
    or None) for the tuner, else (0, None); None without a row."""
    if bench is None:
        return None
    if rule == "tuner":
        return (int(bench.counters.get("tuner_measured", 0)),
                int(bench.counters["tuner_candidates"])
                if "tuner_candidates" in bench.counters else None)
    return 0, None


def kernels(data):
    """[Kernel] of data.local (cold rows excepted), in report order."""
    found = {}
    for b in data.local:
        if is_cold(b):
            continue
        spec = dict(b.params)[LOCAL_PARAM]
        params = tuple(p for p in b.params if p[0] != LOCAL_PARAM)
        k = found.setdefault((b.workload, b.variant, params), Kernel(b.workload, b.variant,
                                                                     params))
        t = k.apis.setdefault(b.api, Tuning(b.api))
        shape, dims = parse_spec(spec)
        if shape is not None:
            t.shapes[shape] = b
        else:
            t.rules[spec] = b
        if dims == 2 or b.counters.get("local_y", 1) > 1:
            k.dims = 2
    out = []
    for key in sorted(found, key=lambda k: (workload_rank(k[0]), k[1], size_key(k[2]))):
        k = found[key]
        k.apis = {api: k.apis[api] for api in sorted(k.apis, key=lambda a: (
            APIS.index(a) if a in APIS else len(APIS), a))}
        for t in k.apis.values():
            t.finish()
        out.append(k)
    return out


def rule_summary(kernel_list, api):
    """{"study": [(time/best, Kernel, rule)], "tuner": [...]} of one API over the
    kernels with a best shape: the study's rules (study, study-x, study-y) and the tuner."""
    out = {"study": [], "tuner": []}
    for k in kernel_list:
        t = k.apis.get(api)
        if t is None or t.best is None:
            continue
        for rule, bench in sorted(t.rules.items()):
            r = t.over_best(bench)
            if r is None:
                continue
            if rule in STUDY_RULES:
                out["study"].append((r, k, rule))
            elif rule == "tuner":
                out["tuner"].append((r, k, rule))
    return out


def summary_text(entries):
    """"worst 1.53 (mmnaive study-y), mean 1.21 over 3 rows"", or None."""
    if not entries:
        return None
    worst = max(entries, key=lambda e: e[0])
    mean = statistics.fmean(e[0] for e in entries)
    return (f"worst {worst[0]:.2f} ({worst[1].label}, {worst[2]}), mean {mean:.2f} "
            f"over {len(entries)} row" + ("" if len(entries) == 1 else "s"))


def api_label(api):
    return API_LABEL.get(api, api)
