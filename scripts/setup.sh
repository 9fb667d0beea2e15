#!/usr/bin/env bash
# Checks, and installs where missing, the Debian packages gpucmp builds and
# runs with (compilers and the CUDA toolkit excepted), then the Python packages
# of requirements.txt into a virtual environment .venv at the repository root
# (made from python3 on PATH, or GPUCMP_PYTHON; scripts/py runs it). Idempotent:
# a second run installs nothing (.venv is reused while requirements.txt is
# unchanged). Set GPUCMP_NO_INSTALL=1 to only check; GPUCMP_NO_VENV=1 to leave
# .venv out (the scripts then run on python3 on PATH, figures only where it
# imports matplotlib).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(
  cmake make g++ git pkg-config
  libbenchmark-dev libgtest-dev googletest
  nlohmann-json3-dev libspdlog-dev libcli11-dev
  ocl-icd-opencl-dev opencl-headers clinfo
  pocl-opencl-icd          # an OpenCL device (the CPU) where no GPU is present
  libclblast-dev           # matrixMul/opencl/clblast reference rows
  libopenmpi-dev openmpi-bin  # --split-over mpi: split rows over MPI ranks (mpirun)
  python3
  python3-venv             # python3 -m venv for .venv (Debian's python3; requirements.txt)
  clang-format             # scripts/check_format.sh (CTest: format)
  clang-tidy               # scripts/check_tidy.sh (CTest: tidy)
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

# ---- Python packages (requirements.txt) in .venv ----
venv="$root/.venv"
req="$root/requirements.txt"
if [ "${GPUCMP_NO_VENV:-0}" = 1 ]; then
  echo "setup: GPUCMP_NO_VENV=1: no .venv (the scripts run on python3 on PATH)"
else
  # Reused while its interpreter runs and requirements.txt is what it was made from.
  stamp="$venv/gpucmp-requirements.sha256"
  want="$(cat "$req" "$root/scripts/kernel_tuner_requirements.txt" "$root/pyproject.toml" |
          sha256sum | cut -d' ' -f1)"
  if "$venv/bin/python" -c '' 2>/dev/null && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    echo "setup: .venv present ($("$venv/bin/python" --version 2>&1), requirements.txt and gpucmp-tools installed)"
  else
    if [ "${GPUCMP_NO_INSTALL:-0}" = 1 ]; then
      echo "setup: error: .venv missing or older than requirements.txt and GPUCMP_NO_INSTALL=1" >&2
      exit 2
    fi
    t0=$SECONDS
    if ! "$venv/bin/python" -c '' 2>/dev/null; then
      base="${GPUCMP_PYTHON:-python3}"
      rm -rf "$venv"
      if ! "$base" -m venv "$venv"; then
        echo "setup: error: '$base -m venv $venv' failed (Debian: python3-venv)" >&2
        exit 2
      fi
    fi
    if ! "$venv/bin/python" -m pip install -q -r "$req" ||
       ! "$venv/bin/python" -c 'import matplotlib, numpy, scipy'; then
      echo "setup: error: pip install -r requirements.txt into $venv failed" >&2
      exit 2
    fi
    # The scripts as a package (pyproject.toml), editable: gpucmp-report,
    # gpucmp-compare, gpucmp-suite, ... in .venv/bin, running this checkout's code.
    if ! "$venv/bin/python" -m pip install -q --no-deps --no-build-isolation -e "$root"; then
      echo "setup: error: pip install -e $root (pyproject.toml) into $venv failed" >&2
      exit 2
    fi
    echo "$want" > "$stamp"
    echo "setup: .venv ($("$venv/bin/python" --version 2>&1)) with requirements.txt and gpucmp-tools in $((SECONDS - t0)) s"
  fi
fi

if command -v nvcc >/dev/null 2>&1; then
  echo "setup: nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'): the CUDA side will be built"
else
  echo "setup: no nvcc on PATH: only the OpenCL side will be built (CUDA rows absent)"
fi
