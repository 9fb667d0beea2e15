#!/usr/bin/env python3
"""ring_prologue's table: per grid, CUDA's ring beside OpenCL's ring-vec4 in
each form (run.sh: as-built and its controlled variants), each form's time the
median over the RUNS rounds of its row's median, and its ratio to CUDA's ring
the median over the rounds of that ratio within one process; then, per form,
whether its field equals weights' bit for bit (output_digest).

usage: table.py DIR RUNS FORM...  (reads DIR/<form>-<k>.json, k = 1..RUNS,
and DIR/same-field-<form>.json; the first form is the one the others are
compared with)
exit: 0 printed; 2 with one line on bad input (a file unreadable or not
gpucmp-bench's JSON, a row missing or twice, a time not in us)."""
import json
import statistics
import sys


class BadInput(Exception):
    pass


def rows(path):
    """The `benchmarks` list of a gpucmp-bench JSON, each a dict."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    rows = doc.get("benchmarks") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise BadInput(f"{path}: no list of benchmark rows")
    return rows




def grid_of(parts):
    """'8192 x 16384' from a row name's nx:8192/ny:16384 parts."""
    values = dict(p.split(":", 1) for p in parts if ":" in p)
    if "nx" not in values or "ny" not in values:
        raise BadInput(f"no nx/ny in {'/'.join(parts)}")
    return f"{values['nx']} x {values['ny']}"


def medians(path):
    """{(api, variant, grid): the median row's real_time in us} of one process."""
    out = {}
    for b in rows(path):
        if b.get("aggregate_name") != "median":
            continue
        parts = str(need(b, "run_name", path)).split("/")
        if need(b, "time_unit", path) != "us":
            raise BadInput(f"{path}: {b['run_name']} is not timed in us")
        key = (parts[1], parts[2], grid_of(parts[3:]))
        if key in out:
            raise BadInput(f"{path}: two median rows of {' '.join(key)}")
        out[key] = float(need(b, "real_time", path))
    return out


def digests(path):
    """{(variant, grid): output_digest} of a same-field process."""
    out = {}
    for b in rows(path):
        parts = str(need(b, "name", path)).split("/")
        out[(parts[2], grid_of(parts[3:]))] = need(b, "output_digest", path)
    return out


def need(table, key, path):
    """table[key], or BadInput naming the file and what is missing: a row's
    field (key a string) or a row of a table (key a tuple)."""
    if key not in table:
        what = " ".join(key) if isinstance(key, tuple) else f"'{key}' in a row"
        raise BadInput(f"{path}: no {what}")
    return table[key]


def main(argv):
    if len(argv) < 4 or not argv[2].isdecimal() or int(argv[2]) < 1:
        print("usage: table.py DIR RUNS FORM... (RUNS a whole number from 1)", file=sys.stderr)
        return 2
    folder, runs, forms = argv[1], int(argv[2]), argv[3:]
    paths = {f: [f"{folder}/{f}-{k}.json" for k in range(1, runs + 1)] for f in forms}
    try:
        timed = {f: [medians(p) for p in ps] for f, ps in paths.items()}
        grids = sorted({g for (_, _, g) in timed[forms[0]][0]},
                       key=lambda g: [int(x) for x in g.split(" x ")])
        if not grids:
            raise BadInput(f"{paths[forms[0]][0]}: no median rows")
        cells = {}
        for g in grids:
            cuda = []
            for f in forms:
                times, ratios = [], []
                for run, p in zip(timed[f], paths[f]):
                    ring = need(run, ("cuda", "ring", g), p)
                    vec4 = need(run, ("opencl", "ring-vec4", g), p)
                    cuda.append(ring)
                    times.append(vec4)
                    ratios.append(vec4 / ring)
                cells[(f, g)] = (statistics.median(times), statistics.median(ratios))
            cells[("cuda", g)] = statistics.median(cuda)
        same = {}
        for f in forms:
            path = f"{folder}/same-field-{f}.json"
            d = digests(path)
            same[f] = {g: need(d, ("ring-vec4", g), path) == need(d, ("weights", g), path)
                       for (v, g) in d if v == "weights"}
    except (OSError, ValueError, TypeError, AttributeError, BadInput) as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 2
    print(f"Time a step in us, the median over {runs} rounds of each row's median (each "
          f"round one process per form, back to back: {', '.join(forms)}); in brackets "
          "OpenCL's ring-vec4 over CUDA's ring in the same process, the median over the "
          "rounds.\n")
    print("| grid | CUDA ring (all processes) | " + " | ".join(f"ring-vec4 {f}" for f in forms)
          + " |")
    print("|---|---:|" + "---:|" * len(forms))
    for g in grids:
        print(f"| {g} | {cells[('cuda', g)]:.2f} | "
              + " | ".join(f"{cells[(f, g)][0]:.2f} ({cells[(f, g)][1]:.3f})" for f in forms)
              + " |")
    print("\nField of ring-vec4 against weights' (output_digest after three steps): "
          + "; ".join(f"{f}: " + ", ".join(f"{g} {'equal' if s else 'DIFFERENT'}"
                                           for g, s in sorted(same[f].items()))
                      for f in forms) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
