#!/usr/bin/env bash
# Prepares the peers of scripts/peer-suite.py OUTSIDE this repository (none of their code enters it):
#   scripts/peer-build.sh PEERS_DIR FAST_HDBSCAN_SRC HDBSCAN_SRC
# Each *_SRC is a clone (or a bare git directory) of https://github.com/TutteInstitute/fast_hdbscan and
# https://github.com/scikit-learn-contrib/hdbscan. Their HEAD is exported to PEERS_DIR/fast_hdbscan and
# PEERS_DIR/hdbscan with its commit in PEER_COMMIT, and the hdbscan package's Cython extensions are built
# in place. Needs numpy, scikit-learn, numba (fast_hdbscan) and Cython 3 (hdbscan; with Cython 0.29 the
# generated C uses PyArrayObject->dimensions, which NumPy 2 no longer has) in the python3 on PATH.
# Then: python3 scripts/peer-suite.py --peers-dir PEERS_DIR
set -euo pipefail
[ $# -eq 3 ] || { sed -n 2,10p "$0"; exit 2; }
peers=$1
mkdir -p "$peers"
for pair in "fast_hdbscan:$2" "hdbscan:$3"; do
  name=${pair%%:*}; src=${pair#*:}
  gitdir=$src; [ -d "$src/.git" ] && gitdir=$src/.git
  rm -rf "${peers:?}/$name"; mkdir -p "$peers/$name"
  git --git-dir="$gitdir" archive HEAD | tar -x -C "$peers/$name"
  git --git-dir="$gitdir" rev-parse HEAD > "$peers/$name/PEER_COMMIT"
  echo "$name: $(cat "$peers/$name/PEER_COMMIT")"
done
python3 -c 'import numba, Cython, numpy; print("numba", numba.__version__, "Cython", Cython.__version__, "numpy", numpy.__version__)'
(cd "$peers/hdbscan" && python3 setup.py build_ext --inplace > build.log 2>&1) \
  || { echo "hdbscan: build failed, see $peers/hdbscan/build.log" >&2; tail -5 "$peers/hdbscan/build.log" >&2; exit 1; }
echo "hdbscan: extensions built in $peers/hdbscan/hdbscan"
