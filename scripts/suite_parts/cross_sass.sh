#!/usr/bin/env bash
# The suite's crosssass part (scripts/suite.sh --part crosssass): the SASS that
# CUDA's driver JIT made of the cross-run rows (cuda/cross_runners.h): each
# -opencl-ptx and -ptx-jit row runs once with a private compute cache
# (CUDA_CACHE_DISABLE=0), and `gpucmp-ptx cache-sass` writes the cubins it added.
# The cache first holds what the OpenCL row of the same program leaves there
# (its own build, and the OpenCL runtime's built-in kernels, which every
# gpucmp-bench process JIT-compiles when it opens NVIDIA's OpenCL), so that
# only CUDA's JIT output of the cross-run row is new.
# usage: B=<build dir> OUT=<dir> [PTX=<gpucmp-ptx>] [ROWS="<workload>/<variant>[@<param>] ..."]
#          scripts/suite_parts/cross_sass.sh
# ROWS (default: matrixMul, cp, mriq, mrifhd, MRI by value) names the OpenCL rows whose
# cross-run rows to dump; @<param> keeps one parameter value of the row (e.g.
# lavamd/base@layout:soa) and goes into the file name.
# Writes $OUT/sass/<workload>-<variant>.cuda-jit.sass (first line: "// SASS:
# driver JIT (CUDA, driver ..., gpucmp-bench <row>), ..."), and the OpenCL
# row's own cubin, what its build left in the private cache (with the OpenCL
# runtime's built-in kernels and the launch-floor probe's), as
# $OUT/sass/<workload>-<variant>.opencl-row.sass: what that row ran, which the
# report prefers to the sass part's separate build of the program; the suite
# packs them as cross-sass.tar.xz, which the report reads beside sass.tar.xz.
# exit: 0 every row dumped; 1 a row failed (the others are written).
set -u
shopt -s nullglob
: "${OUT:?set OUT to the output folder}"
B=${B:-build}
PTX=${PTX:-$B/gpucmp-ptx}
HERE=$(cd "$(dirname "$0")/.." && pwd)
# NVIDIA's OpenCL for the OpenCL rows and the -opencl-ptx rows.
# shellcheck source=scripts/gpu_env.sh
source "$HERE/gpu_env.sh"
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT/sass"
failed=0
bench() {  # bench <cache dir> <exact row filter>
  CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH="$1" timeout 60 "$B/gpucmp-bench" --size quick \
    --startup off --progress off --samples 2 --benchmark_filter="$2" > "$1.log" 2>&1
}
k=0
ROWS=${ROWS:-matrixMul/tile16 matrixMul/tile32 matrixMul/tile16-aligned matrixMul/tile32-aligned
      cp/unrollx8 cp/unrollx8-ieee cp/unrollx8-fast mriq/precise mriq/fast
      mrifhd/precise mrifhd/fast mriq/precise-byvalue mrifhd/precise-byvalue
      mrifhd/fast-byvalue}
for row in $ROWS; do
  w=${row%%/*}; v=${row#*/}; param='' tag=''
  case "$v" in *@*) param=".*/${v#*@}/"; tag="-${v#*@}"; tag=${tag//:/-}; v=${v%%@*} ;; esac
  crosses=(opencl-ptx)  # nvcc's PTX is embedded for the precise builds only
  case "$v" in *fast*|*ieee*|*byvalue*) ;; *) crosses+=(ptx-jit) ;; esac
  for cross in "${crosses[@]}"; do
    k=$((k + 1))
    base="$work/c$k-base" cache="$work/c$k" new="$work/c$k-new"
    mkdir -p "$base" "$new"
    bench "$base" "^$w/opencl/$v/$param"
    row_sass="$OUT/sass/$w-$v$tag.opencl-row.sass"
    if [ ! -e "$row_sass" ]; then  # the OpenCL row's own build: once per row
      if "$PTX" cache-sass --cache "$base" --out "$work/row-$k" \
          --label "NVIDIA OpenCL, driver $driver, gpucmp-bench $w/opencl/$v$tag (the row's own build)" \
          > "$work/row-$k.log" 2>&1; then
        rows=("$work/row-$k"/*.sass)
        cat "${rows[@]}" > "$row_sass"
        echo "$w/$v$tag: the OpenCL row's own build, ${#rows[@]} cubin(s)"
      else
        echo "$w/$v$tag: the OpenCL row's own build: $(tail -1 "$work/row-$k.log")"; failed=1
      fi
    fi
    cp -r "$base" "$cache"
    bench "$cache" "^$w/cuda/$v-$cross/$param"
    grep -q "ERROR OCCURRED\|error:" "$cache.log" && { echo "$w/$v$tag-$cross: $(grep -m1 -E 'ERROR|error' "$cache.log")"; failed=1; continue; }
    (cd "$cache" && find . -type f) | sort > "$work/after"
    (cd "$base" && find . -type f) | sort > "$work/before"
    comm -13 "$work/before" "$work/after" | while read -r f; do
      mkdir -p "$new/$(dirname "$f")" && cp "$cache/$f" "$new/$f"; done
    "$PTX" cache-sass --cache "$new" --out "$work/sass-$k" \
      --label "CUDA, driver $driver, gpucmp-bench $w/cuda/$v-$cross$tag" > "$work/sass-$k.log" 2>&1 ||
      { echo "$w/$v$tag-$cross: $(tail -1 "$work/sass-$k.log")"; failed=1; continue; }
    files=("$work/sass-$k"/*.sass)
    cat "${files[@]}" > "$OUT/sass/$w-$v$tag-$cross.cuda-jit.sass"
    echo "$w/$v$tag-$cross: ${#files[@]} cubin(s)"
  done
done
exit "$failed"
