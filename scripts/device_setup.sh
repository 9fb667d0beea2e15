# Sourced on a GPU machine that has no network (see README "Running on a
# GPU"): unpacks the .deb files carried in .debs/ (CLBlast, CLI11) into a
# private prefix and points CMake and the loader at it, installs the Python
# wheels carried in .whl/ (Kernel Tuner, below), then registers NVIDIA's OpenCL
# ICD. Usage: source scripts/device_setup.sh
_gpucmp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GPUCMP_DEPS_PREFIX="${GPUCMP_DEPS_PREFIX:-/tmp/gpucmp-deps}"
if [ -d "$_gpucmp_root/.debs" ]; then
  mkdir -p "$GPUCMP_DEPS_PREFIX"
  for _deb in "$_gpucmp_root"/.debs/*.deb; do dpkg -x "$_deb" "$GPUCMP_DEPS_PREFIX"; done
  export CMAKE_PREFIX_PATH="$GPUCMP_DEPS_PREFIX/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$GPUCMP_DEPS_PREFIX/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "device_setup: unpacked $(ls "$_gpucmp_root"/.debs/*.deb | wc -l) .deb files into $GPUCMP_DEPS_PREFIX"
fi
# NCCL (the two-GPU advection rows): the CUDA toolkit's where it has one,
# else the nvidia-nccl wheel of the image's PyTorch (headers and
# libnccl.so.2; CMake's find_library wants the unversioned name).
if [ -z "${NCCL_HOME:-}" ] && ! ls /usr/local/cuda/include/nccl.h /usr/include/nccl.h > /dev/null 2>&1; then
  _nccl=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2> /dev/null)
  if [ -n "$_nccl" ] && [ -e "$_nccl/include/nccl.h" ] && [ -e "$_nccl/lib/libnccl.so.2" ]; then
    ln -sf libnccl.so.2 "$_nccl/lib/libnccl.so"
    export NCCL_HOME="$_nccl" LD_LIBRARY_PATH="$_nccl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "device_setup: NCCL from $NCCL_HOME"
  fi
  unset _nccl
fi
# Kernel Tuner beside gpucmp's tuner (scripts/kernel_tuner_side.py): where .whl/
# holds the wheels of scripts/fetch_wheels.sh, they are installed from it,
# offline, and GPUCMP_KT_PYTHON names the python that has them. By default into
# a virtual environment (GPUCMP_KT_VENV, default /tmp/gpucmp-kt-venv) from every
# wheel Kernel Tuner needs. With GPUCMP_KT_SYSTEM_SITE=1 (wheels the image's
# python3 has, such as numpy and scipy, left out by GPUCMP_WHEEL_SKIP), the
# wheels go into a folder (GPUCMP_KT_SITE, default /tmp/gpucmp-kt-site) and
# GPUCMP_KT_PYTHON is a wrapper that runs that python3 with the folder first on
# its path: a virtual environment made from a python3 that is itself a virtual
# environment's would not see that environment's packages.
if ls "$_gpucmp_root"/.whl/*.whl > /dev/null 2>&1; then
  if [ "${GPUCMP_KT_SYSTEM_SITE:-0}" = 1 ]; then
    GPUCMP_KT_SITE="${GPUCMP_KT_SITE:-/tmp/gpucmp-kt-site}"
    _kt_python3="$(command -v python3)"
    if python3 -m pip install -q --no-index --no-deps --no-compile --upgrade \
         --target "$GPUCMP_KT_SITE" "$_gpucmp_root"/.whl/*.whl; then
      printf '#!/bin/sh\nPYTHONPATH="%s${PYTHONPATH:+:$PYTHONPATH}" exec "%s" "$@"\n' \
        "$GPUCMP_KT_SITE" "$_kt_python3" > "$GPUCMP_KT_SITE-python"
      chmod +x "$GPUCMP_KT_SITE-python"
      export GPUCMP_KT_PYTHON="$GPUCMP_KT_SITE-python"
    fi
    unset _kt_python3
  else
    GPUCMP_KT_VENV="${GPUCMP_KT_VENV:-/tmp/gpucmp-kt-venv}"
    if { [ -x "$GPUCMP_KT_VENV/bin/python" ] || python3 -m venv "$GPUCMP_KT_VENV" > /dev/null 2>&1; } &&
       "$GPUCMP_KT_VENV/bin/python" -m pip install -q --no-index --find-links "$_gpucmp_root/.whl" \
         -r "$_gpucmp_root/scripts/kernel_tuner_requirements.txt"; then
      export GPUCMP_KT_PYTHON="$GPUCMP_KT_VENV/bin/python"
    fi
  fi
  if [ -n "${GPUCMP_KT_PYTHON:-}" ] && "$GPUCMP_KT_PYTHON" -c 'import kernel_tuner' 2> /dev/null; then
    echo "device_setup: Kernel Tuner from .whl/ for $GPUCMP_KT_PYTHON (GPUCMP_KT_PYTHON)"
  else
    echo "device_setup: warning: Kernel Tuner from .whl/ does not import (scripts/kernel_tuner_side.py will name what is missing)" >&2
  fi
fi
export GPUCMP_SKIP_SETUP=1  # no apt there: setup.sh would fail
# shellcheck source=gpu_env.sh
source "$_gpucmp_root/scripts/gpu_env.sh"
unset _gpucmp_root _deb
