#!/usr/bin/env bash
# The C++/CUDA sources are as .clang-format writes them. Usage:
#   scripts/check_format.sh          # check: list the files clang-format would change, exit 1 if any
#   scripts/check_format.sh --fix    # rewrite them in place
# Files: every tracked *.cpp, *.h, *.cu except the test fixtures (data, not code).
# exit: 0 clean (or fixed); 1 files need formatting; 2 no clang-format / not a checkout.
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLANG_FORMAT=${CLANG_FORMAT:-$(command -v clang-format || true)}
[ -n "$CLANG_FORMAT" ] || { echo "check_format: error: clang-format not found (scripts/setup.sh installs it)" >&2; exit 2; }
cd "$root" || exit 2
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.cu' 2>/dev/null | grep -v '^tests/fixtures/')
[ "${#files[@]}" -gt 0 ] || { echo "check_format: error: no tracked sources under $root (not a git checkout?)" >&2; exit 2; }
if [ "${1:-}" = "--fix" ]; then
  "$CLANG_FORMAT" -i -- "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$CLANG_FORMAT" --dry-run -Werror -- "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($("$CLANG_FORMAT" --version | head -1)); fix with scripts/check_format.sh --fix:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files clean"
