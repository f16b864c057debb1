"""Sparse input, as scikit-learn's HDBSCAN takes it: a sparse feature matrix is fitted as its dense rows; a
sparse precomputed distance matrix as a graph (pairs not stored are no edge, each row's core distance the
min_samples-th smallest distance it stores), scikit-learn's partition wherever the spanning tree is unique."""
import numpy as np
import pytest

import sylva
from conftest import as_cli_writes, assert_same_bytes, blobs, load

sp = pytest.importorskip("scipy.sparse")

ARRAYS = ("labels_", "probabilities_", "outlier_scores_", "core_distances_", "minimum_spanning_tree_",
          "single_linkage_tree_", "condensed_tree_", "cluster_persistence_")


def knn_graph(X, k):
    """Each point's k nearest, itself included as a stored 0, symmetrised, plus each pair (i, i + 1), which joins
    the clusters' pieces into one graph."""
    neighbors = pytest.importorskip("sklearn.neighbors")
    G = neighbors.kneighbors_graph(X, k, mode="distance", include_self=True)
    n = X.shape[0]
    chain = np.linalg.norm(X[1:] - X[:-1], axis=1)
    G = G.tocoo()
    both = sp.coo_matrix((np.r_[G.data, chain], (np.r_[G.row, np.arange(n - 1)], np.r_[G.col, np.arange(1, n)])),
                         shape=(n, n))
    # symmetrised keeping stored zeros and the diagonal (G.maximum(G.T) would drop both)
    G = sylva.symmetric_graph(both)
    assert all(i in G.indices[G.indptr[i]:G.indptr[i + 1]] for i in range(n)), "the diagonal is stored"
    return G


def test_a_sparse_feature_matrix_is_the_dense_fit_byte_for_byte():
    X = blobs(300, 5, 3, seed=1)
    X[np.abs(X) < 0.8] = 0   # something to leave out
    S = sp.csr_matrix(X)
    dense = sylva.HDBSCAN(min_cluster_size=8).fit(X)
    for fmt in ("csr", "csc", "coo", "lil"):
        ours = sylva.HDBSCAN(min_cluster_size=8).fit(S.asformat(fmt))
        for name in ARRAYS:
            np.testing.assert_array_equal(getattr(dense, name), getattr(ours, name), err_msg=f"{fmt} {name}")


def test_prediction_takes_sparse_new_points_as_dense_ones():
    X = blobs(200, 3, 2, seed=2)
    h = sylva.HDBSCAN(min_cluster_size=8, prediction_data=True).fit(sp.csr_matrix(X))
    labels, strengths = sylva.approximate_predict(h, sp.csr_matrix(X[:20] + 0.01))
    want_labels, want_strengths = sylva.approximate_predict(h, X[:20] + 0.01)
    np.testing.assert_array_equal(labels, want_labels)
    np.testing.assert_array_equal(strengths, want_strengths)


def test_sparse_new_points_of_the_wrong_width_are_refused_before_they_are_densified():
    h = sylva.HDBSCAN(min_cluster_size=8, prediction_data=True).fit(blobs(100, 3, 2, seed=6))
    with pytest.raises(ValueError, match="1000000000 features, the clusterer was fitted on 3"):
        sylva.approximate_predict(h, sp.csr_matrix((2, 10**9)))   # 16 GB once dense


def test_a_complete_sparse_matrix_with_its_diagonal_is_the_dense_matrix_fit():
    X = blobs(150, 3, 3, seed=3)
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    n = len(X)
    i, j = np.indices((n, n))
    S = sp.csr_matrix((D.ravel(), (i.ravel(), j.ravel())), shape=(n, n))   # keeps the stored zeros
    assert S.nnz == n * n
    for ms in (1, 5):
        dense = sylva.HDBSCAN(metric="precomputed", min_cluster_size=6, min_samples=ms).fit(D)
        ours = sylva.HDBSCAN(metric="precomputed", min_cluster_size=6, min_samples=ms).fit(S)
        assert ours.engine_backend_ == "cpu/sparse-graph"
        for name in ARRAYS:
            np.testing.assert_array_equal(getattr(dense, name), getattr(ours, name), err_msg=f"{ms} {name}")


def test_identical_points_joined_at_zero_give_the_dense_fit():
    # scipy's spanning tree drops zero weights, and scikit-learn 1.9.1 then loops for ever on this matrix
    X = np.array([[0, 0], [0, 0], [0, 0], [1, 0], [1.1, 0.3], [5, 5], [5.2, 5.1], [4.9, 5.3]], float)
    n = len(X)
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    i, j = np.indices((n, n))
    S = sp.csr_matrix((D.ravel(), (i.ravel(), j.ravel())), shape=(n, n))
    params = dict(metric="precomputed", min_cluster_size=2, min_samples=2)
    dense, ours = sylva.HDBSCAN(**params).fit(D), sylva.HDBSCAN(**params).fit(S)
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(dense, name), getattr(ours, name), err_msg=name)
    assert (ours.minimum_spanning_tree_[:, 2] == 0).sum() == 2


def test_symmetric_graph_keeps_identical_points_and_the_diagonal():
    # 31 identical points among 200: G.maximum(G.T) drops their stored zeros and leaves rows shorter than k
    neighbors = pytest.importorskip("sklearn.neighbors")
    X = blobs(200, 2, 1, seed=7)   # one blob: the nearest-neighbour graph is connected
    X[:31] = X[0]
    G = sylva.symmetric_graph(neighbors.kneighbors_graph(X, 15, mode="distance", include_self=True))
    assert (G != G.T).nnz == 0 and np.all(G.diagonal() == 0)
    assert min(np.diff(G.indptr)) >= 15
    dense = sylva.HDBSCAN(min_cluster_size=5, min_samples=10).fit(X)
    ours = sylva.HDBSCAN(metric="precomputed", min_cluster_size=5, min_samples=10).fit(G)
    np.testing.assert_array_equal(dense.core_distances_, ours.core_distances_)   # the k nearest hold each core distance
    lost = G.maximum(G.T)
    assert min(np.diff(lost.tocsr().indptr)) < 15   # what the helper is for
    with pytest.raises(TypeError):
        sylva.symmetric_graph(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="square"):
        sylva.symmetric_graph(sp.csr_matrix((3, 4)))


def same_partition(a, b):
    pairs = set(zip(a.tolist(), b.tolist()))
    return (len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))
            and all((x < 0) == (y < 0) for x, y in pairs))


def test_a_nearest_neighbour_graph_gives_scikit_learns_clusters_where_no_weights_tie():
    # scikit-learn takes the spanning tree from scipy's minimum_spanning_tree, whose edge directions number its
    # clusters; Sylva numbers them as its dense fits do (Prim's orientation from point 0), so the partition and
    # each point's probability are compared, and the spanning tree's weights
    skc = pytest.importorskip("sklearn.cluster")
    compared = 0
    for seed in range(12):
        X = blobs(400, 2 + seed % 3, 2 + seed % 4, seed=100 + seed)
        G = knn_graph(X, 10)
        for ms in (1, 2, 4):
            params = dict(metric="precomputed", min_cluster_size=8, min_samples=ms)
            ours = sylva.HDBSCAN(**params).fit(G)
            weights = np.sort(ours.minimum_spanning_tree_[:, 2])
            if np.any(weights[1:] == weights[:-1]):
                continue
            theirs = skc.HDBSCAN(copy=True, **params).fit(G)
            where = f"seed {seed}, min_samples {ms}"
            np.testing.assert_array_equal(weights, np.sort(theirs._single_linkage_tree_["value"]), err_msg=where)
            assert same_partition(ours.labels_, theirs.labels_), where
            np.testing.assert_array_equal(ours.probabilities_, theirs.probabilities_, err_msg=where)
            compared += 1
    assert compared >= 10, f"only {compared} tie-free fits compared"


@pytest.mark.parametrize("alpha", [0.5, 3.0])
def test_alpha_divides_the_graphs_whole_mutual_reachability_as_scikit_learn(alpha):
    # scikit-learn divides the sparse matrix by alpha before it takes the core distances from it
    skc = pytest.importorskip("sklearn.cluster")
    X = blobs(400, 3, 3, seed=140)
    G = knn_graph(X, 10)
    params = dict(metric="precomputed", min_cluster_size=8, min_samples=4, alpha=alpha)
    ours = sylva.HDBSCAN(**params).fit(G)
    theirs = skc.HDBSCAN(copy=True, **params).fit(G)
    np.testing.assert_array_equal(np.sort(ours.minimum_spanning_tree_[:, 2]),
                                  np.sort(theirs._single_linkage_tree_["value"]))
    assert same_partition(ours.labels_, theirs.labels_)


def test_a_dense_matrix_with_infinity_for_missing_distances_is_clustered_as_scikit_learn_does():
    # scikit-learn's dense precomputed path takes np.inf as a missing distance and warns when the spanning tree
    # needs one; groups that no distance joins are joined at infinity (lambda 0)
    skc = pytest.importorskip("sklearn.cluster")
    X = np.vstack([blobs(60, 2, 1, seed=150), blobs(60, 2, 1, seed=151) + 40.0])
    D = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    D[:60, 60:] = np.inf
    D[60:, :60] = np.inf
    D[3, 9] = D[9, 3] = np.inf
    for ms in (1, 3):
        params = dict(metric="precomputed", min_cluster_size=8, min_samples=ms)
        with pytest.warns(UserWarning, match="1 edge\\(s\\) of infinite weight"):
            ours = sylva.HDBSCAN(**params).fit(D)
        with pytest.warns(UserWarning):
            theirs = skc.HDBSCAN(copy=True, **params).fit(D)
        weights = np.sort(ours.minimum_spanning_tree_[:, 2])
        assert np.isinf(weights[-1]) and np.isfinite(weights[-2])
        np.testing.assert_array_equal(weights, np.sort(theirs._single_linkage_tree_["value"]))
        assert same_partition(ours.labels_, theirs.labels_), ms
        first, second = ours.labels_[:60], ours.labels_[60:]
        assert not set(first[first >= 0]) & set(second[second >= 0]), "no cluster across the missing distances"
        np.testing.assert_array_equal(ours.probabilities_, theirs.probabilities_)
    with pytest.raises(ValueError, match="Negative values in data passed to HDBSCAN .metric=.precomputed..: entry \\(0, 1\\) is -inf"):
        E = D.copy()
        E[0, 1] = E[1, 0] = -np.inf
        sylva.HDBSCAN(metric="precomputed").fit(E)


def test_what_a_graph_cannot_be_fitted_with_is_named():
    X = blobs(100, 2, 2, seed=4)
    G = knn_graph(X, 6)
    h = sylva.HDBSCAN(metric="precomputed", min_cluster_size=5)
    with pytest.raises(ValueError, match="fewer than min_samples = 8"):
        sylva.HDBSCAN(metric="precomputed", min_cluster_size=5, min_samples=8).fit(G)
    from sklearn.neighbors import kneighbors_graph
    with pytest.raises(ValueError, match="not symmetric"):
        h.fit(kneighbors_graph(X, 6, mode="distance", include_self=True))
    two = sp.block_diag([G, G]).tocsr()
    with pytest.raises(ValueError, match="2 connected components"):
        h.fit(two)
    with pytest.raises(ValueError, match="expected to be symmetric, however it has shape"):
        h.fit(G[:, :50])
    with pytest.raises(ValueError, match="must be False for a precomputed distance matrix"):
        sylva.HDBSCAN(metric="precomputed", prediction_data=True).fit(G)
    bad = G.copy()
    bad.data[3] = np.nan
    with pytest.raises(ValueError, match=r"is nan|is NaN"):
        h.fit(bad)


OUTPUTS = {"labels": "labels_", "probabilities": "probabilities_", "outlier_scores": "outlier_scores_",
           "core_distances": "core_distances_", "mst": "minimum_spanning_tree_",
           "single_linkage": "single_linkage_tree_", "condensed_tree": "condensed_tree_",
           "persistence": "cluster_persistence_"}


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_the_command_line_reads_save_npz_files_as_the_package_fits_them(fmt, cli, tmp_path):
    X = blobs(500, 3, 3, seed=5)
    G = knn_graph(X, 8)
    sp.save_npz(tmp_path / "g.npz", G.asformat(fmt), compressed=fmt == "csr")
    cli("hdbscan", tmp_path / "g.npz", "--metric", "precomputed", "--min-cluster-size", 10, "--min-samples", 3,
        "--out", tmp_path / "graph", "-q")
    h = sylva.HDBSCAN(metric="precomputed", min_cluster_size=10, min_samples=3).fit(G)
    for name, attr in OUTPUTS.items():
        assert_same_bytes(as_cli_writes(h, attr), load(tmp_path / "graph", name), f"graph {fmt} {name}")
    # another metric reads the matrix's rows as dense points
    F = sp.csr_matrix(np.where(np.abs(X) > 1, X, 0))
    sp.save_npz(tmp_path / "f.npz", F.asformat(fmt))
    cli("hdbscan", tmp_path / "f.npz", "--min-cluster-size", 10, "--out", tmp_path / "features", "-q")
    h = sylva.HDBSCAN(min_cluster_size=10).fit(F.toarray())
    for name, attr in OUTPUTS.items():
        assert_same_bytes(as_cli_writes(h, attr), load(tmp_path / "features", name), f"features {fmt} {name}")
    # new points from a .npz are predicted as the same rows from a .npy
    np.save(tmp_path / "f.npy", F.toarray())
    cli("hdbscan", tmp_path / "f.npy", "--min-cluster-size", 10, "--out", tmp_path / "fit", "--save-model",
        tmp_path / "m.model", "-q")
    for name in ("f.npz", "f.npy"):
        cli("predict", tmp_path / "m.model", tmp_path / name, "--out", tmp_path / f"p-{name}", "-q")
    for name in ("labels", "probabilities", "outlier_scores", "membership"):
        assert_same_bytes(load(tmp_path / "p-f.npy", name), load(tmp_path / "p-f.npz", name), f"predict {fmt} {name}")
