"""Sample weights: a row of weight w counts as w identical rows. The weighted fit must equal the fit of
``np.repeat(X, w, axis=0)`` (Sylva's own, bitwise, row by row through its first copy) and scikit-learn's
fit of the repeated rows on tie-free continuous data; bad weights are ValueErrors."""
import numpy as np
import pytest

import sylva
from conftest import blobs


def weights(n, seed):
    w = np.random.default_rng(seed).integers(0, 4, size=n)
    w[::37] = 15   # some rows heavier than a cluster
    return w


def test_weighted_fit_is_the_fit_of_the_repeated_rows():
    X = blobs(300, 3, 4, seed=11)
    w = weights(300, 12)
    a = sylva.HDBSCAN(min_cluster_size=10, store_centers="both").fit(X, sample_weight=w)
    b = sylva.HDBSCAN(min_cluster_size=10, store_centers="both").fit(np.repeat(X, w, axis=0))
    rows = a.fitted_rows_
    assert np.array_equal(rows, np.repeat(np.arange(300), w))
    assert np.array_equal(a.labels_[rows], b.labels_)
    assert np.array_equal(a.probabilities_[rows], b.probabilities_)
    assert np.array_equal(a.outlier_scores_[rows], b.outlier_scores_)
    assert np.array_equal(a.minimum_spanning_tree_, b.minimum_spanning_tree_)
    assert np.array_equal(a.condensed_tree_, b.condensed_tree_)
    assert np.all(a.labels_[w == 0] == -1) and np.all(a.probabilities_[w == 0] == 0)
    np.testing.assert_allclose(a.centroids_, b.centroids_, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.medoids_, b.medoids_, rtol=0, atol=0)
    assert a.relative_validity_ == b.relative_validity_
    cut = float(np.median(a.minimum_spanning_tree_[:, 2]))
    assert np.array_equal(a.dbscan_clustering(cut, 10)[rows], b.dbscan_clustering(cut, 10))
    # the same estimator refitted without weights forgets them
    a.fit(X)
    assert not hasattr(a, "fitted_rows_")


def test_one_number_weighs_every_row():
    X = blobs(200, 3, 3, seed=5)
    a = sylva.HDBSCAN(min_cluster_size=10).fit(X, sample_weight=2)
    b = sylva.HDBSCAN(min_cluster_size=10).fit(X, sample_weight=np.full(200, 2))
    assert np.array_equal(a.labels_, b.labels_) and np.array_equal(a.fitted_rows_, b.fitted_rows_)


def test_agrees_with_scikit_learn_on_the_repeated_rows():
    sklearn_cluster = pytest.importorskip("sklearn.cluster")
    X = blobs(400, 2, 3, seed=13)
    w = np.random.default_rng(14).integers(1, 4, size=400)
    ours = sylva.HDBSCAN(min_cluster_size=12, min_samples=6).fit(X, sample_weight=w.astype(float))
    ref = sklearn_cluster.HDBSCAN(min_cluster_size=12, min_samples=6, copy=True).fit(np.repeat(X, w, axis=0))
    first = np.concatenate(([0], np.cumsum(w)[:-1]))
    a, b = ours.labels_, ref.labels_[first]
    assert np.array_equal(a == -1, b == -1)
    assert len(set(zip(a[a >= 0].tolist(), b[b >= 0].tolist()))) == len(set(a[a >= 0].tolist()))
    np.testing.assert_allclose(ours.probabilities_, ref.probabilities_[first], rtol=0, atol=1e-12)


@pytest.mark.parametrize("min_samples", [None, 4])
def test_prediction_from_a_weighted_fit_is_that_of_the_repeated_rows(min_samples):
    X = blobs(300, 3, 4, seed=21)
    w = weights(300, 22)
    new = blobs(120, 3, 4, seed=23)
    new[:10] = X[:10]                  # new points on fitted rows, some of weight 0
    X[7, 1] = np.nan                   # a row left out whatever its weight
    a = sylva.HDBSCAN(min_cluster_size=10, min_samples=min_samples, prediction_data=True).fit(X, sample_weight=w)
    b = sylva.HDBSCAN(min_cluster_size=10, min_samples=min_samples, prediction_data=True).fit(
        np.repeat(X, w, axis=0))
    la, pa = sylva.approximate_predict(a, new)
    lb, pb = sylva.approximate_predict(b, new)
    assert np.array_equal(la, lb) and np.array_equal(pa, pb)
    _, _, conn_a = sylva.approximate_predict(a, new, return_connecting_points=True)
    _, _, conn_b = sylva.approximate_predict(b, new, return_connecting_points=True)
    assert np.array_equal(conn_a, np.repeat(np.arange(300), w)[conn_b])   # a copy is reported as its row
    assert np.array_equal(sylva.approximate_predict_scores(a, new), sylva.approximate_predict_scores(b, new))
    assert np.array_equal(sylva.membership_vector(a, new), sylva.membership_vector(b, new), equal_nan=True)
    first = np.concatenate(([0], np.cumsum(w)[:-1]))
    all_a, all_b = sylva.all_points_membership_vectors(a), sylva.all_points_membership_vectors(b)
    assert np.array_equal(all_a[w > 0], all_b[first[w > 0]], equal_nan=True)
    assert np.all(np.isnan(all_a[w == 0]))


@pytest.mark.parametrize("w, message", [
    (np.ones(10), "shape (50,)"),
    (np.full(50, 0.5), "whole numbers"),
    (np.full(50, -1.0), "row 0 is -1.0"),
    (np.array(["a"] * 50), "numeric"),
])
def test_bad_weights_are_value_errors(w, message):
    X = blobs(50, 2, 2, seed=1)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sylva.HDBSCAN(min_cluster_size=5).fit(X, sample_weight=w)


def test_weights_refuse_what_they_cannot_mean():
    X = blobs(50, 2, 2, seed=2)
    with pytest.raises(ValueError, match="euclidean metric only"):
        sylva.HDBSCAN(min_cluster_size=5, metric="manhattan").fit(X, sample_weight=np.ones(50))
    with pytest.raises(ValueError, match="every sample weight is zero"):
        sylva.HDBSCAN(min_cluster_size=5).fit(X, sample_weight=np.zeros(50))
    one = np.zeros(50)
    one[3] = 1
    with pytest.raises(ValueError, match="at least two points"):
        sylva.HDBSCAN(min_cluster_size=5).fit(X, sample_weight=one)
