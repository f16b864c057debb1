#!/usr/bin/env bash
# Builds the JDK-free distribution (mvn -Pdist package), unpacks it into a temporary folder and runs its
# demo in a bare environment: no JAVA_HOME, PATH=/usr/bin:/bin (where Debian 12's java is 17, or none).
# Fails unless the demo exits 0, writes its report and prints no JVM warning. Called by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/bin/find-jdk.sh"
cd "$root"
mvn -B -ntp -q -Pdist -DskipTests package -pl sylva-cli -am
tarball="$(ls sylva-cli/target/sylva-*-linux-x64.tar.gz)"
work="$(mktemp -d "${TMPDIR:-/tmp}/sylva-dist.XXXXXX")"
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$tarball"
home="$(ls -d "$work"/sylva-*)"
# the JVM's complaints about the start-up caches (a cache it cannot use, or uses only in part) go to a file
aotlog() { echo "-Xlog:aot*=warning,cds*=warning:file=$work/aot-$1.log"; }
set +e
# (and the classes it loaded, with where from: the cache must hold picocli's and the CLI's own)
env -i PATH=/usr/bin:/bin HOME="$work" \
  SYLVA_JAVA_OPTS="$(aotlog demo) -Xlog:class+load=info:file=$work/classes-demo.log" "$home/bin/sylva" demo --points 2000 \
  --out "$work/demo" >"$work/out.txt" 2>"$work/err.txt"
code=$?
set -e
fail() { echo "check-dist: $*" >&2; cat "$work/err.txt" >&2; exit 1; }
[ "$code" -eq 0 ] || fail "bin/sylva demo exited $code"
[ -s "$work/demo/report.html" ] || fail "no report.html"
! grep -q "WARNING" "$work/err.txt" || fail "a warning reached stderr"
# the shipped README's relative links (docs/, BENCHMARKS.md) resolve inside the distribution
for link in $(grep -o '](\([^)#:]*\)[)#]' "$home/README.md" | sed 's/^](//; s/[)#]$//' | sort -u); do
  [ -e "$home/$link" ] || fail "the distribution's README links to $link, which it does not hold"
done
head -n1 "$home/README.md" | grep -q "the distribution that needs no JDK" || fail "README.md lacks the distribution's header"
for cache in sylva sylva-small sylva-small-predict sylva-version; do
  [ -f "$home/lib/$cache.aot" ] || fail "no start-up cache lib/$cache.aot"
done
version="$(env -i PATH=/usr/bin:/bin SYLVA_JAVA_OPTS="$(aotlog version)" "$home/bin/sylva" --version | head -n1)"
# a small `sylva hdbscan` input (300 x 8 float32, a .npy written here) takes the small inputs' cache
python3 - "$work/small.npy" <<'PY'
import random, struct, sys
n, d = 300, 8
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (n, d)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
rng = random.Random(3)
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
    f.write(struct.pack("<%df" % (n * d), *(rng.gauss(i % 3, 0.2) for i in range(n * d))))
PY
env -i PATH=/usr/bin:/bin HOME="$work" \
  SYLVA_JAVA_OPTS="$(aotlog small) -Xlog:class+load=info:file=$work/classes-small.log" "$home/bin/sylva" hdbscan \
  "$work/small.npy" --out "$work/small" --save-model "$work/small.model" -q >"$work/out.txt" 2>"$work/err.txt" \
  || fail "bin/sylva hdbscan (small) failed"
[ ! -s "$work/err.txt" ] || fail "bin/sylva hdbscan (small) wrote on stderr"
# and its points predicted against its model: few new points, which take their own cache
env -i PATH=/usr/bin:/bin HOME="$work" \
  SYLVA_JAVA_OPTS="$(aotlog predict) -Xlog:class+load=info:file=$work/classes-predict.log" "$home/bin/sylva" predict \
  "$work/small.model" "$work/small.npy" --out "$work/predicted" -q >"$work/out.txt" 2>"$work/err.txt" \
  || fail "bin/sylva predict (small) failed"
[ ! -s "$work/err.txt" ] || fail "bin/sylva predict (small) wrote on stderr"
[ -s "$work/predicted/labels.npy" ] || fail "bin/sylva predict (small) wrote no labels"
# the other runs that start small (no Vector API module, a small cache; sylva_small_run): cut and reselect of that
# model, a ball tree of those points, a text table, help, sylva alone and sylva devices
python3 -c 'import random; r = random.Random(5); print("\n".join("%r,%r" % (r.gauss(i % 2, .1), r.gauss(0, .1)) for i in range(200)))' \
  > "$work/small.csv"
smallrun() {   # NAME EXPECTED_STATUS ARGS...: runs bin/sylva ARGS in a bare environment, its stderr to err-NAME.txt
  local name="$1" want="$2" rc=0; shift 2
  env -i PATH=/usr/bin:/bin HOME="$work" SYLVA_JAVA_OPTS="$(aotlog "$name")" "$home/bin/sylva" "$@" \
    >"$work/out.txt" 2>"$work/err-$name.txt" || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/err-$name.txt" >&2; fail "bin/sylva $* exited $rc, not $want"; }
}
smallrun cut 0 cut "$work/small.model" --distance 1 --out "$work/cut" -q
smallrun reselect 0 reselect "$work/small.model" --method leaf --out "$work/reselect" -q
smallrun balltree 0 balltree "$work/small.npy" --out "$work/tree" -q
smallrun csv 0 hdbscan "$work/small.csv" --out "$work/csv" -q
smallrun help 0 hdbscan --help
smallrun alone 2
smallrun devices "$(env -i PATH=/usr/bin:/bin "$home/bin/sylva" devices >/dev/null 2>&1; echo $?)" devices
for run in cut reselect balltree csv help devices; do
  [ ! -s "$work/err-$run.txt" ] || { cat "$work/err-$run.txt" >&2; fail "bin/sylva ($run) wrote on stderr"; }
done
if ! grep -q "a command is required" "$work/err-alone.txt" || grep -qi "unbound\|sylva-java.sh" "$work/err-alone.txt"; then
  cat "$work/err-alone.txt" >&2; fail "bin/sylva alone did not say what it needs"
fi
# and the same fit as users run it, without --save-model: a small one-shot run makes no class at run time
# (annotation proxies, lambdas or type switches linked for the first time, reflective method handles: each
# costs a fresh JVM milliseconds the cache would have saved; BENCHMARKS.md, "Cold runs: the command line
# declared in code"). Classes read from the jar or the JDK's modules are fine.
env -i PATH=/usr/bin:/bin HOME="$work" \
  SYLVA_JAVA_OPTS="-Xlog:class+load=info:file=$work/classes-plain.log" "$home/bin/sylva" hdbscan \
  "$work/small.npy" --out "$work/plain" -q >"$work/out.txt" 2>"$work/err.txt" || fail "bin/sylva hdbscan (plain) failed"
made="$(grep ' source: ' "$work/classes-plain.log" | grep -v -e ' source: shared objects file' -e ' source: jrt:/' \
  -e ' source: file:' || true)"
[ -z "$made" ] || fail "a small run made classes at run time:
$made"
for run in demo small predict; do
  for class in picocli.CommandLine org.sylva.hdbscan.Hdbscan; do
    grep -q " $class source: shared objects file" "$work/classes-$run.log" \
      || fail "$run: $class was not read from the start-up cache ($(grep " $class source" "$work/classes-$run.log"))"
  done
done
grep -q " org.sylva.hdbscan.predict.HdbscanModel source: shared objects file" "$work/classes-predict.log" \
  || fail "predict: the prediction's classes were not read from its start-up cache"
grep -q " jdk.incubator.vector" "$work/classes-demo.log" || fail "demo: the Vector API module was not loaded"
! grep -q " jdk.incubator.vector" "$work/classes-predict.log" || fail "predict (small): the Vector API module was loaded"
# both launchers started through a symbolic link (a link in ~/bin): each finds its own folder
ln -s "$home/bin/sylva" "$work/dist-link"
ln -s "$root/sylva" "$work/checkout-link"
for link in dist-link checkout-link; do
  [ "$(env -i PATH=/usr/bin:/bin HOME="$work" "$work/$link" --version 2>"$work/err.txt" | head -n1)" = "$version" ] \
    || fail "sylva --version through a symbolic link ($link) did not print $version"
done
# under the C locale (env -i), unpacked in a folder with a non-ASCII name and run from a working folder named so too,
# with relative paths: it starts, reads and writes there (the launcher gives the JVM UTF-8 file names)
accents="$(printf 'd\303\251p\303\264t')"; u="$(printf '\303\274')"
moved="$work/$accents"
mv "$home" "$moved"
mkdir "$moved/$u" && cp "$work/small.npy" "$moved/$u/small.npy"
(cd "$moved/$u" && env -i PATH=/usr/bin:/bin HOME="$work" "$moved/bin/sylva" hdbscan small.npy --out res -q \
  >"$work/out.txt" 2>"$work/err.txt") || fail "bin/sylva unpacked under a non-ASCII name, in the C locale, failed"
[ -f "$moved/$u/res/labels.npy" ] || fail "a non-ASCII working folder: the outputs are not where they were asked for"
mv "$moved" "$home"
# with stderr on a terminal (a pseudo-terminal from script(1), where there is one) progress repaints its line: the
# launcher says so to the JVM, whose own stderr is the pipe to the launcher's filter
if command -v script >/dev/null 2>&1; then
  TERM=xterm script -qec "'$home/bin/sylva' demo --points 2000 --out '$work/tty-demo' >/dev/null" "$work/tty.log" \
    >/dev/null 2>&1 </dev/null || fail "bin/sylva demo on a pseudo-terminal failed"
  grep -q $'\r[a-z]' "$work/tty.log" || fail "bin/sylva demo on a terminal: progress did not repaint its line"
fi
for run in demo small predict version cut reselect balltree csv help alone devices; do
  [ ! -s "$work/aot-$run.log" ] || { cat "$work/aot-$run.log" >&2; fail "$run: the JVM did not take its start-up cache as made"; }
done
echo "check-dist: $(basename "$tarball") ($(du -h "$tarball" | cut -f1)): demo ok; $version"
