#!/usr/bin/env bash
# The tests: set up, build everything, run CTest. GPU-only tests (label gpu)
# skip themselves where no GPU is present. Extra arguments go to ctest.
# Then, with no extra arguments (GPUCMP_TIDY and GPUCMP_SANITIZERS, 1 or 0,
# say otherwise): clang-tidy over every .cpp (scripts/check_tidy.sh, whose
# cache skips the files it knows clean), and the suite once more under ASan,
# LSan and UBSan (scripts/test_sanitizers.sh, build-asan). Each step's time
# is said on stderr ("test.sh: <step>: N s").
# The Python tests run on .venv's interpreter (scripts/setup.sh), as scripts/py does.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUCMP_BUILD_DIR:-$root/build}"

[ "${GPUCMP_SKIP_SETUP:-0}" = 1 ] || "$root/scripts/setup.sh"
# shellcheck source=gpu_env.sh
source "$root/scripts/gpu_env.sh"

python=()
if [ -x "$root/.venv/bin/python" ]; then python=(-DPython3_EXECUTABLE="$root/.venv/bin/python"); fi
timed() {
  local step=$1 t0=$SECONDS
  shift
  "$@"
  echo "test.sh: $step: $((SECONDS - t0)) s" >&2
}
build_all() {
  # clang-tidy is a step of its own below, not a CTest test.
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_WERROR=ON \
    -DGPUCMP_TIDY_TEST=OFF ${python[@]+"${python[@]}"} >/dev/null
  cmake --build "$build" -j"$(nproc)"
}
timed build build_all
(cd "$build" && timed ctest ctest --output-on-failure -j"$(nproc)" --timeout 900 "$@")

default_on=1
[ $# -eq 0 ] || default_on=0
if [ "${GPUCMP_TIDY:-$default_on}" = 1 ]; then
  if command -v clang-tidy >/dev/null || command -v clang-tidy-14 >/dev/null; then
    timed clang-tidy "$root/scripts/check_tidy.sh" "$build"
  else
    echo "test.sh: clang-tidy: skipped, not installed (scripts/setup.sh installs it)" >&2
  fi
fi
if [ "${GPUCMP_SANITIZERS:-$default_on}" = 1 ]; then
  GPUCMP_SKIP_SETUP=1 timed sanitizers "$root/scripts/test_sanitizers.sh"
fi
