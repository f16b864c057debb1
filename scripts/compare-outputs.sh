#!/usr/bin/env bash
# Compares two output folders written by scripts/oracle-outputs.sh (e.g. before and after a
# refactor) file by file:
#
#   scripts/oracle-outputs.sh /tmp/sylva-before.jar /tmp/before
#   scripts/oracle-outputs.sh sylva-cli/target/sylva.jar /tmp/after
#   scripts/compare-outputs.sh /tmp/before /tmp/after
#
# Lists the files present on only one side and the files whose bytes differ (cmp), then prints
#   oracle outputs: N files identical, D differ, M missing
# Exit status: 0 when every file is on both sides and identical (and there is at least one file),
# 1 otherwise, 2 on a usage error.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 DIR_A DIR_B" >&2; exit 2; }
a="$1"; b="$2"
for d in "$a" "$b"; do
  [ -d "$d" ] || { echo "$0: not a directory: $d" >&2; exit 2; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/sylva-compare.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
(cd "$a" && find . -type f -print0 | LC_ALL=C sort -z) >"$tmp/a"
(cd "$b" && find . -type f -print0 | LC_ALL=C sort -z) >"$tmp/b"

missing=0; differ=0; same=0
while IFS= read -r -d '' f; do
  echo "only in $a: ${f#./}"; missing=$((missing + 1))
done < <(LC_ALL=C comm -z -23 "$tmp/a" "$tmp/b")
while IFS= read -r -d '' f; do
  echo "only in $b: ${f#./}"; missing=$((missing + 1))
done < <(LC_ALL=C comm -z -13 "$tmp/a" "$tmp/b")
while IFS= read -r -d '' f; do
  if cmp -s "$a/$f" "$b/$f"; then
    same=$((same + 1))
  else
    echo "differs: ${f#./}"; differ=$((differ + 1))
  fi
done < <(LC_ALL=C comm -z -12 "$tmp/a" "$tmp/b")

echo "oracle outputs: $same files identical, $differ differ, $missing missing"
if [ $((same + differ + missing)) -eq 0 ]; then
  echo "$0: both folders are empty; nothing was compared" >&2; exit 1
fi
[ "$differ" -eq 0 ] && [ "$missing" -eq 0 ]
