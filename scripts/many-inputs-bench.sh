#!/usr/bin/env bash
# Several inputs in one command against one cold command per input, measured side by side (alternating,
# medians of ROUNDS): `for f in DATA/*.npy; do sylva hdbscan $f --out A/NAME; done` against
# `sylva hdbscan DATA/*.npy --out B`, each folder then compared byte for byte with the other's.
# With --make N,COUNT[,TEMPLATES] it first writes COUNT files of N spike clips each into DATA
# (scripts/cold-start-data.py's generator, seeds 1..COUNT); with --model FILE it times `sylva predict FILE`
# instead of `sylva hdbscan`. Needs ./sylva built (its start-up cache made).
# usage: scripts/many-inputs-bench.sh DATA_DIR [ROUNDS] [--make N,COUNT[,TEMPLATES]] [--model FILE]
#            [-- SYLVA_OPTIONS...]
#   e.g. scripts/many-inputs-bench.sh /tmp/many 5 --make 1500,20 -- --min-cluster-size 20
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$1"; shift
rounds=5
if [ $# -gt 0 ] && [ "$1" != "--" ] && [ "$1" != "--make" ]; then rounds="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--make" ]; then
  IFS=, read -r n count templates <<<"$2"; shift 2
  mkdir -p "$data"
  python3 - "$root/scripts/cold-start-data.py" "$data" "$n" "$count" "${templates:-6}" <<'PY'
import sys, runpy, os
import numpy as np
clips = runpy.run_path(sys.argv[1])["clips"]   # the generator only: the script's main does not run
sys.argv = sys.argv[1:]
d, n, count, templates = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for s in range(1, count + 1):
    np.save(os.path.join(d, "clips_%03d.npy" % s), clips(n, templates, np.random.default_rng(s)))
PY
fi
command=(hdbscan)
if [ $# -gt 0 ] && [ "$1" = "--model" ]; then command=(predict "$2"); shift 2; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
opts=("$@")
"$root/sylva" --version >/dev/null   # builds the jar and the start-up cache if needed
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
files=("$data"/*.npy)
. "$root/scripts/timing.sh"   # secs, median
each() { for f in "${files[@]}"; do local b; b=$(basename "$f" .npy); "$root/sylva" "${command[@]}" "$f" --out "$out/a/$b" -q "${opts[@]}" || return 1; done; }
one() { "$root/sylva" "${command[@]}" "${files[@]}" --out "$out/b" -q "${opts[@]}"; }
ta="" tb=""
for ((r = 0; r < rounds; r++)); do
  rm -rf "$out/a" "$out/b"
  v=$(secs each); ta="$ta $v"
  v=$(secs one); tb="$tb $v"
done
for f in "${files[@]}"; do
  b=$(basename "$f" .npy)
  for o in "$out/a/$b"/*.npy; do cmp -s "$o" "$out/b/$b/$(basename "$o")" || { echo "differ: $b/$(basename "$o")"; exit 1; }; done
done
ma=$(echo "$ta" | median) mb=$(echo "$tb" | median)
printf '%d inputs (%s), medians of %d:\n' "${#files[@]}" "$data" "$rounds"
printf '  %-44s %8.3f s\n' "one cold sylva ${command[0]} per input" "$ma"
printf '  %-44s %8.3f s\n' "one sylva ${command[0]} of every input" "$mb"
printf '  %-44s %8.2fx\n' "ratio" "$(echo "$ma / $mb" | bc -l)"
echo "every output file byte for byte the same in both"
