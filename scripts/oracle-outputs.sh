#!/usr/bin/env bash
# Runs a built Sylva CLI jar on every oracle input and keeps only its deterministic outputs, so that
# two builds (before and after a refactor) can be compared byte for byte:
#
#   scripts/oracle-outputs.sh /tmp/sylva-before.jar /tmp/before      # jar built from the old commit
#   scripts/oracle-outputs.sh sylva-cli/target/sylva.jar /tmp/after
#   scripts/compare-outputs.sh /tmp/before /tmp/after
#
# Inputs: ../shared/oracle relative to the repository root (override: SYLVA_SHARED=DIR holding oracle/,
# the same folder as -Dsylva.shared). Needs a JDK 25 (found by bin/find-jdk.sh; Maven is not needed)
# and python3 (stdlib only, to turn the ball-tree .in files into .npy). No network. About 2-3 minutes
# on 2 idle cores (about 250 JVM starts, run one after another).
#
# What runs (every run is one JVM: java --add-modules jdk.incubator.vector -Xss8m -jar JAR ...):
#  * hdbscan: every oracle/hdbscan/<name>_X.npy with every case <name>_mcs<M>_ms<S> present there,
#    as `sylva hdbscan X --min-cluster-size M --min-samples S+1` (the oracle files are named by the
#    hdbscan package's min_samples, which does not count the point itself; see the README there),
#    for --method eom|leaf x --backend scalar|simd x --threads 1|2. For the large clip20k (20000 x 61)
#    only the diagonal scalar-t1 and simd-t2 of that backend x threads matrix runs, to keep the whole
#    script near 2-3 minutes; SYLVA_ORACLE_FULL=1 runs the full matrix there too. oracle/hdbscan-more
#    is not used: it only adds reference outputs of features the CLI does not expose (prediction,
#    soft clustering, other metrics) on the same X files.
#  * balltree: every oracle/balltree/inputs/<case>.in, converted to points.npy (float32 [n,d]) and
#    batch.npy (int64 [n]), as `sylva balltree points.npy --batch batch.npy` for
#    --kernels scalar|vector x --threads 1|2; for the rot_* cases also with --partition-level T for
#    every T that manifest.json lists for the case.
#
# Layout: OUTDIR/hdbscan/<case>/<method>-<backend>-t<threads>/ and
#         OUTDIR/balltree/<case>/<tree|pT>-<kernels>-t<threads>/
# each holding the .npy outputs of that run plus exit_status (the exit code) and, only when the code
# is not 0, stderr.txt (the error lines, absolute paths replaced by <IN>/<OUT>, the JDK's "Using
# incubator modules" warning dropped). Nothing else is kept: no summaries, reports or timings.
# The ball-tree cases the reference rejects (manifest "expect": "error") go through the same path, so
# their exit code and error line are what gets compared; u_n1_d3 and err_singleton_batch are among
# them, but Sylva accepts a one-point batch by design (README of the oracle), so they have outputs.
set -euo pipefail

usage() { echo "usage: $0 SYLVA_JAR OUTDIR   (OUTDIR must not exist or be empty)" >&2; exit 2; }
[ $# -eq 2 ] || usage
jar="$1"; outdir="$2"
[ -f "$jar" ] || { echo "$0: no such jar: $jar" >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="${SYLVA_SHARED:-$root/../shared}"
oracle="$shared/oracle"
[ -d "$oracle/hdbscan" ] && [ -d "$oracle/balltree/inputs" ] \
  || { echo "$0: oracle not found under $oracle (set SYLVA_SHARED to the folder holding oracle/)" >&2; exit 2; }
oracle="$(cd "$oracle" && pwd)"
jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"

# JDK: bin/find-jdk.sh exports JAVA_HOME and then exits 2 when mvn is missing; only java is needed
# here, so source it in a subshell and read JAVA_HOME back from its EXIT trap either way.
java_home="$( trap 'printf %s "${JAVA_HOME:-}"' EXIT; . "$root/bin/find-jdk.sh" >/dev/null 2>&1 )" || true
java="$java_home/bin/java"
major="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1 | cut -d. -f1 || true)"
[ -x "$java" ] && [ "${major:-0}" -ge 25 ] 2>/dev/null \
  || { echo "$0: no JDK 25 found (bin/find-jdk.sh; set JAVA_HOME to a JDK 25)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "$0: python3 is needed (stdlib only)" >&2; exit 2; }

if [ -e "$outdir" ] && [ -n "$(ls -A "$outdir" 2>/dev/null)" ]; then
  echo "$0: $outdir exists and is not empty; remove it first" >&2; exit 2
fi
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sylva-oracle-in.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export LC_ALL=C   # locale-independent messages and number formats

runs=0; failed=0; last_note=
# run_cli RUNDIR EXPECT ARGS... : runs the CLI from the current directory into RUNDIR (--out RUNDIR is
# appended), keeps its .npy files, writes RUNDIR/exit_status and, on a non-zero code, RUNDIR/stderr.txt.
run_cli() {
  local dir="$1" expect="$2"; shift 2
  local rc=0 line
  mkdir -p "$dir"
  "$java" --add-modules jdk.incubator.vector -Xss8m -jar "$jar" "$@" --out "$dir" \
    >/dev/null 2>"$work/stderr" </dev/null || rc=$?
  runs=$((runs + 1))
  find "$dir" -type f ! -name '*.npy' -delete   # reports, summaries: not compared
  echo "$rc" >"$dir/exit_status"
  if [ "$rc" -ne 0 ]; then
    : >"$dir/stderr.txt"
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in "WARNING: Using incubator modules"*) continue ;; esac
      line="${line//"$dir"/<OUT>}"; line="${line//"$outdir"/<OUT>}"
      line="${line//"$work"/<IN>}"; line="${line//"$oracle"/<IN>}"
      printf '%s\n' "$line" >>"$dir/stderr.txt"
    done <"$work/stderr"
  fi
  if [ "$rc" -ne 0 ] && [ "$expect" != error ]; then
    failed=$((failed + 1))
    echo "  FAILED (exit $rc): ${dir#"$outdir"/}: $(grep -v '^WARNING: Using incubator' "$work/stderr" | head -n1)" >&2
  elif [ "$rc" -eq 0 ] && [ "$expect" = error ] && [ "$last_note" != "$(dirname "$dir")" ]; then
    last_note="$(dirname "$dir")"   # once per case
    echo "  note: ${last_note#"$outdir"/}: exit 0 where the reference raises (by design, see above)" >&2
  fi
}

start=$SECONDS

# ---- HDBSCAN --------------------------------------------------------------------------------------
echo "hdbscan: $oracle/hdbscan" >&2
cd "$oracle/hdbscan"
for xfile in *_X.npy; do
  name="${xfile%_X.npy}"
  # cases present for this data set: <name>_mcs<M>_ms<S>_*.npy -> "M S"
  cases="$(ls | sed -n "s/^${name}_mcs\([0-9][0-9]*\)_ms\([0-9][0-9]*\)_.*\.npy\$/\1 \2/p" | sort -u -n -k1,1 -k2,2)"
  [ -n "$cases" ] || { echo "  $name: no cases, skipped" >&2; continue; }
  while read -r mcs ms; do
    case_name="${name}_mcs${mcs}_ms${ms}"
    echo "  $case_name (min_samples $((ms + 1)))" >&2
    for method in eom leaf; do
      for backend in scalar simd; do
        for threads in 1 2; do
          if [ "$name" = clip20k ] && [ "${SYLVA_ORACLE_FULL:-0}" != 1 ] \
             && [ "$backend-$threads" != scalar-1 ] && [ "$backend-$threads" != simd-2 ]; then
            continue
          fi
          run_cli "$outdir/hdbscan/$case_name/$method-$backend-t$threads" ok \
            hdbscan "$xfile" --min-cluster-size "$mcs" --min-samples "$((ms + 1))" \
            --method "$method" --backend "$backend" --threads "$threads" --quiet
        done
      done
    done
  done <<<"$cases"
done

# ---- Ball tree ------------------------------------------------------------------------------------
# Converts every inputs/<case>.in (int64 n, int64 d, float32[n*d], int64[n] batch ids, little-endian)
# into $work/<case>/points.npy + batch.npy and prints "<case> <expect> <T...>" per case.
echo "balltree: $oracle/balltree" >&2
python3 - "$oracle/balltree" "$work" >"$work/balltree-cases" <<'PY'
import glob, json, os, struct, sys

src, dst = sys.argv[1], sys.argv[2]

def write_npy(path, descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, "(%d,)" % shape[0] if len(shape) == 1 else "(%s)" % ", ".join(map(str, shape)))
    pad = 64 - (10 + len(header) + 1) % 64
    header = (header + " " * (pad % 64) + "\n").encode("latin1")
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + payload)

with open(os.path.join(src, "manifest.json")) as f:
    manifest = json.load(f)
expect = {c["name"]: c.get("expect", "ok") for c in manifest.get("build", [])}
levels = {c["name"]: c["levels"] for c in manifest.get("partition", [])}

for path in sorted(glob.glob(os.path.join(src, "inputs", "*.in"))):
    case = os.path.basename(path)[:-3]
    with open(path, "rb") as f:
        data = f.read()
    n, d = struct.unpack_from("<qq", data, 0)
    want = 16 + 4 * n * d + 8 * n
    if n < 0 or d < 0 or len(data) != want:
        sys.exit("%s: %d bytes, expected %d for n=%d d=%d" % (path, len(data), want, n, d))
    out = os.path.join(dst, case)
    os.makedirs(out)
    write_npy(os.path.join(out, "points.npy"), "<f4", (n, d), data[16:16 + 4 * n * d])
    write_npy(os.path.join(out, "batch.npy"), "<i8", (n,), data[16 + 4 * n * d:])
    print(case, expect.get(case, "ok"), *levels.get(case, []))
PY
while read -r case_name expect levels; do
  echo "  $case_name${levels:+ (partition levels $levels)}" >&2
  cd "$work/$case_name"
  for variant in tree $levels; do
    for kernels in scalar vector; do
      for threads in 1 2; do
        if [ "$variant" = tree ]; then
          run_cli "$outdir/balltree/$case_name/tree-$kernels-t$threads" "$expect" \
            balltree points.npy --batch batch.npy --kernels "$kernels" --threads "$threads" --quiet
        else
          run_cli "$outdir/balltree/$case_name/p$variant-$kernels-t$threads" "$expect" \
            balltree points.npy --batch batch.npy --partition-level "$variant" \
            --kernels "$kernels" --threads "$threads" --quiet
        fi
      done
    done
  done
done <"$work/balltree-cases"

files="$(find "$outdir" -type f | wc -l)"
echo "oracle outputs: $runs runs, $files files in $outdir ($((SECONDS - start)) s);" \
     "$failed unexpected failures" >&2
[ "$failed" -eq 0 ]
