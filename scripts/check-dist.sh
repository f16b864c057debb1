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
[ -f "$home/lib/sylva.aot" ] && [ -f "$home/lib/sylva-version.aot" ] || fail "no start-up cache in lib/"
version="$(env -i PATH=/usr/bin:/bin SYLVA_JAVA_OPTS="$(aotlog version)" "$home/bin/sylva" --version | head -n1)"
for class in picocli.CommandLine org.sylva.cli.DemoCommand org.sylva.hdbscan.Hdbscan; do
  grep -q " $class source: shared objects file" "$work/classes-demo.log" \
    || fail "demo: $class was not read from the start-up cache ($(grep " $class source" "$work/classes-demo.log"))"
done
for run in demo version; do
  [ ! -s "$work/aot-$run.log" ] || { cat "$work/aot-$run.log" >&2; fail "$run: the JVM did not take its start-up cache as made"; }
done
echo "check-dist: $(basename "$tarball") ($(du -h "$tarball" | cut -f1)): demo ok; $version"
