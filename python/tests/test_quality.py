"""dbscan_clustering, relative_validity_ and validity_index against scikit-learn and the hdbscan
package's reference outputs (../shared/oracle/hdbscan-more, beside the checkout as in CI)."""
import json
import os
from pathlib import Path

import numpy as np
import pytest

import sylva
from conftest import blobs

ORACLE = Path(__file__).resolve().parents[2].parent / "shared" / "oracle"


def oracle():
    if not (ORACLE / "hdbscan-more" / "manifest.json").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the oracle is missing: {ORACLE}")
        pytest.skip(f"no oracle at {ORACLE}")
    return json.loads((ORACLE / "hdbscan-more" / "manifest.json").read_text())["cases"]


def same_partition(a, b):
    """Same noise and the same clusters, whatever their numbers (scikit-learn 1.9 and the package number
    the clusters of a cut by their own internal order, Sylva by each cluster's first row)."""
    if not np.array_equal(a < 0, b < 0):
        return False
    pairs = set(zip(a[a >= 0].tolist(), b[b >= 0].tolist()))
    return len(pairs) == len(set(a[a >= 0].tolist())) == len(set(b[b >= 0].tolist()))


@pytest.mark.parametrize("case", ["iris_mcs5_ms4", "blobs500_mcs5_ms4"])
def test_dbscan_cuts_and_relative_validity_equal_the_reference(case):
    cases = oracle()
    m = cases[case]
    x = np.load(ORACLE / "hdbscan" / f"{m['dataset']}_X.npy").astype(np.float64)
    c = sylva.HDBSCAN(min_cluster_size=m["min_cluster_size"], min_samples=m["target_min_samples_incl_self"]).fit(x)
    for cut in m["dbscan"]:
        ref = np.load(ORACLE / "hdbscan-more" / cut["file"])
        got = c.dbscan_clustering(cut["cut"], cut["min_cluster_size"])
        assert same_partition(got, ref), cut["file"]
    assert c.relative_validity_ == pytest.approx(m["validity"]["relative_validity_"], rel=1e-12, abs=1e-15)


def test_validity_index_equals_the_package():
    cases = oracle()
    for case, m in cases.items():
        x = np.load(ORACLE / "hdbscan" / f"{m['dataset']}_X.npy").astype(np.float64)
        labels = np.load(ORACLE / "hdbscan-more" / f"{case}_labels.npy")
        index, per = sylva.validity_index(x, labels, per_cluster_scores=True)
        assert index == pytest.approx(m["validity"]["validity_index"], abs=1e-13), case
        np.testing.assert_allclose(per, m["validity"]["per_cluster_scores"], rtol=0, atol=1e-13, err_msg=case)


def test_validity_index_of_a_distance_matrix_equals_the_package():
    # the package's validity_index(D, labels, metric="precomputed", d=...): Euclidean distances, d the features
    for case, m in oracle().items():
        x = np.load(ORACLE / "hdbscan" / f"{m['dataset']}_X.npy").astype(np.float64)
        labels = np.load(ORACLE / "hdbscan-more" / f"{case}_labels.npy")
        D = np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=2))
        index, per = sylva.validity_index(D, labels, "precomputed", x.shape[1], per_cluster_scores=True)
        assert index == pytest.approx(m["validity"]["validity_index"], abs=1e-12), case
        np.testing.assert_allclose(per, m["validity"]["per_cluster_scores"], rtol=0, atol=1e-12, err_msg=case)
    for d, part in [(None, "d must be given"), (0, "d must be given"), (True, "d must be given")]:
        with pytest.raises(ValueError, match=part):
            sylva.validity_index(D, labels, "precomputed", d)


def test_dbscan_clustering_equals_scikit_learns_on_a_unique_tree():
    sklearn = pytest.importorskip("sklearn.cluster")
    x = blobs(600, 3, 4, seed=5)
    for cut in (0.5, 1.0, 2.0):
        ours = sylva.HDBSCAN(min_cluster_size=10, min_samples=1).fit(x).dbscan_clustering(cut, 10)
        theirs = sklearn.HDBSCAN(min_cluster_size=10, min_samples=1, copy=True).fit(x).dbscan_clustering(cut, 10)
        assert same_partition(ours, theirs), cut
        seen = ours[ours >= 0]
        order = seen[np.sort(np.unique(seen, return_index=True)[1])]
        assert np.array_equal(order, np.arange(len(order))), "clusters numbered by their first row"


def test_rows_with_nan_keep_their_label_in_a_cut():
    x = blobs(300, 2, 3, seed=2)
    x[7, 0] = np.nan
    x[9, 1] = np.inf
    c = sylva.HDBSCAN(min_cluster_size=10).fit(x)
    cut = c.dbscan_clustering(1.0, 5)
    assert cut[7] == -3 and cut[9] == -2
    assert np.isfinite(c.relative_validity_)


def test_errors():
    with pytest.raises(AttributeError):
        sylva.HDBSCAN().dbscan_clustering(1.0)
    with pytest.raises(ValueError, match="labels"):
        sylva.validity_index(np.zeros((10, 2)), np.zeros(9, dtype=int))


def test_validity_index_takes_the_packages_signature_and_any_cluster_ids():
    x = blobs(300, 2, 3, 7)
    labels = sylva.HDBSCAN(min_cluster_size=20).fit_predict(x)
    assert labels.max() >= 1
    index, per = sylva.validity_index(x, labels, per_cluster_scores=True)
    # the package's positional order: X, labels, metric, d, per_cluster_scores
    assert sylva.validity_index(x, labels, "euclidean") == index
    assert sylva.validity_index(x, labels, "euclidean", x.shape[1]) == index
    # cluster ids need not be consecutive, and every negative label is noise, as in the package
    spread = np.where(labels >= 0, labels * 3 + 2, -1 - (np.arange(len(labels)) % 3))
    index2, per2 = sylva.validity_index(x, spread, per_cluster_scores=True)
    assert index2 == index
    assert len(per2) == 3 * labels.max() + 3
    np.testing.assert_array_equal(per2[2::3], per)
    assert np.isnan(np.delete(per2, np.arange(2, len(per2), 3))).all()
    for kwargs, part in [({"metric": "hamming"}, "metric must be one of"), ({"metric": "precomputed"}, "square"),
                         ({"metric": "manhattan", "p": 3}, "only keyword argument is p"),
                         ({"d": 5}, "number of features"), ({"mst_raw_dist": True}, "mst_raw_dist")]:
        with pytest.raises(ValueError, match=part):
            sylva.validity_index(x, labels, **kwargs)


@pytest.mark.parametrize("name, metric, kwargs", [("manhattan", "manhattan", {}), ("manhattan", "cityblock", {}),
                                                  ("chebyshev", "chebyshev", {}), ("minkowski3", "minkowski", {"p": 3}),
                                                  ("cosine", "cosine", {})])
def test_validity_index_under_other_metrics_equals_the_package(name, metric, kwargs):
    # reference values of the hdbscan package, written by scripts/validity-metric-oracle.py
    ref = os.path.join(os.path.dirname(__file__), "..", "..", "sylva-core", "src", "test", "resources", "org",
                       "sylva", "hdbscan", "validity-metrics")
    X, labels = np.load(os.path.join(ref, "X.npy")), np.load(os.path.join(ref, "labels.npy"))
    want = np.load(os.path.join(ref, name + ".npy"))
    index, per = sylva.validity_index(X, labels, metric, per_cluster_scores=True, **kwargs)
    assert index == pytest.approx(want[0], abs=1e-12)
    np.testing.assert_allclose(per, want[1:], rtol=0, atol=1e-12)


def test_validity_index_takes_noise_rows_of_nan_or_infinity():
    # noise takes no part in the index but its count: a fit's rows of NaN (-3) or infinity (-2) are scored, as the
    # package scores them, and the coordinates of any noise row do not move the index
    X = blobs(300, 3, 3, seed=31).astype(np.float64)
    c = sylva.HDBSCAN(min_cluster_size=10).fit(X)
    base = sylva.validity_index(X, c.labels_)
    noisy = np.flatnonzero(c.labels_ == -1)[:3]
    assert noisy.size == 3
    moved = X.copy()
    moved[noisy] = [[np.nan, 0, 0], [np.inf, 1, 1], [1e6, -1e6, 5]]
    assert sylva.validity_index(moved, c.labels_) == base
    nan = X.copy()
    nan[5] = np.nan
    fitted = sylva.HDBSCAN(min_cluster_size=10).fit(nan)
    assert fitted.labels_[5] == -3
    assert np.isfinite(sylva.validity_index(nan, fitted.labels_))
    clustered = X.copy()
    clustered[np.flatnonzero(c.labels_ >= 0)[0], 0] = np.nan   # a cluster's point: the index needs it
    with pytest.raises(ValueError):
        sylva.validity_index(clustered, c.labels_)
    sparse = pytest.importorskip("scipy.sparse")
    assert sylva.validity_index(sparse.csr_matrix(X), c.labels_) == base   # its rows as dense points
    as_list = X.tolist()
    as_list[noisy[0]][1] = None   # None read as NaN, as fit reads it
    assert sylva.validity_index(as_list, c.labels_) == base
    far = X.copy()
    far[noisy[0]] = 1e140   # beyond what minkowski p=3 can cube: unused, so not refused
    assert sylva.validity_index(far, c.labels_, metric="minkowski", p=3) == \
        sylva.validity_index(X, c.labels_, metric="minkowski", p=3)
