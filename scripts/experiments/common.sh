# Sourced by the experiments' run.sh that drive gpucmp-bench and gpucmp-ptx:
# their checks of OUT, B and RUNS (die: one line, exit 2), and the SASS of
# both APIs' ceiling kernels into $OUT/sass.tar.xz.
# shellcheck shell=bash
die() { echo "$(basename "$(dirname "$0")"): error: $*" >&2; exit 2; }

# For the probes built apart from gpucmp: OUT set and created, B (default
# build) a configured gpucmp build; sets OPENCL_INC and OPENCL_LIB to the
# OpenCL headers and library that build found.
find_build_opencl() {
  [ -n "${OUT:-}" ] || die "set OUT to the output folder"
  B=${B:-build}
  local cache="$B/CMakeCache.txt"
  [ -f "$cache" ] || die "$cache is missing: set B to a configured gpucmp build folder"
  OPENCL_INC=$(sed -n 's/^OpenCL_INCLUDE_DIR:[A-Z]*=//p' "$cache")
  OPENCL_LIB=$(sed -n 's/^OpenCL_LIBRARY:[A-Z]*=//p' "$cache")
  { [ -n "$OPENCL_INC" ] && [ -n "$OPENCL_LIB" ]; } ||
    die "$cache names no OpenCL_INCLUDE_DIR / OpenCL_LIBRARY"
  mkdir -p "$OUT" || die "cannot create $OUT"
}

# OUT set, B (default build) holding both tools, RUNS (default 3) 1..99.
check_experiment_inputs() {
  [ -n "${OUT:-}" ] || die "set OUT to the output folder"
  B=${B:-build}
  RUNS=${RUNS:-3}
  [[ "$RUNS" =~ ^[1-9][0-9]?$ ]] || die "RUNS must be 1..99, not '$RUNS'"
  local tool
  for tool in gpucmp-bench gpucmp-ptx; do
    [ -x "$B/$tool" ] || die "$B/$tool is not an executable: set B to a build folder"
  done
  mkdir -p "$OUT/sass/opencl" "$OUT/sass/cuda" || die "cannot create $OUT/sass"
}

# The JIT's SASS of the OpenCL ceiling programs (sass/opencl/) and nvcc's
# ceiling cubin (sass/cuda/ceiling.*) into $OUT/sass.tar.xz, the tools' words
# in $OUT/dump.log; returns 1 where a step failed.
dump_ceiling_sass() {
  local status=0
  "$B/gpucmp-ptx" dump --api opencl --no-ptxas-sass --out "$OUT/sass/opencl" \
    --variant ceiling/ > "$OUT/dump.log" 2>&1 || status=1
  "$B/gpucmp-ptx" dump --api cuda --out "$OUT/sass/all-cuda" >> "$OUT/dump.log" 2>&1 || status=1
  mv "$OUT"/sass/all-cuda/ceiling.* "$OUT/sass/cuda/" 2>> "$OUT/dump.log" || status=1
  rm -rf "$OUT/sass/all-cuda"
  (cd "$OUT" && tar -cJf sass.tar.xz sass && rm -rf sass) || status=1
  return $status
}
