#!/usr/bin/env python3
"""Every kernel on a measured roofline.

The ceilings come from the suite's own rows in CEILINGS.json, per API: FP32
peak from ceiling/<api>/fma, DRAM from the device copy of 1 GiB
(bandwidth/<api>/d2d/bytes:1073741824); L2 and shared memory
(ceiling/<api>/l2, ceiling/<api>/shared) are drawn as further ceilings. A
kernel is placed from the counters gpucmp-bench writes beside its time,
roofline_flop (FP32 flop per launch) and roofline_bytes (the least DRAM
traffic per launch, counted from the workload's sizes): arithmetic intensity
AI = flop / bytes; its bound is min(FP32 peak, AI x DRAM), or the DRAM
ceiling itself for a row with no flop; the table gives each row's share of
its bound.

With --ncu NCU.json (scripts/profile_ncu.sh over CUDA rows of the same names
and sizes), each CUDA row's counted bytes stand beside the DRAM bytes Nsight
Compute measured for one launch of the row: the sum over the row's kernels of
each kernel's median dram__bytes_read.sum + dram__bytes_write.sum (ncu flushes
the caches before every kernel it profiles, so this is the traffic of a cold
launch); a kernel launched k times as often as the row's least-launched
kernel counts k times (MRI's chunks). A row that launches one kernel several
times a launch with different sizes (tree, pipeline's second pass, sort's
passes) is not comparable this way: the median launch is not the total.

  roofline.py CEILINGS.json RESULTS.json... [--ncu NCU.json] [--out-md FILE] [--out-png FILE]

Exit 2 with one line on unreadable input, missing ceilings or no placed row.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gbench_json import InputError, load, write_atomically  # noqa: E402

US_PER_UNIT = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
COPY_ROW = "bandwidth/{api}/d2d/bytes:1073741824"


def base_name(name):
    """A row's name without Google Benchmark's /iterations:N and /manual_time."""
    parts = [p for p in name.split("/") if p and p != "manual_time"
             and not p.startswith("iterations:")]
    return "/".join(parts)


def median_us(entry):
    return statistics.median(r["real_time"] * US_PER_UNIT[r.get("time_unit", "ns")]
                             for r in entry["rows"])


def rate(entry, key):
    """The median over repetitions of a rate counter (GB/s or GFLOP/s)."""
    values = [r[key] for r in entry["rows"] if isinstance(r.get(key), (int, float))]
    return statistics.median(values) if values else None


def ceilings_from(rates, source):
    """{api: {"fma": GFLOP/s, "dram": GB/s, "l2": GB/s, "shared": GB/s}} of already-loaded
    rows: rates is {row name (base_name): {counter: median over its repetitions}};
    source names them in the error."""
    out = {}
    for api in ("cuda", "opencl"):
        got = {}
        for key, name, counter in (("fma", f"ceiling/{api}/fma", "GFLOP/s"),
                                   ("l2", f"ceiling/{api}/l2", "GB/s"),
                                   ("shared", f"ceiling/{api}/shared", "GB/s"),
                                   ("dram", COPY_ROW.format(api=api), "GB/s")):
            if name in rates:
                got[key] = rates[name].get(counter)
        if got.get("fma") and got.get("dram"):
            out[api] = got
    if not out:
        raise InputError(f"{source}: no API with both ceiling/<api>/fma and {COPY_ROW} rows")
    return out


def ceilings(path):
    """ceilings_from the rows of one result file."""
    _, loaded = load(path, ignore_iterations=True)
    rates = {base_name(k): {c: rate(v, c) for c in ("GFLOP/s", "GB/s")}
             for k, v in loaded.items() if v["rows"] and not v["error"]}
    return ceilings_from(rates, path)


def place(name, us, flop, nbytes, roofs):
    """One row on its API's roofline (a dict), or None where it has no counted bytes or
    its API no ceilings. name: the row's base_name; us: its median time."""
    api = name.split("/")[1] if name.count("/") >= 1 else ""
    if not isinstance(nbytes, (int, float)) or nbytes <= 0 or api not in roofs:
        return None
    flop = float(flop or 0)
    roof = roofs[api]
    if flop > 0:
        ai = flop / nbytes
        achieved = flop / (us * 1e3)  # GFLOP/s
        bound = min(roof["fma"], ai * roof["dram"])
        limiter = "compute" if roof["fma"] <= ai * roof["dram"] else "memory"
    else:
        ai = 0.0
        achieved = nbytes / (us * 1e3)  # GB/s
        bound = roof["dram"]
        limiter = "memory (no flop)"
    return {"api": api, "row": name, "us": us, "ai": ai, "achieved": achieved,
            "bound": bound, "share": achieved / bound, "limiter": limiter,
            "flop": flop, "bytes": nbytes}


def placed_from(measured, roofs, source):
    """The placed rows of already-loaded results: measured is [(base_name, median us,
    {counter: value})]; InputError naming source where none is placed."""
    rows = [place(name, us, c.get("roofline_flop"), c.get("roofline_bytes"), roofs)
            for name, us, c in measured]
    rows = [r for r in rows if r is not None]
    if not rows:
        raise InputError(f"no row carries roofline_flop and roofline_bytes in {source}")
    return rows


def placed_rows(paths, roofs):
    measured = []
    for path in paths:
        _, loaded = load(path, ignore_iterations=True)
        for name, entry in ((base_name(k), v) for k, v in loaded.items()):
            if entry["error"] or entry["skipped"] or not entry["rows"]:
                continue
            measured.append((name, median_us(entry), entry["rows"][0]))
    return placed_from(measured, roofs, ", ".join(paths))


def ncu_bytes_of(profiles):
    """{row name: DRAM bytes of one launch} of already-loaded profile rows
    ({row name: {kernel: {"metrics": {...}, "launches": N}}}, a profile_ncu.sh
    JSON's "rows"): each kernel's median bytes times its launches, over the
    launches of the row's least-launched kernel (the row launches profiled),
    so that a kernel run k times a launch (MRI's chunks) counts k times."""
    out = {}
    for name, kernels in profiles.items():
        total, seen = 0.0, False
        runs = min((k.get("launches") or 1 for k in kernels.values()), default=1)
        for k in kernels.values():
            m = k.get("metrics", {})
            read, write = m.get("dram__bytes_read.sum"), m.get("dram__bytes_write.sum")
            if isinstance(read, (int, float)) and isinstance(write, (int, float)):
                total += (read + write) * (k.get("launches") or 1) / runs
                seen = True
        if seen:
            out[name] = total
    return out


def ncu_bytes(path):
    """{row name: DRAM bytes of one launch} from a profile_ncu.sh JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: {e}") from e
    if not isinstance(data, dict) or "rows" not in data:
        raise InputError(f"{path}: not a profile_ncu.sh JSON (no rows)")
    return ncu_bytes_of(data["rows"])


def markdown(rows, roofs, measured=None):
    lines = ["| API | FP32 FMA (GFLOP/s) | DRAM copy (GB/s) | L2 (GB/s) | shared (GB/s) |",
             "|---|---:|---:|---:|---:|"]
    for api, r in roofs.items():
        lines.append(f"| {api} | {r['fma']:.0f} | {r['dram']:.0f} | "
                     f"{r.get('l2') or 0:.0f} | {r.get('shared') or 0:.0f} |")
    lines += ["", "| API | row | flop/byte | achieved | bound | share of bound | limited by |",
              "|---|---|---:|---:|---:|---:|---|"]
    for r in sorted(rows, key=lambda r: (r["row"].split("/")[0], r["api"], r["row"])):
        unit = "GFLOP/s" if r["flop"] > 0 else "GB/s"
        lines.append(f"| {r['api']} | `{r['row']}` | {r['ai']:.3g} | {r['achieved']:.4g} {unit} | "
                     f"{r['bound']:.4g} {unit} | {r['share']:.1%} | {r['limiter']} |")
    if measured is not None:
        table, ratios = [], []
        for r in sorted(rows, key=lambda r: r["row"]):
            got = measured.get(r["row"])
            if r["api"] != "cuda" or got is None:
                continue
            ratio = got / r["bytes"]
            ratios.append(ratio)
            table.append(f"| `{r['row']}` | {r['bytes']:.4g} | {got:.4g} | {ratio:.3f} |")
        if ratios:
            mid = statistics.median(ratios)
            lines += ["", "Counted bytes against Nsight Compute's DRAM bytes (one cold "
                      "launch):", "", "| row | counted bytes | ncu DRAM bytes | ncu / counted |",
                      "|---|---:|---:|---:|"] + table
            lines += ["", f"{len(ratios)} rows: ncu / counted median {mid:.3f}"
                      f", from {min(ratios):.3f} to {max(ratios):.3f}."]
        else:
            lines += ["", "No CUDA row of the results has an ncu row."]
    return "\n".join(lines) + "\n"


def figure(plt, rows, roofs):
    """The roofline figure (a matplotlib Figure of pyplot plt): each API's ceilings and
    its placed rows with flop."""
    fig, ax = plt.subplots(figsize=(8, 5.5))
    ais = [r["ai"] for r in rows if r["ai"] > 0] or [1.0]
    lo, hi = min(ais + [0.01]) / 2, max(ais + [100.0]) * 2
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    for api, roof in roofs.items():
        style = "-" if api == "cuda" else "--"
        ax.plot(xs, [min(roof["fma"], x * roof["dram"]) for x in xs], style, color="black",
                label=f"{api}: FMA {roof['fma']:.0f} GFLOP/s, DRAM {roof['dram']:.0f} GB/s")
        for key, color in (("l2", "tab:gray"), ("shared", "tab:olive")):
            if roof.get(key):
                ax.plot(xs, [min(roof["fma"], x * roof[key]) for x in xs], style, color=color,
                        linewidth=0.8, label=f"{api}: {key} {roof[key]:.0f} GB/s")
    for api, marker in (("cuda", "o"), ("opencl", "^")):
        mine = [r for r in rows if r["api"] == api and r["ai"] > 0]
        ax.scatter([r["ai"] for r in mine], [r["achieved"] for r in mine], marker=marker,
                   s=18, label=f"{api} kernels", alpha=0.7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FP32 flop per DRAM byte, counted)")
    ax.set_ylabel("GFLOP/s")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", linewidth=0.3)
    fig.tight_layout()
    return fig


def plot(rows, roofs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = figure(plt, rows, roofs)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ceilings")
    ap.add_argument("results", nargs="+")
    ap.add_argument("--ncu", help="profile_ncu.sh JSON: DRAM bytes beside the counted bytes")
    ap.add_argument("--out-md")
    ap.add_argument("--out-png")
    args = ap.parse_args()
    try:
        roofs = ceilings(args.ceilings)
        rows = placed_rows(args.results, roofs)
        text = markdown(rows, roofs, ncu_bytes(args.ncu) if args.ncu else None)
        if args.out_md:
            write_atomically(args.out_md, text)
        else:
            sys.stdout.write(text)
        if args.out_png:
            plot(rows, roofs, args.out_png)
    except (InputError, OSError) as e:
        print(f"roofline.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
