"""Density-based clustering validation (DBCV) as the ``hdbscan`` package's
``hdbscan.validity.validity_index`` computes it (Euclidean), exactly, by the engine.

>>> import numpy as np, sylva
>>> X = np.random.default_rng(0).normal(size=(300, 2))
>>> labels = sylva.HDBSCAN(min_cluster_size=20).fit_predict(X)
>>> score = sylva.validity_index(X, labels)
"""
from __future__ import annotations

import numpy as np

from ._engine import get_engine
from ._inputs import fit_dtype


def validity_index(X, labels, per_cluster_scores=False):
    """The DBCV index of ``labels`` (-1 = noise) on ``X`` (n × d, finite), in [-1, 1]; with
    ``per_cluster_scores`` also the score of each cluster, as the package returns them."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"Expected 2D array, got shape {X.shape}")
    labels = np.ascontiguousarray(labels, dtype="<i4")
    if labels.shape != (X.shape[0],):
        raise ValueError(f"{labels.shape[0] if labels.ndim == 1 else labels.shape} labels for {X.shape[0]} points")
    r = get_engine().call("validity", {"what": "dbcv"}, {"points": fit_dtype(X), "labels": labels})
    index = float(r.params["validity_index"])
    return (index, r.arrays["per_cluster"]) if per_cluster_scores else index
