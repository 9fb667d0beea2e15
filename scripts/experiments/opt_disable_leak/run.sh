#!/usr/bin/env bash
# Builds and runs probe.cpp (does one -cl-opt-disable build change NVIDIA's
# OpenCL output of later builds in the process, and what undoes it) with the
# OpenCL headers and library that gpucmp's own build found: the taint is
# cp.cl, the programs cp's and MRI's by-value forms and nine without arrays
# taken by value, every build with -cl-nv-verbose as gpucmp-ptx dump adds.
# usage: B=<gpucmp build dir> OUT=<dir> scripts/experiments/opt_disable_leak/run.sh
# writes $OUT/probe.md (the report) and $OUT/probe (the program); exit: the
# probe's (0, or 2 for OpenCL errors) or 2 for usage.
set -u
# shellcheck source=scripts/experiments/common.sh
source "$(dirname "$0")/../common.sh"
find_build_opencl
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
c++ -std=c++17 -O2 -I"$OPENCL_INC" "$here/probe.cpp" "$OPENCL_LIB" -o "$OUT/probe" || die "probe.cpp did not build"
p=$root/opencl/parboil
PROBE_EXTRA=-cl-nv-verbose "$OUT/probe" "$p/cp.cl::-cl-std=CL1.2" \
  "$p/mrifhd.cl::-cl-std=CL1.2 -DK_BYVALUE=512" "$p/mriq.cl::-cl-std=CL1.2 -DK_BYVALUE=1024" \
  "$p/cp.cl::-cl-std=CL1.2 -DCP_BYVALUE_ATOMS=1024" "$p/mrifhd.cl::-cl-std=CL1.2" \
  "$p/mriq.cl::-cl-std=CL1.2" "$p/cp.cl::-cl-std=CL1.2" "$p/mrifhd.cl::-cl-std=CL1.2 -DK_VALUES_VEC4" \
  "$p/cp.cl::-cl-std=CL1.2 -DCP_PREFETCH" "$root/opencl/worksize/trapezoid.cl::-cl-std=CL1.2" \
  "$p/cp.cl::-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt" \
  "$p/cp.cl::-cl-std=CL1.2 -cl-fast-relaxed-math" \
  "$p/cp.cl::-cl-std=CL1.2 -cl-fast-relaxed-math -cl-denorms-are-zero" | tee "$OUT/probe.md"
exit "${PIPESTATUS[0]}"
