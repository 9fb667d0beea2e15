#!/usr/bin/env bash
# Where advection's ring-vec4 (opencl/advection/advection_async.cl: CUDA's
# ring copy written in OpenCL C) still differs from CUDA's ring, priced one
# difference at a time by controlled variants of its source, each built with
# --cl-build-options (only ring-vec4 reads them): its prologue's copies in
# a loop (-DRING_VEC4_PROLOGUE_LOOP, PoCL's form) or unrolled as CUDA's are
# (-DRING_VEC4_PROLOGUE_UNROLLED, the form the runner builds on NVIDIA's
# driver), each row's copy issued before the row's barrier as CUDA's is
# (-DRING_VEC4_COPY_FIRST), and the last two together; as-built is what the
# suite runs on the device. RUNS rounds, each one process per form back to
# back, timing CUDA's
# ring and OpenCL's ring-vec4 at the standard grids; then each form's
# same-field check against weights (output_digest after three steps) and
# the JIT's SASS of each form. table.py reads them into table.md.
#
# usage (on a machine with an NVIDIA GPU, after a build of gpucmp-bench and
# gpucmp-ptx):
#   B=<build dir> OUT=<dir> [RUNS=3] scripts/experiments/ring_prologue/run.sh
# writes $OUT/<form>-<k>.json and .log (k = 1..RUNS; form: as-built, loop,
# unrolled, copy-first, both), $OUT/same-field-<form>.json and .log,
# $OUT/table.md and $OUT/sass.tar.xz (sass/<form>/: gpucmp-ptx dump of
# advection/ring-vec4).
# exit: 0 every run went through; 1 one failed (its log says why); 2 usage.
set -u
# shellcheck source=scripts/experiments/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
check_experiment_inputs
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
forms=(as-built loop unrolled copy-first both)
declare -A form_options=([as-built]=""
  [loop]="-DRING_VEC4_PROLOGUE_LOOP"
  [unrolled]="-DRING_VEC4_PROLOGUE_UNROLLED"
  [copy-first]="-DRING_VEC4_COPY_FIRST"
  [both]="-DRING_VEC4_PROLOGUE_UNROLLED -DRING_VEC4_COPY_FIRST")
# args: the form's --cl-build-options, none for as-built (blank options are
# refused).
set_form_args() {
  args=()
  [ -z "${form_options[$1]}" ] || args=("--cl-build-options=${form_options[$1]}")
}
timed=(--size standard --startup off --progress off --benchmark_repetitions=3
  --benchmark_enable_random_interleaving=true
  "--benchmark_filter=^advection/(cuda|opencl)/(ring|ring-vec4)/nx"
  --benchmark_out_format=json)
status=0
for k in $(seq 1 "$RUNS"); do
  for form in "${forms[@]}"; do
    echo "ring_prologue: round $k of $RUNS, $form"
    set_form_args "$form"
    "$B/gpucmp-bench" "${timed[@]}" ${args[@]+"${args[@]}"} \
      --benchmark_out="$OUT/$form-$k.json" > "$OUT/$form-$k.log" 2>&1 || status=1
  done
done
rm -rf "$OUT/sass"
mkdir -p "$OUT/sass" || die "cannot create $OUT/sass"
: > "$OUT/dump.log"
for form in "${forms[@]}"; do
  echo "ring_prologue: same field and SASS, $form"
  set_form_args "$form"
  "$B/gpucmp-bench" "--benchmark_filter=^advection/opencl/(weights|ring-vec4)/" --cache cold \
    --samples 1 --advection-grid 256x256,320x192,8192x16384 ${args[@]+"${args[@]}"} \
    --benchmark_out_format=json --benchmark_out="$OUT/same-field-$form.json" \
    > "$OUT/same-field-$form.log" 2>&1 || status=1
  "$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --variant advection/ring-vec4 \
    ${args[@]+"${args[@]}"} --out "$OUT/sass/$form" >> "$OUT/dump.log" 2>&1 || status=1
done
(cd "$OUT" && tar -cJf sass.tar.xz sass && rm -rf sass) || status=1
python3 "$here/table.py" "$OUT" "$RUNS" "${forms[@]}" > "$OUT/table.md" || status=1
exit $status
