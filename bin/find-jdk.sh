# shellcheck shell=bash
# Sourced by ./sylva, ./run-tests and .ci/run: points JAVA_HOME at a JDK 25 or newer without the user
# setting anything. Order: $JAVA_HOME if it is already >= 25, then /usr/lib/jvm/*25* (Temurin first),
# then the `java` on PATH if it is >= 25.
sylva_java_major() {   # JDK_HOME: sets SYLVA_JAVA_MAJOR to its feature version (empty if unknown)
  # The JDK's `release` file names its version without starting a JVM (a cold start costs ~40 ms), read
  # with bash's own `read`, the result in a variable (./sylva sources this on every run: no sed, no subshell).
  local line
  SYLVA_JAVA_MAJOR=""
  if [ -f "$1/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        JAVA_VERSION=*) line="${line#JAVA_VERSION=}"; line="${line#\"}"; SYLVA_JAVA_MAJOR="${line%%[!0-9]*}"; break ;;
      esac
    done < "$1/release"
  fi
  if [ -z "$SYLVA_JAVA_MAJOR" ]; then
    SYLVA_JAVA_MAJOR=$("$1/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java\.specification\.version = //p' | head -n1 | cut -d. -f1)
  fi
}
sylva_find_jdk() {
  local cand
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    sylva_java_major "$JAVA_HOME"
    if [ "${SYLVA_JAVA_MAJOR:-0}" -ge 25 ] 2>/dev/null; then return 0; fi
  fi
  for cand in /usr/lib/jvm/temurin-25* /usr/lib/jvm/*-25* /usr/lib/jvm/*25* /usr/lib/jvm/*; do
    [ -x "$cand/bin/javac" ] || continue
    sylva_java_major "$cand"
    if [ "${SYLVA_JAVA_MAJOR:-0}" -ge 25 ] 2>/dev/null; then export JAVA_HOME="$cand"; return 0; fi
  done
  if command -v javac >/dev/null 2>&1; then
    cand=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    sylva_java_major "$cand"
    if [ "${SYLVA_JAVA_MAJOR:-0}" -ge 25 ] 2>/dev/null; then export JAVA_HOME="$cand"; return 0; fi
  fi
  echo "sylva: no JDK 25 found (looked at \$JAVA_HOME, /usr/lib/jvm and PATH); install Temurin 25 or OpenJDK 25." >&2
  return 1
}
sylva_find_jdk || exit 2
export PATH="$JAVA_HOME/bin:$PATH"
sylva_need_mvn() {   # exits 2, saying so, when Maven is not on PATH
  if ! command -v mvn >/dev/null 2>&1; then
    echo "sylva: Apache Maven (mvn) is needed to build; install it (Debian: apt-get install maven)." >&2
    exit 2
  fi
}
# ./sylva sets SYLVA_MVN_WHEN_BUILDING=1 before sourcing this: it needs Maven only when it has something to build
# (a built checkout runs where mvn is not on PATH: a service, an IDE, the Python package's engine)
[ "${SYLVA_MVN_WHEN_BUILDING:-}" = 1 ] || sylva_need_mvn
# Maven 3.8/3.9 itself (guava) touches sun.misc.Unsafe; keep its console quiet on JDK 25.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
