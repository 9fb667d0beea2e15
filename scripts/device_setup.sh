# Sourced on a GPU machine that has no network (see README "Running on a
# GPU"): unpacks the .deb files carried in .debs/ (CLBlast, CLI11) into a
# private prefix and points CMake and the loader at it, then registers NVIDIA's
# OpenCL ICD. Usage: source scripts/device_setup.sh
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
export GPUCMP_SKIP_SETUP=1  # no apt there: setup.sh would fail
# shellcheck source=gpu_env.sh
source "$_gpucmp_root/scripts/gpu_env.sh"
unset _gpucmp_root _deb
