#!/usr/bin/env bash
# The library's API documentation (sylva-core, sylva-gpu) built with the JDK's javadoc and its checks on
# (malformed HTML, broken links and references, bad tags; not missing comments). Fails on any error, so a
# javadoc jar can always be made. Called by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/bin/find-jdk.sh"
out="$(mktemp -d "${TMPDIR:-/tmp}/sylva-javadoc.XXXXXX")"
trap 'rm -rf "$out"' EXIT
status=0
"$JAVA_HOME/bin/javadoc" --add-modules jdk.incubator.vector -Xdoclint:all,-missing -quiet -d "$out/html" \
  -sourcepath "$root/sylva-core/src/main/java:$root/sylva-gpu/src/main/java" -subpackages org.sylva \
  > "$out/log" 2>&1 || status=$?
grep -v 'incubating module' "$out/log" | grep -v '^[0-9]* warnings\?$' || true
if [ "$status" -ne 0 ]; then
  echo "javadoc: failed (status $status)" >&2
  exit 1
fi
echo "javadoc: sylva-core and sylva-gpu documented without errors"
