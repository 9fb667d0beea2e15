"""What a run of Rodinia 3.1's heartwall leaves, read for a row of
scripts/rodinia_heartwall.py (what it printed: its frame progress, the OpenCL
version's stage times and the platform and device it chose; its result.txt and
that track's agreement with the reference), and what the rows make: the median
seconds per frame count and the fit over them. The report's section
(gpucmp_report/rodinia_heartwall.py) reads the rows with the same rules
(on_nvidia, medians, fit)."""
import re

STAGES = ("READ INITIAL VIDEO FRAME", "READ COMMAND LINE PARAMETERS", "READ INPUTS FROM FILE",
          "GPU ALLOCATION, COPYING, COMPUTATION", "FREE MEMORY")


def progress_done(output, frames):
    """Whether the "frame progress: 0 1 .. N-1" line (both versions) reached N-1."""
    m = re.search(r"frame progress:((?:\s+\d+)*)", output or "")
    return bool(m) and m.group(1).split()[-1:] == [str(frames - 1)]


def opencl_times(output):
    """{stage: seconds} of Rodinia 3.1's OpenCL main.c ("%15.12f s, %15.12f % : STAGE")
    and its "Total time:" value, or (None, None) where the block is missing."""
    stages = {}
    for stage in STAGES:
        m = re.search(r"^\s*([0-9.eE+-]+) s,.*?:\s*" + re.escape(stage) + r"\s*$",
                      output or "", re.M)
        if m:
            stages[stage] = float(m.group(1))
    total = re.search(r"^Total time:\s*\n\s*([0-9.eE+-]+) s\s*$", output or "", re.M)
    if len(stages) != len(STAGES) or not total:
        return None, None
    return stages, float(total.group(1))


def opencl_names(output):
    """(platform, device) that Rodinia's OpenCL wrapper selected, as it printed them: the
    platform's CL_PLATFORM_VENDOR ("NVIDIA Corporation", "The pocl project") and the
    device's name."""
    def selected(kind):
        m = re.search(rf"Selecting {kind} (\d+)", output or "")
        if not m:
            return None
        name = re.search(rf"^\t{kind.capitalize()} {m.group(1)}: (.*)$", output or "", re.M)
        return name.group(1).strip() if name else None
    return selected("platform"), selected("device")


def on_nvidia(platform):
    """Whether a platform as opencl_names gives it is NVIDIA's OpenCL (its vendor
    "NVIDIA Corporation"; a platform name with NVIDIA in it counts too)."""
    return isinstance(platform, str) and "nvidia" in platform.lower()


def read_track(path):
    """{frame: [(row, col) per point, endocardium first]} of a result.txt, or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    frames = {}
    for m in re.finditer(r"---Frame (\d+)---\s*--endo--\s*\n([^\n]*)\n([^\n]*)\n--epi--\s*\n"
                         r"([^\n]*)\n([^\n]*)", text):
        try:
            er, ec, pr, pc = ([int(v) for v in m.group(k).split()] for k in range(2, 6))
        except ValueError:
            return None
        if len(er) != len(ec) or len(pr) != len(pc):
            return None
        frames[int(m.group(1))] = list(zip(er, ec)) + list(zip(pr, pc))
    return frames or None


def agreement(track, reference, frames):
    """The program's track of frames 0 .. frames-1 against the reference's, or the
    error that makes the comparison impossible (a string)."""
    if track is None:
        return "no result.txt with a track in it"
    compared = equal = 0
    worst, first = 0.0, None
    for f in range(frames):
        got, want = track.get(f), reference.get(f)
        if got is None or want is None or len(got) != len(want):
            return f"result.txt: frame {f} missing or not {len(want or [])} points"
        for i, (g, w) in enumerate(zip(got, want)):
            compared += 1
            if g == w:
                equal += 1
                continue
            worst = max(worst, ((g[0] - w[0]) ** 2 + (g[1] - w[1]) ** 2) ** 0.5)
            if first is None:
                first = {"frame": f, "point": i, "rodinia": list(g), "reference": list(w)}
    return {"compared": compared, "equal": equal, "max_px": round(worst, 3),
            "first_difference": first}


def medians(rows, api):
    """{frames: median seconds} of one API's timed rows (those with "seconds"); of an
    even count the upper middle value."""
    by = {}
    for r in rows:
        if r["api"] == api and "seconds" in r:
            by.setdefault(r["frames"], []).append(r["seconds"])
    return {f: sorted(s)[len(s) // 2] for f, s in sorted(by.items())}


def fit(rows):
    """Per API: the least-squares line through the median seconds per frame count."""
    out = {}
    for api in sorted({r["api"] for r in rows}):
        by = medians(rows, api)
        if len(by) < 2:
            continue
        xs, ys = list(by), list(by.values())
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / \
            sum((x - mx) ** 2 for x in xs)
        out[api] = {"seconds_per_frame": slope, "intercept_seconds": my - slope * mx,
                    "frames": xs}
    return out
