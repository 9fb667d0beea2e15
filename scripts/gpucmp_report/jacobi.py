"""jacobi.json of scripts/jacobi_reference.py: NVIDIA's multi-GPU Jacobi solvers
(NVIDIA/multi-gpu-programming-models) run at advection's judged grids, as many
iterations as steps, on 2, 4, .. GPUs. A side input, never benchmark results:
sections/gaps.py's split_inputs takes it out of report.py's arguments and finds
it beside the result files, and the "Scaling over GPUs" section
(sections/scaling.py) puts its medians beside advection's own rows.

load(paths) -> [Doc]: each file's reference (repo, commit, nvcc, GPU) and its
rows, the failed ones (an "error" instead of times) kept; InputError names the
file and what is wrong with it."""
import statistics

from . import side_json

NAME = "jacobi.json"
IDENT = ("variant", "problem", "nx", "ny", "iterations", "gpus", "repetition")
TIMES = ("seconds", "serial_seconds")


class InputError(Exception):
    """A jacobi.json that cannot be read: report.py exits 2."""


class Doc:
    """One jacobi.json: path, reference (its "reference" object) and rows."""

    def __init__(self, path, reference, rows):
        self.path, self.reference, self.rows = path, reference, rows

    def at(self, nx, ny, iterations):
        """The rows of one grid and iteration count."""
        return [r for r in self.rows if (r["nx"], r["ny"], r["iterations"]) == (nx, ny,
                                                                                  iterations)]


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check_row(path, i, row):
    where = f"{path}: rows[{i}]"
    if not isinstance(row, dict):
        raise InputError(f"{where}: not an object")
    if not isinstance(row.get("variant"), str) or not row["variant"]:
        raise InputError(f"{where}: no \"variant\"")
    for key in ("nx", "ny", "iterations", "gpus"):
        if not isinstance(row.get(key), int) or isinstance(row[key], bool) or row[key] < 1:
            raise InputError(f"{where}: \"{key}\" is not a whole number of 1 or more")
    if "error" in row:
        if not isinstance(row["error"], str):
            raise InputError(f"{where}: \"error\" is not a string")
        return
    for key in TIMES:
        if not is_number(row.get(key)) or not row[key] > 0:
            raise InputError(f"{where}: \"{key}\" is not a positive number (and no \"error\")")


def load(paths):
    """[Doc] of the jacobi.json files, in order."""
    return [Doc(path, doc.get("reference", {}), doc["rows"])
            for path, doc in side_json.read_docs(
                paths, "rows", "reference", "a jacobi.json of scripts/jacobi_reference.py",
                InputError, check_row)]


def medians(rows):
    """{variant: {gpus: (median seconds or None, median speedup or None, runs, failed)}}
    of some rows (one grid and iteration count), and {variant: median serial seconds}."""
    by, serial = {}, {}
    for r in rows:
        by.setdefault(r["variant"], {}).setdefault(r["gpus"], []).append(r)
        if "error" not in r:
            serial.setdefault(r["variant"], []).append(r["serial_seconds"])
    out = {}
    for variant, counts in by.items():
        out[variant] = {}
        for gpus, runs in counts.items():
            good = [r for r in runs if "error" not in r]
            seconds = statistics.median(r["seconds"] for r in good) if good else None
            speedup = statistics.median(r["serial_seconds"] / r["seconds"] for r in good) \
                if good else None
            out[variant][gpus] = (seconds, speedup, len(runs), len(runs) - len(good))
    return out, {v: statistics.median(s) for v, s in serial.items()}
