#!/usr/bin/env bash
# The distributed fit's benchmark (BENCHMARKS.md, "Spark"): DistributedFitBench on local[threads] against
# the CPU engine with the same threads. Usage: scripts/spark-bench.sh N REPS THREADS SLICES [skipLocal]
# The distributed prediction's: scripts/spark-bench.sh predict N_FIT N_NEW REPS THREADS SLICES
# (DistributedPredictBench: SylvaHdbscanModel.predict against the library's approximatePredict).
# Heap: SYLVA_BENCH_HEAP (default 8g). Builds the modules first.
set -euo pipefail
main=org.sylva.spark.DistributedFitBench
if [ "${1:-}" = predict ]; then
  main=org.sylva.spark.DistributedPredictBench
  shift
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bin/find-jdk.sh"
cd "$here"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp_file="$work/classpath"
# built in the reactor (package, never install: the local Maven repository is left as it is); the class path
# is sylva-spark's, the last module built, with sylva-core's jars from its target/
mvn -o -q -B package -DskipTests -Dmaven.install.skip=true -pl sylva-spark -am \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null
# a private copy of Sylva's own classes and jars: a rebuild during a long run must not pull them away
mkdir -p "$work/sylva"
cp -r sylva-spark/target/test-classes "$work/sylva/test-classes"
cp -r sylva-spark/target/classes "$work/sylva/classes"
private=""
IFS=: read -r -a entries < "$cp_file" || true  # no newline at the end of the file
for e in "${entries[@]}"; do
  case "$e" in
    */org/sylva/*|"$here"/sylva-*/target/*) cp -r "$e" "$work/sylva/"; private="$private:$work/sylva/$(basename "$e")" ;;
    *) private="$private:$e" ;;
  esac
done
opts="$(grep -o '<spark.java.options>[^<]*' sylva-spark/pom.xml | sed 's/<spark.java.options>//')"
# shellcheck disable=SC2086
java -Xmx"${SYLVA_BENCH_HEAP:-8g}" --add-modules jdk.incubator.vector $opts \
  -cp "$work/sylva/test-classes:$work/sylva/classes$private" \
  "$main" "$@" 2>&1 | grep -v 'WARNING: Using incubator modules'
