#!/usr/bin/env bash
# The distributed fit's benchmark (BENCHMARKS.md, "Spark"): DistributedFitBench on local[threads] against
# the CPU engine with the same threads. Usage: scripts/spark-bench.sh N REPS THREADS SLICES [skipLocal]
# Heap: SYLVA_BENCH_HEAP (default 8g). Builds the modules first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/bin/find-jdk.sh"
cd "$here"
mvn -o -q -B install -DskipTests -pl sylva-core,sylva-spark -am >/dev/null
mvn -o -q -B test-compile -pl sylva-spark >/dev/null
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
mvn -o -q -B -pl sylva-spark dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null
opts="$(grep -o '<spark.java.options>[^<]*' sylva-spark/pom.xml | sed 's/<spark.java.options>//')"
# shellcheck disable=SC2086
exec java -Xmx"${SYLVA_BENCH_HEAP:-8g}" --add-modules jdk.incubator.vector $opts \
  -cp "sylva-spark/target/test-classes:sylva-spark/target/classes:$(cat "$cp_file")" \
  org.sylva.spark.DistributedFitBench "$@" 2>&1 | grep -v 'WARNING: Using incubator modules'
