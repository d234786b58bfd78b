#!/usr/bin/env bash
# Every C++ file of the project follows .clang-format: prints the files that do not (with
# clang-format's first complaints) and exits 1, or prints "ok". scripts/format fixes them.
set -euo pipefail
cd "$1"
bad=0
while IFS= read -r file; do
  if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then
    echo "$file: not formatted (scripts/format fixes it)"
    bad=1
  fi
done < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find . -path ./build -prune -o \( -name '*.cpp' -o -name '*.hpp' \) -print)
[ "$bad" -eq 0 ] && echo ok
exit "$bad"
