#!/usr/bin/env bash
# The CTest suite under AddressSanitizer, LeakSanitizer and UBSan: builds the
# asan preset (Debug, GPUCMP_SANITIZE=ON, OpenCL side only) and runs every test
# on PoCL; any sanitizer report fails the run, in a test's own process or in a
# gpucmp-bench/gpucmp-ptx it starts (tests that only check a child's output or
# exit code would otherwise swallow it). scripts/test.sh runs it after the
# normal tests. Measured on the 2-core CI-like machine: build 167 s (7.5 min
# when the cores were shared), tests 83 s, with PoCL's kernel cache warm from
# the normal tests (cold, the OpenCL pass takes about 10 min more: quick_run
# compiles every kernel with LLVM under full unwinding).
#
# usage: scripts/test_sanitizers.sh [extra ctest arguments, e.g. -R PtxFuzz]
# Environment: GPUCMP_ASAN_BUILD_DIR (default build-asan); GPUCMP_SKIP_SETUP=1.
# Reports land in <build>/sanitizer-logs/ (asan.<pid>: ASan and LSan; UBSan
# writes to the test output, kept as ctest-*.log there).
#
# Two ctest passes, the same options but the unwinder:
#   1. labels cli|opencl (the tests that run OpenCL on PoCL): full unwinding on
#      every malloc (fast_unwind_on_malloc=0), so a leak's stack reaches PoCL's
#      named functions and tests/sanitizers/lsan.supp can match them (PoCL and
#      LLVM have no frame pointers: the fast unwinder stops inside them);
#   2. every other test (PTX parser/passes/fuzz, units, scripts): the fast
#      unwinder, no OpenCL there, nothing to suppress; the time-budgeted
#      PtxFuzz test needs its speed. Not the style checks (label style:
#      format, tidy, include_rule): they read sources, run no instrumented
#      code, and the main CTest run has just run them.
# exit: 0 clean; 1 a test failed or a sanitizer reported; 2 usage or build error.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUCMP_ASAN_BUILD_DIR:-$root/build-asan}"
die() { echo "test_sanitizers: error: $*" >&2; exit 2; }

[ "${GPUCMP_SKIP_SETUP:-0}" = 1 ] || "$root/scripts/setup.sh" || exit 2
supp="$root/tests/sanitizers/lsan.supp"
[ -f "$supp" ] || die "$supp missing"

# PoCL only: NVIDIA's OpenCL driver is not built for ASan (it needs
# protect_shadow_gap=0 and reports inside itself); the CI machine has PoCL alone.
pocl_icd=$(grep -lsxE '(.*/)?libpocl\.so.*' /etc/OpenCL/vendors/*.icd | head -1)
[ -n "$pocl_icd" ] || die "no PoCL ICD in /etc/OpenCL/vendors (Debian: pocl-opencl-icd)"
icd_dir="$build/sanitizer-icd"
mkdir -p "$icd_dir" || die "cannot create $icd_dir"
rm -f "$icd_dir"/*.icd
cp "$pocl_icd" "$icd_dir/" || die "cannot copy $pocl_icd"
export OCL_ICD_VENDORS="$icd_dir"

t0=$SECONDS
python=()
if [ -x "$root/.venv/bin/python" ]; then python=(-DPython3_EXECUTABLE="$root/.venv/bin/python"); fi
(cd "$root" && cmake --preset asan -B "$build" ${python[@]+"${python[@]}"} >/dev/null) ||
  die "cmake --preset asan failed"
cmake --build "$build" -j"$(nproc)" || die "the asan build failed"
build_s=$((SECONDS - t0))

logs="$build/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs" || die "cannot create $logs"
# abort_on_error: a report kills the process with SIGABRT, which fails the test
# even where a test only matches output (PASS_REGULAR_EXPRESSION) or where a
# test's child exits with the code the test expects from bad input.
asan="detect_leaks=1:abort_on_error=1:check_initialization_order=1:log_path=$logs/asan"
# use_tls=0: LeakSanitizer's thread tracer crashed (SIGSEGV, "Tracer caught
# signal 11") reading the dynamic TLS of PoCL's threads at the exit of a CLI
# run (ParboilLocalRun with --benchmark_out). Not scanning TLS can only add
# leak reports (pointers held there), never hide one.
export LSAN_OPTIONS="suppressions=$supp:print_suppressions=1:use_tls=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"

cd "$build" || die "no $build"
failed=0
run_pass() {  # name, ASAN_OPTIONS, ctest arguments...
  local name=$1 opts=$2
  shift 2
  local p0=$SECONDS
  echo "test_sanitizers: pass $name: ctest $*"
  ASAN_OPTIONS="$opts" ctest --output-on-failure -j"$(nproc)" --timeout 900 "$@" || failed=1
  cp Testing/Temporary/LastTest.log "$logs/ctest-$name.log" 2>/dev/null
  echo "test_sanitizers: pass $name: $((SECONDS - p0)) s"
}
t1=$SECONDS
# The CLI fuzz test (random options, its own time budget) runs in the plain
# pass: here its checks would not yet read the sanitizers' reports.
run_pass opencl "$asan:fast_unwind_on_malloc=0" -L 'cli|opencl' -E '^cli_fuzz$' "$@"
run_pass other "$asan" -LE 'cli|opencl|style' "$@"
tests_s=$((SECONDS - t1))

# Reports: ASan/LSan in the log files (a file that holds only LSan's
# "Suppressions used" table is not one), UBSan in the tests' output.
reports=0
for f in "$logs"/asan.*; do
  [ -e "$f" ] || continue
  if grep -qE '^==[0-9]+==ERROR: ' "$f"; then
    reports=$((reports + 1))
    echo "test_sanitizers: report in $f:"
    sed -n '1,60p' "$f"
  fi
done
if grep -nE 'runtime error: |^==[0-9]+==ERROR: ' "$logs"/ctest-*.log; then
  reports=$((reports + 1))
  echo "test_sanitizers: UBSan/ASan report(s) in the test output above ($logs/ctest-*.log)"
fi
suppressed=$(cat "$logs"/asan.* 2>/dev/null |
  awk '/Suppressions used:/{on=1; next} on && $1 ~ /^[0-9]+$/ {n += $1} /^-+$/{on=0} END{print n+0}')
echo "test_sanitizers: build ${build_s} s, tests ${tests_s} s; ${suppressed} leak(s) suppressed" \
     "by $(basename "$supp") (third-party), ${reports} report(s); logs in $logs"
if [ "$reports" -gt 0 ] || [ "$failed" -ne 0 ]; then
  echo "test_sanitizers: FAILED" >&2
  exit 1
fi
echo "test_sanitizers: clean"
