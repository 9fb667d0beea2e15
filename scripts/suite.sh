#!/usr/bin/env bash
# One command per GPU: set up, build gpucmp-bench (Release), run the standard
# set of every study on this machine's GPU into results/<gpu>/<date>-<revision>/
# with its manifest and REPORT.md (scripts/suite.py; its --help says more).
# Arguments go to suite.py: scripts/suite.sh --list, --part matrixmul,parboil,
# --resume DIR. On a machine without network, carry .debs/ and
# `source scripts/device_setup.sh` first (README "Running on a GPU").
set -euo pipefail
started=$SECONDS
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUCMP_BUILD_DIR:-$root/build}"

[ "${GPUCMP_SKIP_SETUP:-0}" = 1 ] || "$root/scripts/setup.sh"
# shellcheck source=gpu_env.sh
source "$root/scripts/gpu_env.sh"
# The sass part disassembles with cuobjdump and runs offline ptxas.
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
case " $* " in
  *" --list "* | *" --help "* | *" -h "*) ;;
  *)
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" --target gpucmp-bench gpucmp-ptx
    ;;
esac
# The set-up and build's seconds, for the manifest and the closing line.
export GPUCMP_SETUP_SECONDS=$((SECONDS - started))
python=python3
[ -x "$root/.venv/bin/python" ] && python="$root/.venv/bin/python"
exec "$python" "$root/scripts/suite.py" --bench "$build/gpucmp-bench" "$@"
