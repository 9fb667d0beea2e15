#!/usr/bin/env python3
"""Writes REPORT.md and PNG plots from gpucmp-bench result files.

The command line of the package scripts/gpucmp_report/: one module per section
(gpucmp_report/sections/, listed in sections/__init__.py's SECTIONS).

The report re-asks the 2010 study's questions with the numbers in the files:
(1) OpenCL time over CUDA time per paired benchmark (the study's Fig. 5);
(2) the change of OpenCL time by each PTX optimization step (Fig. 6);
(3) CUDA against the best OpenCL variant of the same kernel (Fig. 7);
(4) bandwidth against transfer size per API and host-memory kind;
(5) fraction of peak (bandwidth or FP32) per kernel and API;
and a short text, generated from the numbers, on what has changed since 2010.
Where the input has such rows, also: (6) startup (OpenCL program build, CUDA
PTX module load and context, first-launch overhead) from the startup/ rows;
(7) hot against cold caches from the rows with the parameter cache:cold; and
(8) measurement quality (noise target, cv, clock and host/device flags).
With cross-run rows, ncu profiles, SASS or explanations beside the results:
(9) profiler counters, the compiler/runtime split per pair and why each gap
(sections/gaps.py; explanations.json and *-ncu.json are not results). With
a jacobi.json of scripts/jacobi_reference.py among them or beside the results
(not results either): (10) NVIDIA's multi-GPU Jacobi beside advection's
scaling over GPUs (sections/scaling.py). With a rodinia-heartwall.json of
scripts/rodinia_heartwall.py among them or beside the results (or an earlier
attempt's rodinia-heartwall.attempt-N.json given; not results): (11) Rodinia's
own heartwall beside gpucmp's heartwall rows (sections/rodinia_heartwall.py).
A suite run's manifest.json among them is no result file and is passed over.

Rows are matched by name with Google Benchmark's /iterations:N removed; when
several files hold the same benchmark, the later file wins, except that the
CUDA startup rows of a file run with CUDA_FORCE_PTX_JIT=1 (its context's
env.CUDA_FORCE_PTX_JIT) are kept apart and shown beside the others. Startup
rows (startup/<api>/<workload>-<variant>/<params>) and cold rows (parameter
cache:cold, or the counter cold=1 in older files without it) enter their own
sections only, never the pairs, ratios, peaks or bandwidth. A benchmark's time
is the median of its repetitions (the median aggregate where only aggregates
exist); its spread is half the min-max range of the repetitions relative to the
median (else the cv aggregate). Rows that errored or were skipped are listed
under "Not measured" with their reason, and so are the benchmarks a file's
context lists as skipped (gpucmp.skipped_benchmarks: newer files have no row
for them) that no file has a row for, counted per API and reason.

Pairs: the same workload, variant and parameters on cuda and opencl. Ratios are
OpenCL time / CUDA time: above 1, CUDA is faster. Vendor libraries (cublas,
clblast) are compared with each other only. PTX variants of an OpenCL kernel
are named <base>-<step> (ptx-O0, ptx-as-built, ptx-from-nvcc, auto-clean,
auto-unroll[-cse[-mad[-licm]]], hand-base, hand-unroll[-cse[-mad[-licm]]]).

usage: scripts/report.py RESULT.json [RESULT.json ...] [--out-dir DIR]
           [--title TEXT] [--no-plots]
       DIR defaults to results/<gpu> of this checkout (<gpu>: the context's
       device name in lower case with dashes, e.g. nvidia-h200).
exit: 0 report written; 2 unreadable or unusable input, bad options, or
      matplotlib missing (python3-matplotlib; --no-plots writes the text only)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpucmp_report import cli  # noqa: E402  (scripts/gpucmp_report/)


def main(argv=None):
    if argv is None:  # as an installed command (pyproject.toml)
        argv = sys.argv[1:]
    return cli.main(argv, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
