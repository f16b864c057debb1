#!/usr/bin/env bash
# Checks the CUDA-preluded kernel sources (HDBSCAN for each K, and the ball tree's) (exactly what NVRTC gets: gpu/make-ptx.sh --compose) with a
# host C++ compiler in syntax-only mode, the CUDA keywords stubbed by gpu/cuda-stubs.h. A check of
# syntax and types only, for machines without nvcc: it does not compile for, or run on, a GPU.
# usage: gpu/cuda-syntax-check.sh [K ...]     (default K = 1 2 21 65); CXX picks the compiler (g++)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cxx="${CXX:-g++}"
command -v "$cxx" >/dev/null || { echo "cuda-syntax-check: no $cxx" >&2; exit 3; }
ks=("$@")
if [ ${#ks[@]} -eq 0 ]; then ks=(1 2 21 65); fi
for k in "${ks[@]}"; do
  { cat "$here/cuda-stubs.h"; "$here/make-ptx.sh" --compose "$k"; } |
    "$cxx" -x c++ -std=c++11 -fsyntax-only -Wall -Wextra -Wno-unknown-pragmas -Wno-unused-parameter -Werror -
done
{ cat "$here/cuda-stubs.h"; "$here/make-ptx.sh" --compose-tree; } |
  "$cxx" -x c++ -std=c++11 -fsyntax-only -Wall -Wextra -Wno-unknown-pragmas -Wno-unused-parameter -Werror -
echo "cuda-syntax-check: the CUDA-preluded source parses and type-checks for K = ${ks[*]} and the ball-tree kernels ($("$cxx" --version | head -1))"
