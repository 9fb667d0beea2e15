#!/usr/bin/env bash
# The tests: set up, build everything, run CTest. GPU-only tests (label gpu)
# skip themselves where no GPU is present. Extra arguments go to ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUCMP_BUILD_DIR:-$root/build}"

[ "${GPUCMP_SKIP_SETUP:-0}" = 1 ] || "$root/scripts/setup.sh"
# shellcheck source=gpu_env.sh
source "$root/scripts/gpu_env.sh"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j"$(nproc)" --timeout 900 "$@"
