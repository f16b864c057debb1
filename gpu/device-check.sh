#!/usr/bin/env bash
# The GPU engine's check on a machine with an NVIDIA GPU but no JDK, no Maven and no network (the
# project's device machine: one H200, CUDA's compiler, NVRTC, Python). One call, at most --budget
# seconds (default 480: 8 minutes), every step under its own time limit:
#   1. what is there: nvidia-smi, nvcc, sylva --version, sylva devices (the log only);
#   2. exactness: every case of the HDBSCAN oracle (shared/oracle/hdbscan or ../shared/oracle/hdbscan;
#      else generated clip-like data) through `sylva hdbscan --backend simd` and through each GPU
#      backend (cuda; opencl too when `sylva devices` lists a usable NVIDIA OpenCL device), every .npy
#      output compared byte for byte with simd's;
#   3. ball-tree exactness: every case of the ball-tree oracle (shared/oracle/balltree or
#      ../shared/oracle/balltree: builds, error cases, partitions at each listed level; else generated
#      clouds) through `sylva balltree --backend cpu` and each GPU backend, every .npy compared byte for
#      byte (an error case: the same exit status and message);
#   4. ball-tree speed: `sylva bench balltree --backend B` on uniform d = 3 clouds (seed 42) for each
#      input of --tree-sizes (the issue's table: 16384, 64x16384, 1048576, 4096x256): the median build
#      host memory to host memory and with the points already on the device (device_median_ms), then
#      Sylva's CPU engine on --cpu-threads threads, and the ratio CPU / device;
#   5. speed: warm `sylva bench hdbscan --generate N` (clip-like, 61-D, min_cluster_size 20) for each
#      N of --sizes on each GPU backend, then on simd (the CPU baseline; largest N last, so the budget
#      cuts there first).
# Writes OUT/device-check.json (the summary) and OUT/device-check.log (everything printed), OUT being
# --out, else $OUT, else ./device-check-out. Exit status 0 when every comparison is identical and no
# step failed; 1 otherwise; 2 on a usage error. A step that would not fit in the remaining budget is
# recorded as skipped, not run.
#
# What to carry (the machine has no JDK): the distribution, which holds a jlink'ed Java 25 runtime and
# the CLI jar. Here (after one online build: it fetches picocli's sources jar for sylva-picocli):
# `mvn -o -B -Pdist -pl sylva-cli -am -DskipTests package` makes
# sylva-cli/target/sylva-VERSION-linux-x64.tar.gz; carry that path (ignored by git) and run
#   gpu/device-check.sh --dist sylva-cli/target/sylva-0.1.0-linux-x64.tar.gz
# (a .tar.gz is unpacked into a temporary folder; an unpacked sylva-VERSION folder works too). With a
# JDK instead: --java PATH/bin/java --jar sylva-cli/target/sylva.jar. To compare against the oracle,
# carry a copy of ../shared/oracle/hdbscan as shared/oracle/hdbscan in the repository root.
#
# usage: gpu/device-check.sh [--dist TARBALL|DIR | --java JAVA (--jar JAR | --classpath CP)] [--out DIR]
#          [--backends "cuda opencl"] [--sizes "20000 50000 200000 500000"] [--repeat R]
#          [--oracle DIR|none] [--generated N] [--budget SECONDS] [--dry-run]
#          [--checks "hdbscan balltree"] [--tree-oracle DIR|none] [--tree-sizes "16384 64x16384 ..."]
#          [--tree-repeat R] [--cpu-threads T] [--cpu-sizes "20000 50000"] [--variants "OPTS|OPTS"]
#   --backends   the GPU backends to check (default: cuda, plus opencl when an NVIDIA OpenCL device
#                is usable); --dry-run prints the plan and runs nothing
#   --generated  points of the generated data set used when there is no oracle (default 3000)
#   --checks     which engines to check (default both); --tree-sizes N or BxS (B batches of S points)
#   --tree-repeat builds timed per ball-tree input (default 21); --cpu-threads (default: all cores)
#   --cpu-sizes  the sizes of the CPU (simd) baseline bench (default: --sizes; "" for none)
#   --variants   JVM option sets separated by '|' (e.g. "-Dsylva.gpu.roundSlices=1|-Dsylva.gpu.roundSlices=16"):
#                each GPU bench runs once per set, one after the other for each size, for an A/B in one
#                call; lines of -Dsylva.gpu.trace=true go to the log
# env: SYLVA_JAVA_OPTS (extra JVM options, e.g. -Dsylva.nvrtc=/path/libnvrtc.so.12)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
start=$SECONDS

dist="" java="" jar="" classpath="" out="${OUT:-}" backends="" sizes="20000 50000 200000 500000" repeat=3
oracle="" generated=3000 budget=480 dry=0
checks="hdbscan balltree" tree_oracle="" tree_sizes="16384 64x16384 1048576 4096x256" tree_repeat=21
cpu_threads="$(nproc 2>/dev/null || echo 1)"
cpu_sizes="-"
variants=""
usage() { sed -n '2,47p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dist) dist="$2"; shift 2 ;;
    --java) java="$2"; shift 2 ;;
    --jar) jar="$2"; shift 2 ;;
    --classpath) classpath="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --backends) backends="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --oracle) oracle="$2"; shift 2 ;;
    --generated) generated="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --dry-run) dry=1; shift ;;
    --checks) checks="$2"; shift 2 ;;
    --tree-oracle) tree_oracle="$2"; shift 2 ;;
    --tree-sizes) tree_sizes="$2"; shift 2 ;;
    --tree-repeat) tree_repeat="$2"; shift 2 ;;
    --cpu-threads) cpu_threads="$2"; shift 2 ;;
    --cpu-sizes) cpu_sizes="$2"; shift 2 ;;
    --variants) variants="$2"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "device-check: unknown argument $1" >&2; usage ;;
  esac
done
[ "$cpu_sizes" != "-" ] || cpu_sizes="$sizes"
IFS='|' read -r -a variant_list <<<"$variants"
[ ${#variant_list[@]} -gt 0 ] || variant_list=("")
if [ -z "$dist" ] && { [ -z "$java" ] || { [ -z "$jar" ] && [ -z "$classpath" ]; }; }; then
  dist="$(ls "$root"/sylva-cli/target/sylva-*-linux-x64.tar.gz 2>/dev/null | head -n1 || true)"
  [ -n "$dist" ] || { echo "device-check: give --dist (see the comment at the top) or --java and --jar" >&2; exit 2; }
fi
out="${out:-$PWD/device-check-out}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
log="$out/device-check.log"
: >"$log"
exec > >(tee -a "$log") 2>&1
work="$(mktemp -d "${TMPDIR:-/tmp}/sylva-device-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

say() { printf '[%4ds] %s\n' "$((SECONDS - start))" "$*"; }
left() { echo $((budget - (SECONDS - start))); }
json_str() {   # a JSON string literal of $1 (backslash, quote, control characters escaped)
  local s="$1"
  s="${s//\\/\\\\}"; s="${s//\"/\\\"}"; s="${s//$'\n'/\\n}"; s="${s//$'\t'/\\t}"; s="${s//$'\r'/}"
  printf '"%s"' "$s"
}

# ---- the runtime and the jar ----------------------------------------------------------------------
if [ -n "$dist" ]; then
  if [ -f "$dist" ]; then
    tar -C "$work" -xzf "$dist"
    dist="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'sylva-*' | head -n1)"
  fi
  [ -x "$dist/runtime/bin/java" ] && [ -f "$dist/lib/sylva.jar" ] \
    || { echo "device-check: $dist is not an unpacked distribution (runtime/bin/java, lib/sylva.jar)" >&2; exit 2; }
  java="$dist/runtime/bin/java"; jar="$dist/lib/sylva.jar"
fi
[ -x "$java" ] || { echo "device-check: no java at $java" >&2; exit 2; }
if [ -n "$classpath" ]; then
  launch=(-cp "$classpath" org.sylva.cli.Main)   # the tests' way in: the build's classes, no jar yet
else
  [ -f "$jar" ] || { echo "device-check: no jar at $jar" >&2; exit 2; }
  launch=(-jar "$jar")
fi

# sylva LIMIT ARGS...: the CLI under a time limit; its exit code (124: the limit was hit)
sylva() {
  local limit="$1"; shift
  # shellcheck disable=SC2086  # SYLVA_JAVA_OPTS is a list of JVM options on purpose
  timeout --kill-after=5 "$limit" "$java" --add-modules jdk.incubator.vector -Xss8m \
    --enable-native-access=ALL-UNNAMED ${SYLVA_JAVA_OPTS:-} "${launch[@]}" "$@"
}

# npy.py: the one .npy writer of this script's Python snippets (stdlib only)
cat >"$work/npy.py" <<'PY'
import struct
def write(path, descr, shape, payload):
    """Writes a C-order .npy of dtype descr ('<f4', '<i8') and shape (a tuple) holding the raw bytes payload."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, repr(tuple(shape)))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + payload)
def floats(vals):
    return struct.pack("<%df" % len(vals), *vals)
def int64s(vals):
    return struct.pack("<%dq" % len(vals), *vals)
PY
export PYTHONPATH="$work${PYTHONPATH:+:$PYTHONPATH}"

# same_npy DIR_A DIR_B: the names of the .npy files of DIR_A that DIR_B does not hold byte for byte
same_npy() {
  local f bad=""
  for f in "$1"/*.npy; do cmp -s "$f" "$2/$(basename "$f")" || bad="$bad $(basename "$f")"; done
  printf '%s' "$bad"
}

# ---- 1. what is there -----------------------------------------------------------------------------
say "device check: budget ${budget}s, out $out"
gpu_line="$( (command -v nvidia-smi >/dev/null && timeout 20 nvidia-smi -L 2>&1 | head -n1) || echo "no nvidia-smi")"
driver="$( (command -v nvidia-smi >/dev/null && timeout 20 nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1 | head -n1) || echo "")"
nvcc_line="$( (command -v nvcc >/dev/null && nvcc --version 2>&1 | tail -n1) || echo "no nvcc")"
say "gpu: $gpu_line (driver ${driver:-?}); nvcc: $nvcc_line"
version="$(sylva 60 --version 2>&1 | grep -v '^WARNING: Using incubator' | head -n1 || true)"
say "sylva: $version"
devices="$(sylva 60 devices 2>&1 | grep -v '^WARNING: Using incubator' || true)"
printf '%s\n' "$devices" | sed 's/^/  devices: /'
if printf '%s\n' "$devices" | grep -q 'NVRTC (libnvrtc.so\*) not found' && [[ " ${SYLVA_JAVA_OPTS:-} " != *" -Dsylva.nvrtc="* ]]; then
  # Sylva's search missed NVRTC: look for it (bounded), log where it was (a place NvrtcLocator should know), use it
  found="$(find /usr/local /usr/lib /usr/lib64 /opt -maxdepth 8 -name 'libnvrtc.so*' ! -name '*builtins*' 2>/dev/null | sort | head -n1 || true)"
  if [ -n "$found" ]; then
    say "NVRTC not found by Sylva's search; found $found: rerunning with -Dsylva.nvrtc=$found (NvrtcLocator should look there)"
    export SYLVA_JAVA_OPTS="${SYLVA_JAVA_OPTS:-} -Dsylva.nvrtc=$found"
    devices="$(sylva 60 devices 2>&1 | grep -v '^WARNING: Using incubator' || true)"
    printf '%s\n' "$devices" | sed 's/^/  devices: /'
  fi
fi
if [ -z "$backends" ]; then
  backends="cuda"
  if printf '%s\n' "$devices" | grep -qi '^opencl: .*nvidia.*: usable'; then backends="cuda opencl"; fi
fi

# ---- 2. the data sets for the exactness check -----------------------------------------------------
if [ -z "$oracle" ]; then
  for d in "$root/shared/oracle/hdbscan" "$root/../shared/oracle/hdbscan"; do
    if [ -d "$d" ] && ls "$d"/*_X.npy >/dev/null 2>&1; then oracle="$(cd "$d" && pwd)"; break; fi
  done
fi
cases=()   # "X_FILE MCS MIN_SAMPLES NAME"
if [ -n "$oracle" ] && [ "$oracle" != none ]; then
  source_kind="oracle $oracle"
  for x in "$oracle"/*_X.npy; do
    name="$(basename "$x" _X.npy)"
    while read -r mcs ms; do
      [ -n "$mcs" ] && cases+=("$x $mcs $((ms + 1)) ${name}_mcs${mcs}_ms${ms}")
    done < <(ls "$oracle" | sed -n "s/^${name}_mcs\([0-9][0-9]*\)_ms\([0-9][0-9]*\)_core\.npy\$/\1 \2/p" | sort -u -n -k1,1 -k2,2)
  done
else
  source_kind="generated clip-like data ($generated points)"
  # float32 [n, 61] clip-like waveforms (templates plus AR(1) noise), written with the stdlib only
  python3 - "$work/clips_X.npy" "$generated" <<'PY'
import math, random, sys
import npy
path, n, d = sys.argv[1], int(sys.argv[2]), 61
rnd = random.Random(20240)
templates = [[(2 + t) * math.exp(-((s - 20 - t) / (3 + t % 4)) ** 2) * math.sin(s / (4 + t)) for s in range(d)]
             for t in range(12)]
vals = []
for i in range(n):
    base = templates[i % 12] if i % 10 else [0.0] * d
    e = 0.0
    for s in range(d):
        e = 0.6 * e + rnd.gauss(0, 0.3)
        vals.append(base[s] + e)
npy.write(path, "<f4", (n, d), npy.floats(vals))
PY
  cases+=("$work/clips_X.npy 20 20 clips_mcs20_ms19" "$work/clips_X.npy 5 10 clips_mcs5_ms9")
fi
checking() { case " $checks " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
checking hdbscan || { cases=(); sizes=""; cpu_sizes=""; }
say "exactness data: $source_kind, ${#cases[@]} case(s); GPU backends: $backends; sizes: $sizes"

# ---- the ball-tree cases: "KIND NAME X_NPY BATCH_NPY LEVEL" (KIND build or partition; LEVEL - for builds)
tree_cases=()
tree_source="none"
if checking balltree; then
  if [ -z "$tree_oracle" ]; then
    for d in "$root/shared/oracle/balltree" "$root/../shared/oracle/balltree"; do
      if [ -f "$d/manifest.json" ]; then tree_oracle="$(cd "$d" && pwd)"; break; fi
    done
  fi
  mkdir -p "$work/tree"
  if [ -n "$tree_oracle" ] && [ "$tree_oracle" != none ]; then
    tree_source="oracle $tree_oracle"
    # each input (int64 n, int64 d, float32[n*d], int64[n], little-endian) as X.npy and batch.npy; one line per case
    while read -r line; do tree_cases+=("$line"); done < <(python3 - "$tree_oracle" "$work/tree" <<'PY'
import json, os, struct, sys
import npy
src, dst = sys.argv[1], sys.argv[2]
def convert(name):
    with open(os.path.join(src, "inputs", name + ".in"), "rb") as f:
        b = f.read()
    n, d = struct.unpack_from("<qq", b, 0)
    x = b[16:16 + 4 * n * d]
    ids = b[16 + 4 * n * d:16 + 4 * n * d + 8 * n]
    xp, bp = os.path.join(dst, name + "_X.npy"), os.path.join(dst, name + "_batch.npy")
    npy.write(xp, "<f4", (n, d), x)
    npy.write(bp, "<i8", (n,), ids)
    return xp, bp
m = json.load(open(os.path.join(src, "manifest.json")))
for c in m["build"]:
    xp, bp = convert(c["name"])
    print("build %s %s %s -" % (c["name"], xp, bp))
for c in m["partition"]:
    xp, bp = convert(c["name"])
    for t in c["levels"]:
        print("partition %s_t%d %s %s %d" % (c["name"], t, xp, bp, t))
PY
)
  else
    tree_source="generated clouds"
    python3 - "$work/tree" <<'PY'
import os, random, sys
import npy
dst = sys.argv[1]
rnd = random.Random(22)
sizes = [1000, 1, 2, 1997]
n = sum(sizes)
ids = [b for b, s in enumerate(sizes) for _ in range(s)]
npy.write(os.path.join(dst, "uniform_X.npy"), "<f4", (n, 3), npy.floats([rnd.random() for _ in range(3 * n)]))
npy.write(os.path.join(dst, "uniform_batch.npy"), "<i8", (n,), npy.int64s(ids))
npy.write(os.path.join(dst, "grid_X.npy"), "<f4", (n, 2), npy.floats([rnd.randrange(8) / 4 for _ in range(2 * n)]))
npy.write(os.path.join(dst, "grid_batch.npy"), "<i8", (n,), npy.int64s(ids))
PY
    for c in uniform grid; do
      tree_cases+=("build $c $work/tree/${c}_X.npy $work/tree/${c}_batch.npy -")
      tree_cases+=("partition ${c}_t4 $work/tree/${c}_X.npy $work/tree/${c}_batch.npy 4")
    done
  fi
else
  tree_sizes=""
fi
say "ball-tree exactness data: $tree_source, ${#tree_cases[@]} case(s); ball-tree sizes: ${tree_sizes:-none}"

if [ "$dry" = 1 ]; then
  for c in "${cases[@]}"; do
    read -r x mcs ms name <<<"$c"
    for b in simd $backends; do say "plan: hdbscan $name --backend $b (limit 90 s)"; done
  done
  for c in "${tree_cases[@]}"; do
    read -r kind name x bt level <<<"$c"
    for b in cpu $backends; do say "plan: balltree $kind $name --backend $b (limit 60 s)"; done
  done
  for t in $tree_sizes; do
    for b in $backends cpu; do say "plan: bench balltree $t (d = 3) --backend $b"; done
  done
  for n in $sizes; do for b in $backends; do for v in "${variant_list[@]}"; do
    say "plan: bench --generate $n --backend $b${v:+ with $v}"
  done; done; done
  for n in $cpu_sizes; do say "plan: bench --generate $n --backend simd"; done
  say "dry run: nothing run"
  exit 0
fi

# ---- 2. exactness ---------------------------------------------------------------------------------
declare -A same=() differ=() failed=()
failures=()
for b in $backends; do same[$b]=0; differ[$b]=0; failed[$b]=0; done
for c in "${cases[@]}"; do
  read -r x mcs ms name <<<"$c"
  for b in simd $backends; do
    # a case runs under min(90 s, what is left less 5 s); below 20 s left it is skipped
    if [ "$(left)" -lt 20 ]; then
      say "$name $b: skipped (budget)"; [ "$b" = simd ] || failed[$b]=$((failed[$b] + 1))
      [ "$b" = simd ] || failures+=("$name/$b: skipped (budget)")
      continue
    fi
    dir="$work/out/$name/$b"
    rc=0
    t0=$SECONDS
    climit=$(( $(left) - 5 < 90 ? $(left) - 5 : 90 ))
    sylva "$climit" hdbscan "$x" --min-cluster-size "$mcs" --min-samples "$ms" --backend "$b" --out "$dir" -q \
      >"$work/stdout" 2>"$work/stderr" || rc=$?
    if [ "$rc" -ne 0 ]; then
      why="$(grep -v '^WARNING: Using incubator' "$work/stderr" | head -n1)"
      { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && why="time limit ($climit s)"
      say "$name $b: FAILED (exit $rc): $why"
      [ "$b" = simd ] && { failures+=("$name/simd: exit $rc: $why"); break; }
      failed[$b]=$((failed[$b] + 1)); failures+=("$name/$b: exit $rc: $why")
      continue
    fi
    [ "$b" = simd ] && { say "$name simd: ok ($((SECONDS - t0)) s)"; continue; }
    bad="$(same_npy "$work/out/$name/simd" "$dir")"
    if [ -z "$bad" ]; then
      same[$b]=$((same[$b] + 1)); say "$name $b: identical to simd ($((SECONDS - t0)) s)"
    else
      differ[$b]=$((differ[$b] + 1)); failures+=("$name/$b: differs:$bad"); say "$name $b: DIFFERS:$bad"
    fi
  done
done

# ---- 3. ball-tree exactness ------------------------------------------------------------------------
declare -A tsame=() tdiffer=() tfailed=()
for b in $backends; do tsame[$b]=0; tdiffer[$b]=0; tfailed[$b]=0; done
for c in "${tree_cases[@]}"; do
  read -r kind name x bt level <<<"$c"
  extra=()
  [ "$kind" = partition ] && extra=(--partition-level "$level")
  for b in cpu $backends; do
    dir="$work/tree-out/$name/$b"
    if [ "$(left)" -lt 70 ]; then
      say "balltree $name $b: skipped (budget)"
      [ "$b" = cpu ] || { tfailed[$b]=$((tfailed[$b] + 1)); failures+=("balltree $name/$b: skipped (budget)"); }
      continue
    fi
    rc=0
    t0=$SECONDS
    sylva 60 balltree "$x" --batch "$bt" "${extra[@]}" --backend "$b" --out "$dir" -q \
      >"$work/stdout" 2>"$work/tree-stderr-$b" || rc=$?
    echo "$rc" >"$work/tree-rc-$b"
    if [ "$b" = cpu ]; then
      say "balltree $name cpu: exit $rc ($((SECONDS - t0)) s)"
      # 0 or a refusal of the input (2) are answers to compare; anything else leaves nothing to compare with
      if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
        failures+=("balltree $name/cpu: exit $rc: $(grep -v '^WARNING: Using incubator' "$work/tree-stderr-cpu" | head -n1)")
        break
      fi
      continue
    fi
    want_rc="$(cat "$work/tree-rc-cpu")"
    bad=""
    if [ "$rc" != "$want_rc" ]; then
      bad=" exit $rc (cpu: $want_rc): $(grep -v '^WARNING: Using incubator' "$work/tree-stderr-$b" | head -n1)"
    elif [ "$rc" -ne 0 ]; then
      # an error case: the same message
      cmp -s <(grep -v '^WARNING: Using incubator' "$work/tree-stderr-cpu") \
        <(grep -v '^WARNING: Using incubator' "$work/tree-stderr-$b") || bad=" another error message"
    else
      bad="$(same_npy "$work/tree-out/$name/cpu" "$dir")"
    fi
    if [ "$rc" -ne 0 ] && [ "$want_rc" -eq 0 ]; then
      # the backend did not build what the CPU built (no device, a refusal, a crash): a failure, not a difference
      tfailed[$b]=$((tfailed[$b] + 1)); failures+=("balltree $name/$b: failed:$bad"); say "balltree $name $b: FAILED:$bad"
    elif [ -z "$bad" ]; then
      tsame[$b]=$((tsame[$b] + 1)); say "balltree $name $b: identical to cpu ($((SECONDS - t0)) s)"
    else
      tdiffer[$b]=$((tdiffer[$b] + 1)); failures+=("balltree $name/$b: differs:$bad"); say "balltree $name $b: DIFFERS:$bad"
    fi
  done
done

# ---- 4. ball-tree speed ---------------------------------------------------------------------------
tree_json=()
for t in $tree_sizes; do
  case "$t" in
    *x*) tb="${t%x*}"; ts="${t#*x}" ;;
    *) tb=1; ts="$t" ;;
  esac
  tx="$work/bench-$t.npy"; tbx="$work/bench-$t-batch.npy"
  python3 - "$tx" "$tbx" "$tb" "$ts" <<'PY'
import random, sys
import npy
xp, bp, batches, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
n = batches * size
rnd = random.Random(42)
npy.write(xp, "<f4", (n, 3), npy.floats([rnd.random() for _ in range(3 * n)]))
npy.write(bp, "<i8", (n,), npy.int64s([i // size for i in range(n)]))
PY
  cpu_ms=""
  for b in $backends cpu; do
    if [ "$(left)" -lt 70 ]; then
      say "bench balltree $t $b: skipped (budget)"
      tree_json+=("{\"input\": $(json_str "$t"), \"backend\": $(json_str "$b"), \"status\": \"skipped\"}")
      continue
    fi
    rc=0
    if [ "$b" = cpu ]; then
      sylva 60 bench balltree "$tx" --batch "$tbx" --repeat "$tree_repeat" --threads "$cpu_threads" >"$work/tbench" 2>"$work/stderr" || rc=$?
    else
      sylva 60 bench balltree "$tx" --batch "$tbx" --repeat "$tree_repeat" --backend "$b" >"$work/tbench" 2>"$work/stderr" || rc=$?
    fi
    if [ "$rc" -ne 0 ]; then
      line="$(grep -v '^WARNING: Using incubator' "$work/stderr" | head -n1)"
      say "bench balltree $t $b: failed (exit $rc): $line"
      [ "$b" = cpu ] || failures+=("bench balltree $t $b: exit $rc: $line")
      tree_json+=("{\"input\": $(json_str "$t"), \"backend\": $(json_str "$b"), \"status\": \"error\", \"header\": $(json_str "$line")}")
      continue
    fi
    sed 's/^/  /' "$work/tbench"
    host="$(sed -n 's/^balltree .* median_ms=\([0-9.]*\) .*/\1/p' "$work/tbench" | head -n1 || true)"
    dev="$(sed -n 's/^balltree-device .* device_median_ms=\([0-9.]*\) .*/\1/p' "$work/tbench" | head -n1 || true)"
    threads_json=""
    if [ "$b" = cpu ]; then cpu_ms="$host"; threads_json=", \"threads\": $cpu_threads"; fi
    tree_json+=("{\"input\": $(json_str "$t"), \"backend\": $(json_str "$b"), \"status\": \"ok\", \"repeat\": $tree_repeat, \
\"host_to_host_median_ms\": ${host:-null}, \"on_device_median_ms\": ${dev:-null}$threads_json}")
  done
  if [ -n "$cpu_ms" ]; then
    for b in $backends; do
      dev="$(printf '%s\n' "${tree_json[@]}" | grep "\"input\": \"$t\", \"backend\": \"$b\", \"status\": \"ok\"" \
        | sed -n 's/.*"on_device_median_ms": \([0-9.]*\).*/\1/p' | head -n1 || true)"
      [ -z "$dev" ] || say "ball tree $t: cpu ($cpu_threads threads) / $b on device = $(awk -v a="$cpu_ms" -v b="$dev" 'BEGIN { printf "%.2f", a / b }')"
    done
  fi
done

# ---- 5. speed -------------------------------------------------------------------------------------
bench_json=()
declare -A last_n=() last_total=()
bench() {   # BACKEND N LIMIT REPEAT WARMUP [VARIANT: JVM options]
  local b="$1" n="$2" limit="$3" r="$4" w="$5" v="${6:-}" rc=0 status total core tree line pairs fit
  local vjson="" vsay=""
  [ -z "$v" ] || { vjson=", \"variant\": $(json_str "$v")"; vsay=" ($v)"; }
  if [ -n "${last_total[$b]:-}" ]; then
    # the fit's time predicted from this backend's last size, quadratic in n (the passes are brute force on
    # the device; an upper bound for the CPU engine): fewer fits, then none, rather than a timeout
    fit="$(awk -v t="${last_total[$b]}" -v a="${last_n[$b]}" -v n="$n" 'BEGIN { printf "%d", t * (n / a) ^ 2 + 1 }')"
    [ $((fit * (r + w) + 15)) -le "$limit" ] || { r=1; w=1; }
    [ $((fit * (r + w) + 15)) -le "$limit" ] || { r=1; w=0; }
    if [ $((fit + 15)) -gt "$limit" ]; then
      say "bench $b n=$n$vsay: skipped (a fit is predicted to take about $fit s, more than the step's $limit s)"
      bench_json+=("{\"backend\": $(json_str "$b"), \"n\": $n$vjson, \"status\": \"skipped\", \"predicted_fit_s\": $fit}")
      return 0
    fi
    # the step's limit (and so what the budget must hold) follows the prediction, with a margin of 2x
    # plus the JVM's start, rather than the fixed cap, which a tile-skipping fit is far below
    [ $((2 * fit * (r + w) + 20)) -ge "$limit" ] || limit=$((2 * fit * (r + w) + 20))
  fi
  if [ "$(left)" -lt $((limit + 10)) ]; then
    say "bench $b n=$n$vsay: skipped (budget: $(left) s left, the step may take $limit s)"
    bench_json+=("{\"backend\": $(json_str "$b"), \"n\": $n$vjson, \"status\": \"skipped\"}")
    return 0
  fi
  [ -z "$v" ] || say "bench $b n=$n with $v"
  # --warmup-seconds 0: the warm-up is the fits counted above (the budget's prediction counts them); the CPU
  # baseline's warm-up still lasts until its process makes a long-lived one's choices (a few seconds at most)
  SYLVA_JAVA_OPTS="${SYLVA_JAVA_OPTS:-}${v:+ $v}" sylva "$limit" bench hdbscan --generate "$n" --backend "$b" \
    --repeat "$r" --warmup "$w" --warmup-seconds 0 >"$work/bench" 2>"$work/stderr" || rc=$?
  grep '^sylva-gpu:' "$work/stderr" | sed 's/^/  /' || true   # -Dsylva.gpu.trace=true's lines
  if [ "$rc" -eq 0 ]; then
    status=ok
    sed 's/^/  /' "$work/bench"
    total="$(awk '$1 == "total" {print $3}' "$work/bench")"
    core="$(awk '$1 == "core" && $2 == "distances" {print $4}' "$work/bench")"
    tree="$(awk '$1 == "spanning" && $2 == "tree" {print $4}' "$work/bench")"
    line="$(head -n1 "$work/bench")"
    [ -z "$total" ] || { last_n[$b]="$n"; last_total[$b]="$total"; }
    # distance evaluations per second of the core-distance pass (n^2 of them), for the fraction of peak
    pairs="$(awk -v n="$n" -v c="${core:-0}" 'BEGIN { if (c > 0) printf "%.4g", n * n / c; else print "null" }')"
  else
    status="$({ [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && echo "timeout" || echo "error")"
    line="$(grep -v '^WARNING: Using incubator' "$work/stderr" | head -n1)"
    say "bench $b n=$n$vsay: $status (exit $rc, limit $limit s): $line"
    [ "$b" = simd ] || failures+=("bench $b n=$n$vsay: $status: $line")
  fi
  bench_json+=("{\"backend\": $(json_str "$b"), \"n\": $n$vjson, \"status\": \"$status\", \"repeat\": $r, \"warmup\": $w, \
\"total_median_s\": ${total:-null}, \"core_distances_median_s\": ${core:-null}, \"spanning_tree_median_s\": ${tree:-null}, \
\"core_pairs_per_s\": ${pairs:-null}, \"header\": $(json_str "${line:-}")}")
}
for n in $sizes; do
  for b in $backends; do
    for v in "${variant_list[@]}"; do
      limit=$((n <= 50000 ? 45 : n <= 200000 ? 90 : 150))
      bench "$b" "$n" "$limit" "$repeat" 1 "$v"
    done
  done
done
for n in $cpu_sizes; do
  # the CPU baseline: one cold-JIT warm-up is cheap below 200 000; above, one timed fit only
  if [ "$n" -le 50000 ]; then bench simd "$n" 60 "$repeat" 1; else bench simd "$n" 150 1 0; fi
done

# ---- the summary ----------------------------------------------------------------------------------
ok=1
[ ${#failures[@]} -eq 0 ] || ok=0
{
  printf '{\n  "date": %s,\n  "ok": %s,\n' "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$([ $ok = 1 ] && echo true || echo false)"
  printf '  "gpu": %s,\n  "driver": %s,\n  "nvcc": %s,\n  "sylva": %s,\n' "$(json_str "$gpu_line")" \
    "$(json_str "$driver")" "$(json_str "$nvcc_line")" "$(json_str "$version")"
  printf '  "devices": %s,\n  "exactness_data": %s,\n  "cases": %d,\n  "exactness": {' "$(json_str "$devices")" \
    "$(json_str "$source_kind")" "${#cases[@]}"
  sep=""
  for b in $backends; do
    printf '%s\n    %s: {"identical": %d, "differ": %d, "failed": %d}' "$sep" "$(json_str "$b")" \
      "${same[$b]}" "${differ[$b]}" "${failed[$b]}"
    sep=","
  done
  printf '\n  },\n  "balltree_exactness_data": %s,\n  "balltree_cases": %d,\n  "balltree_exactness": {' \
    "$(json_str "$tree_source")" "${#tree_cases[@]}"
  sep=""
  for b in $backends; do
    printf '%s\n    %s: {"identical": %d, "differ": %d, "failed": %d}' "$sep" "$(json_str "$b")" \
      "${tsame[$b]}" "${tdiffer[$b]}" "${tfailed[$b]}"
    sep=","
  done
  printf '\n  },\n  "balltree_bench": ['
  sep=""
  for j in "${tree_json[@]}"; do printf '%s\n    %s' "$sep" "$j"; sep=","; done
  printf '\n  ],\n  "failures": ['
  sep=""
  for f in "${failures[@]}"; do printf '%s\n    %s' "$sep" "$(json_str "$f")"; sep=","; done
  printf '\n  ],\n  "bench": ['
  sep=""
  for j in "${bench_json[@]}"; do printf '%s\n    %s' "$sep" "$j"; sep=","; done
  printf '\n  ],\n  "elapsed_s": %d,\n  "budget_s": %d\n}\n' "$((SECONDS - start))" "$budget"
} >"$out/device-check.json"
say "summary: $out/device-check.json ($([ $ok = 1 ] && echo "all identical, no failure" || echo "${#failures[@]} failure(s)"))"
[ $ok = 1 ]
