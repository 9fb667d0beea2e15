#!/usr/bin/env bash
# The full standard suite on a lent GPU (issue 6), as committed under
# results/<gpu>/: one part per device call (each call gets a fresh machine and
# at most 10 minutes). Usage (device tool):
#   OUT=<dir> PART=matrixmul scripts/device_suite_run.sh   # matrixMul (all variants, ~5 min)
#   OUT=<dir> PART=parboil   scripts/device_suite_run.sh   # cp, mriq, mrifhd
#   OUT=<dir> PART=startup   scripts/device_suite_run.sh   # startup/ (and with CUDA_FORCE_PTX_JIT=1)
#   OUT=<dir> PART=cold      scripts/device_suite_run.sh   # cold-cache rows of the main kernels
#   OUT=<dir> PART=gputests  scripts/device_suite_run.sh   # the GPU-labelled CTest tests, NVML tests
#   OUT=<dir> PART=bandwidth scripts/device_suite_run.sh   # bandwidth, 1 KiB .. 128 MiB
#   OUT=<dir> PART=bandwidth-large scripts/device_suite_run.sh  # bandwidth, 256 MiB .. 1 GiB
#   OUT=<dir> PART=bandwidth-mid scripts/device_suite_run.sh    # bandwidth, 4 MiB .. 128 MiB
#   OUT=<dir> PART=variants  scripts/device_suite_run.sh   # the PTX chains and controls (issue 5/12)
#   OUT=<dir> PART=aligned   scripts/device_suite_run.sh   # matrixMul tiles, -aligned, -ptx-align, -ptx-shared32, cross-runs, n 4096/8192
#   OUT=<dir> PART=sass      scripts/device_suite_run.sh   # the SASS that ran (scripts/device_sass_run.sh)
#   OUT=<dir> PART=profile   scripts/device_suite_run.sh   # ncu counters (scripts/profile_ncu.sh)
#   OUT=<dir> PART=crosssass scripts/device_suite_run.sh   # CUDA JIT SASS of the cross-run rows
#   OUT=<dir> PART=shared32  scripts/device_suite_run.sh   # matrixMul: the shared32 controls beside their sources and CUDA
#   OUT=<dir> PART=triad     scripts/device_suite_run.sh   # STREAM triad, both APIs; compute-sanitizer on it
#   OUT=<dir> PART=tile32clocks scripts/device_suite_run.sh # tile32 front-end gap: ncu at base and at free clocks
#   OUT=<dir> PART=worksize-sweep scripts/device_suite_run.sh # issue 15: every legal local size of the
#                                                          # 2-D kernels mmnaive, bilinear (both APIs)
#   OUT=<dir> PART=worksize-rules scripts/device_suite_run.sh # every local size of the 1-D kernels sort,
#                                                          # trapezoid; the rules (study, driver, query,
#                                                          # tuner), 3 repetitions; compute-sanitizer
#   OUT=<dir> PART=worksize-tuner scripts/device_suite_run.sh # the rules alone (after a tuner change)
#   OUT=<dir> PART=worksize-split scripts/device_suite_run.sh # split rows (SPLIT_CUDA, SPLIT_CL: devices)
#   OUT=<dir> PART=worksize-split-pair scripts/device_suite_run.sh # OpenCL split, GPU + PoCL's CPU
#   OUT=<dir> PART=worksize-split-mpi scripts/device_suite_run.sh # split rows over MPI ranks (mpirun)
#   OUT=<dir> PART=worksize-split-2gpu scripts/device_suite_run.sh # two GPUs: threads, axes, MPI (issue 15)
#   OUT=<dir> PART=worksize-split-2gpu-heavy scripts/device_suite_run.sh # mmnaive n 4096 on two GPUs
#   OUT=<dir> PART=layout scripts/device_suite_run.sh     # LavaMD per layout, boxes1d 10..70 (issue 16)
#   OUT=<dir> PART=layout-more scripts/device_suite_run.sh # bodies per layout, conversions, ncu (issue 16)
#   OUT=<dir> PART=layout-cross scripts/device_suite_run.sh # LavaMD's cross-run rows, both JITs' SASS, ncu
#   OUT=<dir> PART=worksize-retime scripts/device_suite_run.sh # the tuner beside the sweep's best shapes
#   OUT=<dir> PART=reduce scripts/device_suite_run.sh      # reductions, both APIs and CUB (issue 17)
#   OUT=<dir> PART=scan scripts/device_suite_run.sh        # prefix sums, both APIs and CUB (issue 17)
#   OUT=<dir> PART=scan-checks scripts/device_suite_run.sh # memcheck and ncu over the CUDA scans
#   OUT=<dir> PART=scan-lookback scripts/device_suite_run.sh # the one-pass scan beside CUB
#   OUT=<dir> PART=agpu-reduce scripts/device_suite_run.sh   # the AGPU model's rows (1 of 2)
#   OUT=<dir> PART=agpu-lookback scripts/device_suite_run.sh # the AGPU model's rows (2 of 2)
#   OUT=<dir> PART=ceiling scripts/device_suite_run.sh       # the roofline's ceilings
#   OUT=<dir> PART=launch scripts/device_suite_run.sh        # the launch ceiling alone (AGPU model's latency)
#   OUT=<dir> PART=roofline scripts/device_suite_run.sh      # the main kernels, to place on it
#   OUT=<dir> PART=roofline-ncu scripts/device_suite_run.sh  # ncu DRAM bytes of its CUDA rows
#   OUT=<dir> PART=agpu-order scripts/device_suite_run.sh    # reduce, scan over affine16 (non-commutative)
#   OUT=<dir> PART=advection scripts/device_suite_run.sh     # semi-Lagrangian advection, one GPU (issue 18)
#   OUT=<dir> PART=advection-full scripts/device_suite_run.sh # judged problems 1 and 5 at full length
#   OUT=<dir> PART=advection-2ranks-1gpu scripts/device_suite_run.sh # two-GPU rows' path, both ranks on one GPU
#   OUT=<dir> PART=advection-gaps scripts/device_suite_run.sh # advection with each launch timed (--launch-gaps)
#   OUT=<dir> PART=advection-2gpu scripts/device_suite_run.sh # advection on two GPUs, one MPI rank each (nvidia-h200-x2)
#   OUT=<dir> PART=scan-onepass scripts/device_suite_run.sh # the onepass scan beside lookback and CUB
#   OUT=<dir> PART=advection-2gpu-full scripts/device_suite_run.sh # the judged problems at full length on one and two GPUs
#   OUT=<dir> PART=split-sanitizer scripts/device_suite_run.sh # compute-sanitizer over the CUDA split rows
#   OUT=<dir> PART=parboil-local scripts/device_suite_run.sh # cp/MRI local-size sweeps, memcheck
# PART may name several parts ("parboil bandwidth"). Results come back as
# $OUT/results.tgz (the device tool returns at most 8 files).
# (The committed matrixMul rows of 2026-11-22 come from an earlier "compute"
# part, matrixMul then cp in one run, stopped by its timeout during cp.)
# Every run: --size standard, 3 repetitions, sampling to 1% noise with at least
# 5 samples and at most 1 s per benchmark.
set -u
: "${OUT:?set OUT to the folder that comes back}"
: "${PART:?set PART to matrixmul, parboil or bandwidth}"
B=${B:-/tmp/gpucmp-build}
source scripts/device_setup.sh
targets=(gpucmp-bench)
case " $PART " in
  *" gputests "*) targets+=(gpucmp_unit_tests gpucmp_quick_run_tests gpucmp_protocol_tests
                            gpucmp_cross_run_tests gpucmp_jit_cache_tests gpucmp_interrupt_tests
                            gpucmp_gbench_flags_tests gpucmp_bad_input_tests
                            gpucmp_runner_catalog_tests gpucmp_agpu_order_tests) ;;
esac
case " $PART " in *" sass "*|*" crosssass "*|*" layout-cross "*) targets+=(gpucmp-ptx) ;; esac
{ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_WERROR=${GPUCMP_WERROR:-OFF} &&
  timeout 300 cmake --build "$B" -j16 --target "${targets[@]}"; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
"$B/gpucmp-bench" --list-devices > "$OUT/devices.txt" 2>&1
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE > "$OUT/nvidia-smi.txt" 2>&1
common=(--size standard --min-samples 5 --time-limit 1)
# OpenCL platform indices by name (the order differs between machines).
cl_platform() {
  "$B/gpucmp-bench" --list-devices 2>/dev/null |
    awk -v pat="$1" '$1 == "OpenCL" && $2 == "platform" && index($0, pat) { sub(":", "", $3); print $3; exit }'
}
NV_CL=$(cl_platform "NVIDIA")
POCL_CL=$(cl_platform "Portable Computing Language")
run() {  # run <name> <timeout> <gpucmp-bench args...> (env TIME_LIMIT: --time-limit, s)
  local name=$1 limit=$2; shift 2
  common[-1]=${TIME_LIMIT:-1}
  local opts=("${common[@]}")
  # --samples N fixes the count: gpucmp-bench refuses --min-samples and
  # --time-limit beside it (they would have no effect).
  [[ " $* " == *" --samples "* ]] && opts=("${common[@]:0:2}")
  local t0=$SECONDS
  timeout "$limit" ${LAUNCH[@]+"${LAUNCH[@]}"} "$B/gpucmp-bench" "${opts[@]}" \
    --benchmark_out="$OUT/$name.json" --benchmark_out_format=json "$@" > "$OUT/$name.log" 2>&1
  echo "$name rc=$? $((SECONDS - t0)) s"
}
for part in $PART; do
case "$part" in
  matrixmul)
    run suite-matrixmul 500 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^matrixMul/(cuda|opencl)/(tile16|tile32|tile16-aligned|tile32-aligned|cublas|clblast)(-opencl-ptx|-ptx-jit|-ptx-from-nvcc)?/'
    ;;
  parboil)
    run suite-parboil 330 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(cp|mriq|mrifhd)/(cuda|opencl)/(base|unrollx8|unrollx8-ieee|unrollx8-fast|precise|fast|uniform-tile|uniform-tile-fast)(-opencl-ptx|-ptx-jit)?/'
    ;;
  aligned)
    run aligned 200 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^matrixMul/(cuda|opencl)/tile(16|32)(-aligned)?(-ptx-align|-ptx-shared32|-opencl-ptx|-ptx-jit)?/n:(4096|8192)/'
    ;;
  variants)
    run variants 300 --benchmark_repetitions=3 --samples 10 --startup off --mm-n 4096 \
      --benchmark_filter='^((matrixMul|cp|mriq|mrifhd)/opencl/.*(-ptx-as-built|-ptx-O0|-ptx-align|-auto-|-hand-)|matrixMul/opencl/tile(16|32)-ptx-from-nvcc)'
    ;;
  sass)
    B="$B" OUT="$OUT" scripts/device_sass_run.sh > "$OUT/sass-run.log" 2>&1
    echo "sass rc=$?"; tail -8 "$OUT/sass-run.log"
    ;;
  crosssass)
    B="$B" OUT="$OUT" scripts/device_cross_sass.sh > "$OUT/cross-sass.log" 2>&1
    echo "cross sass rc=$?"; tail -25 "$OUT/cross-sass.log"
    ;;
  profile)
    B="$B" OUT="$OUT/profile" BUDGET=${PROFILE_BUDGET:-330} scripts/profile_ncu.sh > "$OUT/profile.log" 2>&1
    echo "profile rc=$?"; tail -5 "$OUT/profile.log"
    ;;
  shared32)
    run shared32 200 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^matrixMul/(cuda/tile(16|32)(-aligned)?(-ptx-jit)?|opencl/tile(16|32)(-aligned|-ptx-align|-aligned-ptx-shared32))/n:(4096|8192)/'
    ;;
  tile32clocks)
    # matrixMul tile32's front-end part (OpenCL's PTX under CUDA's JIT, 1.02 at
    # boost clocks, 1.001 under ncu's base clocks): the same rows timed, then
    # profiled with clocks locked to base and with clocks left free, with the
    # elapsed SM cycles and the SM clock, to tell cycles from frequency.
    rows='^matrixMul/cuda/tile32(-aligned)?(-opencl-ptx|-ptx-jit)?/n:4096/'
    run tile32-clocks 120 --benchmark_repetitions=3 --startup off --benchmark_filter="$rows"
    for clocks in base none; do
      B="$B" OUT="$OUT/ncu-$clocks" CLOCKS=$clocks LAUNCHES=4 BUDGET=150 \
        EXTRA_METRICS=sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,smsp__cycles_active.avg \
        scripts/profile_ncu.sh "$rows" > "$OUT/ncu-$clocks.log" 2>&1
      echo "ncu $clocks rc=$?"; tail -3 "$OUT/ncu-$clocks.log"
    done
    ;;
  triad)
    # STREAM triad (the workload recipe's proof, issue 14): both APIs, the
    # standard sizes, 5 repetitions, with its startup rows; then
    # compute-sanitizer's four tools over its CUDA row.
    run triad 200 --benchmark_repetitions=5 --benchmark_filter='^(triad/|startup/(cuda|opencl)/triad-)'
    B="$B" OUT="$OUT/sanitizer" BUDGET=150 scripts/compute_sanitizer.sh '^triad/cuda/' \
      > "$OUT/sanitizer.log" 2>&1
    echo "compute-sanitizer triad rc=$?"; tail -6 "$OUT/sanitizer.log"
    ;;
  worksize-sweep)
    # Work-size study (issue 15): the exhaustive sweep of the 2-D kernels
    # (3 repetitions: the best shape is taken on medians, not on one noisy run).
    run worksize-sweep-2d 400 --benchmark_repetitions=3 --benchmark_filter='^(mmnaive|bilinear)/' \
      --mmnaive-local sweep --bilinear-local sweep
    ;;
  worksize-tuner)
    # The rules alone (3 repetitions), e.g. after a change to the tuner.
    run worksize-rules 240 --benchmark_repetitions=3 \
      --benchmark_filter='^(mmnaive|bilinear|sort|trapezoid)/' \
      --mmnaive-local 16x16,study-x,study-y,driver,query,tuner \
      --bilinear-local 16x16,study-x,study-y,driver,query,tuner \
      --sort-local 256,study,driver,query,tuner --trapezoid-local 256,study,driver,query,tuner
    ;;
  worksize-split)
    # Issue 15 item 4: one kernel split across devices. SPLIT_CUDA / SPLIT_CL
    # name the devices (default: the first GPU twice, which prices the
    # machinery and two streams sharing one GPU, not a second GPU): all on
    # one device, half each, equal, calibrated; along y; 3 repetitions.
    run worksize-split-y 150 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/.*/split' \
      --split share:0,share:0.5,equal,calibrated --split-axis y \
      --cuda-split-devices "${SPLIT_CUDA:-0,0}" --cl-split-devices "${SPLIT_CL:-$NV_CL:0,$NV_CL:0}"
    ;;
  worksize-split-pair)
    # The GPU and PoCL's CPU (OpenCL), where the ratio matters: the GPU's
    # share from all to half, the PE-ratio and k rules, calibrated; 10
    # launches a job (the CPU takes about 0.3 s a launch of mmnaive at n 1024).
    [ -n "$POCL_CL" ] || { echo "worksize-split-pair: no PoCL platform"; continue; }
    run worksize-split-pair 170 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/opencl/.*/split' \
      --split share:1,share:0.99,share:0.98,share:0.95,share:0.9,share:0.75,share:0.5,pe,study-k,calibrated \
      --split-launches 10 --cl-split-devices "$NV_CL:0,$POCL_CL:0"
    ;;
  worksize-split-mpi)
    # Issue 15 item 5: split rows with one MPI rank per device (OpenMPI's
    # mpirun; ranks not bound to cores, so that PoCL's rank has every core).
    # On the lent machine mpirun's processes got only the first entry of
    # OCL_ICD_FILENAMES (the machine's libpocl.so.2:libnvidia-opencl.so.1),
    # which hid NVIDIA's OpenCL from the ICD loader: env sets it whole.
    # mpi-env.txt records OpenMPI's version and the OMPI_MCA settings.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    icd=(env "OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}")
    [ -n "${OCL_ICD_FILENAMES:-}" ] || icd=()
    LAUNCH=(mpirun --bind-to none -np 2 ${icd[@]+"${icd[@]}"})
    { ompi_info --version; env | grep '^OMPI_MCA' || echo "no OMPI_MCA settings"; } > "$OUT/mpi-env.txt" 2>&1
    # The GPU and PoCL's CPU (OpenCL), as worksize-split-pair in-process.
    run worksize-split-mpi-pair 220 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/opencl/.*/split' \
      --split share:1,share:0.95,share:0.5,pe,study-k,calibrated --split-launches 10 \
      --split-over mpi --cl-split-devices "$NV_CL:0,$POCL_CL:0"
    # The GPU twice (two processes, two contexts), both APIs, as worksize-split.
    run worksize-split-mpi-gpu 150 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/.*/split' \
      --split share:0,share:0.5,equal,calibrated --split-over mpi \
      --cuda-split-devices 0,0 --cl-split-devices "$NV_CL:0,$NV_CL:0"
    # One rank: the whole job on the GPU through the same path, no transfer.
    LAUNCH=(mpirun --bind-to none -np 1 ${icd[@]+"${icd[@]}"})
    run worksize-split-mpi-one 90 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/.*/split' --split equal \
      --split-over mpi --cl-split-devices "$NV_CL:0"
    unset LAUNCH
    ;;
  worksize-split-2gpu)
    # Issue 15 items 4 and 5 on two GPUs (nvidia-h200-x2): the split rows on
    # GPUs 0 and 1 in-process, both APIs, along y; bilinear with the study's
    # y-major work-group (1x128) split along y and along x; then one rank per
    # GPU under mpirun. 3 repetitions.
    run worksize-split-2gpu-y 200 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/.*/split' \
      --split share:0,share:0.5,equal,pe,calibrated --split-axis y \
      --cuda-split-devices 0,1 --cl-split-devices "$NV_CL:0,$NV_CL:1"
    for axis in y x; do
      run "worksize-split-2gpu-bilinear-ymajor-$axis" 40 --benchmark_repetitions=3 --startup off \
        --benchmark_filter='^bilinear/.*/split' --bilinear-local 1x128 \
        --split share:0,equal,calibrated --split-axis "$axis" \
        --cuda-split-devices 0,1 --cl-split-devices "$NV_CL:0,$NV_CL:1"
    done
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    icd=(env "OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}")
    [ -n "${OCL_ICD_FILENAMES:-}" ] || icd=()
    LAUNCH=(mpirun --bind-to none -np 2 ${icd[@]+"${icd[@]}"})
    run worksize-split-2gpu-mpi 150 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(mmnaive|bilinear|trapezoid)/.*/split' \
      --split share:0,equal,calibrated --split-over mpi \
      --cuda-split-devices 0,1 --cl-split-devices "$NV_CL:0,$NV_CL:1"
    unset LAUNCH
    ;;
  worksize-split-2gpu-heavy)
    # Issue 15: a heavy kernel by the study's classes (over 8e11 operations a
    # job): mmnaive at n 4096, 10 launches a job (1.4e12 flop), on GPUs 0 and
    # 1, both APIs, 3 repetitions.
    run worksize-split-2gpu-heavy 300 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^mmnaive/.*/split' --mmnaive-n 4096 \
      --split share:0,equal,study-k,calibrated --split-axis y \
      --cuda-split-devices 0,1 --cl-split-devices "$NV_CL:0,$NV_CL:1"
    ;;
  layout)
    # Issue 16: LavaMD with its particles in AoS, SoA and AoSoA, both APIs,
    # boxes1d 10 to 70 (the study's sizes), 3 repetitions; then memcheck
    # over the CUDA rows at the quick size.
    run layout-lavamd 420 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^lavamd/' --lavamd-boxes 10,20,30,40,50,60,70
    B="$B" OUT="$OUT/sanitizer-layout" BUDGET=60 TOOLS=memcheck BENCH_EXTRA="--lavamd-boxes 4" \
      scripts/compute_sanitizer.sh '^lavamd/cuda/' > "$OUT/sanitizer-layout.log" 2>&1
    echo "compute-sanitizer layout rc=$?"; tail -4 "$OUT/sanitizer-layout.log"
    ;;
  layout-more)
    # Issue 16: bodies (3 of 12 words read) per layout, and the conversion
    # between layouts on the device (host time as a counter) at LavaMD's
    # particle counts for boxes1d 10, 30, 50, 70, both APIs, 3 repetitions;
    # then Nsight Compute over the CUDA bodies rows (sectors per request,
    # DRAM bytes) and LavaMD's at boxes1d 30.
    run layout-bodies 150 --benchmark_repetitions=3 --startup off --benchmark_filter='^bodies/'
    run layout-conv 300 --benchmark_repetitions=3 --startup off --benchmark_filter='^layoutconv/' \
      --layoutconv-boxes 10,30,50,70
    B="$B" OUT="$OUT/ncu" BUDGET=120 LAUNCHES=2 CLOCKS=none \
      EXTRA_METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^bodies/cuda/base/n:16777216/' > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  layout-cross)
    # Issue 16, the OpenCL/CUDA gap of LavaMD: its cross-run rows (OpenCL's PTX
    # and nvcc's PTX, each JIT-compiled by CUDA) beside both APIs' rows (base
    # and aligned) at boxes1d 30 and 70, 3 repetitions; the SASS that ran (OpenCL: the driver
    # JIT's cubin; CUDA: nvcc's; the cross-run rows: CUDA's JIT); Nsight
    # Compute over the CUDA and cross-run rows at boxes1d 30 (instructions,
    # FP32 operations, sectors per request).
    run layout-cross 400 --benchmark_repetitions=3 --startup off --benchmark_filter='^lavamd/' \
      --lavamd-boxes 30,70
    mkdir -p "$OUT/lavamd-sass"
    timeout 120 "$B/gpucmp-ptx" dump --api opencl --variant lavamd --cl-platform "$NV_CL" \
      --out "$OUT/lavamd-sass/opencl" > "$OUT/lavamd-sass/dump-opencl.log" 2>&1
    echo "dump opencl rc=$?"
    timeout 60 "$B/gpucmp-ptx" dump --api cuda --variant lavamd --out "$OUT/lavamd-sass/cuda" \
      > "$OUT/lavamd-sass/dump-cuda.log" 2>&1
    echo "dump cuda rc=$?"
    B="$B" OUT="$OUT/lavamd-sass" ROWS="lavamd/base@layout:aos lavamd/base@layout:soa" \
      scripts/device_cross_sass.sh > "$OUT/lavamd-sass/cross-sass.log" 2>&1
    echo "cross sass rc=$?"; tail -5 "$OUT/lavamd-sass/cross-sass.log"
    B="$B" OUT="$OUT/ncu" BUDGET=150 LAUNCHES=2 CLOCKS=none \
      EXTRA_METRICS=smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^lavamd/cuda/base(-opencl-ptx|-ptx-jit)?/boxes1d:30/' > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  worksize-retime)
    # Issue 15: the tuner against the exhaustive best timed in one run: the 3
    # best shapes of each API in the committed H200 sweeps
    # (scripts/worksize_retime.py top) beside the study's rule and the tuner,
    # 10 repetitions in random order, so that both meet the same clocks.
    sweeps=(results/nvidia-h200/2026-11-23-worksize/worksize-sweep-{1d,2d}.json)
    top() { python3 scripts/worksize_retime.py top --workload "$1" "${sweeps[@]}"; }
    TIME_LIMIT=0.3 run worksize-retime 480 --benchmark_repetitions=10 \
      --benchmark_enable_random_interleaving=true --benchmark_filter='^(mmnaive|bilinear|sort|trapezoid)/' \
      --mmnaive-local "$(top mmnaive),study-x,tuner" --bilinear-local "$(top bilinear),study-x,tuner" \
      --sort-local "$(top sort),study,tuner" --trapezoid-local "$(top trapezoid),study,tuner"
    python3 scripts/worksize_retime.py table "$OUT/worksize-retime.json" --out "$OUT/worksize-retime.md"
    tail -3 "$OUT/worksize-retime.md"
    ;;
  reduce)
    # Issue 17: the AGPU model's reductions (tree, cascading, pipeline) on both
    # APIs and CUB's DeviceReduce on CUDA, int32 and float, n 2^16 to 2^30,
    # 3 repetitions, beside the device copy (bandwidth d2d); then memcheck
    # over the CUDA rows at the quick size and Nsight Compute at 2^28.
    run reduce 420 --benchmark_repetitions=3 --startup off --benchmark_filter='^reduce/' \
      --reduce-n 65536,1048576,16777216,268435456,1073741824
    run reduce-copy 60 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^bandwidth/(cuda|opencl)/d2d/bytes:1073741824/'
    B="$B" OUT="$OUT/sanitizer-reduce" BUDGET=60 TOOLS=memcheck BENCH_EXTRA="--reduce-n 1048576,1000192" \
      scripts/compute_sanitizer.sh '^reduce/cuda/' > "$OUT/sanitizer-reduce.log" 2>&1
    echo "compute-sanitizer reduce rc=$?"; tail -4 "$OUT/sanitizer-reduce.log"
    B="$B" OUT="$OUT/ncu" BUDGET=120 LAUNCHES=2 CLOCKS=none \
      EXTRA_METRICS=dram__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^reduce/cuda/.*/n:268435456/' > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  scan)
    # Issue 17: the AGPU model's prefix sum (reduce then scan) on both APIs
    # and CUB's DeviceScan on CUDA, int32 and float, 3 repetitions: alpha 1
    # to 32 at n 2^24 and 2^28, alpha 1, 8 and 32 at 2^16 and 2^20.
    run scan-large 330 --benchmark_repetitions=3 --startup off --benchmark_filter='^scan/' \
      --scan-n 16777216,268435456 --scan-alpha 1,2,4,8,16,32
    run scan-small 150 --benchmark_repetitions=3 --startup off --benchmark_filter='^scan/' \
      --scan-n 65536,1048576 --scan-alpha 1,8,32
    ;;
  scan-checks)
    # memcheck over the CUDA scans at 2^20 and 1000192 words; Nsight Compute
    # at 2^28 (alpha 8 and CUB).
    B="$B" OUT="$OUT/sanitizer-scan" BUDGET=60 TOOLS=memcheck \
      BENCH_EXTRA="--scan-n 1048576,1000192 --scan-alpha 1,8,32" \
      scripts/compute_sanitizer.sh '^scan/cuda/' > "$OUT/sanitizer-scan.log" 2>&1
    echo "compute-sanitizer scan rc=$?"; tail -4 "$OUT/sanitizer-scan.log"
    B="$B" OUT="$OUT/ncu" BUDGET=90 LAUNCHES=3 CLOCKS=none \
      EXTRA_METRICS=dram__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^scan/cuda/(alpha/.*/n:268435456/alpha:8|cub/.*/n:268435456)/' \
      > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  scan-lookback)
    # Issue 17: the one-pass scan with decoupled look-back beside CUB and the
    # reduce-then-scan form, both APIs, int32 and float at 2^24 and 2^28,
    # alpha 8 to 32, 3 repetitions interleaved; memcheck, racecheck and
    # synccheck over its CUDA rows (2^20 and 1000192 words); Nsight Compute
    # at 2^28.
    run scan-lookback 420 --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
      --startup off --benchmark_filter='^scan/(cuda|opencl)/(lookback|alpha|cub)/' \
      --scan-n 16777216,268435456 --scan-alpha 8,16,32
    B="$B" OUT="$OUT/sanitizer-lookback" BUDGET=90 TOOLS="memcheck racecheck synccheck" \
      BENCH_EXTRA="--scan-n 1048576,1000192 --scan-alpha 1,8,32" \
      scripts/compute_sanitizer.sh '^scan/cuda/lookback/' > "$OUT/sanitizer-lookback.log" 2>&1
    echo "compute-sanitizer lookback rc=$?"; tail -4 "$OUT/sanitizer-lookback.log"
    B="$B" OUT="$OUT/ncu" BUDGET=60 LAUNCHES=2 CLOCKS=none \
      EXTRA_METRICS=dram__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^scan/cuda/(lookback/.*/n:268435456/alpha:(8|16)|cub/.*/n:268435456)/' \
      > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  agpu-reduce)
    # Issue 17 item 3: the rows the AGPU model is fitted on and checked
    # against, int32 (the float rows take the same time), 3 repetitions:
    # every reduction at 2^16 to 2^28 and the reduce-then-scan form at alpha
    # 1 to 32; the context records p, b and M; beside them the launch
    # ceiling (the model's per-launch latency, measured in the same run).
    run agpu-reduce 420 --benchmark_repetitions=3 --startup off --reduce-type int32 \
      --scan-type int32 --benchmark_filter='^(reduce|scan)/(cuda|opencl)/(tree|cascading|pipeline|alpha)/|^ceiling/(cuda|opencl)/launch/' \
      --reduce-n 65536,1048576,16777216,268435456 --scan-n 65536,1048576,16777216,268435456 \
      --scan-alpha 1,2,4,8,16,32
    ;;
  ceiling)
    # Issue 17 item 4: the roofline's ceilings, both APIs, 5 repetitions:
    # FP32 FMA, shared memory and L2 (ceiling), DRAM (device copy of 1 GiB
    # and triad at 2^27); Nsight Compute over the CUDA ceilings (L2 bytes,
    # FMA pipe, shared wavefronts).
    run ceiling 150 --benchmark_repetitions=5 --startup off --triad-n 134217728 \
      --benchmark_filter='^(ceiling|triad)/(cuda|opencl)/|^bandwidth/(cuda|opencl)/d2d/bytes:1073741824/'
    B="$B" OUT="$OUT/ncu" BUDGET=60 LAUNCHES=2 CLOCKS=none \
      EXTRA_METRICS=lts__t_bytes.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^ceiling/cuda/' > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  launch)
    # Issue 17 item 3: the time one launch adds to a batch of back-to-back
    # launches (ceiling/<api>/launch: one block, one word a thread), both
    # APIs, 5 repetitions: the AGPU model's per-launch latency
    # (scripts/agpu_model.py; its L2 and copy ceilings come from PART=ceiling).
    run launch 120 --benchmark_repetitions=5 --startup off \
      --benchmark_filter='^ceiling/(cuda|opencl)/launch/'
    # The scan forms of scripts/experiments/scan_forms/forms.cu, where built
    # (carried in build-exp/): each validated, then timed beside CUB and a copy.
    if [ -x build-exp/scan_forms ]; then
      timeout 240 build-exp/scan_forms > "$OUT/scan-forms.log" 2>&1
      echo "scan_forms rc=$?"
    fi
    ;;
  roofline)
    # Issue 17 item 4: the suite's main kernels at one standard size each,
    # both APIs, 3 repetitions, with their counted flop and bytes, beside the
    # ceilings (scripts/roofline.py places them).
    run roofline 360 --benchmark_repetitions=3 --startup off --mm-n 4096 --triad-n 134217728 \
      --reduce-n 268435456 --scan-n 268435456 --scan-alpha 16,32 --lavamd-boxes 30 \
      --bodies-n 16777216 \
      --benchmark_filter='^(ceiling/(cuda|opencl)/|bandwidth/(cuda|opencl)/d2d/bytes:1073741824/|triad/|matrixMul/(cuda|opencl)/(tile16|tile32|cublas|clblast)/|cp/(cuda|opencl)/(base|unrollx8)/|(mriq|mrifhd)/(cuda|opencl)/(precise|fast)/numK:2048/|(bilinear|mmnaive|trapezoid)/(cuda|opencl)/base/.*local:driver|sort/(cuda|opencl)/bitonic/.*local:driver|(lavamd|bodies)/(cuda|opencl)/base/|layoutconv/(cuda|opencl)/base/[^/]*/words:12/from:aos/to:soa|(reduce|scan)/(cuda|opencl)/)'
    ;;
  roofline-ncu)
    # Issue 17 item 4: Nsight Compute's DRAM bytes of the roofline's CUDA rows
    # (the same sizes), one row per kernel workload whose kernels each run
    # once a launch (scripts/roofline.py --ncu compares them with the
    # counted bytes); float for reduce and scan.
    B="$B" OUT="$OUT/ncu-roofline" BUDGET=300 ROW_TIMEOUT=40 LAUNCHES=6 \
      METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      BENCH_EXTRA="--mm-n 4096 --triad-n 134217728 --reduce-n 268435456 --scan-n 268435456 --scan-alpha 32 --lavamd-boxes 30 --bodies-n 16777216 --reduce-type float --scan-type float --layoutconv-boxes 20,70" \
      scripts/profile_ncu.sh '^(triad/cuda/|matrixMul/cuda/(tile16|tile32|cublas)/|cp/cuda/(base|unrollx8)/|(mriq|mrifhd)/cuda/(precise|fast)/numK:2048/|(bilinear|mmnaive|trapezoid)/cuda/base/.*local:driver|(lavamd|bodies)/cuda/base/|layoutconv/cuda/base/[^/]*/words:12/from:aos/to:soa|reduce/cuda/(cascading|pipeline|cub)/|scan/cuda/)' \
      > "$OUT/ncu-roofline.log" 2>&1
    echo "profile_ncu roofline rc=$?"; tail -3 "$OUT/ncu-roofline.log"
    ;;
  agpu-order)
    # Issue 17 item 1: reduce and scan over affine16, the non-commutative
    # 2x2 matrix product, both APIs and CUB's scan, 3 repetitions: which
    # algorithms keep the order (reduce's keeps_order), each validated.
    run agpu-order 300 --benchmark_repetitions=3 --startup off --reduce-type affine16 \
      --scan-type affine16 --benchmark_filter='^(reduce|scan)/' \
      --reduce-n 1048576,268435456 --scan-n 1048576,268435456 --scan-alpha 8,16,32
    ;;
  advection)
    # Issue 18: one step of the cubic semi-Lagrangian advection at the judged
    # problems' grids, every variant, both APIs, 3 repetitions interleaved,
    # beside the device copy of 1 GiB (the bandwidth bound); memcheck over
    # the CUDA rows at two small grids; ncu over the CUDA rows at 4096^2.
    run advection 300 --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
      --startup off --benchmark_filter='^(advection/|bandwidth/(cuda|opencl)/d2d/bytes:1073741824/)'
    B="$B" OUT="$OUT/sanitizer-advection" BUDGET=60 TOOLS=memcheck \
      BENCH_EXTRA="--advection-grid 256x256,128x192" \
      scripts/compute_sanitizer.sh '^advection/cuda/' > "$OUT/sanitizer-advection.log" 2>&1
    echo "compute-sanitizer advection rc=$?"; tail -4 "$OUT/sanitizer-advection.log"
    B="$B" OUT="$OUT/ncu-advection" BUDGET=120 BENCH_EXTRA="--advection-grid 4096x4096" \
      scripts/profile_ncu.sh '^advection/cuda/' > "$OUT/ncu-advection.log" 2>&1
    echo "profile_ncu advection rc=$?"; tail -3 "$OUT/ncu-advection.log"
    ;;
  advection-full)
    # Issue 18 item 5: the judged problems 1 (2048^2, 20480 steps) and 5
    # (8192 x 16384, 2048 steps) at full length, and problems 2-4 too, the paper's
    # kernel (blocked) and the fastest two (stream, async), both APIs: one launch is every step; the
    # protocol's first launch and warm-up are full runs too, then one timed
    # sample (one full run), validated by the long-run check after each.
    run advection-full 400 --startup off --samples 1 --advection-problems 1,2,3,4,5 \
      --benchmark_filter='^advection/(cuda|opencl)/(blocked|stream|async)/.*/steps:'
    ;;
  advection-2gpu|advection-2gpu-full)
    # Issue 18 item 4 on two GPUs (nvidia-h200-x2): one MPI rank per GPU,
    # halos through NCCL (CUDA, NVLink multicast off as the machine
    # requires) and staged through the host (OpenCL), beside the one-GPU
    # rows of the same run (rank 0's GPU). advection-2gpu: every judged
    # grid, the paper's kernel and the three fastest, both exchanges, 3
    # repetitions. advection-2gpu-full: problems 1, 2, 4 and 5 at full
    # length on one and two GPUs (overlap). Two parts, so that each fits
    # one device call with the build.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
    icd=(env "OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}")
    [ -n "${OCL_ICD_FILENAMES:-}" ] || icd=()
    LAUNCH=(mpirun --bind-to none -np 2 -x NCCL_NVLS_ENABLE -x OCL_ICD_VENDORS ${icd[@]+"${icd[@]}"})
    two=(--split-over mpi --advection-gpus 1,2 --cuda-split-devices 0,1
         --cl-split-devices "$NV_CL:0,$NV_CL:1")
    if [ "$part" = advection-2gpu ]; then
      run advection-2gpu 400 --benchmark_repetitions=3 --startup off "${two[@]}" \
        --benchmark_filter='^advection/(cuda|opencl)/(blocked|weights|stream|async)/'
    else
      run advection-2gpu-full 400 --startup off --samples 1 "${two[@]}" --advection-exchange overlap \
        --advection-problems 1,2,4,5 --benchmark_filter='^advection/(cuda|opencl)/(blocked|stream|async)/.*/steps:'
      # The cross-run that prices the CUDA graph: the same two-GPU rows of
      # problems 2 and 5 enqueued call by call.
      run advection-2gpu-eager 120 --startup off --samples 1 "${two[@]}" --advection-exchange overlap \
        --advection-graph off --advection-problems 2,5 \
        --benchmark_filter='^advection/cuda/(blocked|stream|async)/.*/steps:.*/gpus:2/'
    fi
    unset LAUNCH
    ;;
  advection-gaps)
    # Issue 18, the OpenCL/CUDA ratio: each launch timed too (--launch-gaps:
    # launch_us, and launch_gap_us, the device time between launches), the
    # rows of every grid, both APIs, 3 repetitions interleaved.
    run advection-gaps 300 --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
      --startup off --launch-gaps --benchmark_filter='^advection/(cuda|opencl)/(plain|weights|stream)/'
    ;;
  advection-2ranks-1gpu)
    # Issue 18 item 4, a functional check on one GPU (no two-GPU machine is
    # lent): the OpenCL two-GPU rows with both ranks on the same GPU (two
    # processes, two contexts), halos staged through the host and MPI; the
    # same rows' fields against the one-GPU rows' (output_digest) at 4096^2
    # and 2048 x 192 (a split at row 64), 3 steps each (--cache cold
    # --samples 1). Not a two-GPU time: both ranks share one GPU. The CUDA
    # rows need two GPUs (NCCL refuses two ranks on one).
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    icd=(env "OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}")
    [ -n "${OCL_ICD_FILENAMES:-}" ] || icd=()
    LAUNCH=(mpirun --bind-to none -np 2 ${icd[@]+"${icd[@]}"})
    run advection-2ranks-1gpu 200 --startup off --cache cold --samples 1 \
      --advection-grid 4096x4096,2048x192 --advection-gpus 1,2 --split-over mpi \
      --cl-split-devices "$NV_CL:0,$NV_CL:0" --benchmark_filter='^advection/opencl/'
    unset LAUNCH
    ;;
  scan-onepass)
    # Issue 17, the scan against CUB: onepass (decoupled look-back with the
    # thread's words in registers, warp scans and a warp's look-back) beside
    # CUB, both APIs, int32 and float at 2^28, alpha 8 to 32, sleeping
    # between polls and spinning (--scan-poll), 3 repetitions interleaved; memcheck, racecheck and synccheck over its
    # CUDA rows (2^20 and 1000192 words); Nsight Compute at 2^28 (alpha 16,
    # 32 and CUB).
    run scan-onepass 300 --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
      --startup off --benchmark_filter='^scan/(cuda|opencl)/(onepass|cub)/' \
      --scan-n 268435456 --scan-alpha 8,16,32 --scan-poll wait,spin
    B="$B" OUT="$OUT/sanitizer-onepass" BUDGET=80 TOOLS="memcheck racecheck synccheck" \
      BENCH_EXTRA="--scan-n 1048576,1000192 --scan-alpha 4,8,32" \
      scripts/compute_sanitizer.sh '^scan/cuda/onepass/' > "$OUT/sanitizer-onepass.log" 2>&1
    echo "compute-sanitizer onepass rc=$?"; tail -4 "$OUT/sanitizer-onepass.log"
    B="$B" OUT="$OUT/ncu" BUDGET=60 LAUNCHES=3 CLOCKS=none \
      EXTRA_METRICS=dram__throughput.avg.pct_of_peak_sustained_elapsed \
      scripts/profile_ncu.sh '^scan/cuda/(onepass/.*/n:268435456/alpha:(16|32)|cub/.*/n:268435456)/' \
      > "$OUT/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -2 "$OUT/ncu.log"
    ;;
  agpu-lookback)
    # Issue 17 item 3, continued: the one-pass scan and CUB's rows at the
    # same sizes and alphas, int32, 3 repetitions, and the launch ceiling.
    run agpu-lookback 420 --benchmark_repetitions=3 --startup off --reduce-type int32 \
      --scan-type int32 --benchmark_filter='^(reduce|scan)/(cuda|opencl)/(lookback|cub)/|^ceiling/(cuda|opencl)/launch/' \
      --reduce-n 65536,1048576,16777216,268435456 --scan-n 65536,1048576,16777216,268435456 \
      --scan-alpha 1,2,4,8,16,32
    ;;
  parboil-local)
    # Issue 15 item 1: the local size of cp (unrollx8) and MRI (precise) as a
    # parameter, every legal shape of cp (sweep) and the power-of-two sizes
    # from 32 of MRI (smaller ones take long at numX 262144), both APIs,
    # 3 repetitions; then
    # memcheck over the CUDA rows at one non-default size each (quick size:
    # mriq 96 leaves a partial last block).
    run parboil-local 220 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^(cp/(cuda|opencl)/unrollx8|mriq/(cuda|opencl)/precise|mrifhd/(cuda|opencl)/precise)/.*/local:' \
      --cp-local sweep --mriq-local 32,64,128,256,512,1024 --mrifhd-local 32,64,128,256,512,1024
    B="$B" OUT="$OUT/sanitizer-parboil-local" BUDGET=80 TOOLS=memcheck \
      BENCH_EXTRA="--cp-local 8x8 --mriq-local 96 --mrifhd-local 96" \
      scripts/compute_sanitizer.sh '^(cp/cuda/unrollx8|mriq/cuda/precise|mrifhd/cuda/precise)/' \
      > "$OUT/sanitizer-parboil-local.log" 2>&1
    echo "compute-sanitizer parboil-local rc=$?"; tail -4 "$OUT/sanitizer-parboil-local.log"
    ;;
  split-sanitizer)
    # compute-sanitizer over the CUDA split rows (quick size, 2 launches a job).
    B="$B" OUT="$OUT/sanitizer-split" BUDGET=150 \
      BENCH_EXTRA="--split equal,calibrated --split-launches 2 --cuda-split-devices ${SPLIT_CUDA:-0,0}" \
      scripts/compute_sanitizer.sh '^(mmnaive|bilinear|trapezoid)/cuda/.*/split' \
      > "$OUT/sanitizer-split.log" 2>&1
    echo "compute-sanitizer split rc=$?"; tail -6 "$OUT/sanitizer-split.log"
    ;;
  worksize-rules)
    # The rules with 3 repetitions (the tuner decides anew in each); then
    # compute-sanitizer over the CUDA rows (quick size, the default local-size
    # list: a fixed shape, the rules, the driver, the tuner). The 1-D sweeps
    # (sort, trapezoid: 11 shapes each) run here, the 2-D ones in worksize-sweep.
    run worksize-sweep-1d 120 --benchmark_repetitions=3 --benchmark_filter='^(sort|trapezoid)/' \
      --sort-local sweep --trapezoid-local sweep
    run worksize-rules 240 --benchmark_repetitions=3 \
      --benchmark_filter='^(mmnaive|bilinear|sort|trapezoid)/' \
      --mmnaive-local 16x16,study-x,study-y,driver,query,tuner \
      --bilinear-local 16x16,study-x,study-y,driver,query,tuner \
      --sort-local 256,study,driver,query,tuner --trapezoid-local 256,study,driver,query,tuner
    B="$B" OUT="$OUT/sanitizer" BUDGET=120 scripts/compute_sanitizer.sh \
      '^(mmnaive|bilinear|sort|trapezoid)/cuda/' > "$OUT/sanitizer.log" 2>&1
    echo "compute-sanitizer worksize rc=$?"; tail -6 "$OUT/sanitizer.log"
    ;;
  bandwidth-mid)
    run suite-bandwidth-mid 400 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^bandwidth/.*/bytes:(4194304|8388608|16777216|33554432|67108864|134217728)/'
    ;;
  startup)
    run startup 90 --benchmark_filter='^startup/'
    # The same with the driver forced to JIT the fatbin's PTX at module load.
    CUDA_FORCE_PTX_JIT=1 run startup-cuda-ptx-jit 60 --benchmark_filter='^startup/cuda/'
    ;;
  cold)
    run cold 120 --benchmark_repetitions=3 --startup off --cache cold \
      --benchmark_filter='^(matrixMul/(cuda|opencl)/(tile16|tile32|cublas|clblast)/n:(1024|4096)/|cp/(cuda|opencl)/unrollx8/|mriq/(cuda|opencl)/precise/|mrifhd/(cuda|opencl)/precise/|bandwidth/(cuda|opencl)/d2d/bytes:(1048576|16777216|268435456)/)'
    ;;
  gputests)
    (cd "$B" && timeout 400 ctest -R 'gpu_quick_run|ProtocolRun|ClockMonitor|CrossRun|JitCache|Interrupt|GbenchFlags|BadInput|RunnerCatalog|AgpuOrder' --output-on-failure) \
      > "$OUT/ctest-gpu.log" 2>&1
    echo "ctest gpu rc=$? ($(grep -E 'tests passed|tests failed' "$OUT/ctest-gpu.log"))"
    bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1)
    GPUCMP_TEST_PCI_BUS_ID=$bus timeout 60 "$B/tests/gpucmp_unit_tests" \
      --gtest_filter='ClockMonitor*:*Nvml*' > "$OUT/unit-nvml.log" 2>&1
    echo "unit nvml rc=$?"
    ;;
  bandwidth)
    run suite-bandwidth 400 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^bandwidth/.*/bytes:([0-9]{1,8}|1[0-9]{8})/'
    ;;
  bandwidth-large)
    run suite-bandwidth-large 400 --benchmark_repetitions=3 --startup off \
      --benchmark_filter='^bandwidth/.*/bytes:(268435456|536870912|1073741824)/'
    ;;
  *) echo "unknown part '$part'"; exit 2 ;;
esac
done
for f in "$OUT"/*.log; do
  case "$f" in */build.log) continue ;; esac
  echo "$(basename "$f"): errors $(grep -c ': error:' "$f"), noise warnings $(grep -c 'above the --max-noise' "$f"), clock warnings $(grep -c 'SM clock fell' "$f"), host/device warnings $(grep -c 'host wall clock is' "$f")"
done
# Dashboards count error rows: a healthy GPU run has none (skips leave no row).
for f in "$OUT"/*.json; do
  [ -f "$f" ] || continue
  python3 - "$f" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
rows = d.get("benchmarks", [])
errors = sum(1 for r in rows if r.get("error_occurred"))
skipped = d.get("context", {}).get("gpucmp.skipped_count", "?")
print("%s: %d rows, %d error rows, %s skipped" % (os.path.basename(sys.argv[1]), len(rows), errors, skipped))
PY
done
(cd "$OUT" && tar czf results.tgz --exclude=results.tgz --exclude=build.log --exclude=sass.tgz \
  --exclude=jit-cache.tgz --exclude=dump.tgz --exclude=cross-sass.tgz -- * && ls -l results.tgz)
