"""Metrics other than Euclidean against scikit-learn's ``HDBSCAN(metric=...)`` on tie-free float64 data
(``min_samples=1``: no core distance ties), and the refusals of what needs Euclidean distances."""
import numpy as np
import pytest

import sylva
from conftest import blobs

sklearn_cluster = pytest.importorskip("sklearn.cluster")
pairwise = pytest.importorskip("sklearn.metrics").pairwise_distances


def same_partition(a, b):
    """Equal up to a renaming of the clusters (noise stays -1)."""
    assert np.array_equal(a == -1, b == -1)
    pairs = set(zip(a[a >= 0].tolist(), b[b >= 0].tolist()))
    assert len(pairs) == len(set(a[a >= 0].tolist())) == len(set(b[b >= 0].tolist()))


@pytest.mark.parametrize("metric, params", [("manhattan", None), ("chebyshev", None), ("minkowski", {"p": 3}),
                                            ("cosine", None)])
def test_metric_agrees_with_scikit_learn(metric, params):
    X = blobs(400, 3, 4, seed=5)
    ours = sylva.HDBSCAN(min_cluster_size=10, min_samples=1, metric=metric, metric_params=params).fit(X)
    ref = sklearn_cluster.HDBSCAN(min_cluster_size=10, min_samples=1, metric=metric,
                                  metric_params=params, copy=True).fit(X)
    same_partition(ours.labels_, ref.labels_)
    np.testing.assert_allclose(ours.probabilities_, ref.probabilities_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(np.sort(ours.minimum_spanning_tree_[:, 2]),
                               np.sort(ref._single_linkage_tree_["value"]), rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine", "precomputed"])
@pytest.mark.parametrize("alpha", [0.5, 2.0])
def test_alpha_is_applied_as_scikit_learns_default_algorithm_applies_it(metric, alpha):
    # its k-d tree path (euclidean, manhattan) divides the distance only, its brute path (cosine, precomputed) the
    # whole distance matrix before the core distances are taken from it; min_samples=4 makes the difference show
    X = blobs(400, 3, 4, seed=15)
    fit_on = pairwise(X, metric="manhattan") if metric == "precomputed" else X
    params = dict(min_cluster_size=10, min_samples=4, metric=metric, alpha=alpha)
    ours = sylva.HDBSCAN(**params).fit(fit_on)
    ref = sklearn_cluster.HDBSCAN(copy=True, **params).fit(fit_on)
    weights = np.sort(ours.minimum_spanning_tree_[:, 2])
    # cosine: 1 - u.v in another order of operations than scikit-learn's, within a few 1e-16 absolute
    np.testing.assert_allclose(weights, np.sort(ref._single_linkage_tree_["value"]), rtol=0,
                               atol=1e-14 if metric == "cosine" else 0)
    same_partition(ours.labels_, ref.labels_)
    if metric != "cosine":
        np.testing.assert_array_equal(weights, np.sort(ref._single_linkage_tree_["value"]))
    # the rule shows: at alpha 1 the tree of the brute-path metrics has the same edges, weights multiplied by alpha
    one = sylva.HDBSCAN(min_cluster_size=10, min_samples=4, metric=metric).fit(fit_on)
    divides_core = metric in ("cosine", "precomputed")
    assert np.allclose(one.minimum_spanning_tree_[:, 2] / alpha, ours.minimum_spanning_tree_[:, 2], rtol=1e-15,
                       atol=0) == divides_core
    np.testing.assert_array_equal(one.core_distances_, ours.core_distances_)


def test_precomputed_matrix_is_the_metric_it_holds():
    X = blobs(300, 4, 3, seed=6)
    D = pairwise(X, metric="manhattan")
    a = sylva.HDBSCAN(min_cluster_size=8, metric="precomputed").fit(D)
    b = sylva.HDBSCAN(min_cluster_size=8, metric="manhattan").fit(X)
    assert np.array_equal(a.labels_, b.labels_)
    assert np.array_equal(a.minimum_spanning_tree_, b.minimum_spanning_tree_)


def test_a_matrix_with_round_off_at_zero_is_fitted_as_scikit_learn_fits_it():
    # 1 - cosine similarity leaves +-2e-16 on the diagonal: read as 0, not refused
    X = np.random.default_rng(0).normal(size=(300, 8))
    D = 1 - pytest.importorskip("sklearn.metrics.pairwise").cosine_similarity(X)
    assert np.any(np.diag(D) != 0), "the case needs round-off on the diagonal"
    ours = sylva.HDBSCAN(min_cluster_size=10, min_samples=1, metric="precomputed").fit(D)
    ref = sklearn_cluster.HDBSCAN(min_cluster_size=10, min_samples=1, metric="precomputed", copy=True).fit(D)
    same_partition(ours.labels_, ref.labels_)
    np.testing.assert_allclose(ours.probabilities_, ref.probabilities_, rtol=0, atol=1e-9)
    D2 = D.copy()
    D2[0, 0] = 1e-6   # beyond round-off: refused, naming the entry
    with pytest.raises(ValueError, match=r"diagonal entry \(0, 0\) is 1.0E-6"):
        sylva.HDBSCAN(metric="precomputed").fit(D2)


def test_alpha_on_scikit_learns_brute_path_is_warned_about():
    # Sylva's rule is scikit-learn's default algorithm's: where scikit-learn's brute path would differ, a warning
    X = blobs(60, 2, 2, seed=8)
    with pytest.warns(UserWarning, match="divides the core distances too") as seen:
        sylva.HDBSCAN(min_cluster_size=5, alpha=2.0, algorithm="brute").fit_predict(X)
    assert {w.filename for w in seen} == {__file__}, "the warning names the caller's line"
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a refused fit says only why
        with pytest.raises(ValueError):
            sylva.HDBSCAN(min_cluster_size=500, alpha=2.0, algorithm="brute").fit(X)
    scipy_sparse = pytest.importorskip("scipy.sparse")
    with pytest.warns(UserWarning, match="divides the core distances too"):
        sylva.HDBSCAN(min_cluster_size=5, alpha=2.0, metric="manhattan").fit(scipy_sparse.csr_matrix(X))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # the same rule as scikit-learn's there: no warning
        sylva.HDBSCAN(min_cluster_size=5, alpha=2.0).fit(X)
        sylva.HDBSCAN(min_cluster_size=5, alpha=2.0, metric="cosine", algorithm="brute").fit(X)
        sylva.HDBSCAN(min_cluster_size=5, algorithm="brute").fit(X)


def test_an_alpha_that_overflows_the_distances_is_warned_of_as_such():
    # a tiny alpha makes distance / alpha overflow float64: the warning names that cause, not missing distances
    X = blobs(60, 2, 2, seed=9)
    with pytest.warns(UserWarning, match="distances divided by alpha=1e-310 overflow float64, so those points") as seen:
        sylva.HDBSCAN(min_cluster_size=5, alpha=1e-310).fit(X)
    assert not any("missing" in str(w.message) for w in seen)
    D = pairwise(X)
    with pytest.warns(UserWarning, match=r"missing distances \(np.inf\) or distances divided by alpha=1e-310"):
        sylva.HDBSCAN(min_cluster_size=5, alpha=1e-310, metric="precomputed").fit(D)


def test_medoids_follow_the_metric():
    X = blobs(300, 2, 3, seed=7)
    ours = sylva.HDBSCAN(min_cluster_size=10, min_samples=1, metric="chebyshev", store_centers="medoid").fit(X)
    ref = sklearn_cluster.HDBSCAN(min_cluster_size=10, min_samples=1, metric="chebyshev", store_centers="medoid",
                                  copy=True).fit(X)
    same_partition(ours.labels_, ref.labels_)
    assert {tuple(r) for r in ours.medoids_} == {tuple(r) for r in ref.medoids_}


@pytest.mark.parametrize("kwargs, word", [
    ({"metric": "hamming"}, "metric"),
    ({"metric": "minkowski", "metric_params": {"p": 0.5}}, "metric_params"),
    ({"metric": "cosine", "metric_params": {"p": 3}}, "metric_params"),
    ({"metric": "precomputed", "prediction_data": True}, "prediction_data"),
    ({"metric": "precomputed", "store_centers": "both"}, "precomputed"),
    ({"metric_params": []}, "metric_params"),   # an empty list or 0 is not None, as scikit-learn checks it
    ({"metric_params": 0}, "metric_params"),
    ({"metric": "precomputed", "store_centers": "x"}, "store_centers"),   # each parameter alone before the pair
])
def test_bad_metric_settings_are_refused(kwargs, word):
    with pytest.raises(ValueError, match=word):
        sylva.HDBSCAN(**kwargs).fit(blobs(50, 2, 2, seed=8))


@pytest.mark.parametrize("metric", ["cosine", "precomputed"])
@pytest.mark.parametrize("algorithm, tree", [("kd_tree", "KDTree"), ("ball_tree", "BallTree")])
def test_a_tree_algorithm_with_a_metric_its_tree_does_not_take_is_refused_as_scikit_learn_refuses_it(metric, algorithm,
                                                                                                  tree):
    X = blobs(50, 2, 2, seed=8)
    with pytest.raises(ValueError, match=f"^{metric} is not a valid metric for a {tree}-based algorithm. Please select "
                       "a different metric.$"):
        sylva.HDBSCAN(metric=metric, algorithm=algorithm).fit(pairwise(X) if metric == "precomputed" else X)
    assert sylva.HDBSCAN(metric="manhattan", algorithm=algorithm).fit(X).labels_.shape == (50,)


def test_empty_metric_params_are_no_parameters():
    X = blobs(50, 2, 2, seed=8)
    assert np.array_equal(sylva.HDBSCAN(metric="manhattan", metric_params={}).fit(X).labels_,
                          sylva.HDBSCAN(metric="manhattan").fit(X).labels_)


def test_a_matrix_that_is_not_a_distance_matrix_is_refused():
    D = pairwise(blobs(40, 2, 2, seed=9))
    D[3, 5] = np.nan
    with pytest.raises(Exception, match=r"\(3, 5\)"):
        sylva.HDBSCAN(metric="precomputed").fit(D)


@pytest.mark.parametrize("metric, params", [("manhattan", None), ("chebyshev", None), ("minkowski", {"p": 3}),
                                            ("cosine", None)])
def test_prediction_measures_new_points_by_the_fits_metric(metric, params):
    X = blobs(300, 3, 4, seed=31)
    c = sylva.HDBSCAN(min_cluster_size=10, metric=metric, metric_params=params, prediction_data=True).fit(X)
    assert c.labels_.max() >= 1
    # the fitted points, predicted as new points, get their own labels back (no duplicate rows here)
    labels, _ = sylva.approximate_predict(c, X)
    assert np.array_equal(labels, c.labels_)
    # each coincides with itself, at distance 0 (cosine too): its own outlier score
    assert np.array_equal(sylva.approximate_predict_scores(c, X), c.outlier_scores_)
    assert sylva.all_points_membership_vectors(c).shape == (300, c.labels_.max() + 1)
    new = blobs(80, 3, 4, seed=32)
    a = sylva.approximate_predict(c, new, return_connecting_points=True)
    m = sylva.membership_vector(c, new)
    assert m.shape == (80, c.labels_.max() + 1)
    # the model file round trip: the same answers from its bytes
    again = sylva.HDBSCAN(min_cluster_size=10, metric=metric, metric_params=params, prediction_data=True).fit(X)
    assert np.array_equal(again.prediction_data_, c.prediction_data_)
    b = sylva.approximate_predict(again, new, return_connecting_points=True)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
