#!/usr/bin/env bash
# The main job: set up, build, run the quick suite on the default devices
# (the GPU, or PoCL where there is none) and write results/local/latest.json.
# Extra arguments go to gpucmp-bench, e.g. scripts/run.sh --size standard
# --benchmark_filter=matrixMul --benchmark_repetitions=5
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUCMP_BUILD_DIR:-$root/build}"

[ "${GPUCMP_SKIP_SETUP:-0}" = 1 ] || "$root/scripts/setup.sh"
# shellcheck source=gpu_env.sh
source "$root/scripts/gpu_env.sh"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target gpucmp-bench

args=("$@")
case " ${args[*]-} " in
  *" --size"*) ;;
  *) args=(--size quick "${args[@]}") ;;
esac
mkdir -p "$root/results/local"
out="$root/results/local/latest.json"
set +e
"$build/gpucmp-bench" --benchmark_out="$out" --benchmark_out_format=json "${args[@]}"
rc=$?
set -e
echo "run: results in $out (exit code $rc)"
exit $rc
