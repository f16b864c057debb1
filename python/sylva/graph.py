"""Sparse distance graphs for ``HDBSCAN(metric="precomputed")``.

>>> import sylva
>>> from sklearn.datasets import make_blobs
>>> from sklearn.neighbors import kneighbors_graph
>>> X, _ = make_blobs(300, centers=3, random_state=0)
>>> G = sylva.symmetric_graph(kneighbors_graph(X, 15, mode="distance", include_self=True))
>>> labels = sylva.HDBSCAN(metric="precomputed", min_samples=10).fit_predict(G)
"""
from __future__ import annotations

import numpy as np


def symmetric_graph(G):
    """The symmetric union of a sparse distance graph, as a CSR matrix: every pair stored in either direction is
    stored in both, with the larger of its stored distances (a pair stored once keeps its distance), the diagonal
    is stored as 0 (each point its own first neighbour, as a dense fit counts it), and stored zeros are kept.

    Why not ``G.maximum(G.T)``: scipy drops stored zeros there, which removes the diagonal and the edges between
    identical points, so their rows hold fewer distances than the k of a k-nearest-neighbour graph (and a fit
    may refuse them for ``min_samples``)."""
    import scipy.sparse as sp

    if not sp.issparse(G):
        raise TypeError(f"symmetric_graph takes a scipy sparse matrix; got {type(G).__name__}")
    if G.ndim != 2 or G.shape[0] != G.shape[1]:
        raise ValueError(f"a distance graph is square (n x n); got shape {G.shape}")
    G = G.tocoo()
    n = G.shape[0]
    diagonal = np.arange(n)
    rows = np.concatenate([G.row, G.col, diagonal]).astype(np.int64)
    cols = np.concatenate([G.col, G.row, diagonal]).astype(np.int64)
    values = np.concatenate([G.data, G.data, np.zeros(n)]).astype(np.float64)
    key = rows * n + cols
    order = np.lexsort((values, key))   # by pair, then by value: each pair's largest last
    key, rows, cols, values = key[order], rows[order], cols[order], values[order]
    last = np.ones(len(key), dtype=bool)
    last[:-1] = key[1:] != key[:-1]
    rows, cols, values = rows[last], cols[last], values[last]
    values[rows == cols] = 0.0
    out = sp.csr_matrix((values, (rows, cols)), shape=(n, n))   # no pair twice: nothing summed, zeros kept
    out.sort_indices()
    return out
