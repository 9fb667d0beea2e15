"""rodinia-heartwall.json of scripts/rodinia_heartwall.py: Rodinia 3.1's own heartwall,
its CUDA and its OpenCL version, run on gpucmp's generated sequence at the frame
counts of gpucmp's heartwall rows, each run timed as a whole process by wall clock,
its track compared with gpucmp's CPU reference. A side input, never benchmark
results: sections/gaps.py's split_inputs takes it out of report.py's arguments (and
an earlier attempt the suite kept, rodinia-heartwall.attempt-N.json) and finds
rodinia-heartwall.json beside the result files; the section "Rodinia's own heartwall
beside gpucmp's" (sections/rodinia_heartwall.py) reads it.

load(paths) -> [Doc]; InputError names the file and what is wrong with it. A run
counts where it has times and, for OpenCL, ran on NVIDIA's platform: a file made
before the script made a run on another platform an error row (an H200 run's
OpenCL rows ran on PoCL on the CPU) holds such runs as numbers, and they are set
apart here, never counted, the file left as it is (rodinia_heartwall_rows.on_nvidia,
the script's own rule)."""
import re

import rodinia_heartwall_rows

from . import side_json
from .names import APIS

NAME = "rodinia-heartwall.json"
ATTEMPT = re.compile(r"rodinia-heartwall\.attempt-\d+\.json")  # suite_parts/attempts.py


class InputError(Exception):
    """A rodinia-heartwall.json that cannot be read: report.py exits 2."""


def is_name(name):
    """Whether a file name is the rodinia-heartwall part's (or an earlier attempt's)."""
    return name == NAME or bool(ATTEMPT.fullmatch(name))


class Cell:
    """The runs of one API at one frame count: median seconds of the counted runs (None
    without one), how many ran, the counted runs' positions equal to the reference's,
    of those compared, and the farthest off (px); the runs set apart: off the GPU
    ([(platform, device)]) and not measured ([first line of the error])."""

    def __init__(self, rows):
        counted = [r for r in rows if counts(r)]
        self.runs, self.counted = len(rows), len(counted)
        self.seconds = rodinia_heartwall_rows.medians(counted, rows[0]["api"]).get(
            rows[0]["frames"]) if counted else None
        self.equal = sum(r["agreement"]["equal"] for r in counted)
        self.compared = sum(r["agreement"]["compared"] for r in counted)
        self.max_px = max((r["agreement"].get("max_px") or 0 for r in counted), default=0)
        self.off_gpu = [(r.get("platform"), r.get("device")) for r in rows if off_gpu(r)]
        self.errors = [first_line(r["error"]) for r in rows if "error" in r]


class Doc:
    """One rodinia-heartwall.json: path, reference, rows, fit (the file's) and partial."""

    def __init__(self, path, doc):
        self.path = path
        self.reference = doc.get("reference") or {}
        self.rows = doc["rows"]
        self.fit = doc.get("fit") or {}
        self.partial = doc.get("partial")  # why the run stopped, or None

    def apis(self):
        return [a for a in APIS if any(r["api"] == a for r in self.rows)]

    def frames(self, api):
        return sorted({r["frames"] for r in self.rows if r["api"] == api})

    def cell(self, api, frames):
        return Cell([r for r in self.rows if (r["api"], r["frames"]) == (api, frames)])

    def fitted(self, api):
        """(seconds a frame, fixed seconds, frames) of the least-squares line through the
        counted runs' medians, or None under two frame counts: the file's fit where every
        timed run of the API counts, else the line through the counted runs alone."""
        timed = [r for r in self.rows if r["api"] == api and "error" not in r]
        counted = [r for r in timed if counts(r)]
        line = self.fit.get(api) if len(counted) == len(timed) else None
        line = line or rodinia_heartwall_rows.fit(counted).get(api)
        if line is None:
            return None
        return line["seconds_per_frame"], line["intercept_seconds"], line["frames"]


def first_line(text):
    return next((line.strip() for line in text.splitlines() if line.strip()), "(no message)")


def off_gpu(row):
    """A timed OpenCL run on a platform other than NVIDIA's (PoCL, ...)."""
    return "error" not in row and row["api"] == "opencl" and \
        not rodinia_heartwall_rows.on_nvidia(row.get("platform"))


def counts(row):
    return "error" not in row and not off_gpu(row)


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def is_count(x, least):
    return isinstance(x, int) and not isinstance(x, bool) and x >= least


def check_row(path, i, row):
    where = f"{path}: rows[{i}]"
    if not isinstance(row, dict):
        raise InputError(f"{where}: not an object")
    if row.get("api") not in APIS:
        raise InputError(f"{where}: \"api\" is not {' or '.join(APIS)}")
    if not is_count(row.get("frames"), 1):
        raise InputError(f"{where}: \"frames\" is not a whole number of 1 or more")
    if not is_count(row.get("repetition"), 0):
        raise InputError(f"{where}: \"repetition\" is not a whole number of 0 or more")
    if "error" in row:
        if not isinstance(row["error"], str):
            raise InputError(f"{where}: \"error\" is not a string")
        return
    if not is_number(row.get("seconds")) or not row["seconds"] > 0:
        raise InputError(f"{where}: \"seconds\" is not a positive number (and no \"error\")")
    agree = row.get("agreement")
    if not isinstance(agree, dict) or not is_count(agree.get("compared"), 0) or \
            not is_count(agree.get("equal"), 0) or agree["equal"] > agree["compared"]:
        raise InputError(f"{where}: \"agreement\" is not an object of whole numbers "
                         "\"compared\" and \"equal\" (at most \"compared\")")
    if not is_number(agree.get("max_px", 0)):
        raise InputError(f"{where}: \"agreement\".\"max_px\" is not a number")
    for key in ("platform", "device"):
        if row.get(key) is not None and not isinstance(row[key], str):
            raise InputError(f"{where}: \"{key}\" is not a string")


def check_fit(path, fit):
    if not isinstance(fit, dict):
        raise InputError(f"{path}: \"fit\" is not an object of API -> line")
    for api, line in fit.items():
        if api not in APIS or not isinstance(line, dict) or \
                not all(is_number(line.get(k)) for k in ("seconds_per_frame",
                                                         "intercept_seconds")) or \
                not isinstance(line.get("frames"), list):
            raise InputError(f"{path}: fit.{api}: not an API's line (\"seconds_per_frame\", "
                             "\"intercept_seconds\", \"frames\")")


def load(paths):
    """[Doc] of the rodinia-heartwall.json files, in order."""
    docs = []
    for path, doc in side_json.read_docs(
            paths, "rows", "reference", "a rodinia-heartwall.json of scripts/rodinia_heartwall.py",
            InputError, check_row):
        check_fit(path, doc.get("fit", {}))
        docs.append(Doc(path, doc))
    return docs
