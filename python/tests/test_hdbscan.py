"""sylva.HDBSCAN: the CLI's bytes, scikit-learn's labels on tie-free data, parameters and errors."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import sylva
from conftest import as_cli_writes, assert_same_bytes, blobs, clips, load

OUTPUTS = {"labels": "labels_", "probabilities": "probabilities_", "outlier_scores": "outlier_scores_",
           "core_distances": "core_distances_", "mst": "minimum_spanning_tree_",
           "single_linkage": "single_linkage_tree_", "condensed_tree": "condensed_tree_",
           "persistence": "cluster_persistence_"}


@pytest.mark.parametrize("case", ["float32-clips", "float64-leaf", "int16"])
def test_every_array_is_the_clis_file_byte_for_byte(case, cli, tmp_path):
    if case == "float32-clips":
        X, kw, args = clips(1500, 1), {"min_cluster_size": 15}, ["--min-cluster-size", 15]
    elif case == "float64-leaf":
        X = blobs(1200, 6, 5, 2)
        kw = {"min_cluster_size": 10, "min_samples": 4, "cluster_selection_method": "leaf",
              "cluster_selection_epsilon": 0.5}
        args = ["--min-cluster-size", 10, "--min-samples", 4, "--method", "leaf", "--cluster-selection-epsilon", 0.5]
    else:
        X, kw, args = np.round(blobs(800, 3, 4, 3) * 100).astype(np.int16), {}, []
    np.save(tmp_path / "x.npy", X)
    cli("hdbscan", tmp_path / "x.npy", "--out", tmp_path / "out", "-q", *args)
    h = sylva.HDBSCAN(**kw).fit(X)
    for name, attr in OUTPUTS.items():
        assert_same_bytes(as_cli_writes(h, attr), load(tmp_path / "out", name), f"{case} {name}")
    assert len(np.unique(h.labels_[h.labels_ >= 0])) >= 2


# min_samples = 1: the mutual-reachability distance is the plain distance, and on float64 blobs no two
# distances tie, so the spanning tree, hence every output, is unique. With min_samples >= 2 many
# mutual-reachability distances are some point's core distance and tie (69 tied groups in this data's
# tree at min_samples = 5); where tied edges merge several components at one level, scikit-learn's
# condensed tree follows its traversal order and Sylva's its tie order, and leaf selection or
# max_cluster_size can then pick different clusters (both are answers scikit-learn could give).
PARAMS = [{}, {"min_cluster_size": 15}, {"cluster_selection_method": "leaf"},
          {"cluster_selection_epsilon": 2.0}, {"max_cluster_size": 150}, {"alpha": 0.7},
          {"allow_single_cluster": True, "min_cluster_size": 400},
          {"cluster_selection_method": "leaf", "min_cluster_size": 8}]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "defaults")
def test_every_output_equals_scikit_learns_where_the_tree_is_unique(params):
    skc = pytest.importorskip("sklearn.cluster")
    X = blobs(700, 4, 5, 11, spread=1.5)
    ours = sylva.HDBSCAN(min_samples=1, **params).fit(X)
    theirs = skc.HDBSCAN(min_samples=1, copy=False, **params).fit(X)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(ours.probabilities_, theirs.probabilities_)
    assert ours.labels_.max() >= 1 or params.get("allow_single_cluster")


@pytest.mark.parametrize("params", [{}, {"min_cluster_size": 15, "min_samples": 3}, {"min_cluster_size": 30}],
                         ids=["defaults", "mcs15-ms3", "mcs30"])
def test_labels_equal_scikit_learns_with_the_default_min_samples(params):
    # Here the tied merges do not change which clusters EOM selects (see above), so the labels agree.
    skc = pytest.importorskip("sklearn.cluster")
    X = blobs(700, 4, 5, 11, spread=1.5)
    np.testing.assert_array_equal(sylva.HDBSCAN(**params).fit_predict(X),
                                  skc.HDBSCAN(copy=False, **params).fit_predict(X))


def test_random_small_fits_equal_scikit_learns_wherever_no_weights_tie():
    # Random blobs (1 to 7 dimensions, 30 to 300 points, tight to overlapping) and random parameters:
    # wherever Sylva's spanning tree has no two equal weights (so the tree, and scikit-learn's answer, is
    # unique), labels and probabilities are scikit-learn's, bit for bit. Fits where scikit-learn itself
    # raises (it fails on some cluster_selection_epsilon and max_cluster_size cases) are left out.
    skc = pytest.importorskip("sklearn.cluster")
    rng = np.random.default_rng(20261204)
    compared = 0
    for trial in range(400):
        n, d = int(rng.integers(30, 300)), int(rng.integers(1, 8))
        X = blobs(n, d, int(rng.integers(1, 6)), seed=trial, spread=float(rng.choice([0.3, 1.0, 8.0])))
        params = dict(min_cluster_size=int(rng.integers(2, 30)),
                      min_samples=None if rng.random() < 0.3 else int(rng.integers(1, 4)),
                      cluster_selection_epsilon=float(rng.choice([0.0, 0.0, 0.1, 0.5, 2.0])),
                      max_cluster_size=None if rng.random() < 0.7 else int(rng.integers(2, 200)),
                      alpha=float(rng.choice([1.0, 1.0, 0.5, 2.0])),
                      cluster_selection_method=str(rng.choice(["eom", "leaf"])),
                      allow_single_cluster=bool(rng.random() < 0.3))
        ours = sylva.HDBSCAN(**params).fit(X)
        weights = np.sort(ours.minimum_spanning_tree_[:, 2])
        if np.any(weights[1:] == weights[:-1]):
            continue
        try:
            theirs = skc.HDBSCAN(copy=True, **params).fit(X)
        except (TypeError, KeyError, IndexError):
            continue
        where = f"trial {trial}: n={n} d={d} {params}"
        np.testing.assert_array_equal(ours.labels_, theirs.labels_, err_msg=where)
        np.testing.assert_array_equal(ours.probabilities_, theirs.probabilities_, err_msg=where)
        compared += 1
    assert compared >= 100, f"only {compared} tie-free fits compared"


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")   # scikit-learn's fit, summing inf
def test_rows_with_nan_or_inf_are_left_out_as_scikit_learn_does():
    skc = pytest.importorskip("sklearn.cluster")
    X = blobs(400, 3, 3, 5)
    X[7, 1] = np.nan
    X[30, 0] = np.inf
    X[31, 2] = -np.inf
    ours = sylva.HDBSCAN(min_cluster_size=10).fit(X)
    theirs = skc.HDBSCAN(min_cluster_size=10, copy=False).fit(X)
    assert ours.labels_[7] == -3 and ours.labels_[30] == -2 and ours.labels_[31] == -2
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(ours.probabilities_, theirs.probabilities_)


def test_store_centers_as_scikit_learn():
    skc = pytest.importorskip("sklearn.cluster")
    X = blobs(500, 3, 4, 9)
    ours = sylva.HDBSCAN(store_centers="both").fit(X)
    theirs = skc.HDBSCAN(store_centers="both", copy=False).fit(X)
    np.testing.assert_allclose(ours.centroids_, theirs.centroids_, rtol=1e-12)
    np.testing.assert_array_equal(ours.medoids_, theirs.medoids_)


def test_a_refit_without_store_centers_removes_the_earlier_centres():
    X = blobs(300, 3, 3, 4)
    h = sylva.HDBSCAN(store_centers="both").fit(X)
    assert h.centroids_.shape[0] == h.medoids_.shape[0] > 0
    h.set_params(store_centers="centroid").fit(X[:200])
    assert hasattr(h, "centroids_") and not hasattr(h, "medoids_")
    h.set_params(store_centers=None).fit(X)
    assert not hasattr(h, "centroids_") and not hasattr(h, "medoids_")


def test_negative_precomputed_distances_are_refused_in_scikit_learns_words():
    D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0)))
    D[1, 2] = D[2, 1] = -0.5
    with pytest.raises(ValueError, match=r"Negative values in data passed to HDBSCAN \(metric='precomputed'\): entry "
                                         r"\(1, 2\) is -0.5, and 1 more below 0; distances must be >= 0"):
        sylva.HDBSCAN(metric="precomputed", min_cluster_size=2).fit(D)
    D[1, 2] = D[2, 1] = -1e-10   # round-off the engine reads as 0
    sylva.HDBSCAN(metric="precomputed", min_cluster_size=2).fit(D)
    scipy_sparse = pytest.importorskip("scipy.sparse")
    S = scipy_sparse.csr_matrix(np.where(D == 0, 0, D))
    S.data[S.indptr[3]] = -3.0   # row 3's first stored entry: column 0
    with pytest.raises(ValueError, match=r"Negative values in data passed to HDBSCAN \(metric='precomputed'\): entry "
                                         r"\(3, 0\) is -3.0; "):
        sylva.HDBSCAN(metric="precomputed", min_cluster_size=2).fit(S)


def test_outputs_are_consistent_with_each_other():
    X = clips(900, 4)
    h = sylva.HDBSCAN(min_cluster_size=20)
    labels = h.fit_predict(X)
    n = len(X)
    assert labels is h.labels_ and labels.dtype == np.intp and labels.shape == (n,)
    assert h.dbscan_clustering(0.5).dtype == np.intp   # scikit-learn's dtypes
    assert h.minimum_spanning_tree_.shape == (n - 1, 3)
    assert h.single_linkage_tree_.shape == (n - 1, 4)
    assert h.condensed_tree_.shape[1] == 4
    assert np.all(h.probabilities_[labels == -1] == 0)
    assert np.all((h.outlier_scores_ >= 0) & (h.outlier_scores_ <= 1))
    assert len(h.cluster_persistence_) == labels.max() + 1
    assert h.n_features_in_ == 61 and h.engine_seconds_ > 0


def test_parameters_round_trip_and_clone():
    h = sylva.HDBSCAN(min_cluster_size=12, cluster_selection_method="leaf")
    p = h.get_params()
    assert p["min_cluster_size"] == 12 and p["min_samples"] is None and p["metric"] == "euclidean"
    h.set_params(min_samples=3)
    assert h.min_samples == 3
    base = pytest.importorskip("sklearn.base")
    c = base.clone(h)
    assert c.get_params() == h.get_params() and c is not h


@pytest.mark.parametrize("kw, part", [
    ({"min_cluster_size": 1}, "min_cluster_size"),
    ({"min_samples": 0}, "min_samples"),
    ({"alpha": 0.0}, "alpha"),
    ({"cluster_selection_method": "dbscan"}, "cluster_selection_method"),
    ({"metric": "mahalanobis"}, "metric"),
    ({"max_cluster_size": 0}, "max_cluster_size"),
    ({"store_centers": "mean"}, "store_centers"),
    ({"backend": "gpu"}, "backend"),
    ({"backend": None}, "backend"),
    ({"n_jobs": 32768}, "n_jobs"),
    ({"n_jobs": 2**40}, "n_jobs"),
])
def test_bad_parameters_are_value_errors_naming_them(kw, part):
    with pytest.raises(ValueError, match=part):
        sylva.HDBSCAN(**kw).fit(blobs(50, 2, 2, 1))


@pytest.mark.parametrize("kw", [{"cluster_selection_epsilon": np.inf}, {"cluster_selection_epsilon": np.nan},
                                {"alpha": np.inf}, {"alpha": np.nan}])
def test_infinite_and_nan_numbers_are_refused_as_scikit_learn_refuses_them(kw):
    (name, value), = kw.items()
    expected = "[0, inf)" if name == "cluster_selection_epsilon" else "(0, inf)"
    with pytest.raises(ValueError, match=f"The '{name}' parameter of HDBSCAN must be a float in the range "
                       + re.escape(expected) + f". Got {value!r} instead."):
        sylva.HDBSCAN(**kw).fit(blobs(50, 2, 2, 1))


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="n_samples=1"):
        sylva.HDBSCAN().fit(np.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"min_samples \(9\)"):
        sylva.HDBSCAN(min_cluster_size=9).fit(blobs(8, 2, 1, 1))
    with pytest.raises(ValueError):
        sylva.HDBSCAN().fit(np.zeros((4, 2, 2)))
    # as sylva hdbscan reads a .npy: an integer float64 cannot hold is refused, naming it; one it holds is taken
    for big, dtype in [(2 ** 53 + 1, np.int64), (2 ** 63 - 1, np.int64), (2 ** 53 + 1, np.uint64)]:
        with pytest.raises(ValueError, match=f"{dtype.__name__} value {big} at \\(1, 0\\) is not exactly representable"):
            sylva.HDBSCAN(min_cluster_size=2).fit(np.array([[0], [big], [5], [6]], dtype=dtype))
    # a uint64 beyond int64 is refused even where float64 holds it (2^63), as sylva hdbscan refuses it in a .npy
    with pytest.raises(ValueError, match="uint64 value 9223372036854775808 at row 1, column 0 is beyond int64's range"):
        sylva.HDBSCAN(min_cluster_size=2).fit(np.array([[0], [2 ** 63], [5], [6]], dtype=np.uint64))
    exact = np.array([[0], [2 ** 60], [5], [6]], dtype=np.int64)
    np.testing.assert_array_equal(sylva.HDBSCAN(min_cluster_size=2).fit_predict(exact),
                                  sylva.HDBSCAN(min_cluster_size=2).fit_predict(exact.astype(np.float64)))


def test_counts_beyond_a_java_int_act_as_scikit_learns_do():
    # scikit-learn takes any int: a min_cluster_size beyond every count leaves all noise, a max_cluster_size
    # beyond every count limits nothing, and dbscan_clustering's min_cluster_size below 1 acts as 1
    x = blobs(200, 2, 3, 4)
    assert (sylva.HDBSCAN(min_cluster_size=2 ** 40, min_samples=5).fit_predict(x) == -1).all()
    plain = sylva.HDBSCAN().fit(x)
    np.testing.assert_array_equal(sylva.HDBSCAN(max_cluster_size=2 ** 63).fit_predict(x), plain.labels_)
    np.testing.assert_array_equal(plain.dbscan_clustering(0.5, min_cluster_size=0),
                                  plain.dbscan_clustering(0.5, min_cluster_size=1))
    np.testing.assert_array_equal(plain.dbscan_clustering(0.5, min_cluster_size=-3),
                                  plain.dbscan_clustering(0.5, min_cluster_size=1))
    # a cut is a number, as scikit-learn's typed cut takes it: a numeric string is refused, not parsed
    with pytest.raises(TypeError, match="cut_distance must be a real number, not str"):
        plain.dbscan_clustering("0.5")
    np.testing.assert_array_equal(plain.dbscan_clustering(np.float32(0.5)), plain.dbscan_clustering(0.5))
    # a NaN cut joins nothing, as in scikit-learn (no weight is below it): every point noise, or its own cluster
    assert (plain.dbscan_clustering(float("nan")) == -1).all()
    np.testing.assert_array_equal(plain.dbscan_clustering(float("nan"), min_cluster_size=1), np.arange(len(x)))


def _run_python(code):
    """Runs ``code`` in a fresh interpreter (what it imports or hides is its own) and returns the finished process,
    which must have succeeded."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out


def test_works_without_scikit_learn(tmp_path):
    # numpy is the only hard dependency: with scikit-learn hidden the estimator still fits and has params
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import numpy as np, sylva\n"
        "from sylva import _estimator_base as b; assert not b.HAVE_SKLEARN\n"
        "rng = np.random.default_rng(0)\n"
        "X = np.vstack([rng.normal(0, 1, (100, 2)), rng.normal(20, 1, (100, 2))])\n"
        "h = sylva.HDBSCAN(min_cluster_size=10).set_params(min_samples=5)\n"
        "print(sorted(set(h.fit_predict(X).tolist())), h.get_params()['min_samples'], repr(h))\n"
        # a table (pandas' interface: columns, __array__) names its features as with scikit-learn
        "class Table:\n"
        "    def __init__(self, a, columns): self.a, self.columns = a, columns\n"
        "    def __array__(self, dtype=None, copy=None): return self.a\n"
        "p = sylva.HDBSCAN(min_cluster_size=10, prediction_data=True).fit(Table(X, ['u', 'v']))\n"
        "print(list(p.feature_names_in_))\n"
        "try:\n"
        "    sylva.approximate_predict(p, Table(X[:3], ['v', 'u']))\n"
        "except ValueError as e:\n"
        "    print('refused:', str(e)[:40])\n"
        "p.fit(X)\n"
        "print(hasattr(p, 'feature_names_in_'))\n"
        # medoids under minkowski p = inf are chebyshev's (numpy's fallback distances, not scikit-learn's)
        "M = sylva.HDBSCAN(min_cluster_size=10, metric='minkowski', metric_params={'p': np.inf},\n"
        "                  store_centers='medoid').fit(X).medoids_\n"
        "C = sylva.HDBSCAN(min_cluster_size=10, metric='chebyshev', store_centers='medoid').fit(X).medoids_\n"
        "print(np.array_equal(M, C))\n"
        # no scikit-learn tags to extend: the estimator has none, rather than one that raises
        "print(hasattr(h, '__sklearn_tags__'))\n"
    )
    out = _run_python(code)
    assert out.stdout.strip().splitlines() == [
        "[0, 1] 5 HDBSCAN(min_cluster_size=10, min_samples=5)", "['u', 'v']",
        "refused: The feature names should match those tha", "False", "True", "False"]


def test_a_dense_fit_without_scikit_learn_does_not_import_scipy_sparse():
    # telling a dense X from a sparse one must not import scipy.sparse (a quarter of a second on a process's first
    # fit); a sparse X, whose module is imported by then, is still told apart
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import numpy as np, sylva\n"
        "rng = np.random.default_rng(0)\n"
        "X = np.vstack([rng.normal(0, 1, (60, 2)), rng.normal(20, 1, (60, 2))])\n"
        "sylva.HDBSCAN(min_cluster_size=10).fit(X)\n"
        "print('scipy.sparse' in sys.modules)\n"
        "try:\n"
        "    import scipy.sparse as sp\n"
        "except ImportError:\n"
        "    print('no scipy')\n"
        "else:\n"
        "    from sylva.hdbscan import _issparse\n"
        "    print(_issparse(sp.csr_matrix(X)), _issparse(X))\n"
    )
    lines = _run_python(code).stdout.strip().splitlines()
    assert lines[0] == "False"
    assert lines[1] in ("True False", "no scipy")


def test_a_scikit_learn_older_than_1_6_counts_as_absent_but_for_its_not_fitted_error():
    # scikit-learn before 1.6 has no validate_data (Debian 12's 1.2.1): fit failed with an ImportError
    pytest.importorskip("sklearn")
    code = (
        "import sklearn.utils.validation as v; del v.validate_data\n"
        "import numpy as np, sylva, sklearn.exceptions\n"
        "from sylva import _estimator_base as b\n"
        "rng = np.random.default_rng(0)\n"
        "X = np.vstack([rng.normal(0, 1, (100, 2)), rng.normal(20, 1, (100, 2))])\n"
        "print(b.HAVE_SKLEARN, sorted(set(sylva.HDBSCAN(min_cluster_size=10).fit_predict(X).tolist())))\n"
        "try:\n"
        "    sylva.approximate_predict(sylva.HDBSCAN(), X)\n"
        "except sklearn.exceptions.NotFittedError:\n"
        "    print('scikit-learn\\'s NotFittedError')\n"
    )
    out = _run_python(code)
    assert out.stdout.strip().splitlines() == ["False [0, 1]", "scikit-learn's NotFittedError"]


def test_a_pandas_table_with_missing_values_is_read_as_scikit_learn_reads_it_without_scikit_learn():
    pytest.importorskip("pandas")
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import numpy as np, pandas as pd, sylva\n"
        "t = pd.DataFrame({'u': pd.array([1, 2, None, 4] * 30, dtype='Int64'), 'v': np.arange(120.0)})\n"
        "h = sylva.HDBSCAN(min_cluster_size=5, prediction_data=True).fit(t)\n"
        "print(h.labels_[2], list(h.feature_names_in_))\n"
        "print(len(sylva.approximate_predict(h, t.iloc[[0, 1, 3]])[0]))\n"
        "try:\n"
        "    sylva.approximate_predict(h, t.iloc[:4])\n"
        "except ValueError as e:\n"   # the missing value named, not a TypeError from float(pd.NA)
        "    print('refused:', 'new point 2, coordinate 0 is NaN' in str(e))\n"
        # a table without missing values keeps its dtype: an int64 beyond 2^53 is refused as in an array
        "big = pd.DataFrame({'u': np.array([2**53 + 1, 0, 1, 2, 3], dtype=np.int64), 'v': np.arange(5)})\n"
        "try:\n"
        "    sylva.HDBSCAN(min_cluster_size=2).fit(big)\n"
        "except ValueError as e:\n"
        "    print('refused:', 'not exactly representable' in str(e))\n"
    )
    out = _run_python(code)
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "-3 ['u', 'v']"   # the missing value's row, as NaN: label -3
    assert lines[1:] == ["3", "refused: True", "refused: True"]


def test_verbose_prints_each_stage_on_stderr_and_changes_nothing_else(capsys):
    X = clips(3000, 4)
    quiet = sylva.HDBSCAN(min_cluster_size=20).fit(X)
    assert capsys.readouterr().err == ""
    loud = sylva.HDBSCAN(min_cluster_size=20, verbose=True).fit(X)
    err = capsys.readouterr().err.splitlines()
    assert err and all(re.fullmatch(r"sylva: [a-z0-9 ]+ (\d+\.\d %|preparing) \(\d+\.\d s\)", line)
                       for line in err), err
    assert err[0].startswith("sylva: core distances preparing ("), err
    assert any(line.startswith("sylva: core distances 100.0 % (") for line in err), err
    np.testing.assert_array_equal(quiet.labels_, loud.labels_)
    np.testing.assert_array_equal(quiet.probabilities_, loud.probabilities_)
    with pytest.raises(ValueError, match="'verbose' parameter of HDBSCAN must be an instance of 'bool'"):
        sylva.HDBSCAN(verbose=1).fit(X)


def test_every_default_scikit_learn_has_is_its_default():
    skc = pytest.importorskip("sklearn.cluster")
    theirs, ours = skc.HDBSCAN().get_params(), sylva.HDBSCAN().get_params()
    assert {k: v for k, v in ours.items() if k in theirs} == theirs


def test_what_scikit_learn_takes_is_taken_alike():
    skc = pytest.importorskip("sklearn.cluster")
    X = blobs(300, 3, 3, 11)
    base = sylva.HDBSCAN(min_cluster_size=10).fit(X)
    # scikit-learn's own parameters, its copy="warn" default included
    params = {k: v for k, v in skc.HDBSCAN().get_params().items()}
    assert sylva.HDBSCAN(**params).get_params()["copy"] == params["copy"]
    sylva.HDBSCAN(**dict(params, min_cluster_size=10)).fit(X)
    # numbers written as strings are read as float64
    np.testing.assert_array_equal(sylva.HDBSCAN(min_cluster_size=10).fit(X.astype(str)).labels_, base.labels_)
    with pytest.raises(ValueError, match="not numbers"):
        sylva.HDBSCAN().fit(np.array([["1", "x"], ["2", "3"], ["4", "5"]]))
    # a precomputed matrix in any memory order
    from sklearn.metrics import pairwise_distances
    D = pairwise_distances(X)
    c = sylva.HDBSCAN(min_cluster_size=10, metric="precomputed").fit(D).labels_
    np.testing.assert_array_equal(sylva.HDBSCAN(min_cluster_size=10, metric="precomputed").fit(np.asfortranarray(D)).labels_, c)
    np.testing.assert_array_equal(sylva.HDBSCAN(min_cluster_size=10, metric="precomputed").fit(D.T).labels_, c)
    # a row with +inf and -inf sums to NaN: scikit-learn's label -3, probability NaN
    Y = X.copy()
    Y[3] = [np.inf, -np.inf, 0]
    Y[4] = [np.inf, 1, 1]
    ours, theirs = sylva.HDBSCAN(min_cluster_size=10).fit(Y), skc.HDBSCAN(min_cluster_size=10, copy=True).fit(Y)
    np.testing.assert_array_equal(ours.labels_[3:5], theirs.labels_[3:5])
    assert ours.labels_[3] == -3 and np.isnan(ours.probabilities_[3]) and ours.probabilities_[4] == 0
    # a bad parameter is scikit-learn's exception: a ValueError and a TypeError
    for error in (ValueError, TypeError):
        with pytest.raises(error, match="min_cluster_size"):
            sylva.HDBSCAN(min_cluster_size=1).fit(X)


_FIT_ARRAYS = ("labels_", "probabilities_", "outlier_scores_", "core_distances_", "minimum_spanning_tree_",
               "single_linkage_tree_", "condensed_tree_", "cluster_persistence_")


@pytest.mark.parametrize("backend", ["scalar", "simd", "opencl", "cuda"])
def test_every_backend_gives_the_same_bytes_or_says_why_it_cannot(backend):
    # OpenCL runs on PoCL in CI (.ci/run installs it, and CI fails where it is missing); CUDA needs an
    # NVIDIA GPU: without one the fit is refused as a parameter error that names the backend
    X = clips(1500, 4)
    default = sylva.HDBSCAN(min_cluster_size=10).fit(X)
    try:
        h = sylva.HDBSCAN(min_cluster_size=10, backend=backend).fit(X)
    except ValueError as e:
        if backend == "opencl" and os.environ.get("CI", "").lower() == "true":
            raise
        assert backend in ("opencl", "cuda") and "backend" in str(e), str(e)
        pytest.skip(f"no {backend} device here: {e}")
    assert default.engine_backend_ == "auto"
    assert h.engine_backend_ == backend or h.engine_backend_.startswith(f"gpu/{backend}: "), h.engine_backend_
    for name in _FIT_ARRAYS:
        assert_same_bytes(getattr(default, name), getattr(h, name), f"{backend}: {name}")
