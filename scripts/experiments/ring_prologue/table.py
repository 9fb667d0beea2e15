#!/usr/bin/env python3
"""ring_prologue's table: per grid, CUDA's ring, OpenCL's ring-vec4 as built
(its prologue's copies a loop) and with -DRING_VEC4_PROLOGUE_UNROLLED, each
the median over the RUNS rounds of its row's median, with each ring-vec4 form
against CUDA's ring of the same process and the two forms' ratio; then
whether the unrolled form's field equals weights' bit for bit (output_digest).

usage: table.py OUT RUNS  (reads OUT/loop-<k>.json and OUT/unrolled-<k>.json,
k = 1..RUNS, and OUT/same-field-unrolled.json)
exit: 0 printed; 2 with one line on bad input (a file unreadable, a row
missing from one of them)."""
import json
import statistics
import sys


class BadInput(Exception):
    pass


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def medians(path):
    """{(api, variant, grid): the median row's real_time} of one process."""
    out = {}
    for b in load(path):
        if b.get("aggregate_name") != "median":
            continue
        parts = b["run_name"].split("/")
        grid = " x ".join(p.split(":")[1] for p in parts[3:5])
        out[(parts[1], parts[2], grid)] = float(b["real_time"])
    return out


def digests(path):
    """{(variant, grid): output_digest} of the same-field process."""
    out = {}
    for b in load(path):
        parts = b["name"].split("/")
        if "output_digest" not in b:
            raise BadInput(f"{path}: {b['name']} has no output_digest")
        out[(parts[2], " x ".join(p.split(":")[1] for p in parts[3:5]))] = b["output_digest"]
    return out


def need(table, key, path):
    if key not in table:
        raise BadInput(f"{path}: no median row of {' '.join(key)}")
    return table[key]


def ratios(runs, grid, form_paths):
    """Median over the rounds of ring-vec4 / CUDA ring, one process each."""
    out = []
    for run, path in zip(runs, form_paths):
        out.append(need(run, ("opencl", "ring-vec4", grid), path)
                   / need(run, ("cuda", "ring", grid), path))
    return statistics.median(out)


def main(argv):
    if len(argv) != 3 or not argv[2].isdigit() or int(argv[2]) < 1:
        print("usage: table.py OUT RUNS (RUNS a whole number from 1)", file=sys.stderr)
        return 2
    out, n = argv[1], int(argv[2])
    paths = {form: [f"{out}/{form}-{k}.json" for k in range(1, n + 1)]
             for form in ("loop", "unrolled")}
    try:
        runs = {form: [medians(p) for p in ps] for form, ps in paths.items()}
        grids = sorted({g for (_, _, g) in runs["loop"][0]},
                       key=lambda g: [int(x) for x in g.split(" x ")])
        if not grids:
            raise BadInput(f"{paths['loop'][0]}: no median rows")
        rows = []
        for g in grids:
            def med(form, api, variant, g=g):
                return statistics.median(need(r, (api, variant, g), p)
                                         for r, p in zip(runs[form], paths[form]))
            rows.append((g, med("loop", "cuda", "ring"), med("loop", "opencl", "ring-vec4"),
                         med("unrolled", "opencl", "ring-vec4"),
                         ratios(runs["loop"], g, paths["loop"]),
                         ratios(runs["unrolled"], g, paths["unrolled"])))
        field_path = f"{out}/same-field-unrolled.json"
        field = digests(field_path)
        same = {g: need(field, ("ring-vec4", g), field_path) == need(field, ("weights", g),
                                                                      field_path)
                for (_, g) in field}
    except (OSError, ValueError, KeyError, TypeError, IndexError, BadInput) as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 2
    print(f"Time a step in us, the median over {n} rounds of each row's median (each "
          "round: the rows as built, then with -DRING_VEC4_PROLOGUE_UNROLLED, two "
          "processes); OpenCL/CUDA against CUDA's ring in the same process.\n")
    print("| grid | CUDA ring | ring-vec4, loop | ring-vec4, unrolled | loop / CUDA | "
          "unrolled / CUDA | unrolled / loop |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for g, cuda, loop, unrolled, r_loop, r_unrolled in rows:
        print(f"| {g} | {cuda:.2f} | {loop:.2f} | {unrolled:.2f} | {r_loop:.3f} | "
              f"{r_unrolled:.3f} | {unrolled / loop:.3f} |")
    print("\nField of ring-vec4 with the prologue unrolled against weights' "
          "(output_digest after three steps): "
          + ", ".join(f"{g} {'equal' if s else 'DIFFERENT'}"
                      for g, s in sorted(same.items())) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
