#!/usr/bin/env bash
# What a short row's launch adds to its API's launch floor: the ceiling's
# launch variants (the floor's own kernel; over the full grid, launch-grid;
# given layoutconv's arguments, set before each launch, launch-args, and on
# OpenCL set once, launch-args-once) beside layoutconv's 1.6 MB conversion,
# RUNS processes in a row, each row read against the floor probed just
# before it (counter launch_floor_ratio), then the SASS of both APIs'
# ceiling kernels.
#
# usage (on a machine with an NVIDIA GPU, after a build of gpucmp-bench and
# gpucmp-ptx):
#   B=<build dir> OUT=<dir> [RUNS=3] scripts/experiments/launch_cost/run.sh
# writes $OUT/launch-<k>.json and .log (k = 1..RUNS; gpucmp-bench's JSON),
# $OUT/ratios.md (each row's launch_floor_ratio and median per run) and
# $OUT/sass.tar.xz (gpucmp-ptx dump of the ceiling programs: sass/opencl/,
# the JIT's; sass/cuda/ceiling.*, nvcc's).
# exit: 0 every run went through; 1 one failed (its log says why); 2 usage.
set -u
# shellcheck source=scripts/experiments/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
check_experiment_inputs
filter='^(ceiling/(cuda|opencl)/launch|layoutconv/(cuda|opencl)/base/records:100000/words:4/from:aos/to:soa/)'
status=0
for k in $(seq 1 "$RUNS"); do
  echo "launch_cost: run $k of $RUNS"
  "$B/gpucmp-bench" --size standard --startup off --progress off --benchmark_repetitions=5 \
    "--benchmark_filter=$filter" --benchmark_out="$OUT/launch-$k.json" \
    --benchmark_out_format=json > "$OUT/launch-$k.log" 2>&1 || status=1
done
python3 - "$OUT" "$RUNS" > "$OUT/ratios.md" <<'PY' || status=1
import json, sys
out, runs = sys.argv[1], int(sys.argv[2])
table = {}
for k in range(1, runs + 1):
    try:
        doc = json.load(open(f"{out}/launch-{k}.json"))
    except (OSError, ValueError) as e:
        print(f"launch-{k}.json: unreadable ({e})", file=sys.stderr)
        sys.exit(1)
    for b in doc["benchmarks"]:
        if b.get("aggregate_name") == "median":
            row = b["run_name"].removesuffix("/iterations:1/manual_time")
            cell = f"{b.get('launch_floor_ratio', float('nan')):.2f} ({b['real_time']:.2f} us)"
            table.setdefault(row, {})[k] = cell
print("| row | " + " | ".join(f"run {k}" for k in range(1, runs + 1)) + " |")
print("|---|" + "---:|" * runs)
for row, cells in table.items():
    print(f"| {row} | " + " | ".join(cells.get(k, "-") for k in range(1, runs + 1)) + " |")
PY
dump_ceiling_sass || status=1
exit $status
