#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest) against the JDK-free distribution: installs the
# package and its test extras (pytest, scikit-learn) with pip into a throw-away virtual environment (system
# site packages visible, so the machine's numpy serves), unpacks the distribution (built first when missing
# or older than the jar) and runs pytest with SYLVA_HOME pointing at it. Skipped, saying so, when no python3
# with numpy exists. Called by .ci/run after check-dist.sh; arguments go to pytest (e.g. -k prediction).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/bin/find-jdk.sh"
cd "$root"
py=""
for cand in python3 "$HOME/.pyenv/shims/python3" /usr/bin/python3; do
  if command -v "$cand" >/dev/null 2>&1 && "$cand" -c "import numpy" >/dev/null 2>&1; then py="$cand"; break; fi
done
if [ -z "$py" ]; then
  echo "python-tests: skipped: no python3 with numpy found (looked at PATH, ~/.pyenv/shims, /usr/bin)" >&2
  exit 0
fi
jar="sylva-cli/target/sylva.jar"
tarball="$(ls sylva-cli/target/sylva-*-linux-x64.tar.gz 2>/dev/null | head -n1 || true)"
if [ -z "$tarball" ] || [ ! -f "$jar" ] || [ "$jar" -nt "$tarball" ]; then
  echo "python-tests: building the distribution ..." >&2
  mvn -B -ntp -q -Pdist -DskipTests package -pl sylva-cli -am
  tarball="$(ls sylva-cli/target/sylva-*-linux-x64.tar.gz | head -n1)"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/sylva-python.XXXXXX")"
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$tarball"
home="$(ls -d "$work"/sylva-*/)"
"$py" -m venv --system-site-packages "$work/venv"
# The test extras (pytest, scikit-learn) from the machine's package index; one try per index, so an
# unreachable one costs no back-off. Tests that need scikit-learn skip, saying so, when it is missing.
pipq() { "$work/venv/bin/python" -m pip install -q --retries 0 "$@" 2>&1 | { grep -v -i "retry\|warning" || true; }; }
pipq "$root/python[test]" || pipq "$root/python" pytest
"$work/venv/bin/python" -c "import sklearn" 2>/dev/null \
  || echo "python-tests: scikit-learn could not be installed; the tests that compare with it will be skipped" >&2
echo "python-tests: $("$py" --version 2>&1), numpy $("$py" -c 'import numpy; print(numpy.__version__)'), engine $home" >&2
# From the work folder, so that `import sylva` is the installed package, not the checkout's sources.
cd "$work"
SYLVA_HOME="${home%/}" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests" "$@"
