#!/usr/bin/env bash
# Makes the stamped PTX files the CUDA engine loads where NVRTC is absent (StampedPtx): one per list
# length K (min(n, min_samples + 1)), each compiled by nvcc from exactly the text NVRTC would get
# (prelude-cuda.h, "#define K", hdbscan.cl.inc: KernelSource.compose) with --fmad=false, and stamped on
# its first line with that text's SHA-256, so a file made from another source is refused, never run.
# Run it on a machine with nvcc; nothing it makes is committed unless it was really made there.
#
# Also makes balltree.ptx, the ball-tree kernels (prelude-cuda.h, balltree.cl.inc: KernelSource.composeTree).
# usage: gpu/make-ptx.sh OUTDIR [K ...]      default K = 1..65 (min_samples up to 64), and balltree.ptx
#        gpu/make-ptx.sh --compose K         print the composed CUDA source for K (for tests)
#        gpu/make-ptx.sh --hash K            print its SHA-256 (what the stamp must say)
#        gpu/make-ptx.sh --compose-tree      the composed CUDA ball-tree source; --hash-tree its SHA-256
# env:   ARCH (default compute_80: PTX the driver compiles for any later GPU, H200 included), NVCC
# then:  sylva ... with -Dsylva.ptx.dir=OUTDIR (JAVA_OPTS), or OUTDIR copied to lib/ptx beside sylva.jar
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
res="$root/sylva-gpu/src/main/resources/org/sylva/gpu"

compose() {
  # byte for byte KernelSource.compose(CUDA, k): prelude + "\n#define K " + k + "\n" + kernels
  cat "$res/prelude-cuda.h"
  printf '\n#define K %s\n' "$1"
  cat "$res/hdbscan.cl.inc"
}

compose_tree() {
  # byte for byte KernelSource.composeTree(CUDA): prelude + "\n" + the ball-tree kernels
  cat "$res/prelude-cuda.h"
  printf '\n'
  cat "$res/balltree.cl.inc"
}

case "${1:-}" in
  --compose) compose "$2"; exit 0 ;;
  --hash) compose "$2" | sha256sum | cut -d' ' -f1; exit 0 ;;
  --compose-tree) compose_tree; exit 0 ;;
  --hash-tree) compose_tree | sha256sum | cut -d' ' -f1; exit 0 ;;
  ""|-h|--help) sed -n '2,15p' "$0"; exit 2 ;;
esac

out="$1"; shift
ks=("$@")
if [ ${#ks[@]} -eq 0 ]; then mapfile -t ks < <(seq 1 65); fi
nvcc="${NVCC:-nvcc}"
command -v "$nvcc" >/dev/null || { echo "make-ptx: $nvcc not found (this script needs CUDA's compiler)" >&2; exit 1; }
arch="${ARCH:-compute_80}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for k in "${ks[@]}"; do
  compose "$k" > "$tmp/hdbscan-k$k.cu"
  hash="$(sha256sum < "$tmp/hdbscan-k$k.cu" | cut -d' ' -f1)"
  "$nvcc" -ptx -arch="$arch" --fmad=false -o "$tmp/k$k.ptx" "$tmp/hdbscan-k$k.cu"
  { echo "// sylva-kernel-sha256: $hash"; cat "$tmp/k$k.ptx"; } > "$out/hdbscan-k$k.ptx"
done
compose_tree > "$tmp/balltree.cu"
hash="$(sha256sum < "$tmp/balltree.cu" | cut -d' ' -f1)"
"$nvcc" -ptx -arch="$arch" --fmad=false -o "$tmp/balltree.ptx" "$tmp/balltree.cu"
{ echo "// sylva-kernel-sha256: $hash"; cat "$tmp/balltree.ptx"; } > "$out/balltree.ptx"
echo "make-ptx: ${#ks[@]} PTX file(s) and balltree.ptx in $out ($("$nvcc" --version | tail -1), $arch)"
