"""Writes the real data sets of the peer suite (scripts/peer-suite.py, issue 21) as .npy files for the cold
one-shot comparison of issue 17 (scripts/cold-suite.sh). The arrays come from peer-suite.py's own
data_sets(), so they are the suite's, value for value and dtype for dtype (float32 clips, float64 for the
rest, as the suite hands them to every library); the oracle sets are included when ../shared/oracle/hdbscan
is there.

Writes DIR/<key>.npy for each set and DIR/sets.tsv, one line per set in the suite's order:
    key <TAB> rows <TAB> columns <TAB> min_cluster_size <TAB> the suite's name for the set

usage: python3 scripts/cold-suite-data.py DIR
"""
import importlib.util
import os
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("peersuite", root / "scripts" / "peer-suite.py")
suite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite)

# the suite's names, by a word each contains, to a short file name; the first word found decides, so "MNIST
# digits" comes before "digits"
KEYS = (("clip-like", "clips20000"), ("principal components", "pca12"), ("MNIST", "mnist"), ("digits", "digits"),
        ("china.jpg", "china"), ("breast cancer", "breast_cancer"), ("wine", "wine"), ("UCI letters", "letters"),
        ("grid3000", "grid3000"), ("blobs2000noise", "blobs2000noise"))


def key(name):
    for word, k in KEYS:
        if word in name:
            return k
    raise SystemExit(f"cold-suite-data.py: no file name for the suite's set {name!r}")


def main():
    out = Path(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    # sizes [20000]: the suite's clip-like 20 000 set is drawn first from its generator whatever the other
    # sizes, and its 12 principal components are those of that set
    lines = []
    seen = set()
    for name, _kind, x, mcs, _mst in suite.data_sets([20000]):
        k = key(name)
        if k in seen:   # two sets on one file would time one of them twice under two names
            raise SystemExit(f"cold-suite-data.py: two of the suite's sets map to the file name {k!r}")
        seen.add(k)
        suite.np.save(out / f"{k}.npy", x)
        lines.append(f"{k}\t{x.shape[0]}\t{x.shape[1]}\t{mcs}\t{name}\n")
    (out / "sets.tsv").write_text("".join(lines))


if __name__ == "__main__":
    main()
