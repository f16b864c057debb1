#!/usr/bin/env bash
# Makes the distribution that needs no JDK: TARGET/sylva-VERSION-linux-x64.tar.gz holding
#   sylva-VERSION/bin/sylva        the launcher
#   sylva-VERSION/lib/sylva.jar    the CLI (with the library)
#   sylva-VERSION/lib/sylva.aot    JDK 25's ahead-of-time cache, from a training run on this runtime, and its
#                                  siblings sylva-small.aot, sylva-small-predict.aot, sylva-version.aot (sylva_train_aot)
#   sylva-VERSION/runtime/         a jlink'ed Java 25 runtime (java.base, java.logging, java.management, jdk.incubator.vector)
#   sylva-VERSION/README.md        the project's README after a header for the distribution; docs/ and BENCHMARKS.md,
#                                  which it links to
# Called by `mvn -Pdist package` (sylva-cli's dist profile) after the jar is shaded.
# usage: scripts/make-dist.sh JAR VERSION TARGET
set -euo pipefail
jar="$1" version="$2" target="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/bin/find-jdk.sh"
. "$root/bin/sylva-java.sh"
name="sylva-$version"
stage="$target/dist/$name"
rm -rf "$target/dist"
mkdir -p "$stage/bin" "$stage/lib"
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.incubator.vector \
  --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
  --output "$stage/runtime" 2>&1 | { grep -v "^WARNING: Using incubator modules" || true; }
cp "$jar" "$stage/lib/sylva.jar"
cp "$root/bin/sylva-java.sh" "$stage/lib/sylva-java.sh"
cp "$root/sylva-cli/src/dist/bin/sylva" "$stage/bin/sylva"
chmod +x "$stage/bin/sylva"
# the project's README, after a header for this folder (its commands are bin/sylva's, not the checkout's), and
# the documents it links to, so that its links resolve here too
{
  cat <<HEADER
# Sylva $version: the distribution that needs no JDK

This folder runs on Linux x64 without a Java installation: \`bin/sylva\` is the launcher, \`runtime/\` the Java 25
runtime it uses.

\`\`\`bash
bin/sylva demo        # clusters a built-in clip-like demo, writes sylva-demo/report.html
bin/sylva --help      # the commands; bin/sylva help COMMAND for each one's options
\`\`\`

The project's README follows. Where it says \`./sylva\`, run \`bin/sylva\`. Its commands that build or test
(\`./run-tests\`, \`mvn\`, \`bin/find-jdk.sh\`, \`pip install -e ./python\`) need the source tree; the Python package
uses this folder as its engine when \`SYLVA_HOME\` names it.

---

HEADER
  cat "$root/README.md"
} > "$stage/README.md"
cp -R "$root/docs" "$stage/docs"
cp "$root/BENCHMARKS.md" "$stage/BENCHMARKS.md"
sylva_train_aot "$stage/runtime/bin/java" "$stage/lib/sylva.jar" "$stage/lib/sylva.aot"
[ -f "$stage/lib/sylva.aot" ] || echo "make-dist: no start-up cache (training failed); the launcher runs without it" >&2
tar -C "$target/dist" -czf "$target/$name-linux-x64.tar.gz" "$name"
echo "make-dist: $target/$name-linux-x64.tar.gz ($(du -h "$target/$name-linux-x64.tar.gz" | cut -f1))"
