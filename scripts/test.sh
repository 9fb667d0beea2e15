#!/usr/bin/env bash
# The tests: set up, build everything, run CTest. GPU-only tests (label gpu)
# skip themselves where no GPU is present. Extra arguments go to ctest.
# Then, with no extra arguments (or GPUCMP_SANITIZERS=1; GPUCMP_SANITIZERS=0
# leaves it out), the suite once more under ASan, LSan and UBSan:
# scripts/test_sanitizers.sh (build-asan; about 10 more minutes on 2 cores).
# The Python tests run on .venv's interpreter (scripts/setup.sh), as scripts/py does.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUCMP_BUILD_DIR:-$root/build}"

[ "${GPUCMP_SKIP_SETUP:-0}" = 1 ] || "$root/scripts/setup.sh"
# shellcheck source=gpu_env.sh
source "$root/scripts/gpu_env.sh"

python=()
if [ -x "$root/.venv/bin/python" ]; then python=(-DPython3_EXECUTABLE="$root/.venv/bin/python"); fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_WERROR=ON \
  ${python[@]+"${python[@]}"} >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
ctest --output-on-failure -j"$(nproc)" --timeout 900 "$@"

sanitizers="${GPUCMP_SANITIZERS:-}"
if [ -z "$sanitizers" ]; then
  if [ $# -eq 0 ]; then sanitizers=1; else sanitizers=0; fi
fi
if [ "$sanitizers" = 1 ]; then
  GPUCMP_SKIP_SETUP=1 "$root/scripts/test_sanitizers.sh"
fi
