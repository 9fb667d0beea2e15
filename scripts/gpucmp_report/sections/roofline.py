"""Measured roofline: scripts/roofline.py over the loaded rows.
The ceilings are the suite's own rows (ceiling/<api>/fma, the device copy of 1 GiB
bandwidth/<api>/d2d/bytes:1073741824, ceiling/<api>/l2 and /shared), every row with
the counters roofline_flop and roofline_bytes is placed under its API's bound, and
where a loaded Nsight Compute profile (*-ncu.json) has DRAM bytes, the counted bytes
of the CUDA rows stand beside them. Left out without ceilings or placed rows."""
import roofline  # scripts/roofline.py (scripts/ is on sys.path, as for gbench_json)
from gbench_json import InputError

TITLE = "Measured roofline"
INTRO = (
    "Every row carrying the counters `roofline_flop` (FP32 flop per launch) and "
    "`roofline_bytes` (the least DRAM traffic per launch, counted from the workload's "
    "sizes), placed under its API's ceilings as the suite measured them: FP32 peak from "
    "`ceiling/<api>/fma`, DRAM from the device copy of 1 GiB "
    "(`bandwidth/<api>/d2d/bytes:1073741824`, read and write counted); L2 and shared "
    "memory (`ceiling/<api>/l2`, `ceiling/<api>/shared`) are further ceilings, drawn "
    "only. Arithmetic intensity: flop / bytes; bound: min(FP32 peak, intensity x DRAM), or "
    "the DRAM ceiling itself for a row without flop (then achieved and bound are GB/s); "
    "share: achieved / bound (`scripts/roofline.py`). A row that only reads (a reduction) "
    "can pass the copy ceiling, which both reads and writes. Rows over several GPUs are "
    "left out: the ceilings are one GPU's.")
NCU_NOTE = (
    "Nsight Compute's DRAM bytes of a CUDA row: the sum over the row's kernels of "
    "dram__bytes_read.sum + dram__bytes_write.sum (ncu flushes the caches before each "
    "kernel it profiles: a cold launch); a row whose kernels repeat within one launch is "
    "not comparable this way. Profiles: {files}.")


def one_gpu(bench):
    """Whether a row ran on one GPU: the ceilings are one GPU's, so a row over several
    (split:<spec>, gpus:<N> with N > 1) is not placed under them."""
    gpus = dict(bench.params).get("gpus", "1")
    return bench.split_devices is None and gpus == "1"


def measured_rows(rep):
    """[(base name, median us, counters)] of the loaded one-GPU rows (rows over several
    GPUs, and CUDA startup rows under CUDA_FORCE_PTX_JIT=1, left out: their keys are not
    the rows' names)."""
    return [(roofline.base_name(b.key), b.time / 1e3, b.counters) for b in rep.data.all
            if not b.jit and one_gpu(b)]


def ncu_dram(rep):
    """({row name: DRAM bytes of one launch}, [profile paths with DRAM bytes])."""
    side = getattr(rep.args, "side", None)
    if side is None:
        return {}, []
    paths = [path for path, doc in side.ncu_docs
             if roofline.ncu_bytes_of(doc.get("rows") or {})]
    return roofline.ncu_bytes_of(side.ncu_rows), paths


def section(rep):
    measured = measured_rows(rep)
    rates = {name: counters for name, _, counters in measured}
    try:
        roofs = roofline.ceilings_from(rates, "the loaded results")
        rows = roofline.placed_from(measured, roofs, "the loaded results")
    except InputError:
        return []
    dram, profiles = ncu_dram(rep)
    md = [f"## {TITLE}", "", INTRO, ""]
    md += roofline.markdown(rows, roofs, dram or None).rstrip("\n").split("\n") + [""]
    if dram:
        md += [NCU_NOTE.format(files=", ".join(f"`{p}`" for p in profiles)), ""]
    if rep.figure("roofline", rows, roofs):
        md += ["![Measured roofline: the placed rows under each API's ceilings]"
               "(fig-roofline.png)", ""]
    return md
