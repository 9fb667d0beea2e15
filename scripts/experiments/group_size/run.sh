#!/usr/bin/env bash
# Builds and runs probe.cpp (which work-group sizes the OpenCL driver launches,
# against its CL_KERNEL_WORK_GROUP_SIZE) with the OpenCL headers and library
# that gpucmp's own build found.
# usage: B=<gpucmp build dir> OUT=<dir> scripts/experiments/group_size/run.sh
# writes $OUT/probe.md (the table) and $OUT/probe (the program).
# exit: the probe's (0, 1 a size at or under the reported one failed, 2 no
# device) or 2 for usage.
set -u
# shellcheck source=scripts/experiments/common.sh
source "$(dirname "$0")/../common.sh"
find_build_opencl
here=$(dirname "$0")
c++ -std=c++17 -O2 -I"$OPENCL_INC" "$here/probe.cpp" "$OPENCL_LIB" -o "$OUT/probe" || die "probe.cpp did not build"
"$OUT/probe" | tee "$OUT/probe.md"
exit "${PIPESTATUS[0]}"
