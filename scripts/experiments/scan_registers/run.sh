#!/usr/bin/env bash
# Cross-runs of scan's alpha and onepass pairs on NVIDIA's OpenCL: the same
# rows built with a register cap (and, for onepass, without its required
# work-group size, under which NVIDIA's JIT ignores the cap), each next to the
# build log and SASS of exactly those builds. One process per configuration,
# n = 2^28, int32 and float, alpha 16 and 32, 5 repetitions.
#
# usage (on a machine with an NVIDIA GPU, after a build):
#   B=<build dir> OUT=<dir> scripts/experiments/scan_registers/run.sh
# writes $OUT/<config>.json (gpucmp-bench's JSON), $OUT/<config>.log and
# $OUT/sass/<config>/ (gpucmp-ptx dump --api opencl with the same options:
# <program>.log holds ptxas' register report, <program>.sass what ran).
# Configurations (the OpenCL options; CUDA's rows run in `plain` only):
#   plain               none: both APIs' alpha, onepass and onepass-regcap64
#   alpha-cap98         -cl-nv-maxrregcount=98 (CUDA's scan_tiles at alpha 32)
#   alpha-cap56         -cl-nv-maxrregcount=56 (CUDA's scan_tiles at alpha 16)
#   onepass-anysize     -DANY_GROUP_SIZE (the control of the two below)
#   onepass-anysize-cap64   and -cl-nv-maxrregcount=64 (4 blocks an SM at alpha 32)
#   onepass-anysize-cap40   and -cl-nv-maxrregcount=40 (6 blocks an SM at alpha 16)
set -u
: "${OUT:?set OUT to the output folder}"
B=${B:-build}
mkdir -p "$OUT/sass"
common=(--size standard --startup off --progress off --benchmark_repetitions=5
        --scan-n 268435456 --scan-type "int32,float")

# name; OpenCL build options ("" for none); alphas; row filter; programs to
# dump (fields split at ';': the filters hold '|')
configs=(
  "plain;;16,32;^scan/(cuda|opencl)/(alpha|onepass|onepass-regcap64)/;"
  "alpha-cap98;-cl-nv-maxrregcount=98;32;^scan/opencl/alpha/;scan/alpha"
  "alpha-cap56;-cl-nv-maxrregcount=56;16;^scan/opencl/alpha/;scan/alpha"
  "onepass-anysize;-DANY_GROUP_SIZE;16,32;^scan/opencl/onepass/;scan/onepass"
  "onepass-anysize-cap64;-DANY_GROUP_SIZE -cl-nv-maxrregcount=64;32;^scan/opencl/onepass/;scan/onepass"
  "onepass-anysize-cap40;-DANY_GROUP_SIZE -cl-nv-maxrregcount=40;16;^scan/opencl/onepass/;scan/onepass"
)
status=0
for c in "${configs[@]}"; do
  IFS=';' read -r name options alphas filter programs <<< "$c"
  extra=()
  [ -n "$options" ] && extra=("--cl-build-options=$options")
  echo "scan_registers: $name (${options:-no options})"
  "$B/gpucmp-bench" "${common[@]}" --scan-alpha "$alphas" "${extra[@]}" \
    "--benchmark_filter=$filter" --benchmark_out="$OUT/$name.json" \
    --benchmark_out_format=json > "$OUT/$name.log" 2>&1 || status=1
  if [ -n "$programs" ]; then
    "$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --variant "$programs" "${extra[@]}" \
      --out "$OUT/sass/$name" >> "$OUT/$name.log" 2>&1 || status=1
  fi
done
exit $status
