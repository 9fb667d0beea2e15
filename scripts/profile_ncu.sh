#!/usr/bin/env bash
# Nsight Compute counters of the main CUDA rows and of the cross-run rows
# (OpenCL's PTX under CUDA: ncu sees no NVIDIA OpenCL kernel, so OpenCL's code is
# profiled through cuda/<variant>-opencl-ptx) with one fixed metric set, one
# ncu run per benchmark row so that every launch is known to belong to its row.
# The rows run without the launch-floor probe (--launch-floor off), whose
# kernels would otherwise be the first launches profiled.
#
# usage (on the GPU machine, after a build):
#   B=<build dir> OUT=<dir> scripts/profile_ncu.sh [filter-regex]
# writes $OUT/ncu-raw.csv (ncu --csv --page raw, one block per row, each after a
# line "==GPUCMP== row <name>"), $OUT/ncu-logs/<k>.log (gpucmp-bench's output)
# and $OUT/<date>-ncu.json (scripts/ncu_to_json.py; commit it under results/<gpu>/,
# where scripts/report.py reads it). Default filter: matrixMul tile16/tile32
# (-aligned) n:4096, cp unrollx8 (-ieee, -fast), mriq/mrifhd precise, fast,
# uniform-tile, uniform-tile-fast at every standard size, each with its
# -opencl-ptx and -ptx-jit rows where the binary has them.
# Environment: NCU (default: ncu on PATH, else /usr/local/cuda/bin/ncu);
# LAUNCHES (kernel launches profiled per row, default 8: every kernel of the
# first launches of the row's workload, each profiled a few times);
# ROW_TIMEOUT (s per row, default 60); BUDGET (s for all rows, default 330: rows
# past it are skipped and named); CLOCKS (ncu --clock-control, default base:
# clocks locked to base, so durations are below the benchmark's boost-clock times;
# none: the clocks the benchmark runs at); EXTRA_METRICS (comma-separated ncu
# metrics added to the fixed set, e.g. sm__cycles_elapsed.max); METRICS (a
# comma-separated set instead of the fixed one, e.g. only the DRAM bytes and
# duration for the roofline's cross-check); BENCH_EXTRA (gpucmp-bench options
# added to the listing and to every row's run, e.g. sizes: --mm-n 4096).
# exit: 0 every row profiled; 1 some row failed or was skipped (the JSON holds the
# others and names the failures); 2 usage, no ncu, or no row matched.
set -u
: "${OUT:?set OUT to the output folder}"
B=${B:-build}
BENCH="$B/gpucmp-bench"
LAUNCHES=${LAUNCHES:-8}
ROW_TIMEOUT=${ROW_TIMEOUT:-60}
BUDGET=${BUDGET:-330}
CLOCKS=${CLOCKS:-base}
HERE=$(cd "$(dirname "$0")" && pwd)
DEFAULT_FILTER='^(matrixMul/cuda/tile(16|32)(-aligned)?(-opencl-ptx|-ptx-jit)?/n:4096/'
DEFAULT_FILTER+='|cp/cuda/unrollx8(-ieee|-fast)?(-opencl-ptx|-ptx-jit)?/'
DEFAULT_FILTER+='|(mriq|mrifhd)/cuda/(precise|fast|uniform-tile|uniform-tile-fast)(-opencl-ptx|-ptx-jit)?/)'
FILTER=${1:-$DEFAULT_FILTER}

# The fixed metric set: duration, DRAM bytes, achieved occupancy, registers,
# instructions, and the warp-stall breakdown from PC sampling (sample counts
# per stall reason; the report shows each reason's share of the stalled samples).
STALLS="barrier branch_resolving dispatch_stall drain imc_miss lg_throttle long_scoreboard
math_pipe_throttle membar mio_throttle no_instruction not_selected selected
short_scoreboard sleeping tex_throttle wait"
if [ -z "${METRICS:-}" ]; then
  METRICS="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
  METRICS+=",sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
  METRICS+=",smsp__inst_executed.sum,smsp__pcsamp_sample_count"
  for s in $STALLS; do METRICS+=",smsp__pcsamp_warps_issue_stalled_$s"; done
fi
[ -n "${EXTRA_METRICS:-}" ] && METRICS+=",$EXTRA_METRICS"
read -r -a EXTRA <<< "${BENCH_EXTRA:-}"

die() { echo "profile_ncu: error: $*" >&2; exit 2; }
NCU=${NCU:-$(command -v ncu || true)}
[ -z "$NCU" ] && [ -x /usr/local/cuda/bin/ncu ] && NCU=/usr/local/cuda/bin/ncu
[ -n "$NCU" ] || die "ncu (Nsight Compute) not found: set NCU or put it on PATH"
[ -x "$BENCH" ] || die "$BENCH is not an executable: set B to a build folder"
mkdir -p "$OUT/ncu-logs" || die "cannot create $OUT"
# NVIDIA's OpenCL for the -opencl-ptx rows (they take OpenCL's PTX from its driver).
# shellcheck source=gpu_env.sh
source "$HERE/gpu_env.sh"

mapfile -t NAMES < <("$BENCH" --startup off "${EXTRA[@]}" --benchmark_list_tests=true \
  --benchmark_filter="$FILTER" 2>/dev/null)
[ "${#NAMES[@]}" -gt 0 ] || die "no benchmark matches '$FILTER' (see $BENCH --benchmark_list_tests=true)"

version=$("$NCU" --version 2>/dev/null | tail -1)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
date=$(date -u +%Y-%m-%d)
RAW="$OUT/ncu-raw.csv"
{
  echo "==GPUCMP== ncu $version"
  echo "==GPUCMP== gpu ${gpu:-unknown}"
  echo "==GPUCMP== date $date"
  echo "==GPUCMP== metrics $METRICS"
  echo "==GPUCMP== option ncu --csv --page raw --print-units base --print-kernel-base function --clock-control $CLOCKS --launch-count $LAUNCHES"
  echo "==GPUCMP== option gpucmp-bench --size standard --startup off --launch-floor off --samples 1 --batch-ms 0.001 --benchmark_repetitions=1 ${BENCH_EXTRA:-}"
} > "$RAW"

echo "profile_ncu: ${#NAMES[@]} rows, $LAUNCHES launches each, ncu $version, ${gpu:-unknown GPU}"
failed=0
start=$SECONDS
for i in "${!NAMES[@]}"; do
  name=${NAMES[$i]}
  k=$((i + 1))
  if [ $((SECONDS - start)) -ge "$BUDGET" ]; then
    echo "[$k/${#NAMES[@]}] $name: skipped (the ${BUDGET} s budget is spent)"
    printf '==GPUCMP== row %s\n==GPUCMP== error skipped: the %s s budget was spent\n' \
      "$name" "$BUDGET" >> "$RAW"
    failed=1
    continue
  fi
  # An exact filter: this row only (regex metacharacters escaped).
  exact="^$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
  csv="$OUT/ncu-logs/$k.csv"
  t0=$SECONDS
  timeout "$ROW_TIMEOUT" "$NCU" --csv --page raw --print-units base \
    --print-kernel-base function --clock-control "$CLOCKS" \
    --launch-count "$LAUNCHES" --metrics "$METRICS" --log-file "$csv" \
    "$BENCH" --size standard --startup off --launch-floor off --progress off --samples 1 \
    --batch-ms 0.001 \
    --benchmark_repetitions=1 "${EXTRA[@]}" --benchmark_filter="$exact" \
    > "$OUT/ncu-logs/$k.log" 2>&1
  rc=$?
  kernels=$(grep -c '^"[0-9]' "$csv" 2>/dev/null)
  echo "[$k/${#NAMES[@]}] $name: rc=$rc, $((SECONDS - t0)) s, ${kernels:-0} launches profiled"
  { echo "==GPUCMP== row $name"; cat "$csv" 2>/dev/null; } >> "$RAW"
  if [ "$rc" -ne 0 ] || [ "${kernels:-0}" -eq 0 ]; then
    why=$(grep -hE '==ERROR==|error:' "$csv" "$OUT/ncu-logs/$k.log" 2>/dev/null | head -1)
    [ "$rc" -eq 124 ] && why="timed out after ${ROW_TIMEOUT} s"
    echo "==GPUCMP== error rc=$rc ${why:-no kernel profiled}" >> "$RAW"
    echo "    ${why:-no kernel profiled (see $OUT/ncu-logs/$k.log)}"
    failed=1
    if grep -qs ERR_NVGPUCTRPERM "$csv" "$OUT/ncu-logs/$k.log"; then
      echo "profile_ncu: no access to the GPU performance counters (ERR_NVGPUCTRPERM): stopping" >&2
      break
    fi
  fi
done
echo "profile_ncu: $((SECONDS - start)) s for ${#NAMES[@]} rows"
python3 "$HERE/ncu_to_json.py" "$RAW" -o "$OUT/$date-ncu.json" || exit 2
exit "$failed"
