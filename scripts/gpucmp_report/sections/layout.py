"""Data layouts (after Yamanaka 2014): the rows with layout:<aos|soa|aosoa>
(lavamd, bodies) side by side per API and size, the conversions between layouts
(layoutconv: device time per direction, the host's time from host_convert_ms), and
for LavaMD the launches after which a layout repays its conversion (the study's
Tables 4.3/4.4 asked what conversion costs beside the kernel)."""
from ..fmt import NONE, fmt_ratio, fmt_time, md_table
from ..names import API_LABEL

TITLE = "Data layouts"
LAYOUTS = ("aos", "soa", "aosoa")
MAIN_VARIANT = "base"
STUDY = ("The study's figures (Tesla K20, Rodinia's LavaMD in CUDA at 70^3 boxes, times as it "
         "reports them): AoS 84.2 s, SoA 39.1 s (SoA / AoS 0.46, 2.16x faster); conversion on "
         "the host 6 ms (10^3) to 1.0 s (70^3).")
INTRO = (
    "Rows with the parameter `layout:<aos|soa|aosoa>` (after Yamanaka 2014): "
    "one kernel source per API compiled once per layout of its records in global memory "
    "(accessors generated from harness/workloads/layout/records.json; AoSoA in tiles of 32 "
    "records), the records converted on the host before the upload and back after the "
    "download, outside the timed launches. Time: the median kernel time of the row; ratio "
    "below 1: faster than AoS. Conversions (`layoutconv`): one launch converts every word "
    "once on the device; `host_convert_ms` is the host's time for the same conversion "
    "(median of three).")


def params_of(b):
    return dict(b.params)


def layout_rows(data):
    """{(workload, api, size params without layout): {layout: bench}} of the layout
    study's main variant, base (the aligned and cross-run variants enter the pair
    and cross-run sections)."""
    found = {}
    for b in data.all:
        p = params_of(b)
        if p.get("layout") not in LAYOUTS or b.variant != MAIN_VARIANT:
            continue
        size = tuple((k, v) for k, v in b.params if k != "layout")
        found.setdefault((b.workload, b.api, size), {})[p["layout"]] = b
    return found


def conversions(data):
    """{(api, records, words): {(from, to): bench}} of the layoutconv rows."""
    found = {}
    for b in data.all:
        if b.workload != "layoutconv":
            continue
        p = params_of(b)
        key = (b.api, int(p["records"]), int(p["words"]))
        found.setdefault(key, {})[(p["from"], p["to"])] = b
    return found


def ratio(b, base):
    return b.time / base.time if b and base and base.time > 0 else None


def size_text(size):
    return " ".join(f"{k}={v}" for k, v in size)


def kernel_table(rows):
    out = []
    for (workload, api, size), by in sorted(rows.items(), key=lambda kv: (
            kv[0][0], [int(v) for _, v in kv[0][2]], kv[0][1])):
        aos = by.get("aos")
        cells = [fmt_time(by[lt].time) if lt in by else NONE for lt in LAYOUTS]
        out.append([workload, size_text(size), API_LABEL.get(api, api), *cells,
                    fmt_ratio(ratio(by.get("soa"), aos)), fmt_ratio(ratio(by.get("aosoa"), aos))])
    return md_table(["workload", "size", "API", "AoS", "SoA", "AoSoA", "SoA / AoS",
                     "AoSoA / AoS"], out, right=(3, 4, 5, 6, 7))


def round_trip(by, layout):
    """(device ns, host ms) of AoS -> layout -> AoS, or None where a direction is missing."""
    there, back = by.get(("aos", layout)), by.get((layout, "aos"))
    if not there or not back:
        return None
    host = [b.counters.get("host_convert_ms") for b in (there, back)]
    return there.time + back.time, (sum(host) if None not in host else None)


def conversion_table(convs):
    out = []
    for (api, records, words), by in sorted(convs.items(), key=lambda kv: (kv[0][1], kv[0][2],
                                                                             kv[0][0])):
        cells = []
        for layout in ("soa", "aosoa"):
            trip = round_trip(by, layout)
            cells += [fmt_time(trip[0]) if trip else NONE,
                      f"{trip[1]:.4g} ms" if trip and trip[1] is not None else NONE]
        out.append([str(records), str(words), API_LABEL.get(api, api), *cells])
    return md_table(["records", "words", "API", "AoS->SoA->AoS, device", "same, host",
                     "AoS->AoSoA->AoS, device", "same, host"], out, right=(0, 1, 3, 4, 5, 6))


def break_even(rows, convs):
    """LavaMD: per size, API and layout, the gain per launch over AoS and the launches
    its device and host round trips take to repay (4-word records, as many as particles)."""
    out = []
    for (workload, api, size), by in sorted(rows.items(), key=lambda kv: (
            [int(v) for _, v in kv[0][2]], kv[0][1])):
        b1d = dict(size).get("boxes1d")
        if workload != "lavamd" or b1d is None or "aos" not in by:
            continue
        conv = convs.get((api, 100 * int(b1d) ** 3, 4))
        for layout in ("soa", "aosoa"):
            if layout not in by or conv is None:
                continue
            gain = by["aos"].time - by[layout].time
            trip = round_trip(conv, layout)
            if trip is None:
                continue
            dev = f"{trip[0] / gain:.3g}" if gain > 0 else "never"
            host = f"{trip[1] * 1e6 / gain:.3g}" if gain > 0 and trip[1] is not None else (
                "never" if gain <= 0 else NONE)
            out.append([f"boxes1d={b1d}", API_LABEL.get(api, api), layout, fmt_time(gain),
                        fmt_time(trip[0]), dev, host])
    return md_table(["LavaMD", "API", "layout", "gain per launch over AoS",
                     "device round trip", "launches to repay (device)",
                     "launches to repay (host)"], out, right=(3, 4, 5, 6))


def lavamd_series(rows):
    """{(api, layout): [(boxes1d, seconds)]} of the LavaMD rows."""
    series = {}
    for (workload, api, size), by in rows.items():
        b1d = dict(size).get("boxes1d")
        if workload != "lavamd" or b1d is None:
            continue
        for layout, b in by.items():
            series.setdefault((api, layout), []).append((int(b1d), b.time / 1e9))
    return series


def section(rep):
    rows = layout_rows(rep.data)
    convs = conversions(rep.data)
    if not rows and not convs:
        return []
    md = [f"## {TITLE}", "", INTRO, "", STUDY, ""]
    if rows:
        md += ["### Time per layout", ""] + kernel_table(rows) + [""]
        fig = rep.figure("layout", lavamd_series(rows))
        if fig:
            md += ["![LavaMD time against boxes1d per layout and API](fig-layout-lavamd.png)", ""]
    if convs:
        md += ["### Converting between layouts", ""] + conversion_table(convs) + [""]
        table = break_even(rows, convs)
        if len(table) > 2:
            md += ["### When a layout repays its conversion (LavaMD)", "",
                   "A negative or zero gain never repays (\"never\").", ""] + table + [""]
    return md
