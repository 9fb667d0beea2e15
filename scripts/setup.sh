#!/usr/bin/env bash
# Checks, and installs where missing, the Debian packages gpucmp builds and
# runs with (compilers and the CUDA toolkit excepted). Idempotent: a second run
# installs nothing. Set GPUCMP_NO_INSTALL=1 to only check.
set -euo pipefail

packages=(
  cmake make g++ git pkg-config
  libbenchmark-dev libgtest-dev googletest
  nlohmann-json3-dev libspdlog-dev libcli11-dev
  ocl-icd-opencl-dev opencl-headers clinfo
  pocl-opencl-icd          # an OpenCL device (the CPU) where no GPU is present
  libclblast-dev           # matrixMul/opencl/clblast reference rows
  python3
  python3-matplotlib       # scripts/report.py: the figures of REPORT.md
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  if [ "${GPUCMP_NO_INSTALL:-0}" = 1 ]; then
    echo "setup: error: missing packages and GPUCMP_NO_INSTALL=1: ${missing[*]}" >&2
    exit 2
  fi
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: installed ${#missing[@]} package(s)"
fi

if command -v nvcc >/dev/null 2>&1; then
  echo "setup: nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'): the CUDA side will be built"
else
  echo "setup: no nvcc on PATH: only the OpenCL side will be built (CUDA rows absent)"
fi
