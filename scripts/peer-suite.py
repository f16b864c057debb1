"""The benchmark suite of issue 21, side by side in one run: Sylva (the Python package's warm engine; the
figure is the engine's own fit time, and the wall time is shown beside it) against scikit-learn 1.9's
HDBSCAN, and the `hdbscan` package / fast_hdbscan when they import, on clip-like spike data and real
data sets scikit-learn ships (no download): digits (integer pixels, massive ties), wine, breast cancer,
and 12 principal components of 20 000 clips (low-dimensional features). Prints one table of medians and
ratios, and checks that every exact peer finds the same sorted spanning-tree weights as Sylva (the sorted
single-linkage merge distances are the sorted MST weights).

usage: python3 scripts/peer-suite.py [--repeat R] [--large]   (--large adds 50 000 clips; slow for peers)
"""
import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

import numpy as np

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "python"))
spec = importlib.util.spec_from_file_location("coldgen", root / "scripts" / "cold-start-data.py")
coldgen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(coldgen)

import sylva  # noqa: E402
from sklearn import datasets  # noqa: E402
from sklearn.cluster import HDBSCAN as SkHDBSCAN  # noqa: E402


def data_sets(large):
    rng = np.random.default_rng(20261201)
    clips20k = coldgen.clips(20000, 12, rng)
    centred = clips20k.astype(np.float64) - clips20k.mean(axis=0)
    _, _, vt = np.linalg.svd(centred[:5000], full_matrices=False)
    sets = [
        ("clip-like 20 000 x 61 (float32)", clips20k, 20),
        ("PCA-12 of the clips, 20 000 x 12", (centred @ vt[:12].T), 20),
        ("digits 1 797 x 64 (integers, ties)", datasets.load_digits().data, 5),
        ("breast cancer 569 x 30", datasets.load_breast_cancer().data, 5),
        ("wine 178 x 13", datasets.load_wine().data, 5),
    ]
    if large:
        sets.insert(1, ("clip-like 50 000 x 61 (float32)", coldgen.clips(50000, 12, rng), 20))
    return sets


def timed(fn, repeat):
    walls, last = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        last = fn()
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls), last


def sorted_weights_sylva(c):
    return np.sort(c.minimum_spanning_tree_[:, 2])


def sorted_weights_sklearn(c):
    return np.sort(c._single_linkage_tree_["value"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--large", action="store_true")
    args = ap.parse_args()
    sylva.HDBSCAN(min_cluster_size=5).fit(np.random.default_rng(0).normal(size=(3000, 8)))   # engine up
    rows = []
    for name, x, mcs in data_sets(args.large):
        # warm the engine's JIT on this shape (auto runs the vector kernels after 5 s in a long-lived JVM)
        for _ in range(2):
            sylva.HDBSCAN(min_cluster_size=mcs).fit(x)
        engine, walls = [], []
        c = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            c = sylva.HDBSCAN(min_cluster_size=mcs).fit(x)
            walls.append(time.perf_counter() - t0)
            engine.append(c.engine_seconds_)
        sk_t, sk = timed(lambda: SkHDBSCAN(min_cluster_size=mcs, copy=True).fit(x), max(1, args.repeat - 1))
        a, b = sorted_weights_sylva(c), sorted_weights_sklearn(sk)
        same = np.array_equal(a, b)
        if not same and a.shape == b.shape:   # how far apart, for the record (summation order, ties)
            print(f"  {name}: max relative difference of sorted weights "
                  f"{np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)):.3g}", file=sys.stderr)
        rows.append((name, statistics.median(engine), statistics.median(walls), sk_t, same))
        print(f"{name}: Sylva {statistics.median(engine):.3f} s (wall {statistics.median(walls):.3f}), "
              f"scikit-learn {sk_t:.3f} s, same sorted MST weights: {same}", file=sys.stderr)
    print()
    print("| data | Sylva (engine, median) | Sylva (wall) | scikit-learn 1.9 | ratio | same sorted MST weights |")
    print("|---|---|---|---|---|---|")
    for name, e, w, s, same in rows:
        print(f"| {name} | {e:.3f} s | {w:.3f} s | {s:.3f} s | {s / e:.1f}× | {'yes' if same else 'NO'} |")
    if not all(r[4] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
