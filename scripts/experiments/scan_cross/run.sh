#!/usr/bin/env bash
# Cross-runs of scan's kernels, each configuration one gpucmp-bench process:
# register caps on the alpha and onepass kernels (for onepass without its
# required work-group size, under which NVIDIA's JIT ignored the cap), the
# tile loads batched on both APIs (--scan-load batched), and OpenCL's
# look-back walk unrolled. Beside each, the SASS and register report of the
# OpenCL builds it timed (for alpha-batched the builds of alpha 8, 16 and 32
# with -DBATCHED_LOADS), and once nvcc's SASS of every CUDA kernel.
# n = 2^28 (N=<words> to change it), int32 and float, 5 repetitions.
#
# usage (on a machine with an NVIDIA GPU, after a build of gpucmp-bench and
# gpucmp-ptx):
#   B=<build dir> OUT=<dir> scripts/experiments/scan_cross/run.sh [CONFIG...]
# (no CONFIG: all of them) writes $OUT/<config>.json (gpucmp-bench's JSON),
# $OUT/<config>.log, $OUT/sass/<config>/ (gpucmp-ptx dump --api opencl:
# <program>.log holds ptxas' register report, <program>.sass what ran) and
# $OUT/sass/cuda/ (gpucmp-ptx dump --api cuda: scan.sass holds each load
# order's scan_tiles, ...Lb0E... as written, ...Lb1E... batched).
# Configurations (OpenCL options; CUDA's rows run in plain, alpha-batched and
# lookback-unrolled):
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
die() { echo "scan_cross: error: $*" >&2; exit 2; }
[ -n "${OUT:-}" ] || die "set OUT to the output folder"
B=${B:-build}
N=${N:-268435456}
common=(--size standard --startup off --progress off --benchmark_repetitions=5
        --scan-n "$N" --scan-type "int32,float")
batched_builds="scan/alpha-a8 scan/alpha-a16 scan/alpha-a32"
batched_builds+=" scan/alpha-int32-a8 scan/alpha-int32-a16 scan/alpha-int32-a32"

# name; OpenCL build options; alphas; row filter; programs to dump (substrings,
# space-separated); more gpucmp-bench options; the dump's OpenCL options when
# not the rows' (fields split at ';': the filters hold '|')
configs=(
  "plain;;8,16,32;^scan/(cuda|opencl)/(alpha|lookback|onepass|onepass-regcap64)/;;;"
  "alpha-cap98;-cl-nv-maxrregcount=98;32;^scan/opencl/alpha/;scan/alpha;;"
  "alpha-cap56;-cl-nv-maxrregcount=56;16;^scan/opencl/alpha/;scan/alpha;;"
  "alpha-batched;;8,16,32;^scan/(cuda|opencl)/alpha/;$batched_builds;--scan-load=each,batched;-DBATCHED_LOADS"
  "onepass-anysize;-DANY_GROUP_SIZE;16,32;^scan/opencl/onepass/;scan/onepass;;"
  "onepass-anysize-cap64;-DANY_GROUP_SIZE -cl-nv-maxrregcount=64;32;^scan/opencl/onepass/;scan/onepass;;"
  "onepass-anysize-cap40;-DANY_GROUP_SIZE -cl-nv-maxrregcount=40;16;^scan/opencl/onepass/;scan/onepass;;"
  "lookback-unrolled;-DUNROLL_LOOKBACK_WINDOW;8,16,32;^scan/(cuda|opencl)/lookback/;scan/lookback;;"
)
names=()
for c in "${configs[@]}"; do names+=("${c%%;*}"); done
for want in "$@"; do
  [[ " ${names[*]} " == *" $want "* ]] ||
    die "unknown configuration '$want' (one of: ${names[*]})"
done
for tool in gpucmp-bench gpucmp-ptx; do
  [ -x "$B/$tool" ] || die "$B/$tool is not an executable: set B to a build folder"
done
mkdir -p "$OUT/sass" || die "cannot create $OUT/sass"
status=0
for c in "${configs[@]}"; do
  IFS=';' read -r name options alphas filter programs more dump_options <<< "$c"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  bench=("${common[@]}" --scan-alpha "$alphas" "--benchmark_filter=$filter")
  [ -n "$options" ] && bench+=("--cl-build-options=$options")
  [ -n "$more" ] && bench+=("$more")
  echo "scan_cross: $name (${options:-no OpenCL options}${more:+; $more})"
  "$B/gpucmp-bench" "${bench[@]}" --benchmark_out="$OUT/$name.json" \
    --benchmark_out_format=json > "$OUT/$name.log" 2>&1 || status=1
  dump=(dump --api opencl --no-ptxas-sass --out "$OUT/sass/$name")
  dump_options=${dump_options:-$options}
  [ -n "$dump_options" ] && dump+=("--cl-build-options=$dump_options")
  for program in $programs; do
    "$B/gpucmp-ptx" "${dump[@]}" --variant "$program" >> "$OUT/$name.log" 2>&1 || status=1
  done
done
if [ ! -d "$OUT/sass/cuda" ]; then
  "$B/gpucmp-ptx" dump --api cuda --out "$OUT/sass/cuda" > "$OUT/cuda-dump.log" 2>&1 || status=1
fi
exit $status
