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
# holds the wheels of scripts/fetch_wheels.sh, they are installed from it, offline,
# into a virtual environment (GPUCMP_KT_VENV, default /tmp/gpucmp-kt-venv; with
# GPUCMP_KT_SYSTEM_SITE=1 it sees the image's packages too, for wheels left out),
# else, without python3's venv module, into the user site; GPUCMP_KT_PYTHON names
# the python that has them.
if ls "$_gpucmp_root"/.whl/*.whl > /dev/null 2>&1; then
  GPUCMP_KT_VENV="${GPUCMP_KT_VENV:-/tmp/gpucmp-kt-venv}"
  _kt_pip=(--no-index --find-links "$_gpucmp_root/.whl"
           -r "$_gpucmp_root/scripts/kernel_tuner_requirements.txt")
  _kt_site=()
  if [ "${GPUCMP_KT_SYSTEM_SITE:-0}" = 1 ]; then _kt_site=(--system-site-packages); fi
  if { [ -x "$GPUCMP_KT_VENV/bin/python" ] || python3 -m venv "${_kt_site[@]}" "$GPUCMP_KT_VENV" > /dev/null 2>&1; } &&
     "$GPUCMP_KT_VENV/bin/python" -m pip install -q "${_kt_pip[@]}"; then
    export GPUCMP_KT_PYTHON="$GPUCMP_KT_VENV/bin/python"
  elif PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install -q --user "${_kt_pip[@]}"; then
    GPUCMP_KT_PYTHON="$(command -v python3)"
    export GPUCMP_KT_PYTHON
  fi
  if [ -n "${GPUCMP_KT_PYTHON:-}" ]; then
    echo "device_setup: Kernel Tuner from .whl/ for $GPUCMP_KT_PYTHON (GPUCMP_KT_PYTHON)"
  else
    echo "device_setup: warning: the wheels in .whl/ did not install (scripts/kernel_tuner_side.py will name what is missing)" >&2
  fi
  unset _kt_pip _kt_site
fi
export GPUCMP_SKIP_SETUP=1  # no apt there: setup.sh would fail
# shellcheck source=gpu_env.sh
source "$_gpucmp_root/scripts/gpu_env.sh"
unset _gpucmp_root _deb
