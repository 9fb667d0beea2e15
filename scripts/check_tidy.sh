#!/usr/bin/env bash
# The project's own C++ translation units pass clang-tidy with the checks of
# .clang-tidy (every enabled check is an error there). Usage:
#   scripts/check_tidy.sh [build-dir]         # check: one line per finding, exit 1 if any
#   scripts/check_tidy.sh --fix [build-dir]   # apply clang-tidy's automatic fixes in place
# build-dir (default: build) is a configured CMake build directory: its
# compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS, on in CMakeLists.txt)
# gives each file's flags; configuring is enough, nothing needs building.
# Files: the *.cpp entries under harness/, cuda/, opencl/, ptx/, tests/ of that
# database. Not the *.cu files: clang-tidy 14 parses CUDA with clang's own CUDA
# front end, which does not support the CUDA 13 toolkit's headers and does not
# understand nvcc's flags in compile_commands.json, so CUDA sources are not
# clang-tidy-able with this toolchain. Not the generated *.cpp in the build
# directory (embedded kernel sources and PTX: data, not code).
# Runs run-clang-tidy (or run-clang-tidy-14) with -j$(nproc) where installed,
# else clang-tidy under xargs -P$(nproc). CLANG_TIDY overrides the binary.
# A cache keeps the check fast: a file whose result is known clean is not
# checked again while neither it nor anything of the checkout it includes,
# its flags, .clang-tidy or clang-tidy changed (scripts/tidy_keys.py; the key
# holds no absolute path, so another clone of the same code hits it). It
# lives in $GPUCMP_TIDY_CACHE (default ~/.cache/gpucmp-tidy); a stamp is
# written only after a run with no finding; GPUCMP_TIDY_CACHE=off checks all.
# exit: 0 clean (or fixed); 1 findings (or clang-tidy failed);
#       2 no clang-tidy / no compile_commands.json / no files / bad arguments.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fix=0
build=""
for arg in "$@"; do
  case "$arg" in
    --fix) fix=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check_tidy: error: unknown option $arg (usage: scripts/check_tidy.sh [--fix] [build-dir])" >&2; exit 2 ;;
    *)
      [ -z "$build" ] || { echo "check_tidy: error: more than one build directory given" >&2; exit 2; }
      build="$arg" ;;
  esac
done
build="${build:-$root/build}"

CLANG_TIDY=${CLANG_TIDY:-$(command -v clang-tidy || command -v clang-tidy-14 || true)}
if [ -z "$CLANG_TIDY" ] || [ ! -x "$CLANG_TIDY" ]; then
  echo "check_tidy: error: clang-tidy not found (scripts/setup.sh installs it)" >&2
  exit 2
fi
db="$build/compile_commands.json"
[ -f "$db" ] ||
  { echo "check_tidy: error: no $db (configure first: cmake -S . -B $build)" >&2; exit 2; }
build="$(cd "$build" && pwd)"

# The project's own *.cpp in the database, once each (tests compile some files
# into several targets), and only those that still exist.
own_re="^$root/(harness|cuda|opencl|ptx|tests)/.*\\.cpp\$"
mapfile -t files < <(sed -n 's/^ *"file": *"\(.*\)",\{0,1\} *$/\1/p' "$db" |
  grep -E "$own_re" | grep -v '/tests/fixtures/' | sort -u |
  while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done)
[ "${#files[@]}" -gt 0 ] ||
  { echo "check_tidy: error: no project *.cpp files in $db" >&2; exit 2; }

all=${#files[@]}
cache="${GPUCMP_TIDY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpucmp-tidy}"
declare -A key_of=()
if [ "$fix" = 0 ] && [ "$cache" != off ] && mkdir -p "$cache" 2> /dev/null; then
  version="$("$CLANG_TIDY" --version | grep -m1 -o 'version [0-9.]*' || true)"
  while read -r key file; do key_of["$file"]=$key; done < <(
    python3 "$root/scripts/tidy_keys.py" "$root" "$build" "$version" "${files[@]}")
  todo=()
  for f in "${files[@]}"; do
    if [ -n "${key_of[$f]:-}" ] && [ -e "$cache/${key_of[$f]}" ]; then continue; fi
    todo+=("$f")
  done
  if [ "${#todo[@]}" = 0 ]; then
    echo "check_tidy: $all files clean (all known clean in $cache)"
    exit 0
  fi
  files=("${todo[@]}")
fi

jobs="$(nproc 2> /dev/null || echo 2)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$SECONDS
runner="$(command -v run-clang-tidy || command -v run-clang-tidy-14 || true)"
rc=0
if [ -n "$runner" ]; then
  # run-clang-tidy takes regexes: one anchored, escaped regex per file.
  regexes=()
  for f in "${files[@]}"; do regexes+=("^$(printf '%s' "$f" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"); done
  args=(-clang-tidy-binary "$CLANG_TIDY" -p "$build" -j "$jobs" -quiet)
  if [ "$fix" = 1 ]; then
    apply="$(command -v clang-apply-replacements || command -v clang-apply-replacements-14 || true)"
    [ -n "$apply" ] || { echo "check_tidy: error: --fix needs clang-apply-replacements (clang-tools, which clang-tidy pulls in)" >&2; exit 2; }
    args+=(-fix -format -clang-apply-replacements-binary "$apply")
  fi
  "$runner" "${args[@]}" "${regexes[@]}" > "$log" 2>&1 || rc=$?
else
  # --fix in parallel would let two files' runs edit one header at once: one at a time.
  fix_args=()
  if [ "$fix" = 1 ]; then fix_args=(--fix); jobs=1; fi
  printf '%s\0' "${files[@]}" |
    xargs -0 -n 1 -P "$jobs" "$CLANG_TIDY" -p "$build" --quiet "${fix_args[@]}" > "$log" 2>&1 || rc=$?
fi
took=$((SECONDS - start))
sed -i 's/\x1b\[[0-9;]*m//g' "$log"  # run-clang-tidy 14 always passes --use-color

# One line per finding (a header's finding comes once, not once per includer),
# paths relative to the checkout.
findings="$(grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error): .*\[[^]]+\]$' "$log" |
  sed -e ':a' -e 's#/[^/.][^/]*/\.\./#/#' -e 'ta' -e "s#^$root/##" -e 's/,-warnings-as-errors\]$/]/' |
  sort -u || true)"
if [ "$fix" = 1 ]; then
  echo "check_tidy: applied clang-tidy's automatic fixes to ${#files[@]} files (${took}s); rerun without --fix for what is left"
  exit 0
fi
if [ "$rc" != 0 ] || [ -n "$findings" ]; then
  if [ -n "$findings" ]; then
    printf '%s\n' "$findings" >&2
    n="$(printf '%s\n' "$findings" | wc -l)"
    per_check="$(printf '%s\n' "$findings" | sed 's/.*\[\([^]]*\)\]$/\1/' | sort | uniq -c | sort -rn |
      awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}')"
    echo "check_tidy: $n findings in ${#files[@]} files (${took}s; $($CLANG_TIDY --version | grep -m1 -o 'version [0-9.]*')): $per_check" >&2
  else
    tail -n 40 "$log" >&2
    echo "check_tidy: clang-tidy failed (exit $rc) with no findings listed: see above" >&2
  fi
  exit 1
fi
for f in "${files[@]}"; do
  if [ -n "${key_of[$f]:-}" ]; then : > "$cache/${key_of[$f]}"; fi
done
echo "check_tidy: $all files clean (${#files[@]} checked in ${took}s, $((all - ${#files[@]})) known clean)"
