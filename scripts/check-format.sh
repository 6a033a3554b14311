#!/usr/bin/env bash
# Checks that every C++ file of the tree is formatted as .clang-format says, with clang-format 14
# (Debian 12's; other versions break lines differently). Prints each file that differs, with the first
# lines of the difference, and exits 1; exits 77 (ctest: skipped) when clang-format 14 is not installed.
# To fix: git ls-files '*.cpp' '*.h' | xargs clang-format-14 -i
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
tool=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$tool" ] || ! "$tool" --version | grep -q 'version 14\.'; then
  echo "check-format: clang-format 14 not found (apt-get install clang-format): skipped"
  exit 77
fi
status=0
while IFS= read -r file; do
  if ! out=$("$tool" --style=file "$file" | diff -u "$file" - 2>&1); then
    echo "$file: not formatted (clang-format-14 -i $file)"
    echo "$out" | sed -n '3,12p'
    status=1
  fi
done < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find engine ui app tests bench fuzz examples -name '*.cpp' -o -name '*.h')
exit $status
