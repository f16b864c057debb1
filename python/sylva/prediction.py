"""Prediction and soft clustering for a fitted :class:`sylva.HDBSCAN`, with the ``hdbscan`` package's
functions and semantics (``approximate_predict``, ``approximate_predict_scores``, ``membership_vector``,
``all_points_membership_vectors``), computed exactly by the engine from the estimator's
``prediction_data_`` (fit with ``prediction_data=True``).

Example
-------
>>> import numpy as np, sylva
>>> rng = np.random.default_rng(0)
>>> X = np.vstack([rng.normal(c, 0.5, size=(300, 5)) for c in (0.0, 4.0)])   # two blobs
>>> c = sylva.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(X)
>>> new = np.vstack([rng.normal(0.0, 0.5, size=(3, 5)), rng.normal(4.0, 0.5, size=(3, 5))])
>>> labels, strengths = sylva.approximate_predict(c, new)
>>> labels   # each new point in its blob's cluster
array([0, 0, 0, 1, 1, 1], dtype=int32)
"""
from __future__ import annotations

import hashlib
import warnings

import numpy as np

from ._engine import get_engine
from ._estimator_base import NotFittedError
from ._inputs import _caller_outside_package, fit_dtype, locked, table_as_array


def _model(clusterer):
    # Sylva's HDBSCAN by its module and name, not its class object: one fitted before a reload of the module is one
    if not any(k.__name__ == "HDBSCAN" and k.__module__.split(".")[0] == "sylva" for k in type(clusterer).__mro__):
        raise TypeError(f"clusterer must be a sylva.HDBSCAN fitted with prediction_data=True; got "
                        f"{type(clusterer).__module__}.{type(clusterer).__qualname__}")
    if not hasattr(clusterer, "labels_"):
        raise NotFittedError(f"this {type(clusterer).__name__} is not fitted yet: call fit with prediction_data=True"
                             " first")
    model = getattr(clusterer, "prediction_data_", None)
    if model is None:
        raise ValueError("the clusterer has no prediction data: fit it with HDBSCAN(prediction_data=True)")
    if not isinstance(model, np.ndarray) or model.dtype != np.uint8:   # the hdbscan package's PredictionData, say
        raise TypeError(f"the clusterer's prediction_data_ is a {type(model).__module__}.{type(model).__qualname__}, "
                        f"not a Sylva model's bytes: fit a sylva.HDBSCAN with prediction_data=True")
    return model


def _digest(clusterer, model):
    """SHA-256 of the model's bytes, computed once per model array and kept on the estimator: the engine,
    which keeps the last model it was sent, is then named the model by it instead of sent its bytes again.
    The estimator keeps the bytes as an array that cannot be written (:func:`locked`), so they cannot change
    under their digest; an array given in its place (an unpickled copy, one read from a file) is locked first."""
    kept = getattr(clusterer, "_sylva_model_digest", None)
    if kept is not None and kept[0] is model and locked(model) is model:
        return kept[1]
    model = locked(model)
    clusterer.prediction_data_ = model
    digest = hashlib.sha256(memoryview(model)).hexdigest()
    clusterer._sylva_model_digest = (model, digest)
    return digest


def _check_feature_names(clusterer, points):
    """New points given as a table (a pandas DataFrame, anything with ``columns``) must name the fit's features in
    the fit's order when the fit had names (``feature_names_in_``): the same coordinates in another order would be
    assigned as other points, silently (the ``hdbscan`` package does not check; scikit-learn's estimators do)."""
    names = getattr(clusterer, "feature_names_in_", None)
    columns = getattr(points, "columns", None)
    if columns is not None and not _all_strings(columns):
        columns = None   # as scikit-learn counts them: only string column names are feature names
    # named on one side only: scikit-learn's estimators warn, in these words, and go on
    if names is not None and columns is None:
        warnings.warn(f"X does not have valid feature names, but {type(clusterer).__name__} was fitted with feature "
                      f"names", UserWarning, stacklevel=_caller_outside_package())
        return
    if names is None and columns is not None:
        warnings.warn(f"X has feature names, but {type(clusterer).__name__} was fitted without feature names",
                      UserWarning, stacklevel=_caller_outside_package())
        return
    if names is None:
        return
    given = [str(c) for c in columns]
    if given != [str(n) for n in names]:
        raise ValueError(f"The feature names should match those that were passed during fit: fitted on "
                         f"{list(map(str, names))}, given {given}")


def _all_strings(columns) -> bool:
    """Whether a table's column names are all strings: scikit-learn counts only those as feature names."""
    try:
        return len(columns) > 0 and all(isinstance(c, str) for c in columns)
    except TypeError:   # not a sequence of names (a pyarrow Table's columns are its data)
        return False


def _points(clusterer, points):
    if points is None:
        raise ValueError("points_to_predict is None: give the new points, an array of shape (m, n_features)")
    _check_feature_names(clusterer, points)
    if hasattr(points, "toarray") and hasattr(points, "tocsr"):   # scipy sparse: fitted densified, predicted so
        n_features = getattr(clusterer, "n_features_in_", None)
        if len(points.shape) == 2 and n_features is not None and points.shape[1] != n_features:   # before densifying
            raise ValueError(f"the new points have {points.shape[1]} features, the clusterer was fitted on {n_features}")
        points = points.toarray()
    X = table_as_array(points)
    if X.dtype.kind == "c":   # as fit refuses it (numpy would drop the imaginary parts with a warning)
        raise ValueError("Complex data not supported")
    if X.ndim != 2:
        raise ValueError(f"Expected 2D array of new points, got shape {X.shape}")
    n_features = getattr(clusterer, "n_features_in_", X.shape[1])
    if X.shape[1] != n_features:
        raise ValueError(f"the new points have {X.shape[1]} features, the clusterer was fitted on {n_features}")
    return fit_dtype(X)


_FITTED = object()   # _call's points for a request about the fitted points, which sends none


def _call(clusterer, what, points=_FITTED):
    model = _model(clusterer)
    arrays = {}
    if points is not _FITTED:
        arrays["points"] = _points(clusterer, points)
    params = {"what": what, "threads": clusterer._threads()}
    digest = _digest(clusterer, model)
    model = clusterer.prediction_data_   # the locked array the digest was computed from
    return get_engine().call_keeping("predict", params, arrays, "model", model, digest).arrays


def approximate_predict(clusterer, points_to_predict, return_connecting_points=False):
    """Labels (-1 = noise) and membership strengths of new points, as ``hdbscan.approximate_predict``;
    with ``return_connecting_points`` also the fitted point each new point connects to (its row of ``X``: after a
    fit with ``sample_weight``, the row whose copy it is)."""
    a = _call(clusterer, "predict", points_to_predict)
    tree = getattr(clusterer, "condensed_tree_", None)
    if tree is not None and not (np.asarray(tree)[:, 3] > 1).any():
        # as the hdbscan package warns: a tree that never splits labels every new point noise, even where the fit
        # took its root as the one cluster (allow_single_cluster)
        warnings.warn("the clusterer's condensed tree never splits into clusters, so every new point is labelled "
                      "noise (-1), as the hdbscan package's approximate_predict does", UserWarning, stacklevel=2)
    if return_connecting_points:
        return a["labels"], a["probabilities"], a["connecting_points"]
    return a["labels"], a["probabilities"]


def approximate_predict_scores(clusterer, points_to_predict):
    """GLOSH outlier scores of new points, as ``hdbscan.approximate_predict_scores``."""
    return _call(clusterer, "predict", points_to_predict)["outlier_scores"]


def membership_vector(clusterer, points_to_predict):
    """Soft cluster membership of new points, shape (m, n_clusters), as ``hdbscan.membership_vector``."""
    return _call(clusterer, "membership", points_to_predict)["membership"]


def all_points_membership_vectors(clusterer):
    """Soft cluster membership of the fitted points, shape (n, n_clusters), as
    ``hdbscan.all_points_membership_vectors``. A row the fit left out (NaN, label -3; an infinity, -2; a
    sample weight of 0, -1) belongs to no cluster and holds NaN in every column: ``np.argmax`` would put it in
    cluster 0, so mask it first (``~np.isnan(v).any(axis=1)``, or ``fitted_rows_`` after a weighted fit)."""
    return _call(clusterer, "all_membership")["membership"]
