#!/usr/bin/env bash
# Cold-process figures of issue 17, measured side by side in one run (alternating, medians of ROUNDS):
#   java -version; sylva --version; a cold `sylva hdbscan` per input with --backend auto, scalar and simd;
#   the warm in-process fit (`sylva bench hdbscan --backend simd`, median, after its warm-up of 10 s or more, so a
#   long-lived process's fit); a cold Python script fitting the same input
#   with scikit-learn (scripts/sklearn-fit.py), when python3 has it.
# Inputs: scripts/cold-start-data.py writes them. Needs ./sylva built (its start-up cache made).
# usage: scripts/cold-start-bench.sh DATA_DIR [ROUNDS]      e.g. scripts/cold-start-bench.sh /tmp/cold 7
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$1" rounds="${2:-5}"
. "$root/bin/find-jdk.sh"
java="$JAVA_HOME/bin/java"
"$root/sylva" --version >/dev/null   # builds the jar and the start-up cache if needed
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
declare -A t
. "$root/scripts/timing.sh"   # secs, median
# timed KEY CMD...: adds CMD's seconds to KEY's (an assignment of its own, so that set -e sees a failure)
timed() { local v; v=$(secs "${@:2}"); t["$1"]="${t[$1]:-} $v"; }
inputs=(phy_like clips_1149 clips_20000)
python3 -c "import sklearn" 2>/dev/null && sk=1 || sk=0
for ((r = 0; r < rounds; r++)); do
  timed "java -version" "$java" -version
  timed "sylva --version" "$root/sylva" --version
  for f in "${inputs[@]}"; do
    for b in auto scalar simd; do
      timed "$f cold sylva hdbscan --backend $b" \
        "$root/sylva" hdbscan "$data/$f.npy" --min-cluster-size 20 --out "$out/o" -q --backend "$b"
    done
    if [ "$sk" = 1 ]; then
      timed "$f cold python sklearn script" python3 "$root/scripts/sklearn-fit.py" "$data/$f.npy" 20 "$out/sk.npy"
    fi
  done
done
for k in "java -version" "sylva --version"; do printf '%-48s %8.3f s\n' "$k" "$(echo "${t[$k]}" | median)"; done
for f in "${inputs[@]}"; do
  # the best warm figure: the vector kernel, compiled, and a long-lived process's choices (the bench's warm-up)
  if ! "$root/sylva" bench hdbscan "$data/$f.npy" --min-cluster-size 20 --repeat 7 --backend simd \
      >"$out/bench.out" 2>"$out/bench.err"; then
    echo "failed: sylva bench hdbscan $data/$f.npy" >&2; cat "$out/bench.err" >&2; exit 1
  fi
  warm=$(awk '/total/ {print $3}' "$out/bench.out")
  printf '%-48s %8.3f s\n' "$f warm in-process fit (bench simd, median of 7)" "$warm"
  for b in auto scalar simd; do k="$f cold sylva hdbscan --backend $b"; printf '%-48s %8.3f s\n' "$k" "$(echo "${t[$k]}" | median)"; done
  k="$f cold python sklearn script"; [ "$sk" = 1 ] && printf '%-48s %8.3f s\n' "$k" "$(echo "${t[$k]}" | median)"
done
