#!/usr/bin/env bash
# compute-sanitizer's four tools (memcheck with --leak-check full, racecheck,
# initcheck, synccheck) over every CUDA benchmark row at quick size, the
# -opencl-ptx rows (OpenCL's PTX, JIT-compiled by the CUDA driver) and -ptx-jit
# rows included. One gpucmp-bench process per row family (workload/cuda/variant:
# its sizes together), so that a report names its family; the tools run side by
# side (JOBS), each through the families in turn.
#
# usage (on the GPU machine, after a build):
#   B=<build dir> OUT=<dir> scripts/compute_sanitizer.sh [filter-regex]
# (default filter '/cuda/': every CUDA row). Writes $OUT/compute-sanitizer-<tool>.log
# (each process's output after a line "==GPUCMP== group <family> ...") and
# $OUT/compute-sanitizer-summary.txt (per tool: rows, rows that ran, errors, rc).
# Each process: compute-sanitizer --tool <tool> --error-exitcode 99 [memcheck:
#   --leak-check full] gpucmp-bench --size quick --samples 1 --batch-ms 0.001
#   --benchmark_repetitions=1 --startup off --progress off --benchmark_filter=^<family>/
# Environment: CS (default compute-sanitizer on PATH, else /usr/local/cuda/bin/);
# TOOLS (default "memcheck racecheck initcheck synccheck"); JOBS (tools at once,
# default 4); GROUP_TIMEOUT (s per process, default 180); BUDGET (s for the whole
# run, default 450: families past it are not checked and are named); CS_ARGS
# (more compute-sanitizer options, e.g. "--report-api-errors no"); THIRD_PARTY
# (regex of rows whose kernels are a library's, default '^matrixMul/cuda/cublas/':
# cuBLAS) and THIRD_PARTY_MODE, for racecheck and initcheck on those rows only:
# count (default: like any row; cuBLAS gave no report on the H200), note (run;
# their errors are listed in the summary but do not fail the run) or skip (not
# run, named in the summary). memcheck and synccheck always count every row.
# Time: 286 s on an H200 (2026-11-23, compute-sanitizer 2025.3.1, 69 rows in 41
# families, all clean): racecheck is the long pole (10-21 s per matrixMul family),
# the other three finish in about 200 s beside it; JOBS=1 takes about 15 min.
# exit: 0 no tool reported an error and every row ran; 1 errors, or rows that did
# not run (gpucmp-bench error/skip, crash, timeout, budget); 2 usage, no
# compute-sanitizer, no build, no CUDA device, or no row matched.
set -u
: "${OUT:?set OUT to the output folder}"
B=${B:-build}
BENCH="$B/gpucmp-bench"
TOOLS=${TOOLS:-memcheck racecheck initcheck synccheck}
JOBS=${JOBS:-4}
GROUP_TIMEOUT=${GROUP_TIMEOUT:-180}
BUDGET=${BUDGET:-450}
CS_ARGS=${CS_ARGS:-}
THIRD_PARTY=${THIRD_PARTY:-^matrixMul/cuda/cublas/}
THIRD_PARTY_MODE=${THIRD_PARTY_MODE:-count}
FILTER=${1:-/cuda/}
HERE=$(cd "$(dirname "$0")" && pwd)

die() { echo "compute_sanitizer: error: $*" >&2; exit 2; }
CS=${CS:-$(command -v compute-sanitizer || true)}
[ -z "$CS" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && CS=/usr/local/cuda/bin/compute-sanitizer
[ -n "$CS" ] || die "compute-sanitizer not found: set CS or put it on PATH (CUDA toolkit)"
[ -x "$BENCH" ] || die "$BENCH is not an executable: set B to a build folder"
case "$THIRD_PARTY_MODE" in note|count|skip) ;; *) die "THIRD_PARTY_MODE must be note, count or skip" ;; esac
for t in $TOOLS; do
  case "$t" in memcheck|racecheck|initcheck|synccheck) ;; *) die "unknown tool '$t' in TOOLS" ;; esac
done
mkdir -p "$OUT" || die "cannot create $OUT"
# NVIDIA's OpenCL for the -opencl-ptx rows (they take OpenCL's PTX from its driver).
# shellcheck source=gpu_env.sh
source "$HERE/gpu_env.sh"
"$BENCH" --list-devices 2>&1 | grep -q 'CUDA device 0:' ||
  die "no CUDA device visible to $BENCH (see $BENCH --list-devices)"

# BENCH_EXTRA: more gpucmp-bench options for listing and running (e.g. the
# split rows' --split ... --cuda-split-devices ...), split on spaces.
read -r -a EXTRA_ARGS <<< "${BENCH_EXTRA:-}"
mapfile -t ROWS < <("$BENCH" --size quick --startup off "${EXTRA_ARGS[@]}" --benchmark_list_tests=true \
  --benchmark_filter="$FILTER" 2>/dev/null)
[ "${#ROWS[@]}" -gt 0 ] || die "no benchmark matches '$FILTER' (see $BENCH --benchmark_list_tests=true)"
# Families in listing order: workload/api/variant, with its row count.
mapfile -t GROUPS_ < <(printf '%s\n' "${ROWS[@]}" | awk -F/ '{k=$1"/"$2"/"$3} !(k in n){o[++m]=k} {n[k]++}
  END{for(i=1;i<=m;i++) print o[i] "\t" n[o[i]]}')

version=$("$CS" --version 2>/dev/null | grep -iE 'version|[0-9]{4}\.[0-9]' | tail -1)
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
BENCH_ARGS=(--size quick --samples 1 --batch-ms 0.001 --benchmark_repetitions=1 --startup off --progress off
            "${EXTRA_ARGS[@]}")
echo "compute_sanitizer: ${#ROWS[@]} rows in ${#GROUPS_[@]} families; tools: $TOOLS;" \
     "${JOBS} at once; ${version:-compute-sanitizer}; ${gpu:-unknown GPU}"

tool_options() {  # tool -> its own options
  case "$1" in
    memcheck) echo "--leak-check full" ;;
    *) echo "" ;;
  esac
}

# One tool through every family; one result line per family in $OUT/.cs-<tool>.tsv:
# family rows ran rc errors warnings class(counted|third-party|skipped-3p|budget|timeout)
run_tool() {
  local tool=$1 log="$OUT/compute-sanitizer-$1.log" res="$OUT/.cs-$1.tsv"
  local tmp="$OUT/.cs-$1.out" line family n exact class t0 rc errors warnings notrun ran
  local -a topts extra
  read -r -a topts <<< "$(tool_options "$tool")"
  read -r -a extra <<< "$CS_ARGS"
  : > "$log"; : > "$res"
  for line in "${GROUPS_[@]}"; do
    family=${line%%$'\t'*}; n=${line##*$'\t'}
    class=counted
    if [[ "$tool" =~ ^(racecheck|initcheck)$ ]] && [[ "$family/" =~ $THIRD_PARTY ]]; then
      class=third-party
      [ "$THIRD_PARTY_MODE" = count ] && class=counted
      if [ "$THIRD_PARTY_MODE" = skip ]; then
        printf '%s\t%s\t0\t-\t0\t0\tskipped-3p\n' "$family" "$n" >> "$res"
        echo "==GPUCMP== group $family: $n rows, not run (third-party, THIRD_PARTY_MODE=skip)" >> "$log"
        continue
      fi
    fi
    if [ $((SECONDS - start)) -ge "$BUDGET" ]; then
      printf '%s\t%s\t0\t-\t0\t0\tbudget\n' "$family" "$n" >> "$res"
      echo "==GPUCMP== group $family: $n rows, not run (the ${BUDGET} s budget is spent)" >> "$log"
      continue
    fi
    exact="^$(printf '%s' "$family" | sed 's/[][\.*^$+?(){}|]/\\&/g')/"
    t0=$SECONDS
    timeout "$GROUP_TIMEOUT" "$CS" --tool "$tool" ${topts[@]+"${topts[@]}"} --error-exitcode 99 \
      ${extra[@]+"${extra[@]}"} "$BENCH" "${BENCH_ARGS[@]}" --benchmark_filter="$exact" > "$tmp" 2>&1
    rc=$?
    [ "$rc" -eq 124 ] && class=timeout
    # memcheck/initcheck/synccheck: "ERROR SUMMARY: N errors" (leaks included);
    # racecheck: "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
    errors=$(grep -hoE 'ERROR SUMMARY: [0-9]+|\([0-9]+ errors?,' "$tmp" | grep -oE '[0-9]+' |
      awk '{s += $1} END {print s + 0}')
    warnings=$(grep -hoE '[0-9]+ warnings?\)' "$tmp" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
    [ "$rc" -eq 99 ] && [ "$errors" -eq 0 ] && errors=1  # the tool said so, the count did not parse
    notrun=$(grep -c 'ERROR OCCURRED' "$tmp")
    ran=$((n - notrun))
    [ "$rc" -ne 0 ] && [ "$rc" -ne 99 ] && ran=0  # crashed or timed out: nothing is known
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$family" "$n" "$ran" "$rc" "$errors" "$warnings" "$class" >> "$res"
    { echo "==GPUCMP== group $family: $n rows, rc=$rc, errors=$errors, $((SECONDS - t0)) s ($class)"
      cat "$tmp"; } >> "$log"
    echo "[$tool] $family: rc=$rc, $errors errors, $ran/$n rows ran, $((SECONDS - t0)) s"
  done
  rm -f "$tmp"
}

start=$SECONDS
running=0
for tool in $TOOLS; do
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  run_tool "$tool" &
  running=$((running + 1))
done
wait

# The summary: per tool, rows, rows that ran, counted errors, rc; then what failed.
summary="$OUT/compute-sanitizer-summary.txt"
failed=0
{
  echo "compute-sanitizer ${version:-?}; GPU ${gpu:-unknown}; $(date -u +%Y-%m-%dT%H:%M:%SZ); $((SECONDS - start)) s"
  echo "per process: compute-sanitizer --tool TOOL --error-exitcode 99 [memcheck: --leak-check full]${CS_ARGS:+ $CS_ARGS}"
  echo "  $BENCH ${BENCH_ARGS[*]} --benchmark_filter=^FAMILY/"
  echo "filter '$FILTER': ${#ROWS[@]} rows in ${#GROUPS_[@]} families (one process per family and tool)"
  printf '%-10s %5s %5s %7s %4s  %s\n' tool rows ran errors rc notes
  for tool in $TOOLS; do
    res="$OUT/.cs-$tool.tsv"
    read -r rows ran errors tp_errors warnings rc notrun < <(awk -F'\t' '
      { rows += $2; ran += $3; w += $6
        if ($7 == "third-party") tp += $5; else err += $5
        if ($3 < $2 && $7 != "skipped-3p") nr++
        if ($4 != "-" && $4 != 0 && !($7 == "third-party" && $4 == 99)) {
          if ($4 == 99) has99 = 1; else if (other == "") other = $4 }
        if ($7 == "budget" && other == "") other = 1 }
      END { rc = has99 ? 99 : (other != "" ? other : 0)
            if (rc == 0 && nr > 0) rc = 1
            print rows+0, ran+0, err+0, tp+0, w+0, rc, nr+0 }' "$res")
    notes=""
    [ "$warnings" -gt 0 ] && notes+="$warnings warnings (not counted); "
    [ "$notrun" -gt 0 ] && notes+="$notrun families with rows that did not run; "
    if [[ "$tool" =~ ^(racecheck|initcheck)$ ]]; then
      tp_rows=$(awk -F'\t' '$7 == "third-party" || $7 == "skipped-3p" {print $1}' "$res" | paste -sd, -)
      if [ -n "$tp_rows" ]; then
        case "$THIRD_PARTY_MODE" in
          note) notes+="third-party rows ($tp_rows: a library's kernels) ran, $tp_errors errors there NOT counted (THIRD_PARTY_MODE=note); " ;;
          skip) notes+="third-party rows ($tp_rows: a library's kernels) EXCLUDED (THIRD_PARTY_MODE=skip); " ;;
        esac
      fi
    fi
    printf '%-10s %5s %5s %7s %4s  %s\n' "$tool" "$rows" "$ran" "$errors" "$rc" "${notes%; }"
    [ "$rc" -ne 0 ] && failed=1
  done
  echo "families with errors or rows that did not run (tool, family, rows, ran, rc, errors, class):"
  for tool in $TOOLS; do
    awk -F'\t' -v t="$tool" '($5 > 0 || $3 < $2) && $7 != "skipped-3p" {
      printf "  %s %s: %s rows, %s ran, rc=%s, %s errors (%s)\n", t, $1, $2, $3, $4, $5, $7 }' \
      "$OUT/.cs-$tool.tsv"
  done
  if [ "$failed" -eq 0 ]; then echo "result: clean"; else echo "result: FAILED (see the logs)"; fi
} > "$summary"
rm -f "$OUT"/.cs-*.tsv
cat "$summary"
exit "$failed"
