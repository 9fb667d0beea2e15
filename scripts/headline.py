#!/usr/bin/env python3
"""The README's headline table, from one suite run's folder.

Each row is a pair of one run (scripts/suite.sh): the medians of its
repetitions' device times, the OpenCL/CUDA ratio, and the study page that
explains it. The README holds the table between the markers
<!-- headline: RUN_DIR --> and <!-- /headline -->; tests/readme_tables_test.py
checks that it is this script's output for that folder, so that no number in
it is typed by hand.

usage: scripts/headline.py RUN_DIR [--check README]
  without --check: prints the table; with it: exit 1 when README's table
  between the markers is not the table of RUN_DIR (and says which line differs)
exit: 0 printed or equal; 1 README differs; 2 bad input (no such folder, a
      row's file or benchmark missing, README without the markers)
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readme_block  # noqa: E402
from gbench_json import InputError, gpucmp_name, load, samples  # noqa: E402

GIB = 1 << 30
# (label, part file, CUDA benchmark, OpenCL benchmark, unit, study page); a
# bandwidth row "h2d+d2h" shows both directions in one cell.
ROWS = [
    ("matrixMul tile16, n=4096", "matrixmul", "matrixMul/cuda/tile16/n:4096",
     "matrixMul/opencl/tile16/n:4096", "time", "matrixmul"),
    ("matrixMul tile16-aligned (tiles aligned to 16 B), n=4096", "matrixmul",
     "matrixMul/cuda/tile16-aligned/n:4096", "matrixMul/opencl/tile16-aligned/n:4096", "time",
     "matrixmul"),
    ("vendor SGEMM, n=8192 (cuBLAS, CLBlast)", "matrixmul", "matrixMul/cuda/cublas/n:8192",
     "matrixMul/opencl/clblast/n:8192", "time", "matrixmul"),
    ("h2d / d2h pinned, 1 GiB", "bandwidth", "bandwidth/cuda/{dir}-pinned/bytes:1073741824",
     "bandwidth/opencl/{dir}-pinned/bytes:1073741824", "h2d+d2h", "bandwidth"),
    ("cp unrollx8, each API's default math", "parboil", "cp/cuda/unrollx8/grid:512/atoms:40000",
     "cp/opencl/unrollx8/grid:512/atoms:40000", "time", "parboil"),
    ("cp unrollx8, IEEE divide and sqrt on both", "parboil",
     "cp/cuda/unrollx8-ieee/grid:512/atoms:40000", "cp/opencl/unrollx8-ieee/grid:512/atoms:40000",
     "time", "parboil"),
    ("mriq 64^3 (numK 2048), precise", "parboil", "mriq/cuda/precise/numK:2048/numX:262144",
     "mriq/opencl/precise/numK:2048/numX:262144", "time", "parboil"),
    ("scan 2^28 int32, `onepass` alpha 32", "agpu",
     "scan/cuda/onepass/type:int32/n:268435456/alpha:32",
     "scan/opencl/onepass/type:int32/n:268435456/alpha:32", "time", "agpu"),
    ("reduce 2^28 int32, `cascading`", "agpu", "reduce/cuda/cascading/type:int32/n:268435456",
     "reduce/opencl/cascading/type:int32/n:268435456", "time", "agpu"),
    ("advection step 8192 x 16384, `async`", "advection",
     "advection/cuda/async/nx:8192/ny:16384", "advection/opencl/async/nx:8192/ny:16384", "time",
     "advection"),
]


class Run:
    """The medians of one run folder's benchmarks, file by file."""

    def __init__(self, run_dir):
        self.run_dir, self.files = run_dir, {}

    def has(self, part, name):
        """Whether the part's file holds the benchmark (measured or not)."""
        self._load(part)
        return name in self.files[part][1]

    def _load(self, part):
        if part not in self.files:
            path = os.path.join(self.run_dir, part + ".json")
            try:
                _, entries = load(path)
            except InputError as e:
                raise InputError(f"{path}: {e}") from e
            self.files[part] = (path, {gpucmp_name(k): (k, v) for k, v in entries.items()})

    def median_s(self, part, name):
        self._load(part)
        path, by_name = self.files[part]
        if name not in by_name:
            raise InputError(f"{path}: no benchmark {name}")
        key, entry = by_name[name]
        times = samples(path, key, entry, "real_time")
        if entry["error"] or not times:
            raise InputError(f"{path}: {name} has no measured time")
        return statistics.median(times) * 1e-9


def fmt_time(seconds):
    for unit, scale in (("ms", 1e3), ("us", 1e6)):
        if seconds * 1e3 >= 1 or unit == "us":
            v = seconds * scale
            return f"{v:.2f} {unit}" if v < 100 else f"{v:.1f} {unit}"
    return ""


def table(run_dir):
    run = Run(run_dir)
    lines = ["| benchmark | CUDA | OpenCL | OpenCL/CUDA | details |",
             "|---|---:|---:|---:|---|"]
    for label, part, cuda, opencl, unit, study in ROWS:
        link = f"[{study}](docs/studies/{study}.md)"
        if unit == "h2d+d2h":
            t = {(api, d): run.median_s(part, name.format(dir=d))
                 for api, name in (("cuda", cuda), ("opencl", opencl)) for d in ("h2d", "d2h")}
            cells = [" / ".join(f"{GIB / t[(api, d)] / 1e9:.1f}" for d in ("h2d", "d2h"))
                     + " GB/s" for api in ("cuda", "opencl")]
            ratio = statistics.median(t[("opencl", d)] / t[("cuda", d)] for d in ("h2d", "d2h"))
        else:
            c, o = run.median_s(part, cuda), run.median_s(part, opencl)
            cells, ratio = [fmt_time(c), fmt_time(o)], o / c
        lines.append(f"| {label} | {cells[0]} | {cells[1]} | {ratio:.2f} | {link} |")
    return lines


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    return readme_block.command("headline", __doc__, "headline", table, argv, one_run=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
