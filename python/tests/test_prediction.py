"""sylva.approximate_predict & co.: the same bytes as ``sylva predict`` on the same model, the model the
same bytes as ``sylva hdbscan --save-model`` writes, and clear errors."""
import os
import pickle
import signal
import time

import numpy as np
import pytest

import sylva
from conftest import assert_same_bytes, blobs, clips


@pytest.fixture(scope="module")
def fitted():
    x = clips(800, seed=11)
    c = sylva.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(x)
    new = clips(120, seed=12)
    return x, c, new


def test_the_model_is_the_file_sylva_hdbscan_saves(fitted, cli, tmp_path):
    x, c, _ = fitted
    np.save(tmp_path / "x.npy", x)
    cli("hdbscan", tmp_path / "x.npy", "--min-cluster-size", 20, "--out", tmp_path / "out", "-q",
        "--save-model", tmp_path / "model.sylva")
    assert (tmp_path / "model.sylva").read_bytes() == c.prediction_data_.tobytes()


def test_predictions_are_the_files_of_sylva_predict(fitted, cli, tmp_path):
    _, c, new = fitted
    c.prediction_data_.tofile(tmp_path / "model.sylva")
    np.save(tmp_path / "new.npy", new)
    cli("predict", tmp_path / "model.sylva", tmp_path / "new.npy", "--out", tmp_path / "p", "-q")
    labels, strengths = sylva.approximate_predict(c, new)
    assert_same_bytes(np.load(tmp_path / "p" / "labels.npy"), labels, "labels")
    assert_same_bytes(np.load(tmp_path / "p" / "probabilities.npy"), strengths, "probabilities")
    assert_same_bytes(np.load(tmp_path / "p" / "outlier_scores.npy"), sylva.approximate_predict_scores(c, new),
                      "outlier scores")
    assert_same_bytes(np.load(tmp_path / "p" / "membership.npy"), sylva.membership_vector(c, new), "membership")


def test_training_points_keep_their_clusters_and_memberships_are_fractions(fitted):
    x, c, _ = fitted
    labels, strengths = sylva.approximate_predict(c, x)
    core = c.probabilities_ > 0.5   # well inside a cluster
    assert core.any()
    assert (labels[core] == c.labels_[core]).all()
    assert ((strengths >= 0) & (strengths <= 1)).all()
    m = sylva.all_points_membership_vectors(c)
    k = len(set(c.labels_.tolist()) - {-1})
    assert m.shape == (len(x), k)
    assert (m >= 0).all() and (m.sum(axis=1) <= 1 + 1e-12).all()


@pytest.mark.filterwarnings("ignore:the clusterer's condensed tree never splits")   # some trials' trees do not
def test_every_fitted_point_is_predicted_back_to_its_own_label():
    # Random fits of points without duplicates: a fitted point, given as a new point, gets its fit's label
    # back, noise included. The hdbscan package's approximate_predict does not always: its prediction data
    # selects clusters again, apart from its fit, and picks others wherever a selected cluster has points
    # falling out of its child clusters. Sylva keeps the fit's clusters (README, "Predict and soft clustering").
    rng = np.random.default_rng(20261205)
    for trial in range(600):
        n, d = int(rng.integers(30, 300)), int(rng.integers(1, 6))
        X = blobs(n, d, int(rng.integers(1, 6)), seed=trial, spread=float(rng.uniform(0.3, 2.5)))
        params = dict(min_cluster_size=int(rng.integers(2, 30)), min_samples=int(rng.integers(1, 8)),
                      cluster_selection_method=str(rng.choice(["eom", "leaf"])))
        c = sylva.HDBSCAN(prediction_data=True, **params).fit(X)
        labels, _ = sylva.approximate_predict(c, X)
        np.testing.assert_array_equal(labels, c.labels_, err_msg=f"trial {trial}: n={n} d={d} {params}")


def test_with_the_root_as_the_single_cluster_fitted_points_keep_their_labels():
    # allow_single_cluster selecting the root: the fit labels a point falling out of the root by a threshold
    # (1/epsilon, else the largest lambda among the root's rows), and prediction applies the same rule, so a
    # fitted point comes back with its label, noise included, and a far point is noise.
    rng = np.random.default_rng(20261206)
    checked = 0
    for trial in range(200):
        n = int(rng.integers(40, 300))
        X = np.vstack([rng.normal(size=(n, 2)), rng.uniform(-8, 8, size=(n // 3, 2))])
        params = dict(min_cluster_size=int(rng.integers(5, 40)), min_samples=int(rng.integers(1, 8)),
                      allow_single_cluster=True, cluster_selection_epsilon=float(rng.choice([0.0, 0.05, 0.3])))
        c = sylva.HDBSCAN(prediction_data=True, **params).fit(X)
        if not (c.condensed_tree_[:, 1] >= len(X)).any() or len(c.cluster_persistence_) != 1:
            continue   # a tree that never splits (label -1 for new points, as the package) or not one cluster
        checked += 1
        labels, _ = sylva.approximate_predict(c, np.vstack([X, [[100.0, 100.0]]]))
        np.testing.assert_array_equal(labels[:-1], c.labels_, err_msg=f"trial {trial}: n={len(X)} {params}")
        assert labels[-1] == -1, f"trial {trial}: a far point"
    assert checked > 20, f"only {checked} fits with the root as the single cluster"


def test_exemplars_are_rows_of_their_clusters_at_their_leaves_largest_lambda():
    # the hdbscan package's exemplars_: per cluster, the points of each leaf below it that stay to the leaf's
    # largest lambda, as rows of X, found here again from the condensed tree
    X = blobs(400, 3, 4, seed=31)
    c = sylva.HDBSCAN(min_cluster_size=15, prediction_data=True).fit(X)
    assert len(c.exemplars_) == c.labels_.max() + 1 >= 2
    tree, n = c.condensed_tree_, len(X)
    parent, child, lam = tree[:, 0].astype(int), tree[:, 1].astype(int), tree[:, 2]
    for label, rows in enumerate(c.exemplars_):
        assert rows.ndim == 2 and rows.shape[1] == X.shape[1] and len(rows) >= 1
        members = {tuple(r) for r in X[c.labels_ == label]}
        assert all(tuple(r) in members for r in rows), f"an exemplar of cluster {label} outside it"
    leaves = set(child[child >= n]) - set(parent[child >= n])   # clusters without child clusters
    expected = set()
    for leaf in leaves:
        mine = (parent == leaf) & (child < n)
        top = lam[parent == leaf].max()
        expected |= {tuple(X[p]) for p in child[mine & (lam == top)]}
    found = {tuple(r) for rows in c.exemplars_ for r in rows}
    assert found <= expected, "exemplars that are not at their leaf's largest lambda"
    assert not hasattr(sylva.HDBSCAN(min_cluster_size=15).fit(X), "exemplars_")


def test_a_tree_that_never_splits_predicts_noise_and_warns(fitted):
    x = np.random.default_rng(5).normal(size=(300, 2))
    c = sylva.HDBSCAN(min_cluster_size=200, allow_single_cluster=True, prediction_data=True).fit(x)
    assert c.labels_.max() == 0   # the fit took the root as its one cluster
    with pytest.warns(UserWarning, match="never splits into clusters, so every new point is labelled noise"):
        labels, _ = sylva.approximate_predict(c, x)
    assert (labels == -1).all()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sylva.approximate_predict(fitted[1], fitted[2])   # a tree that splits: no warning


def test_complex_new_points_are_refused_as_fit_refuses_them(fitted):
    _, c, _ = fitted
    with pytest.raises(ValueError, match="Complex data not supported"):
        sylva.approximate_predict(c, np.zeros((2, c.n_features_in_), dtype=complex))


class _Table:
    """Just enough of a DataFrame for the name check: named columns and the values."""

    def __init__(self, values, columns):
        self.values, self.columns = np.asarray(values), list(columns)

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)


def test_new_points_in_a_table_must_name_the_fits_features_in_order(fitted):
    _, c, new = fitted
    import copy
    named = copy.deepcopy(c)
    names = [f"s{j}" for j in range(c.n_features_in_)]
    named.feature_names_in_ = np.asarray(names, dtype=object)
    expected = sylva.approximate_predict(c, new)[0]
    np.testing.assert_array_equal(sylva.approximate_predict(named, _Table(new, names))[0], expected)
    # named on one side only: scikit-learn's warnings, and the answer all the same
    with pytest.warns(UserWarning, match="X does not have valid feature names, but HDBSCAN was fitted with feature names"):
        np.testing.assert_array_equal(sylva.approximate_predict(named, new)[0], expected)
    with pytest.warns(UserWarning, match="X has feature names, but HDBSCAN was fitted without feature names") as w:
        np.testing.assert_array_equal(sylva.membership_vector(c, _Table(new, names)), sylva.membership_vector(c, new))
    assert w[0].filename == __file__, "the warning names the caller's line"
    # column names that are not strings are no feature names, as scikit-learn counts them
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        np.testing.assert_array_equal(sylva.approximate_predict(named, _Table(new, range(len(names))))[0], expected)
    swapped = names[1:] + names[:1]
    with pytest.raises(ValueError, match="feature names should match"):
        sylva.approximate_predict(named, _Table(new, swapped))
    with pytest.raises(ValueError, match="feature names should match"):
        sylva.membership_vector(named, _Table(new, swapped))


def test_a_bad_n_jobs_set_after_the_fit_is_named_at_prediction(fitted):
    _, c, new = fitted
    import copy
    later = copy.deepcopy(c).set_params(n_jobs="x")
    with pytest.raises(ValueError, match="'n_jobs' parameter of HDBSCAN must be a non-zero int or None"):
        sylva.approximate_predict(later, new)


def test_a_refit_lets_the_model_an_earlier_prediction_sent_go(fitted):
    x, c, new = fitted
    import copy
    est = copy.deepcopy(c)
    sylva.approximate_predict(est, new)
    assert getattr(est, "_sylva_model_digest", None) is not None   # kept while the fit stands, so later calls name it
    est.set_params(prediction_data=False).fit(x)
    assert not hasattr(est, "_sylva_model_digest")
    fresh = sylva.HDBSCAN(**est.get_params()).fit(x)
    assert len(pickle.dumps(est)) <= len(pickle.dumps(fresh)) + 1024, "no earlier model in the pickle"


def test_the_model_pickles_with_the_estimator(fitted):
    _, c, new = fitted
    c2 = pickle.loads(pickle.dumps(c))
    for a, b in zip(sylva.approximate_predict(c, new), sylva.approximate_predict(c2, new)):
        assert_same_bytes(a, b, "after pickling")


def test_errors(fitted):
    x, c, new = fitted
    # an estimator never fitted: scikit-learn's NotFittedError where scikit-learn is installed, else the
    # package's own of the same bases (a ValueError and an AttributeError)
    from sylva._estimator_base import NotFittedError
    for call in (sylva.approximate_predict, sylva.approximate_predict_scores, sylva.membership_vector):
        with pytest.raises(NotFittedError, match="not fitted yet"):
            call(sylva.HDBSCAN(), new)
    with pytest.raises(NotFittedError, match="not fitted yet"):
        sylva.all_points_membership_vectors(sylva.HDBSCAN())
    with pytest.raises(ValueError, match="prediction_data=True"):
        sylva.approximate_predict(sylva.HDBSCAN(min_cluster_size=20).fit(x), new)
    with pytest.raises(ValueError, match="features"):
        sylva.approximate_predict(c, new[:, :10])
    broken = sylva.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(x)
    data = broken.prediction_data_.copy()
    data[len(data) // 2] ^= 0xFF
    broken.prediction_data_ = data
    with pytest.raises(ValueError, match="checksum"):
        sylva.approximate_predict(broken, new)
    # not a clusterer at all, and no new points: said as such
    with pytest.raises(TypeError, match="clusterer must be a sylva.HDBSCAN fitted with prediction_data=True; got "
                                        "builtins.str"):
        sylva.approximate_predict("c", new)
    sklearn_cluster = pytest.importorskip("sklearn.cluster")
    with pytest.raises(TypeError, match="got sklearn.cluster._hdbscan.hdbscan.HDBSCAN"):
        sylva.approximate_predict(sklearn_cluster.HDBSCAN(min_cluster_size=20, copy=True).fit(x), new)
    other = sylva.HDBSCAN(min_cluster_size=20).fit(x)   # a prediction_data_ set by hand: no model
    other.prediction_data_ = object()
    with pytest.raises(TypeError, match="prediction_data_ is a builtins.object, not a Sylva model's bytes"):
        sylva.approximate_predict(other, new)
    with pytest.raises(ValueError, match="points_to_predict is None"):
        sylva.approximate_predict(c, None)


def test_exemplars_are_float64_whatever_the_input_dtype():
    # as the hdbscan package's: uint8 exemplars would wrap around when subtracted from a point
    x = np.clip(blobs(300, 2, 3, seed=9) * 10 + 100, 0, 255).astype(np.uint8)
    c = sylva.HDBSCAN(min_cluster_size=10, prediction_data=True).fit(x)
    assert c.exemplars_ and all(e.dtype == np.float64 for e in c.exemplars_)
    rows = {tuple(r) for r in x.astype(np.float64).tolist()}
    assert all(tuple(r) in rows for e in c.exemplars_ for r in e.tolist())


def test_the_engine_keeps_the_model_and_is_named_it_by_its_digest(fitted):
    """The second prediction with a model sends its SHA-256, not its bytes; a fit in between (the engine
    releases the model), an engine started anew, or another model sends the bytes again; answers alike."""
    x, c, new = fitted
    e = sylva.engine()
    labels, strengths = sylva.approximate_predict(c, new)   # holds c's model from here
    sent, named = e.kept_sent, e.kept_named
    for _ in range(3):
        again = sylva.approximate_predict(c, new)
        assert_same_bytes(labels, again[0], "labels by digest")
        assert_same_bytes(strengths, again[1], "strengths by digest")
    assert (e.kept_sent, e.kept_named) == (sent, named + 3)
    assert_same_bytes(sylva.membership_vector(c, new), sylva.membership_vector(c, new), "membership by digest")
    assert e.kept_sent == sent

    sylva.HDBSCAN(min_cluster_size=5).fit(small_points())   # another kind of request: the engine lets go
    assert_same_bytes(labels, sylva.approximate_predict(c, new)[0], "after a fit")
    assert e.kept_sent == sent + 1

    other = sylva.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(clips(400, seed=13))
    sylva.approximate_predict(other, new)
    assert_same_bytes(labels, sylva.approximate_predict(c, new)[0], "after another model")
    assert e.kept_sent == sent + 3

    # the engine killed between calls: the restarted one holds nothing, and says so; the bytes follow
    os.kill(e.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while e.pid is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert_same_bytes(labels, sylva.approximate_predict(c, new)[0], "after a restart")
    assert e.kept_sent == sent + 4


def test_the_model_cannot_change_under_its_digest(fitted):
    _, c, _ = fitted
    assert not c.prediction_data_.flags.writeable
    with pytest.raises(ValueError):
        c.prediction_data_[100] ^= 1
    with pytest.raises(ValueError):   # nor can the flag be set back (the bytes are an immutable bytes object's)
        c.prediction_data_.flags.writeable = True
    # an unpickled estimator's model (writeable again) gets its digest anew, and is locked
    c2 = pickle.loads(pickle.dumps(c))
    assert c2.prediction_data_.flags.writeable
    sylva.approximate_predict(c2, clips(5, seed=14))
    assert not c2.prediction_data_.flags.writeable
    with pytest.raises(ValueError):
        c2.prediction_data_.flags.writeable = True
    # an array put in its place is locked before its digest names it: a change to it is a new model
    altered = np.array(c.prediction_data_)
    altered[100] ^= 1
    c2.prediction_data_ = altered
    with pytest.raises(ValueError, match="checksum"):
        sylva.approximate_predict(c2, clips(5, seed=14))
    assert not c2.prediction_data_.flags.writeable and c2.prediction_data_ is not altered


def small_points():
    return np.random.default_rng(2).normal(size=(100, 3))


def test_approximate_predict_returns_the_connecting_points_when_asked(fitted):
    x, c, new = fitted
    labels, strengths, connecting = sylva.approximate_predict(c, new, return_connecting_points=True)
    same = sylva.approximate_predict(c, new)
    assert_same_bytes(labels, same[0], "labels")
    assert_same_bytes(strengths, same[1], "strengths")
    assert connecting.shape == (len(new),) and ((connecting >= 0) & (connecting < len(x))).all()
    # a fitted point connects to itself
    assert (sylva.approximate_predict(c, x[:50], return_connecting_points=True)[2] == np.arange(50)).all()
