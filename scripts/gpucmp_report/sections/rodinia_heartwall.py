"""Rodinia's own heartwall beside gpucmp's: where a rodinia-heartwall.json of
scripts/rodinia_heartwall.py is among the inputs or beside the result files
(sections/gaps.py's side inputs, gpucmp_report/rodinia_heartwall.py), per file,
API and frame count Rodinia's median process time and its track's agreement with
gpucmp's CPU reference, per API its fitted seconds a frame, and beside them
gpucmp's own heartwall rows at the same frame counts (heartwall/<api>/base/
frames:N/layout:aos|soa, time per frame: the row's median over N). The two are
not one yardstick and the section says so: no ratio between them is given. Runs
that failed are listed as not measured with their error's first line; OpenCL runs
on a platform other than NVIDIA's are "not on the GPU" and not counted. Left out
without a rodinia-heartwall.json."""
import os

from .. import rodinia_heartwall as report_rodinia
from ..fmt import NONE, fmt_time, md_table, plural
from ..names import API_LABEL

TITLE = "Rodinia's own heartwall beside gpucmp's"
WORKLOAD, VARIANT = "heartwall", "base"
LAYOUTS = ("aos", "soa")
NS = 1e9  # ns in a second: Rodinia's times are in seconds, the rows' in ns
NOT_MEASURED = "not measured"
NOT_ON_GPU = "not on the GPU"
YARDSTICK = (
    "**Not one yardstick.** Rodinia's seconds are its whole process by wall clock: context "
    "creation, the OpenCL program's build, the AVI's frames read and converted on the host, "
    "per frame an upload and a kernel (OpenCL: and a `clFinish`), the track's download and "
    "`result.txt`; its fit (the least-squares slope of its medians over the frame counts) "
    "leaves the fixed costs out, but each frame's host work stays in it. gpucmp's rows are N "
    "uploads and N kernels on the device's clock (a frame: the row's median over N). The "
    "table shows both and states no ratio of them: it would not compare kernels.")


def side_docs(rep):
    side = getattr(rep.args, "side", None)
    return getattr(side, "rodinia", None) or []


def gpucmp_rows(rep):
    """{(api, frames, layout): Bench} of gpucmp's heartwall rows of the base variant
    whose parameters are the frame count and the layout alone."""
    out = {}
    for b in rep.data.all:
        p = dict(b.params)
        if (b.workload, b.variant) == (WORKLOAD, VARIANT) and set(p) == {"frames", "layout"} \
                and p["layout"] in LAYOUTS and p["frames"].isdigit():
            out[(b.api, int(p["frames"]), p["layout"])] = b
    return out


def platforms(cell):
    return ", ".join(sorted({str(p) for p, _ in cell.off_gpu}))


def rodinia_cell(cell):
    """"534.7 ms (3 runs)", with the runs set apart, or why none counts."""
    apart = ([f"{len(cell.off_gpu)} {NOT_ON_GPU} ({platforms(cell)})"] if cell.off_gpu
             else []) + ([f"{len(cell.errors)} {NOT_MEASURED}"] if cell.errors else [])
    if cell.seconds is None:
        if cell.off_gpu and not cell.errors:
            return f"{NOT_ON_GPU} ({platforms(cell)}; {plural(cell.runs, 'run')})"
        if cell.errors and not cell.off_gpu:
            return f"{NOT_MEASURED} ({plural(cell.runs, 'run')})"
        return "none counted: " + "; ".join(apart)
    counted = f"median of {cell.counted}" if cell.counted < cell.runs else \
        plural(cell.runs, "run")
    return f"{fmt_time(cell.seconds * NS)} ({'; '.join([counted] + apart)})"


def track_cell(equal, compared, max_px):
    if not compared:
        return NONE
    return f"{equal}/{compared} equal" + (f", at most {max_px:g} px off" if equal < compared
                                          else "")


def gpucmp_cell(bench, frames):
    if bench is None:
        return NONE
    return f"{fmt_time(bench.time / frames)} a frame ({fmt_time(bench.time)} / {frames})"


def fit_cells(doc, api, cells):
    line = doc.fitted(api)
    equal, compared = sum(c.equal for c in cells), sum(c.compared for c in cells)
    worst = max((c.max_px for c in cells), default=0)
    if line is None:
        text = "no fit: under two frame counts with a counted run"
    else:
        slope, fixed, frames = line
        text = f"{fmt_time(slope * NS)} a frame, {fmt_time(fixed * NS)} fixed " \
               f"(over {', '.join(str(f) for f in frames)})"
    track = track_cell(equal, compared, worst)
    return ["fit", text, f"all: {track}" if compared else track] + [NONE] * len(LAYOUTS)


def table(doc, rows):
    lines, apart = [], {}
    for api in doc.apis():
        cells = []
        for frames in doc.frames(api):
            cell = doc.cell(api, frames)
            cells.append(cell)
            lines.append([API_LABEL[api], frames, rodinia_cell(cell),
                          track_cell(cell.equal, cell.compared, cell.max_px)]
                         + [gpucmp_cell(rows.get((api, frames, lay)), frames) for lay in LAYOUTS])
            for error in cell.errors:
                apart.setdefault((NOT_MEASURED, api, error), []).append(frames)
            for platform, device in cell.off_gpu:
                apart.setdefault((NOT_ON_GPU, api, f"ran on {platform} {device}"), []).append(
                    frames)
        lines.append([API_LABEL[api]] + fit_cells(doc, api, cells))
    header = ["API", "frames", "Rodinia: median process time", "its track against gpucmp's "
              "reference"] + [f"gpucmp `layout:{lay}`: time a frame" for lay in LAYOUTS]
    return md_table(header, lines, right=(1,)), apart


def apart_lines(apart):
    """The runs set apart, one line per API and reason: "- OpenCL, not measured (2 runs
    at 20, 40 frames): exit code 139: Segmentation fault"."""
    out = []
    for (kind, api, why), frames in sorted(apart.items(), key=lambda kv: (kv[0][1], kv[0])):
        counts = sorted(set(frames))
        out.append(f"- {API_LABEL[api]}, {kind} ({plural(len(frames), 'run')} at "
                   f"{', '.join(str(f) for f in counts)} frames): {why}")
    return out


def file_line(doc):
    ref = doc.reference
    loader = ref.get("opencl_loader")
    attempt = " (an earlier attempt the suite kept)" if report_rodinia.ATTEMPT.fullmatch(
        os.path.basename(doc.path)) else ""
    parts = [f"`{doc.path}`{attempt}: {ref.get('repo', 'Rodinia 3.1')} from "
             f"`{ref.get('src', NONE)}`",
             ref.get("gpu") or "GPU not recorded", ref.get("nvcc") or "nvcc not recorded",
             f"{ref.get('date', 'date not recorded')}",
             f"OpenCL library named to the ICD loader: `{ref['opencl_icd']}`"
             if ref.get("opencl_icd") else "no OpenCL library named to the ICD loader",
             f"the OpenCL program loads `{loader}`" if loader else
             "the libOpenCL the OpenCL program loads: not recorded"]
    return "; ".join(parts) + "."


def section(rep):
    docs = side_docs(rep)
    if not docs:
        return []
    rows = gpucmp_rows(rep)
    md = [f"## {TITLE}", "",
          "Rodinia 3.1's own heartwall, its CUDA and its OpenCL version "
          "(`scripts/rodinia_heartwall.py`), on gpucmp's generated sequence at the frame "
          "counts of gpucmp's heartwall rows, beside those rows "
          "(`heartwall/<api>/base/frames:N/layout:aos|soa`). A cell of Rodinia's: the median "
          "of its counted runs; its track: the positions of the counted runs equal to "
          "gpucmp's CPU reference's, of those compared (Rodinia sums squares in float, "
          "gpucmp exactly). A run that failed is not measured; an OpenCL run on a platform "
          "other than NVIDIA's is not on the GPU: neither is counted.", "", YARDSTICK, ""]
    for doc in docs:
        md += [file_line(doc), ""]
        if doc.partial:
            md += [f"**Partial:** the run did not finish ({doc.partial}).", ""]
        if not doc.rows:
            md += ["No run in this file.", ""]
            continue
        lines, apart = table(doc, rows)
        md += lines + [""]
        if apart:
            md += ["Runs set apart (not counted):", ""] + apart_lines(apart) + [""]
        if any(kind == NOT_ON_GPU for kind, _, _ in apart):
            md += [f"Those {NOT_ON_GPU} ran although NVIDIA's library was named to the ICD "
                   "loader: `scripts/rodinia_heartwall.py` now makes such a run an error row; "
                   "this file, made before, holds them as numbers." if doc.reference.get(
                       "opencl_icd") else f"Those {NOT_ON_GPU} ran where no NVIDIA OpenCL "
                   "library was named to the ICD loader.", ""]
    return md
