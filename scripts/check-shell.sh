#!/usr/bin/env bash
# The repository's shell scripts (the launchers, CI, the benchmark and device scripts) through ShellCheck at
# its warning level; the info-level notes (`A && B || C`, `ls` in a pipe) are patterns used on purpose.
# Installs ShellCheck with apt where it is missing and can be installed; without it, says so and passes.
# Called by .ci/run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v shellcheck >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null 2>&1) || true
fi
if ! command -v shellcheck >/dev/null 2>&1; then
  echo "shellcheck: not installed and could not be installed; the shell scripts were not checked" >&2
  exit 0
fi
mapfile -t scripts < <(git ls-files | grep -E '\.sh$|^sylva$|^run-tests$|^\.ci/run$|/dist/bin/sylva$')
shellcheck -S warning "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} scripts without warnings"
