#!/usr/bin/env bash
# What advection's ring-vec4 pays for issuing its prologue's copies in a
# loop (opencl/advection/advection_async.cl: unrolled, PoCL's optimized
# build loses a halo; NVIDIA's JIT is given the loop too). RUNS rounds, each
# two processes back to back: the rows as built, then every OpenCL program
# built with -DRING_VEC4_PROLOGUE_UNROLLED (--cl-build-options; only
# ring-vec4 reads it). Each process times CUDA's and OpenCL's ring and
# OpenCL's ring-vec4 at the standard grids. Then, with the option, the
# same-field check of ring-vec4 against weights (output_digest after three
# steps), and the JIT's SASS of ring-vec4 both ways. table.py reads them
# into table.md.
#
# usage (on a machine with an NVIDIA GPU, after a build of gpucmp-bench and
# gpucmp-ptx):
#   B=<build dir> OUT=<dir> [RUNS=3] scripts/experiments/ring_prologue/run.sh
# writes $OUT/{loop,unrolled}-<k>.json and .log (k = 1..RUNS),
# $OUT/same-field-unrolled.json and .log, $OUT/table.md and $OUT/sass.tar.xz
# (sass/loop/, sass/unrolled/: gpucmp-ptx dump of advection/ring-vec4).
# exit: 0 every run went through; 1 one failed (its log says why); 2 usage.
set -u
# shellcheck source=scripts/experiments/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
check_experiment_inputs
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
unroll=-DRING_VEC4_PROLOGUE_UNROLLED
common=(--size standard --startup off --progress off --benchmark_repetitions=3
  --benchmark_enable_random_interleaving=true
  "--benchmark_filter=^advection/(cuda|opencl)/(ring|ring-vec4)/nx"
  --benchmark_out_format=json)
status=0
for k in $(seq 1 "$RUNS"); do
  echo "ring_prologue: round $k of $RUNS, as built"
  "$B/gpucmp-bench" "${common[@]}" --benchmark_out="$OUT/loop-$k.json" \
    > "$OUT/loop-$k.log" 2>&1 || status=1
  echo "ring_prologue: round $k of $RUNS, prologue unrolled"
  "$B/gpucmp-bench" "${common[@]}" --cl-build-options="$unroll" \
    --benchmark_out="$OUT/unrolled-$k.json" > "$OUT/unrolled-$k.log" 2>&1 || status=1
done
echo "ring_prologue: same field, prologue unrolled"
"$B/gpucmp-bench" "--benchmark_filter=^advection/opencl/(weights|ring-vec4)/" --cache cold \
  --samples 1 --advection-grid 256x256,320x192,8192x16384 --cl-build-options="$unroll" \
  --benchmark_out_format=json --benchmark_out="$OUT/same-field-unrolled.json" \
  > "$OUT/same-field-unrolled.log" 2>&1 || status=1
rm -rf "$OUT/sass"
mkdir -p "$OUT/sass" || die "cannot create $OUT/sass"
"$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --variant advection/ring-vec4 \
  --out "$OUT/sass/loop" > "$OUT/dump.log" 2>&1 || status=1
"$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --variant advection/ring-vec4 \
  --cl-build-options="$unroll" --out "$OUT/sass/unrolled" >> "$OUT/dump.log" 2>&1 || status=1
(cd "$OUT" && tar -cJf sass.tar.xz sass && rm -rf sass) || status=1
python3 "$here/table.py" "$OUT" "$RUNS" > "$OUT/table.md" || status=1
exit $status
