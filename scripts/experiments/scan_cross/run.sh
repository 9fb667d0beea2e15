#!/usr/bin/env bash
# Cross-runs of scan's kernels, each configuration one process beside the
# build log and SASS of exactly its OpenCL builds: register caps on the alpha
# and onepass kernels (for onepass without its required work-group size,
# under which NVIDIA's JIT ignores the cap), the tile loads batched on both
# APIs (--scan-load batched), and OpenCL's look-back walk unrolled.
# n = 2^28 (N=<words> to change it), int32 and float, 5 repetitions.
#
# usage (on a machine with an NVIDIA GPU, after a build):
#   B=<build dir> OUT=<dir> scripts/experiments/scan_cross/run.sh [CONFIG...]
# (no CONFIG: all of them) writes $OUT/<config>.json (gpucmp-bench's JSON),
# $OUT/<config>.log and $OUT/sass/<config>/ (gpucmp-ptx dump --api opencl
# with the same options: <program>.log holds ptxas' register report,
# <program>.sass what ran). Configurations (OpenCL options; CUDA's rows run
# in `plain` and `alpha-batched` only):
#   plain               none: both APIs' alpha, lookback, onepass and onepass-regcap64
#   alpha-cap98         -cl-nv-maxrregcount=98 (CUDA's scan_tiles at alpha 32)
#   alpha-cap56         -cl-nv-maxrregcount=56 (CUDA's scan_tiles at alpha 16)
#   alpha-batched       none; --scan-load each,batched on both APIs' alpha rows
#   onepass-anysize     -DANY_GROUP_SIZE (the control of the two below)
#   onepass-anysize-cap64   and -cl-nv-maxrregcount=64 (4 blocks an SM at alpha 32)
#   onepass-anysize-cap40   and -cl-nv-maxrregcount=40 (6 blocks an SM at alpha 16)
#   lookback-unrolled   -DUNROLL_LOOKBACK_WINDOW (the look-back walk unrolled)
# exit: 0 every configuration ran; 1 one failed (its log says why); 2 usage.
set -u
: "${OUT:?set OUT to the output folder}"
B=${B:-build}
N=${N:-268435456}
common=(--size standard --startup off --progress off --benchmark_repetitions=5
        --scan-n "$N" --scan-type "int32,float")

# name; OpenCL build options; alphas; row filter; programs to dump; more
# gpucmp-bench options (fields split at ';': the filters hold '|')
configs=(
  "plain;;8,16,32;^scan/(cuda|opencl)/(alpha|lookback|onepass|onepass-regcap64)/;;"
  "alpha-cap98;-cl-nv-maxrregcount=98;32;^scan/opencl/alpha/;scan/alpha;"
  "alpha-cap56;-cl-nv-maxrregcount=56;16;^scan/opencl/alpha/;scan/alpha;"
  "alpha-batched;;8,16,32;^scan/(cuda|opencl)/alpha/;;--scan-load=each,batched"
  "onepass-anysize;-DANY_GROUP_SIZE;16,32;^scan/opencl/onepass/;scan/onepass;"
  "onepass-anysize-cap64;-DANY_GROUP_SIZE -cl-nv-maxrregcount=64;32;^scan/opencl/onepass/;scan/onepass;"
  "onepass-anysize-cap40;-DANY_GROUP_SIZE -cl-nv-maxrregcount=40;16;^scan/opencl/onepass/;scan/onepass;"
  "lookback-unrolled;-DUNROLL_LOOKBACK_WINDOW;8,16,32;^scan/opencl/lookback/;scan/lookback;"
)
names=()
for c in "${configs[@]}"; do names+=("${c%%;*}"); done
for want in "$@"; do
  case " ${names[*]} " in
    *" $want "*) ;;
    *) echo "scan_cross: error: unknown configuration '$want' (one of: ${names[*]})" >&2; exit 2 ;;
  esac
done
[ -x "$B/gpucmp-bench" ] || { echo "scan_cross: error: $B/gpucmp-bench is not an executable: set B to a build folder" >&2; exit 2; }
mkdir -p "$OUT/sass"
status=0
for c in "${configs[@]}"; do
  IFS=';' read -r name options alphas filter programs more <<< "$c"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  extra=()
  [ -n "$options" ] && extra=("--cl-build-options=$options")
  bench_more=()
  [ -n "$more" ] && bench_more=("$more")
  echo "scan_cross: $name (${options:-no OpenCL options}${more:+; $more})"
  "$B/gpucmp-bench" "${common[@]}" --scan-alpha "$alphas" "${extra[@]}" "${bench_more[@]}" \
    "--benchmark_filter=$filter" --benchmark_out="$OUT/$name.json" \
    --benchmark_out_format=json > "$OUT/$name.log" 2>&1 || status=1
  if [ -n "$programs" ]; then
    "$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --variant "$programs" "${extra[@]}" \
      --out "$OUT/sass/$name" >> "$OUT/$name.log" 2>&1 || status=1
  fi
done
exit $status
