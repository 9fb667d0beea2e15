"""The standard set of scripts/suite.sh: one part per study, each a gpucmp-bench
run (its rows, sizes and repetitions) that writes <part>.json in the run's
folder. estimate_s is the part's time in the last full run, on an H200 (the
budget the progress line counts down); limit_s stops a part that runs away. Every part
runs with --size (standard unless the suite is given another) and
common_args(part) unless it says otherwise (at least 5 samples, then until
the noise target or the part's time limit per row: 0.5 s, 0.25 s for the
copies and the cold-L2 rows, whose host-side transfers and L2 flushes rarely
meet the target, so that each would take the whole limit); with --size
quick (the suite's own test) the parts' size options are left out and the
preset's quick sizes run. A part's tool is
gpucmp-bench unless it names another (suite_parts/tools.py: sass, crosssass,
ncu, sanitizer, ctest, jacobi: NVIDIA's multi-GPU Jacobi from the checkout in
GPUCMP_JACOBI_SRC, scripts/jacobi_reference.py, into jacobi.json; rodinia:
Rodinia 3.1's own heartwall from the checkout in GPUCMP_RODINIA_SRC,
scripts/rodinia_heartwall.py, into <part>.json).

The standard set is every part with standard=True whose min_gpus the machine
has: with two GPUs or more the multi-GPU parts join it, with four the
four-rank one too. Placeholders in a part's arguments (suite_parts/tools.py's
fill): "{nv_cl}" is NVIDIA's OpenCL platform index (gpucmp-bench
--list-devices); for the n GPUs of the machine, "{gpu_counts}" is 1 and the
powers of two up to n ("1,2,4" on four), "{split_counts}" the same without
the 1, "{cuda_devices}" "0,..,n-1" and
"{cl_devices}" "{nv_cl}:0,..,{nv_cl}:n-1". Launcher "mpi" runs the part
under mpirun, one rank a GPU, min_gpus ranks."""
from dataclasses import dataclass, field

REPS3 = ["--benchmark_repetitions=3"]


@dataclass(frozen=True)
class Part:
    name: str
    what: str
    estimate_s: int
    limit_s: int
    args: list = field(default_factory=list)
    sizes: list = field(default_factory=list)  # size options, left out with --size quick
    min_gpus: int = 1
    common: bool = True  # run with common_args(part)
    time_limit: float = 0.5  # --time-limit of common_args: a row's sampling at most, seconds
    tool: str = "bench"  # bench: a gpucmp-bench run; else suite_parts/tools.py's
    standard: bool = True  # in the standard set (else only when --part names it)
    launcher: str = ""  # "mpi": under mpirun, min_gpus ranks


PARTS = [
    Part("bandwidth", "host<->device and device copies, 1 KiB .. 1 GiB, both APIs", 102, 500,
         REPS3 + ["--benchmark_filter=^bandwidth/"],
         sizes=["--bw-bytes", "1K,4K,16K,64K,256K,1M,4M,16M,64M,256M,1G"], time_limit=0.25),
    Part("matrixmul", "matrixMul tiles (as written and aligned), cuBLAS, CLBlast, cross-runs",
         95, 450, REPS3 + [
             "--benchmark_filter=^matrixMul/(cuda|opencl)/(tile16|tile32|tile16-aligned|"
             "tile32-aligned|cublas|clblast)(-opencl-ptx|-ptx-jit|-ptx-from-nvcc|-ptx-align)?/"]),
    # With the source forms that close compiler-made gaps (cp's atoms by value,
    # atoms and k-values read a step ahead: -byvalue, -prefetch) and the ftz
    # pass on the fast cp builds (-ptx-ftz): scripts/passes_table.py's candidates.
    # estimate_s: the last full run's, before those rows.
    Part("parboil", "cp, MRI-Q, MRI-FHD: each math mode, cross-runs, by-value, prefetch and "
         "float4 forms", 51, 300, REPS3 + [
             "--benchmark_filter=^(cp|mriq|mrifhd)/(cuda|opencl)/(base|unrollx8|unrollx8-ieee|"
             "unrollx8-fast|precise|fast|uniform-tile|uniform-tile-fast)(-byvalue|-prefetch|-vec4)?"
             "(-opencl-ptx|-ptx-jit|-ldg|-ptx-ftz)?/"]),
    Part("variants", "OpenCL programs from PTX: the 2010 study's pass chain and its controls",
         67, 300, ["--benchmark_repetitions=3", "--samples", "10",
                    "--benchmark_filter=^((matrixMul|cp|mriq|mrifhd)/opencl/.*(-ptx-as-built|"
                    "-ptx-O0|-ptx-align|-auto-|-hand-)|matrixMul/opencl/tile(16|32)-ptx-from-nvcc)"],
         sizes=["--mm-n", "4096"], common=False),
    Part("triad", "STREAM triad, both APIs", 7, 120,
         ["--benchmark_repetitions=5", "--benchmark_filter=^triad/"]),
    Part("worksize", "work-group size rules (study, driver, query, tuner) and the 1-D sweeps",
         93, 300, REPS3 + [
             "--benchmark_filter=^(mmnaive|bilinear|sort|trapezoid)/",
             "--mmnaive-local", "16x16,study-x,study-y,driver,query,tuner",
             "--bilinear-local", "16x16,study-x,study-y,driver,query,tuner",
             "--sort-local", "sweep,study,driver,query,tuner",
             "--trapezoid-local", "sweep,study,driver,query,tuner"],
         # The study's 2^18 keys, launch-bound from local 32 up (its repetitions
         # spread with the launch path), and 2^22, where each pass outlasts a launch.
         sizes=["--sort-n", "262144,4194304"]),
    Part("layout", "LavaMD, HeartWall, bodies and conversions per data layout", 165, 500,
         REPS3 + ["--benchmark_filter=^(lavamd|heartwall|bodies|layoutconv)/"],
         sizes=["--lavamd-boxes", "10,30,50", "--layoutconv-boxes", "10,30,50"]),
    # Every reduce row: reduce/opencl/pipeline-regcap40 (pipeline capped at 40
    # registers on NVIDIA's driver) among them.
    Part("agpu", "reductions and scans beside CUB, with the device copy", 128, 500,
         REPS3 + ["--benchmark_filter=^(reduce|scan)/|"
                  "^bandwidth/(cuda|opencl)/d2d/bytes:1073741824/"],
         sizes=["--reduce-n", "1048576,16777216,268435456",
                "--scan-n", "1048576,16777216,268435456", "--scan-alpha", "8,16,32"]),
    Part("ceiling", "the roofline's ceilings and the launch floor", 17, 150,
         ["--benchmark_repetitions=5", "--benchmark_filter=^(ceiling|triad)/(cuda|opencl)/"],
         sizes=["--triad-n", "134217728"]),
    Part("advection", "semi-Lagrangian advection, one GPU, every variant", 63, 500,
         REPS3 + ["--benchmark_enable_random_interleaving=true", "--benchmark_filter=^advection/"]),
    Part("startup", "program build, module load and first launch", 65, 200,
         ["--benchmark_filter=^startup/"], common=False),
    Part("cold", "cold L2 against hot, the main kernels", 57, 400, REPS3 + [
        "--cache", "cold",
        "--benchmark_filter=^(matrixMul/(cuda|opencl)/(tile16|tile32)/|cp/(cuda|opencl)/unrollx8/|"
        "mriq/(cuda|opencl)/precise/|mrifhd/(cuda|opencl)/precise/|bandwidth/(cuda|opencl)/d2d/)"],
         time_limit=0.25),
    Part("sass", "the SASS that ran: NVIDIA's JIT output for OpenCL, nvcc's cubins for CUDA",
         20, 400, tool="sass"),
    # The pairs whose gaps the report explains: each CUDA row with its cross-runs
    # (OpenCL's PTX and nvcc's PTX under CUDA's JIT: ncu sees no OpenCL kernel).
    Part("counters", "Nsight Compute counters of the main CUDA rows and OpenCL's PTX under CUDA",
         180, 360, ["^(matrixMul/cuda/tile(16|32)(-aligned)?(-opencl-ptx|-ptx-jit)?/n:4096/|"
                    "cp/cuda/unrollx8(-ieee|-fast)?(-opencl-ptx|-ptx-jit|-ldg)?/|"
                    "(mriq|mrifhd)/cuda/(precise|fast)(-opencl-ptx|-ptx-jit|-ldg)?/numK:2048/)"],
         tool="ncu"),
    # Two GPUs or more: advection's grid in row bands over two GPUs (one MPI rank
    # each: halos through NCCL on CUDA, staged through the host on OpenCL) beside
    # the one-GPU rows of the same run; the split rows over GPUs 0 and 1.
    Part("multigpu-advection", "advection on one and two GPUs, every grid, both exchanges",
         150, 450, REPS3 + [
             "--split-over", "mpi", "--advection-gpus", "1,2", "--cuda-split-devices", "0,1",
             "--cl-split-devices", "{nv_cl}:0,{nv_cl}:1",
             "--benchmark_filter=^advection/(cuda|opencl)/(blocked|weights|stream|async)/"],
         min_gpus=2, launcher="mpi"),
    Part("multigpu-judged", "advection's judged problems at full length on one and two GPUs",
         165, 500, ["--samples", "1", "--startup", "off", "--split-over", "mpi",
                    "--advection-gpus", "1,2", "--cuda-split-devices", "0,1",
                    "--cl-split-devices", "{nv_cl}:0,{nv_cl}:1", "--advection-exchange", "overlap",
                    "--advection-halo-steps", "1,8",
                    "--advection-problems", "1,2,4,5", "--benchmark_filter="
                    "^advection/(cuda|opencl)/(stream|async)/.*/steps:"],
         min_gpus=2, launcher="mpi", common=False),
    # Four MPI ranks, one a GPU: the judged problems over GPUs 0-3 (the one- and
    # two-GPU rows are multigpu-judged's and multigpu-inprocess's).
    Part("multigpu-judged-4", "advection's judged problems at full length on four GPUs, "
         "one MPI rank each", 95, 500,
         ["--samples", "1", "--startup", "off", "--split-over", "mpi", "--advection-gpus", "4",
          "--cuda-split-devices", "0,1,2,3",
          "--cl-split-devices", "{nv_cl}:0,{nv_cl}:1,{nv_cl}:2,{nv_cl}:3",
          "--advection-exchange", "overlap", "--advection-problems", "1,2,4,5",
          "--benchmark_filter=^advection/(cuda|opencl)/(stream|async)/.*/steps:"],
         min_gpus=4, launcher="mpi", common=False),
    Part("multigpu-split", "one kernel split over every GPU in one process, both APIs",
         120, 400, REPS3 + [
             "--benchmark_filter=^(mmnaive|bilinear|trapezoid)/.*/split",
             "--split", "share:0,share:0.5,equal,pe,calibrated", "--split-axis", "y",
             "--cuda-split-devices", "{cuda_devices}", "--cl-split-devices", "{cl_devices}"],
         min_gpus=2),
    # Every GPU in one process, a thread each: the judged problems at full length
    # on 1, 2, 4, .. GPUs over the host (both APIs), CUDA's peer stores and peer
    # copies, OpenCL's copies within one context over the GPUs, beside the one-GPU
    # rows of the same run (multigpu-judged: over MPI ranks). estimate_s of the
    # multi-GPU parts: on four H200s.
    Part("multigpu-inprocess", "advection's judged problems on 1, 2, 4, .. GPUs in one "
         "process: halos through the host, CUDA's peer stores and peer copies, OpenCL's "
         "copies within one context",
         250, 600, ["--samples", "1", "--startup", "off", "--advection-gpus", "{gpu_counts}",
                    "--advection-over", "host,p2p,p2p-copy,context", "--cuda-split-devices",
                    "{cuda_devices}", "--cl-split-devices", "{cl_devices}",
                    "--advection-exchange", "overlap", "--advection-problems", "1,2,4,5",
                    "--benchmark_filter="
                    "^advection/(cuda|opencl)/(stream|async)/.*/steps:"],
         min_gpus=2, common=False),
    # The same in one process with halos 8 steps wide (16 rows each way every 8
    # steps): the fixed cost of an exchange spread over 8 steps.
    Part("multigpu-wide", "advection's judged problems on 2, 4, .. GPUs in one process, "
         "halos traded every 8 steps", 130, 600,
         ["--samples", "1", "--startup", "off", "--advection-gpus", "{split_counts}",
          "--advection-halo-steps", "8", "--advection-over", "host,p2p,p2p-copy,context",
          "--cuda-split-devices", "{cuda_devices}", "--cl-split-devices", "{cl_devices}",
          "--advection-exchange", "overlap", "--advection-problems", "1,2,4,5",
          "--benchmark_filter=^advection/(cuda|opencl)/(stream|async)/.*/steps:"],
         min_gpus=2, common=False),
    # A part's kernel alone: one GPU at each judged grid and at the grid of one
    # part of it on 2 and 4 GPUs (nx x ny/2, nx x ny/4), a step a launch: the
    # speedup a split could reach with an exchange that cost nothing (the
    # report's "Scaling over GPUs" puts it beside the measured one).
    Part("multigpu-parts", "advection's step on one GPU at the judged grids and at the grid of "
         "one part of each on 2 and 4 GPUs: the bound a split can reach", 60, 300,
         REPS3 + ["--benchmark_filter=^advection/(cuda|opencl)/(stream|async)/"],
         sizes=["--advection-grid", "2048x2048,2048x1024,2048x512,4096x4096,4096x2048,"
                "4096x1024,16384x4096,16384x2048,16384x1024,8192x16384,8192x8192,8192x4096"],
         min_gpus=2),
    # NVIDIA's multi-GPU Jacobi (multi_threaded_p2p, nccl_overlap, nccl_graphs) at the
    # judged problems' grids and steps on 2, 4, .. GPUs: the report's yardstick for
    # advection's scaling. Skipped, said, without GPUCMP_JACOBI_SRC.
    Part("jacobi", "NVIDIA's multi-GPU Jacobi at the judged problems' grids (the scaling "
         "reference; GPUCMP_JACOBI_SRC)", 130, 600,
         ["--variants", "multi_threaded_p2p,nccl_overlap", "--repetitions", "2"],
         tool="jacobi", min_gpus=2),
    # compute-sanitizer over the rows split over GPUs at quick size: NCCL is not
    # in it (its own kernels); every in-process transport, halos every step and
    # every 3 steps.
    Part("sanitizer-multigpu", "compute-sanitizer's four tools over the CUDA rows split over "
         "every GPU in one process", 70, 500,
         ["^advection/cuda/(stream|async)/", "--advection-gpus", "{gpu_counts}",
          "--advection-over", "host,p2p,p2p-copy", "--advection-halo-steps", "1,3",
          "--cuda-split-devices", "{cuda_devices}"],
         tool="sanitizer", min_gpus=2, standard=False),
    # Rodinia 3.1's own heartwall (CUDA and OpenCL) on gpucmp's generated sequence at
    # the heartwall rows' frame counts, beside gpucmp's rows; its tracks against the
    # CPU reference. Skipped, said, without GPUCMP_RODINIA_SRC.
    Part("rodinia-heartwall", "Rodinia 3.1's own heartwall, CUDA and OpenCL, on the rows' "
         "sequence and frame counts (GPUCMP_RODINIA_SRC)", 120, 600,
         ["--repetitions", "3"], tool="rodinia", standard=False),
    # Only when --part names them.
    Part("sanitizer", "compute-sanitizer's four tools over every CUDA row at quick size",
         300, 600, tool="sanitizer", standard=False),
    Part("crosssass", "the SASS CUDA's JIT made of the cross-run rows (OpenCL's and nvcc's PTX), "
         "and the OpenCL rows' own",
         120, 300, tool="crosssass", standard=False),
    Part("judged", "advection's judged problems at full length, one GPU",
         200, 500, ["--samples", "1", "--startup", "off", "--advection-problems", "1,2,3,4,5",
                    "--benchmark_filter=^advection/(cuda|opencl)/(blocked|stream|async)/.*/steps:"],
         common=False, standard=False),
    Part("worksize-sweep", "every legal work-group shape of the work-size kernels",
         300, 600, REPS3 + ["--benchmark_filter=^(mmnaive|bilinear|sort|trapezoid)/",
                            "--mmnaive-local", "sweep", "--bilinear-local", "sweep",
                            "--sort-local", "sweep", "--trapezoid-local", "sweep"],
         standard=False),
    Part("agpu-order", "reduce and scan of a non-commutative operator: which keep the order",
         200, 400, REPS3 + ["--reduce-type", "affine16", "--scan-type", "affine16",
                            "--benchmark_filter=^(reduce|scan)/"],
         sizes=["--reduce-n", "1048576,268435456", "--scan-n", "1048576,268435456"],
         standard=False),
    # A cross-run of the agpu part's rows: OpenCL's kernels with at most 40
    # registers a thread (CUDA's count for onepass int32 at alpha 16), the rest
    # as built; onepass without its required work-group size (-DANY_GROUP_SIZE),
    # under which NVIDIA's JIT did not apply the cap.
    # scripts/pair_shift.py agpu.json agpu-regcap.json prices the registers.
    Part("agpu-regcap", "reduce and scan with OpenCL's kernels capped at 40 registers a thread",
         120, 400, REPS3 + ["--cl-build-options=-DANY_GROUP_SIZE -cl-nv-maxrregcount=40",
                            "--reduce-type", "int32,float", "--scan-type", "int32,float",
                            "--benchmark_filter=^(reduce/(cuda|opencl)/pipeline|"
                            "scan/(cuda|opencl)/onepass)/"],
         sizes=["--reduce-n", "16777216,268435456", "--scan-n", "16777216,268435456",
                "--scan-alpha", "8,16,32"],
         standard=False),
    Part("gputests", "the GPU-labelled tests of the build (CTest)", 120, 400, tool="ctest",
         standard=False),
    # gpucmp-bench --tune's best rows alone: per workload, API and problem the
    # fastest of its interchangeable rows, chosen in the row's prepare and
    # measured by the usual protocol. estimate_s: a guess, not yet measured.
    Part("tune", "each workload's best row per API (--tune): the configuration it chose, "
         "measured", 200, 600, REPS3 + ["--tune", "--benchmark_filter=/best/"], standard=False),
]


def common_args(part):
    """The sampling rule every part runs with unless it says otherwise."""
    return ["--min-samples", "5", "--time-limit", f"{part.time_limit:g}", "--startup", "off"]


def by_name():
    return {p.name: p for p in PARTS}


def standard_parts():
    return [p for p in PARTS if p.standard]
