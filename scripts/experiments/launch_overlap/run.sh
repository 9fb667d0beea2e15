#!/usr/bin/env bash
# How much of a kernel's own time each API's back-to-back launches hide: the
# ceiling's launch row (the floor's kernel) and its launch-spin-<s> rows (one
# block, one dependent FMA chain of s steps a thread: longer kernels, nothing
# else changed), RUNS processes back to back (each row's time a launch and
# the floor probed before it), then one process with --launch-gaps (each
# launch also timed alone: its device time), then the SASS of both APIs'
# ceiling kernels. table.py reads them into table.md.
#
# usage (on a machine with an NVIDIA GPU, after a build of gpucmp-bench and
# gpucmp-ptx):
#   B=<build dir> OUT=<dir> [RUNS=3] scripts/experiments/launch_overlap/run.sh
# writes $OUT/b2b-<k>.json and .log (k = 1..RUNS), $OUT/alone.json and .log,
# $OUT/table.md and $OUT/sass.tar.xz (sass/opencl/: the JIT's; sass/cuda/:
# nvcc's ceiling cubin).
# exit: 0 every run went through; 1 one failed (its log says why); 2 usage.
set -u
# shellcheck source=scripts/experiments/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
check_experiment_inputs
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
filter='^ceiling/(cuda|opencl)/launch(-spin-[0-9]+)?/'
common=(--size standard --startup off --progress off --benchmark_repetitions=5
  --benchmark_enable_random_interleaving=true "--benchmark_filter=$filter"
  --benchmark_out_format=json)
status=0
for k in $(seq 1 "$RUNS"); do
  echo "launch_overlap: back to back, run $k of $RUNS"
  "$B/gpucmp-bench" "${common[@]}" --benchmark_out="$OUT/b2b-$k.json" \
    > "$OUT/b2b-$k.log" 2>&1 || status=1
done
echo "launch_overlap: each launch timed alone"
"$B/gpucmp-bench" "${common[@]}" --launch-gaps --benchmark_out="$OUT/alone.json" \
  > "$OUT/alone.log" 2>&1 || status=1
python3 "$here/table.py" "$OUT" "$RUNS" > "$OUT/table.md" || status=1
dump_ceiling_sass || status=1
exit $status
