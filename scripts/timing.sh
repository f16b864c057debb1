# shellcheck shell=bash
# Sourced by the timing scripts (cold-start-bench.sh, many-inputs-bench.sh), which set $out to their scratch folder.
# secs CMD...: CMD's wall seconds; a failed CMD stops the script with its stderr (a failed run is no figure)
secs() {
  local s e err="${out:?timing.sh: set out to a scratch folder}/secs.err"
  s=$(date +%s.%N)
  if ! "$@" >/dev/null 2>"$err"; then echo "failed: $*" >&2; cat "$err" >&2; return 1; fi
  e=$(date +%s.%N)
  echo "$e - $s" | bc
}
# median: the median of the numbers on standard input (space or line separated)
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
