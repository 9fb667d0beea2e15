#!/usr/bin/env bash
# Downloads into .whl/ (git-ignored) the wheels of Kernel Tuner and its two
# backends (scripts/kernel_tuner_requirements.txt) with every dependency, for
# a GPU machine without network: carry .whl/ there with the checkout, and
# `source scripts/device_setup.sh` installs them from it into a virtual
# environment (GPUCMP_KT_PYTHON names its python). Run on a machine with
# network. The wheels are for the GPU machine's Python, not this one's:
# GPUCMP_WHEEL_PYTHON (default 3.12, Ubuntu 24.04's) and x86_64 Linux. All of
# them come to about 120 MB; GPUCMP_WHEEL_SKIP names distributions to leave out
# because the GPU machine's Python has them (e.g. "numpy scipy matplotlib
# pillow fonttools": numpy 2 or later and scipy 1.14.1 or later, as Kernel Tuner
# needs), and there GPUCMP_KT_SYSTEM_SITE=1 installs the rest beside them
# (scripts/device_setup.sh).
# Usage: [GPUCMP_WHEEL_PYTHON=3.12] [GPUCMP_WHEEL_SKIP="numpy scipy"] scripts/fetch_wheels.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${GPUCMP_WHEEL_PYTHON:-3.12}"
if ! [[ "$version" =~ ^3\.[0-9]+$ ]]; then
  echo "fetch_wheels: error: GPUCMP_WHEEL_PYTHON=$version: give major.minor, e.g. 3.12" >&2
  exit 2
fi
python="${GPUCMP_PYTHON:-python3}"
if [ -x "$root/.venv/bin/python" ]; then python="$root/.venv/bin/python"; fi
mkdir -p "$root/.whl"
abi="cp${version/./}"
"$python" -m pip download --quiet --dest "$root/.whl" --only-binary=:all: \
  --python-version "$version" --implementation cp --abi "$abi" --abi abi3 --abi none \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform any \
  -r "$root/scripts/kernel_tuner_requirements.txt"
# Wheel file names spell a distribution with underscores for - and . (PEP 427).
for name in ${GPUCMP_WHEEL_SKIP:-}; do
  stem="$(echo "$name" | tr 'A-Z.-' 'a-z__')"
  find "$root/.whl" -maxdepth 1 -iname "${stem}-*.whl" -print -delete |
    sed 's|^|fetch_wheels: left out (GPUCMP_WHEEL_SKIP): |'
done
echo "fetch_wheels: $(find "$root/.whl" -maxdepth 1 -name '*.whl' | wc -l) wheels in" \
     "$root/.whl ($(du -sh "$root/.whl" | cut -f1)) for CPython $version; carry the folder" \
     "with the checkout"
