#!/usr/bin/env bash
# Builds and runs probe.cpp (which work-group sizes the OpenCL driver launches,
# against its CL_KERNEL_WORK_GROUP_SIZE) with the OpenCL headers and library
# that gpucmp's own build found.
# usage: B=<gpucmp build dir> OUT=<dir> scripts/experiments/group_size/run.sh
# writes $OUT/probe.md (the table) and $OUT/probe (the program).
# exit: the probe's (0, 1 a size at or under the reported one failed, 2 no
# device) or 2 for usage.
set -u
die() { echo "group_size: error: $*" >&2; exit 2; }
[ -n "${OUT:-}" ] || die "set OUT to the output folder"
B=${B:-build}
cache="$B/CMakeCache.txt"
[ -f "$cache" ] || die "$cache is missing: set B to a configured gpucmp build folder"
inc=$(sed -n 's/^OpenCL_INCLUDE_DIR:[A-Z]*=//p' "$cache")
lib=$(sed -n 's/^OpenCL_LIBRARY:[A-Z]*=//p' "$cache")
{ [ -n "$inc" ] && [ -n "$lib" ]; } || die "$cache names no OpenCL_INCLUDE_DIR / OpenCL_LIBRARY"
mkdir -p "$OUT" || die "cannot create $OUT"
here=$(dirname "$0")
c++ -std=c++17 -O2 -I"$inc" "$here/probe.cpp" "$lib" -o "$OUT/probe" || die "probe.cpp did not build"
"$OUT/probe" | tee "$OUT/probe.md"
exit "${PIPESTATUS[0]}"
