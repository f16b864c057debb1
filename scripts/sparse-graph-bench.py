"""Sparse precomputed distance matrices: Sylva (the Python package's warm engine) against scikit-learn 1.9's
HDBSCAN on the same k-nearest-neighbour graphs, in one run. Each graph is `kneighbors_graph(X, k, mode="distance",
include_self=True)` of Gaussian blobs, symmetrised with its transpose and joined into one piece by the distances
between consecutive rows (as a user would make a graph connected), so both tools fit the same matrix with the same
semantics (pairs not stored are no edge; a core distance is the min_samples-th smallest stored in its row).
Building the graph is not timed. Prints medians of --repeat fits after --warm-seconds of untimed fits of each tool, Sylva's wall
time and its engine's own, and checks that both find the same sorted spanning-tree weights.

    python3 scripts/sparse-graph-bench.py --sizes 20000,100000,200000 --k 15 --min-samples 10 --repeat 5
    python3 scripts/sparse-graph-bench.py --sizes 20000,200000 --save /tmp/graphs   # also writes the .npz files
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.cluster import HDBSCAN
from sklearn.datasets import make_blobs
from sklearn.neighbors import kneighbors_graph

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
import sylva  # noqa: E402


def graph(n, d, k, seed):
    X, _ = make_blobs(n, d, centers=25, cluster_std=1.5, random_state=seed)
    G = kneighbors_graph(X, k, mode="distance", include_self=True)
    chain = np.linalg.norm(X[1:] - X[:-1], axis=1)
    G = G.tocoo()
    both = sp.coo_matrix((np.r_[G.data, chain], (np.r_[G.row, np.arange(n - 1)], np.r_[G.col, np.arange(1, n)])),
                         shape=(n, n))
    # symmetrised keeping stored zeros and the diagonal (G.maximum(G.T) would drop both)
    G = sylva.symmetric_graph(both)
    assert all(i in G.indices[G.indptr[i]:G.indptr[i + 1]] for i in range(n)), "the diagonal is stored"
    return G


def timed(fit, repeat, warm_seconds):
    # untimed fits, at least one, for warm_seconds: the engine's JIT compiles the graph's code, scipy makes its first calls
    end = time.perf_counter() + warm_seconds
    fit()
    while time.perf_counter() < end:
        fit()
    walls, results = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        results = fit()
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls), results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="20000,100000")
    ap.add_argument("--dims", type=int, default=8)
    ap.add_argument("--k", type=int, default=15)
    ap.add_argument("--min-samples", type=int, default=10)
    ap.add_argument("--min-cluster-size", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--warm-seconds", type=float, default=3.0)
    ap.add_argument("--save", metavar="DIR", help="also write each graph to DIR/graphN.npz (scipy.sparse.save_npz), for "
                    "`sylva bench hdbscan DIR/graphN.npz --metric precomputed` and cold runs")
    a = ap.parse_args()
    params = dict(metric="precomputed", min_cluster_size=a.min_cluster_size, min_samples=a.min_samples)
    print(f"{'points':>8} {'stored':>10} {'sylva wall':>11} {'engine':>9} {'scikit-learn':>13} {'ratio':>6}  weights")
    for n in (int(s) for s in a.sizes.split(",")):
        G = graph(n, a.dims, a.k, seed=n)
        if a.save:
            Path(a.save).mkdir(parents=True, exist_ok=True)
            sp.save_npz(Path(a.save) / f"graph{n}.npz", G)
        engine = []

        def ours():
            h = sylva.HDBSCAN(**params).fit(G)
            engine.append(h.engine_seconds_)
            return h

        wall, h = timed(ours, a.repeat, a.warm_seconds)
        eng = statistics.median(engine[-a.repeat:])
        theirs_wall, t = timed(lambda: HDBSCAN(copy=True, **params).fit(G), a.repeat, a.warm_seconds)
        w1 = np.sort(h.minimum_spanning_tree_[:, 2])
        w2 = np.sort(t._single_linkage_tree_["value"])
        same = "bitwise equal" if np.array_equal(w1, w2) else f"max diff {np.max(np.abs(w1 - w2)):.3g}"
        print(f"{n:>8} {G.nnz:>10} {wall:>10.3f}s {eng:>8.3f}s {theirs_wall:>12.3f}s {theirs_wall / wall:>5.1f}x  {same}",
              flush=True)


if __name__ == "__main__":
    main()
