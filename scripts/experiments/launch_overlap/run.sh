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
die() { echo "launch_overlap: error: $*" >&2; exit 2; }
[ -n "${OUT:-}" ] || die "set OUT to the output folder"
B=${B:-build}
RUNS=${RUNS:-3}
[[ "$RUNS" =~ ^[1-9][0-9]?$ ]] || die "RUNS must be 1..99, not '$RUNS'"
for tool in gpucmp-bench gpucmp-ptx; do
  [ -x "$B/$tool" ] || die "$B/$tool is not an executable: set B to a build folder"
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$OUT/sass/opencl" "$OUT/sass/cuda" || die "cannot create $OUT/sass"
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
"$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --out "$OUT/sass/opencl" --variant ceiling/ \
  > "$OUT/dump.log" 2>&1 || status=1
"$B/gpucmp-ptx" dump --api cuda --out "$OUT/sass/all-cuda" >> "$OUT/dump.log" 2>&1 || status=1
mv "$OUT"/sass/all-cuda/ceiling.* "$OUT/sass/cuda/" 2>> "$OUT/dump.log" || status=1
rm -rf "$OUT/sass/all-cuda"
(cd "$OUT" && tar -cJf sass.tar.xz sass && rm -rf sass) || status=1
exit $status
