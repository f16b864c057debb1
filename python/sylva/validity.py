"""Density-based clustering validation (DBCV) as the ``hdbscan`` package's
``hdbscan.validity.validity_index`` computes it (Euclidean, manhattan, chebyshev, minkowski, cosine or a precomputed
distance matrix), exactly, by the engine.

>>> import numpy as np, sylva
>>> X = np.random.default_rng(0).normal(size=(300, 2))
>>> labels = sylva.HDBSCAN(min_cluster_size=20).fit_predict(X)
>>> score = sylva.validity_index(X, labels)
"""
from __future__ import annotations

import numpy as np

from ._engine import get_engine
from ._inputs import fit_dtype, table_as_array


def validity_index(X, labels, metric="euclidean", d=None, per_cluster_scores=False, mst_raw_dist=False,
                   verbose=False, **kwd_args):
    """The DBCV index of ``labels`` on ``X`` (n × d, finite), in [-1, 1], with the package's signature;
    with ``per_cluster_scores`` also the score of each cluster, indexed by label as the package returns
    them (a label that no point carries scores NaN, where the package leaves the entry unset). Negative
    labels are noise and cluster labels need not be consecutive, as in the package. ``metric`` is one of
    "euclidean" (the default), "manhattan", "chebyshev", "minkowski" (``p`` among ``kwd_args``, default 2),
    "cosine" (scikit-learn's aliases too) or "precomputed" (``X`` the n × n distance matrix); ``d`` the number of
    features or None (the package overwrites any other value with it), and with "precomputed" required: the
    number of features the distances were measured in, the exponent of the all-points core distances (as the
    package needs it); ``mst_raw_dist`` False; ``verbose`` prints nothing."""
    from .hdbscan import _METRICS
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {sorted(_METRICS)}; got {metric!r}")
    precomputed = metric == "precomputed"
    unknown = set(kwd_args) - {"p"}
    if unknown or ("p" in kwd_args and _METRICS[metric] != "minkowski"):
        raise ValueError(f"the only keyword argument is p, for minkowski; got {sorted(kwd_args)}")
    if mst_raw_dist:
        raise ValueError("mst_raw_dist=True is not supported: the index uses mutual-reachability distances")
    if hasattr(X, "toarray") and hasattr(X, "tocsr"):   # a scipy sparse matrix: its rows as dense points
        X = X.toarray()
    X = table_as_array(X)   # a pandas table's missing values (pd.NA) as NaN, as fit reads them
    if X.dtype.kind == "O":   # a list with None: NaN, as fit reads it
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError) as e:
            raise ValueError(f"X must hold numbers: {e}") from None
    if X.ndim != 2:
        raise ValueError(f"Expected 2D array, got shape {X.shape}")
    if precomputed:
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"a precomputed distance matrix must be square (n x n); got shape {X.shape}")
        if d is None or isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"with metric='precomputed', d must be given: the number of features the distances were "
                             f"measured in (an integer >= 1); got {d!r}")
    elif d is not None and d != X.shape[1]:
        raise ValueError(f"d must be the number of features ({X.shape[1]}) or None; got {d!r}")
    labels = np.asarray(labels)
    if labels.shape != (X.shape[0],):
        raise ValueError(f"{labels.shape[0] if labels.ndim == 1 else labels.shape} labels for {X.shape[0]} points")
    if labels.dtype.kind == "f" and np.isfinite(labels).all() and (labels == np.round(labels)).all():
        labels = labels.astype(np.int64)   # whole numbers stored as floats, as labels saved by some tools are
    if labels.size and labels.dtype.kind not in "iu":
        raise ValueError(f"labels must be integers; got dtype {labels.dtype}")
    # the engine takes clusters 0..k-1 and -1: the package's labels, any non-negative ids, are ranked
    ids = np.unique(labels[labels >= 0])
    ranked = np.full(labels.shape, -1, dtype="<i4")
    ranked[labels >= 0] = np.searchsorted(ids, labels[labels >= 0])
    if not precomputed and X.dtype.kind == "f":
        # a noise row takes no part in the index (it counts in the total only), so its coordinates may be NaN,
        # infinite (a fit's rows of -3 and -2) or too large to measure: the package computes the index for them too
        unused = ranked == -1
        if unused.any():
            X = np.where(unused[:, None], 0.0, X)
    params = {"what": "dbcv", "metric": _METRICS[metric]}
    if precomputed:
        params["d"] = int(d)
    if "p" in kwd_args:
        params["p"] = float(kwd_args["p"])
    r = get_engine().call("validity", params, {"points": fit_dtype(X), "labels": ranked})
    index = float(r.params["validity_index"])
    if not per_cluster_scores:
        return index
    per = np.full(int(ids[-1]) + 1 if ids.size else 0, np.nan)
    per[ids] = r.arrays["per_cluster"]
    return index, per
