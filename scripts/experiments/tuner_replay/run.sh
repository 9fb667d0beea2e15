#!/usr/bin/env bash
# Replays gpucmp's local-size tuner on stored complete 1-D sweeps (trapezoid,
# sort) of gpucmp-bench JSON files: its timer answers each shape's median of
# the run, so the table says which shape the tuner's decisions reach with its
# budget on those curves, and how far that is from the curve's best. The
# decisions only: a real run times each shape once, with its noise.
# usage: B=<gpucmp build dir> [TUNER_SOURCE=<a local_choice.cpp>] \
#          scripts/experiments/tuner_replay/run.sh RESULT.json...
# TUNER_SOURCE (default harness/local_choice.cpp) replays another revision's
# tuner: git show REV:harness/local_choice.cpp > old.cpp, for revisions whose
# harness/local_choice.h is this one's (it is compiled against this header,
# and its symbols come before the build's own archive).
# stdout: a line per curve, then the summary; exit 2 on usage errors.
set -u
die() { echo "tuner_replay: error: $*" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
B=${B:-build}
lib="$B/harness/libgpucmp_harness.a"
[ -f "$lib" ] || die "$lib is missing: set B to a built gpucmp build folder"
src=${TUNER_SOURCE:-$root/harness/local_choice.cpp}
[ -f "$src" ] || die "TUNER_SOURCE $src is not a file"
[ $# -gt 0 ] || die "name one or more gpucmp-bench JSON files"
work=$(mktemp -d) || die "cannot make a temporary folder"
trap 'rm -rf "$work"' EXIT
cp "$src" "$work/local_choice.cpp"
c++ -std=c++17 -O1 -I"$root/harness" "$here/replay.cpp" "$work/local_choice.cpp" "$lib" \
  -o "$work/replay" || die "replay.cpp did not build"
python3 "$here/curves.py" "$@" > "$work/curves.tsv" || exit 2
"$work/replay" < "$work/curves.tsv" > "$work/picks.tsv"
status=$?
[ "$status" -eq 2 ] && exit 2
cat "$work/picks.tsv"
awk -F'\t' '{ r = $4 + 0; n++; if (r <= 1.03) ok++; s += log(r); if (r > w) w = r }
  END { if (n) printf "%d curves: %d picks within 3%% of the best, geometric mean %.4f, worst %.4f\n",
                      n, ok, exp(s / n), w }' "$work/picks.tsv"
exit "$status"
