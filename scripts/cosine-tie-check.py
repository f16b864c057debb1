#!/usr/bin/env python3
"""Evidence behind MetricOracleTest.TIE_DEPENDENT: on iris (shared/oracle/hdbscan/iris_X.npy) with
metric='cosine', min_cluster_size=5, min_samples=5, the labels depend on how exactly tied
mutual-reachability weights are ordered, although the oracle's tie masks mark those points 0.

It builds the cosine matrix in Sylva's order (rows divided by their norm, then 1 - dot summed in
order, clipped to [0, 2]; scikit-learn sums in BLAS order), the mutual-reachability matrix, and runs
scikit-learn 1.9's own dense Prim (mst_from_mutual_reachability) and tree_to_labels on it with the rows
in their order and permuted: the clusterings differ (2 clusters / 0 noise vs 4 clusters / 34 noise),
with the same spanning-tree weight. With an mst.npy from `sylva hdbscan iris_X.npy --metric cosine
--min-cluster-size 5 --min-samples 5`, scikit-learn's tree_to_labels on Sylva's tree is printed too.

    python3 scripts/cosine-tie-check.py [../shared/oracle/hdbscan/iris_X.npy] [result/mst.npy]
"""
import sys

import numpy as np
from sklearn.cluster._hdbscan._linkage import MST_edge_dtype, make_single_linkage, mst_from_mutual_reachability
from sklearn.cluster._hdbscan._tree import tree_to_labels

data = sys.argv[1] if len(sys.argv) > 1 else "../shared/oracle/hdbscan/iris_X.npy"
X = np.load(data).astype(np.float64)
n, d = X.shape
U = np.empty_like(X)
for i in range(n):
    s = 0.0
    for j in range(d):
        s += X[i, j] * X[i, j]
    norm = np.sqrt(s)
    U[i] = X[i] / (1.0 if norm < 10 * np.finfo(np.float64).eps else norm)
D = np.zeros((n, n))
for a in range(n):
    for b in range(a + 1, n):
        s = 0.0
        for j in range(d):
            s += U[a, j] * U[b, j]
        D[a, b] = D[b, a] = min(max(1 - s, 0.0), 2.0)
core = np.sort(D, axis=0)[4]   # min_samples = 5, the point itself first
MR = np.maximum(np.maximum(core[:, None], core[None, :]), D)


def labels_of(mst):
    mst = mst[np.argsort(mst["distance"], kind="mergesort")]
    labels, _ = tree_to_labels(make_single_linkage(mst), 5, "eom", False, 0.0, None)
    return labels


for seed in [None, 1, 2, 3]:
    p = np.arange(n) if seed is None else np.random.RandomState(seed).permutation(n)
    t = mst_from_mutual_reachability(MR[np.ix_(p, p)].copy())
    t["current_node"], t["next_node"] = p[t["current_node"]], p[t["next_node"]]
    lab = labels_of(t)
    print(f"scikit-learn Prim, rows {'in order' if seed is None else f'permuted (seed {seed})'}: "
          f"{lab.max() + 1} clusters, {(lab == -1).sum()} noise, tree weight {t['distance'].sum()!r}")
if len(sys.argv) > 2:
    m = np.load(sys.argv[2])
    t = np.zeros(len(m), dtype=MST_edge_dtype)
    t["current_node"], t["next_node"], t["distance"] = m[:, 0].astype(np.int64), m[:, 1].astype(np.int64), m[:, 2]
    lab = labels_of(t)
    print(f"scikit-learn tree_to_labels on Sylva's tree: {lab.max() + 1} clusters, {(lab == -1).sum()} noise, "
          f"tree weight {m[:, 2].sum()!r}")
