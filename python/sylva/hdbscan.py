"""``sylva.HDBSCAN``: scikit-learn's ``HDBSCAN`` (parameters, defaults, estimator protocol), computed
exactly by the Sylva engine."""
from __future__ import annotations

import math
import numbers
import sys
import warnings

import numpy as np

from ._engine import get_engine
from ._estimator_base import HAVE_SKLEARN, BaseEstimator, ClusterMixin, NotFittedError
from ._inputs import _caller_outside_package, fit_dtype, locked, table_as_array
from ._progress import StageProgress

try:   # scikit-learn's: a ValueError and a TypeError, which its callers catch as either
    from sklearn.utils._param_validation import InvalidParameterError
except ImportError:
    class InvalidParameterError(ValueError, TypeError):
        """A parameter of the estimator has a value it does not take (scikit-learn's exception, when absent)."""

_ALGORITHMS = ("auto", "brute", "kd_tree", "ball_tree")
_CENTERS = (None, "centroid", "medoid", "both")
_BACKENDS = ("auto", "scalar", "simd", "opencl", "cuda")


#: The engine's counts are Java ints; no input holds more points (or a larger weight sum) than this.
_ENGINE_INT_MAX = 2**31 - 1
#: The most threads the engine runs (a Java fork-join pool's limit), for ``n_jobs``.
MAX_THREADS = 32767


def _engine_int(v) -> int:
    """A count as the engine takes it: values above 2^31 - 1 (which scikit-learn accepts) act exactly as that
    largest int does, since no fit has that many points."""
    return min(int(v), _ENGINE_INT_MAX)


def _integer(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


_METRICS = {"euclidean": "euclidean", "l2": "euclidean", "manhattan": "manhattan", "l1": "manhattan",
            "cityblock": "manhattan", "chebyshev": "chebyshev", "infinity": "chebyshev", "minkowski": "minkowski",
            "cosine": "cosine", "precomputed": "precomputed"}


def _pairwise(data, metric, p=2):
    """Dense distances between the rows of ``data`` under ``metric`` (scikit-learn's ``pairwise_distances``
    where it is installed), for the medoids."""
    if metric == "minkowski" and p == 2:
        metric = "euclidean"
    if HAVE_SKLEARN:
        from sklearn.metrics import pairwise_distances
        return pairwise_distances(data, metric=metric, **({"p": p} if metric == "minkowski" else {}))
    if metric == "cosine":
        norms = np.sqrt((data * data).sum(axis=1))
        u = data / np.where(norms < 10 * np.finfo(np.float64).eps, 1.0, norms)[:, None]
        dist = np.clip(1 - u @ u.T, 0.0, 2.0)
        np.fill_diagonal(dist, 0.0)
        return dist
    diff = np.abs(data[:, None, :] - data[None, :, :])
    if metric == "minkowski" and p in (1, np.inf):   # scikit-learn's aliases: (sum |d|^p)^(1/p) breaks at p = inf
        metric = "manhattan" if p == 1 else "chebyshev"
    if metric == "manhattan":
        return diff.sum(axis=2)
    if metric == "chebyshev":
        return diff.max(axis=2)
    if metric == "minkowski":
        return (diff ** p).sum(axis=2) ** (1.0 / p)
    return np.sqrt((diff * diff).sum(axis=2))


def _issparse(X) -> bool:
    """A scipy sparse matrix or array. No sparse matrix exists unless ``scipy.sparse`` was imported, so a dense
    ``X`` is told apart without importing it (a quarter of a second, which the first fit in a process paid)."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(X)


def _sparse_distances(X) -> dict:
    """A sparse precomputed distance matrix as the engine's three CSR arrays (the engine checks symmetry, values and
    that each row stores at least ``min_samples`` distances; pairs not stored are no edge)."""
    if X.shape[0] != X.shape[1]:
        raise ValueError(f"The precomputed distance matrix is expected to be symmetric, however it has shape "
                         f"{X.shape}. Please verify that the distance matrix was constructed correctly.")
    X = X.tocsr()
    index = "<i4" if max(X.nnz, X.shape[0]) < 2**31 else "<i8"
    return {"graph_indptr": np.ascontiguousarray(X.indptr, dtype=index),
            "graph_indices": np.ascontiguousarray(X.indices, dtype=index),
            "graph_data": np.ascontiguousarray(X.data, dtype="<f8")}


def _refuse_negative_distances(dense=None, graph=None) -> None:
    """A precomputed distance below -1e-9 (the engine reads round-off down to it as 0) refused in scikit-learn's
    words for data its ``positive_only`` tag declares (its estimator checks look for them), naming the first such
    entry, as the engine names it; the engine checks the rest (NaN, the diagonal, symmetry)."""
    values = dense if dense is not None else graph["graph_data"]
    if values.size == 0 or not np.fmin.reduce(values, axis=None) < -1e-9:   # no n x n temporary; NaN passes here
        return
    negative = np.flatnonzero(values < -1e-9)
    k = int(negative[0])
    if dense is not None:
        i, j = divmod(k, dense.shape[1])
    else:
        i = int(np.searchsorted(graph["graph_indptr"], k, side="right")) - 1
        j = int(graph["graph_indices"][k])
    more = f", and {negative.size - 1} more below 0" if negative.size > 1 else ""
    raise ValueError(f"Negative values in data passed to HDBSCAN (metric='precomputed'): entry ({i}, {j}) is "
                     f"{float(values.flat[k])!r}{more}; distances must be >= 0 (+inf for a missing one)")


def _densified(X) -> np.ndarray:
    """A sparse feature matrix as a dense one: the engine's index works on dense rows (scikit-learn's HDBSCAN computes
    the dense n x n distance matrix of a sparse input)."""
    need = X.shape[0] * X.shape[1] * np.dtype(X.dtype).itemsize
    try:
        return X.toarray()
    except MemoryError:
        raise ValueError(f"a sparse X of shape {X.shape} is fitted as a dense array, which needs {need / 2**30:.1f} GiB "
                         f"that could not be allocated; reduce its features (e.g. TruncatedSVD) or give a sparse "
                         f"precomputed distance matrix (metric='precomputed')") from None


class HDBSCAN(ClusterMixin, BaseEstimator):
    """Exact HDBSCAN with scikit-learn's ``sklearn.cluster.HDBSCAN`` parameters and defaults, on the Sylva
    engine (all cores, deterministic).

    Outside ties between mutual-reachability distances the labels, probabilities and trees are
    scikit-learn's; with ties they are those of one minimum spanning tree (its sorted weights scikit-learn's,
    bitwise) merged in the order ``(weight, lower index, higher index)``, the same on every run, though not
    necessarily what scikit-learn returns for the same rows (its answer can change with their order). Ties
    are common: an edge's weight is often a core distance, which many edges share, and with
    ``min_samples > 2`` two edges of a tree can weigh exactly the same; integer data tie more. Input: an array-like of shape
    ``(n_samples, n_features)``; float64 and int32/int64 data are clustered from their float64 values
    (exactly as scikit-learn, which casts to float64), float32 and the narrower types (float16, int8,
    int16, uint8, uint16, bool) as float32, which holds them exactly. Rows with NaN or an infinity are left
    out as scikit-learn leaves them out (labels -3 and -2, by the row's sum: a row with both +inf and -inf
    is a NaN row).

    Parameters
    ----------
    min_cluster_size, min_samples, cluster_selection_epsilon, max_cluster_size, alpha,
    cluster_selection_method, allow_single_cluster, store_centers
        As scikit-learn's (``min_samples`` counts the point itself).
    metric : str, default "euclidean"
        "euclidean" (the fast engine), "manhattan", "chebyshev", "minkowski", "cosine" (scikit-learn's
        aliases "l2", "l1", "cityblock", "infinity" too) or "precomputed" (``X`` is the n x n distance
        matrix: >= 0 with ``np.inf`` for a missing distance, as scikit-learn takes it, zero diagonal,
        symmetric; round-off of at most 1e-9 where a distance is 0, as ``1 - cosine_similarity(X)`` leaves it,
        is read as 0). "manhattan", "chebyshev" and "minkowski" in up to 16
        features run an exact k-d tree engine where a probe finds that its boxes prune; "cosine",
        "precomputed" and the rest an exact brute-force engine (O(n^2), at most 100 000 points). ``prediction_data`` needs coordinates (not "precomputed"): new points are
        then measured by the fit's metric. ``store_centers`` is
        refused for "precomputed", as scikit-learn refuses it.
    metric_params : dict or None
        ``{"p": P}`` (P >= 1) for "minkowski", as scikit-learn's; None or empty otherwise.
    algorithm, leaf_size
        Accepted for compatibility and ignored: the engine always computes the exact tree its own way. With
        ``alpha`` other than 1, the rule is that of scikit-learn's default algorithm for the metric, whatever
        ``algorithm`` says: for "cosine" and "precomputed" (its brute path) ``alpha`` divides the whole mutual
        reachability, core distances included; for the other metrics (its k-d tree path) the distance only.
        scikit-learn's ``algorithm="brute"`` divides both for every metric: where that differs (``alpha`` other
        than 1 with ``algorithm="brute"`` or a sparse ``X``, another metric than "cosine" and "precomputed"), a
        ``UserWarning`` says so.
    n_jobs : int or None
        Threads of the engine (None or -1: every core; -2: all but one, as joblib counts). The result
        does not depend on it. More threads than cores only cost: each is a thread of the engine's pool, started
        for the fit and kept about a minute after it (thousands of them slow a fit many times).
    copy : bool or "warn"
        Ignored: the input is never modified. The default is scikit-learn 1.9's, "warn", without its warning.
    prediction_data : bool
        Keep what prediction needs (the ``hdbscan`` package's ``prediction_data=True``), for
        :func:`sylva.approximate_predict`, :func:`sylva.approximate_predict_scores`,
        :func:`sylva.membership_vector` and :func:`sylva.all_points_membership_vectors`.
    backend : str, default "auto"
        Sylva's own (scikit-learn has no such parameter): where the core distances and the spanning tree are
        computed, as ``sylva hdbscan --backend``. "auto" (the CPU engine, choosing its kernels), "scalar",
        "simd" (the Euclidean metric's kernels; another metric runs its own engine, named by
        ``engine_backend_``, with either), or a GPU: "cuda" (an NVIDIA GPU through the CUDA driver and NVRTC) or "opencl" (an OpenCL
        device with float64, a GPU before a CPU device). Every backend gives the same bytes; a GPU without a
        usable device is refused when ``fit`` is called, saying why (``sylva devices`` lists what the
        engine finds). A GPU pays on large inputs only (BENCHMARKS.md); "auto" never picks one.
    verbose : bool, default False
        Sylva's own: print the fit's progress on stderr, a line per stage as it starts and ends and at most one a
        second in between (``sylva: core distances 41.7 % (12.3 s)``), as ``sylva hdbscan`` shows it.

    Attributes
    ----------
    labels_ : ndarray of int64 (numpy.intp, as scikit-learn's), shape (n_samples,)
        Cluster of each point, -1 for noise (-2 for rows with an infinity, -3 with NaN).
    probabilities_ : ndarray of float64, shape (n_samples,)
        Strength of each point's membership of its cluster (0 for noise), as scikit-learn's.
    outlier_scores_ : ndarray of float64, shape (n_samples,)
        GLOSH outlier score of each point (0 = inlier, towards 1 = outlier), as the ``hdbscan``
        package's ``outlier_scores_`` (where a cluster's densest members are exact duplicates, 1.0 where the
        package gives NaN); scikit-learn has no such attribute.
    core_distances_ : ndarray of float64, shape (n_samples,)
        Distance to the ``min_samples``-th nearest point (the point itself counting as the first).
    minimum_spanning_tree_ : ndarray of float64, shape (n_fitted - 1, 3)
        The mutual-reachability minimum spanning tree as rows ``[from, to, weight]``, in Sylva's unique
        edge order ``(weight, lower index, higher index)``.
    single_linkage_tree_ : ndarray of float64, shape (n_fitted - 1, 4)
        The single-linkage tree in SciPy's linkage layout ``[left, right, distance, size]``.
    condensed_tree_ : ndarray of float64, shape (n_rows, 4)
        The condensed tree as rows ``[parent, child, lambda, child_size]`` (points are ids below
        ``n_fitted``, clusters from ``n_fitted`` on), as the ``hdbscan`` package's
        ``condensed_tree_.to_numpy()``.
    cluster_persistence_ : ndarray of float64, shape (n_clusters,)
        Persistence (stability) of each selected cluster.
    centroids_, medoids_ : ndarray of float64, shape (n_clusters, n_features)
        With ``store_centers``, as scikit-learn's; a later fit that does not ask for them removes them.
    n_features_in_ : int
    engine_seconds_ : float
        The engine's own time for the fit (the library call, without the transfer), in seconds.
    engine_backend_ : str
        The engine that ran the fit: "auto", "scalar" or "simd" (the CPU engine, Euclidean),
        "gpu/cuda: DEVICE" or "gpu/opencl: DEVICE", "cpu/kd-tree/METRIC" or "cpu/brute-force/METRIC"
        (another metric), or "cpu/sparse-graph" (a sparse precomputed matrix).
    prediction_data_ : ndarray of uint8
        With ``prediction_data=True``: the fitted model as the bytes of a Sylva model file
        (``clusterer.prediction_data_.tofile("model.sylva")`` writes a file ``sylva predict`` reads), read-only.
        The model lives here and pickles with the estimator; the engine keeps the last model a prediction
        sent it, and the next prediction with the same model names it by its SHA-256 instead of sending it
        again.
    exemplars_ : list of ndarray
        With ``prediction_data=True``, as the ``hdbscan`` package's: for each cluster, the rows of ``X`` at the
        heart of it (in each leaf cluster below it, the points that stay to its largest lambda), in the
        package's order; soft clustering measures distances to a cluster through them. Sylva takes them from
        the fit's clusters (the package's prediction data selects clusters again, and can differ there).
        float64, as the package's, whatever the input's dtype.

    fitted_rows_ : ndarray of int32, shape (n_fitted,)
        After a fit with ``sample_weight``: the row of each point the trees number (a row of weight w is
        w consecutive points; rows of weight 0 and rows with NaN or an infinity have none).

    The trees number the fitted rows: all of them unless some held NaN or an infinity, then the finite
    rows in order (``np.flatnonzero(np.isfinite(X).all(axis=1))`` maps them back); with ``sample_weight``,
    the copies the weights make (``fitted_rows_`` maps them back).

    Examples
    --------
    >>> import numpy as np, sylva
    >>> X = np.random.default_rng(0).normal(size=(1000, 5))
    >>> labels = sylva.HDBSCAN(min_cluster_size=20).fit_predict(X)
    """

    def __init__(self, min_cluster_size=5, min_samples=None, cluster_selection_epsilon=0.0,
                 max_cluster_size=None, metric="euclidean", metric_params=None, alpha=1.0, algorithm="auto",
                 leaf_size=40, n_jobs=None, cluster_selection_method="eom", allow_single_cluster=False,
                 store_centers=None, copy="warn", prediction_data=False, backend="auto", verbose=False):
        self.min_cluster_size = min_cluster_size
        self.min_samples = min_samples
        self.cluster_selection_epsilon = cluster_selection_epsilon
        self.max_cluster_size = max_cluster_size
        self.metric = metric
        self.metric_params = metric_params
        self.alpha = alpha
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.n_jobs = n_jobs
        self.cluster_selection_method = cluster_selection_method
        self.allow_single_cluster = allow_single_cluster
        self.store_centers = store_centers
        self.copy = copy
        self.prediction_data = prediction_data
        self.backend = backend
        self.verbose = verbose

    def _check_params(self):
        """Refuses what scikit-learn refuses, with a message naming the parameter."""
        def bad(name, expected):
            raise InvalidParameterError(f"The {name!r} parameter of HDBSCAN must be {expected}. Got {getattr(self, name)!r} "
                             "instead.")
        if not (_integer(self.min_cluster_size) and self.min_cluster_size >= 2):
            bad("min_cluster_size", "an int in the range [2, inf)")
        if self.min_samples is not None and not (_integer(self.min_samples) and self.min_samples >= 1):
            bad("min_samples", "an int in the range [1, inf) or None")
        # scikit-learn's intervals refuse inf and NaN (the CLI and the Java library take an infinite epsilon, as
        # the hdbscan package does)
        if not (_real(self.cluster_selection_epsilon) and 0 <= self.cluster_selection_epsilon < math.inf):
            bad("cluster_selection_epsilon", "a float in the range [0, inf)")
        if self.max_cluster_size is not None and not (_integer(self.max_cluster_size) and self.max_cluster_size >= 1):
            bad("max_cluster_size", "None or an int in the range [1, inf)")
        if not (_real(self.alpha) and 0 < self.alpha < math.inf):
            bad("alpha", "a float in the range (0, inf)")
        if not isinstance(self.metric, str) or self.metric not in _METRICS:
            bad("metric", f"a str among {set(_METRICS)}")
        # None or a dict, as scikit-learn checks it (an empty list or 0 is not "no parameters")
        if self.metric_params is not None:
            if not isinstance(self.metric_params, dict) or set(self.metric_params) - {"p"}:
                bad("metric_params", "None, or {'p': P} for the minkowski metric")
            if self.metric_params and _METRICS[self.metric] != "minkowski":
                bad("metric_params", f"None or empty for the {self.metric!r} metric (only minkowski takes p)")
            if self.metric_params and not (_real(self.metric_params["p"]) and self.metric_params["p"] >= 1):
                bad("metric_params", "{'p': P} with P >= 1")
        if self.algorithm not in _ALGORITHMS:
            bad("algorithm", f"a str among {set(_ALGORITHMS)}")
        if not (_integer(self.leaf_size) and self.leaf_size >= 1):
            bad("leaf_size", "an int in the range [1, inf)")
        if self.n_jobs is not None and not (_integer(self.n_jobs) and self.n_jobs != 0):
            bad("n_jobs", "a non-zero int or None")
        if self.cluster_selection_method not in ("eom", "leaf"):
            bad("cluster_selection_method", "a str among {'eom', 'leaf'}")
        if not isinstance(self.allow_single_cluster, (bool, np.bool_)):
            bad("allow_single_cluster", "an instance of 'bool'")
        if self.store_centers not in _CENTERS:
            bad("store_centers", "a str among {'centroid', 'medoid', 'both'} or None")
        if not isinstance(self.copy, (bool, np.bool_)) and not (isinstance(self.copy, str) and self.copy == "warn"):
            bad("copy", "an instance of 'bool' or 'warn'")
        if not isinstance(self.prediction_data, (bool, np.bool_)):
            bad("prediction_data", "an instance of 'bool'")
        if not isinstance(self.backend, str) or self.backend not in _BACKENDS:
            bad("backend", f"a str among {set(_BACKENDS)}")
        if not isinstance(self.verbose, (bool, np.bool_)):
            bad("verbose", "an instance of 'bool'")
        # parameters that are each valid but not together: checked after each alone, as scikit-learn orders them
        if self.metric == "precomputed" and self.store_centers is not None:
            raise ValueError("Cannot store centers when using a precomputed distance matrix.")
        # as scikit-learn: a tree algorithm named outright needs a metric that tree takes (neither takes these two)
        if self.algorithm in ("kd_tree", "ball_tree") and _METRICS[self.metric] in ("cosine", "precomputed"):
            tree = "KDTree" if self.algorithm == "kd_tree" else "BallTree"
            raise ValueError(f"{self.metric} is not a valid metric for a {tree}-based algorithm. Please select a "
                             "different metric.")
        if self.prediction_data and self.metric == "precomputed":
            bad("prediction_data", "False for a precomputed distance matrix (prediction measures new points "
                "against the fitted points' coordinates)")

    def _threads(self):
        if self.n_jobs is None:
            return None
        if not (_integer(self.n_jobs) and self.n_jobs != 0):   # set after the fit, before a prediction
            raise InvalidParameterError(f"The 'n_jobs' parameter of HDBSCAN must be a non-zero int or None. Got "
                                        f"{self.n_jobs!r} instead.")
        if self.n_jobs > MAX_THREADS:
            raise InvalidParameterError(f"The 'n_jobs' parameter of HDBSCAN must be at most {MAX_THREADS} (the most "
                                        f"threads the engine runs). Got {self.n_jobs!r} instead.")
        if self.n_jobs > 0:
            return int(self.n_jobs)
        cores = get_engine().hello.get("threads", 1)
        return max(1, cores + 1 + int(self.n_jobs))

    def _validate_X(self, X):
        # numbers written as strings are read as float64, as scikit-learn's HDBSCAN reads them
        if isinstance(X, (np.ndarray, list, tuple)):
            a = np.asarray(X)
            if a.dtype.kind in "US":
                try:
                    X = a.astype(np.float64)
                except ValueError as e:
                    raise ValueError(f"X holds strings that are not numbers: {e}") from None
        if HAVE_SKLEARN:
            from sklearn.utils.validation import validate_data
            # a sparse matrix of any format arrives as CSR (as scikit-learn's HDBSCAN takes it)
            return validate_data(self, X, accept_sparse="csr", ensure_all_finite=False, dtype="numeric")
        # a table's column names, as scikit-learn keeps them: only when every name is a string
        columns = getattr(X, "columns", None)
        if columns is not None and len(columns) > 0 and all(isinstance(c, str) for c in columns):
            self.feature_names_in_ = np.asarray(list(columns), dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        if _issparse(X):
            X = X.tocsr()
            if X.dtype.kind == "c":
                raise ValueError("Complex data not supported")
            if X.dtype.kind not in "fiub":
                raise ValueError(f"X must hold numbers; got dtype {X.dtype}")
            if X.ndim != 2 or X.shape[0] < 1 or X.shape[1] < 1:
                raise ValueError(f"Found array with shape {X.shape}; HDBSCAN needs at least one sample and one "
                                 "feature")
            self.n_features_in_ = X.shape[1]
            return X
        X = table_as_array(X)
        if X.dtype.kind == "O":
            X = X.astype(np.float64)
        if X.dtype.kind == "c":
            raise ValueError("Complex data not supported")
        if X.dtype.kind not in "fiub":
            raise ValueError(f"X must hold numbers; got dtype {X.dtype}")
        if X.ndim != 2:
            raise ValueError(f"Expected 2D array, got an array of shape {X.shape} instead; reshape your data")
        if X.shape[0] < 1 or X.shape[1] < 1:
            raise ValueError(f"Found array with shape {X.shape}; HDBSCAN needs at least one sample and one "
                             "feature")
        self.n_features_in_ = X.shape[1]
        return X

    def fit(self, X, y=None, sample_weight=None):
        """Clusters ``X`` (array-like of shape (n_samples, n_features)); ``y`` is ignored. Returns self.

        A scipy sparse ``X`` is taken as scikit-learn takes it: with ``metric="precomputed"`` a sparse distance
        matrix, fitted as a graph (pairs not stored are no edge; see :func:`sylva.symmetric_graph`), with any other
        metric a feature matrix fitted as its dense rows. With ``alpha`` other than 1 that is the dense array's
        rule too (see ``algorithm``), where scikit-learn fits any sparse ``X`` on its brute path, dividing the core
        distances as well.

        ``sample_weight`` (array-like of shape (n_samples,), whole numbers >= 0, or None): a row of weight
        w counts as w identical rows, for core distances and cluster sizes alike (fast_hdbscan's meaning);
        the fit is exactly that of ``np.repeat(X, w, axis=0)`` with each row reading its first copy, and
        a row of weight 0 is left out (label -1). The trees (``minimum_spanning_tree_``, ...) then number
        those copies: ``fitted_rows_`` gives the row of each. Euclidean metric only. With ``prediction_data``,
        prediction answers as for the repeated rows' fit (every copy counts as a neighbour), and a connecting
        point is reported as its row."""
        self._check_params()
        X = self._validate_X(X)
        graph = None
        brute = self.algorithm == "brute"   # scikit-learn's brute path: alpha divides the core distances too
        if _issparse(X):
            if self.metric == "precomputed":
                graph = _sparse_distances(X)
            else:
                brute = True   # scikit-learn fits a sparse feature matrix on its brute path
                X = _densified(X)
        # said once the fit has run (a refused fit says only why): where scikit-learn's brute path would differ
        alpha_differs = brute and float(self.alpha) != 1.0 and _METRICS[self.metric] not in ("cosine", "precomputed")
        weights = None
        if sample_weight is not None:
            weights = np.asarray(sample_weight)
            if weights.ndim == 0:   # one number for every sample, as scikit-learn's _check_sample_weight takes it
                weights = np.full(X.shape[0], weights)
            if weights.ndim != 1 or weights.shape[0] != X.shape[0]:
                raise ValueError(f"sample_weight must have shape ({X.shape[0]},), one weight per sample; got "
                                 f"shape {weights.shape}")
            if weights.dtype.kind not in "biuf":
                raise ValueError(f"sample_weight must be numeric; got dtype {weights.dtype}")
            weights = np.ascontiguousarray(weights, dtype="<f8")
        if X.shape[0] == 1 and weights is None:
            raise ValueError("n_samples=1 while HDBSCAN requires more than one sample")
        min_samples = self.min_cluster_size if self.min_samples is None else self.min_samples
        if min_samples > X.shape[0] and weights is None:
            raise ValueError(f"min_samples ({min_samples}) must be at most the number of samples in X "
                             f"({X.shape[0]})")
        points = fit_dtype(X) if graph is None else None
        params = {
            "min_cluster_size": _engine_int(self.min_cluster_size),
            "min_samples": None if self.min_samples is None else _engine_int(self.min_samples),
            "cluster_selection_epsilon": float(self.cluster_selection_epsilon),
            "max_cluster_size": None if self.max_cluster_size is None else _engine_int(self.max_cluster_size),
            "alpha": float(self.alpha),
            "cluster_selection_method": self.cluster_selection_method,
            "allow_single_cluster": bool(self.allow_single_cluster),
            "non_finite": "sklearn",
            "threads": self._threads(),
            "prediction_data": bool(self.prediction_data),
            "metric": _METRICS[self.metric],
        }
        if self.backend != "auto":
            params["backend"] = self.backend
        if self.metric_params:
            params["p"] = float(self.metric_params["p"])
        if self.metric == "precomputed" and graph is None:
            X = np.ascontiguousarray(X, dtype="<f8")   # any memory order or byte order, as scikit-learn takes it
            points = X
        if self.metric == "precomputed":
            _refuse_negative_distances(dense=X) if graph is None else _refuse_negative_distances(graph=graph)
        arrays = {"points": points} if graph is None else graph
        if weights is not None:
            arrays["sample_weight"] = weights
        r = get_engine().call("hdbscan", params, arrays, progress=StageProgress() if self.verbose else None)
        if alpha_differs:
            warnings.warn(f"alpha={self.alpha} with {_METRICS[self.metric]} distances: Sylva divides the distance only "
                          "(scikit-learn's default, k-d tree, rule for this metric); scikit-learn's brute path, which "
                          "algorithm='brute' or a sparse X takes, divides the core distances too, so its clustering "
                          "differs", UserWarning, stacklevel=_caller_outside_package())
        a = r.arrays
        self.labels_ = a["labels"].astype(np.intp)   # the engine sends int32; scikit-learn's labels are intp
        self.probabilities_ = a["probabilities"]
        self.outlier_scores_ = a["outlier_scores"]
        self.core_distances_ = a["core_distances"]
        self.minimum_spanning_tree_ = a["mst"]
        self.single_linkage_tree_ = a["single_linkage"]
        self.condensed_tree_ = a["condensed_tree"]
        self.cluster_persistence_ = a["persistence"]
        infinite = int(np.count_nonzero(np.isinf(self.minimum_spanning_tree_[:, 2])))
        if infinite:   # a precomputed matrix's missing distances (+inf), as scikit-learn warns, or alpha overflow
            head = f"the minimum spanning tree has {infinite} edge(s) of infinite weight: "
            overflow = f"distances divided by alpha={self.alpha} overflow float64"
            if self.metric != "precomputed":
                message = head + overflow + ", so those points join the rest at lambda 0 (a larger alpha keeps them finite)"
            else:
                message = (head + "some points join the rest only through missing distances (np.inf)"
                           + ("" if self.alpha == 1.0 else " or " + overflow) + ", at lambda 0 (a point with fewer "
                           "known distances than min_samples, or groups that no known distance joins)")
            warnings.warn(message, UserWarning, stacklevel=_caller_outside_package())
        self.engine_seconds_ = float(r.params.get("compute_seconds", float("nan")))
        self.engine_backend_ = r.params.get("backend")
        self._sample_weight = weights
        if "fitted_rows" in a:
            self.fitted_rows_ = a["fitted_rows"]
        elif hasattr(self, "fitted_rows_"):
            del self.fitted_rows_
        self._relative_validity = None
        # the model the last prediction sent (sylva.prediction keeps it with its digest): an earlier fit's, which
        # would otherwise stay in memory and in every pickle of this estimator
        self.__dict__.pop("_sylva_model_digest", None)
        if self.prediction_data:
            self.prediction_data_ = locked(a["model"])   # never writeable: its SHA-256 names it to the engine
            rows = np.asarray(a["exemplar_rows"], dtype=np.intp)
            ends = np.cumsum(a["exemplar_counts"])
            data = np.asarray(X)
            # float64, as the hdbscan package's exemplars are (uint8 rows would wrap around when subtracted)
            self.exemplars_ = [np.asarray(data[rows[e - c:e]], dtype=np.float64)
                               for c, e in zip(a["exemplar_counts"], ends)]
        else:
            for name in ("prediction_data_", "exemplars_"):
                if hasattr(self, name):
                    delattr(self, name)
        # an earlier fit's centres describe other clusters: gone unless this fit makes them again (scikit-learn
        # leaves them in place)
        for name in ("centroids_", "medoids_"):
            if hasattr(self, name):
                delattr(self, name)
        if self.store_centers:
            self._weighted_cluster_center(X)
        return self

    def fit_predict(self, X, y=None, sample_weight=None):
        """Clusters ``X`` and returns ``labels_``."""
        return self.fit(X, sample_weight=sample_weight).labels_

    def _fitted_rows(self):
        """The row of each point the trees number: all rows but those with NaN or an infinity (labels -3 and
        -2), or with sample weights each copy's row (``fitted_rows_``)."""
        if getattr(self, "fitted_rows_", None) is not None:
            return self.fitted_rows_
        return np.flatnonzero(self.labels_ > -2)

    def dbscan_clustering(self, cut_distance, min_cluster_size=5):
        """DBSCAN* labels at ``cut_distance`` from the same hierarchy, as scikit-learn's
        ``HDBSCAN.dbscan_clustering``: points joined by spanning-tree edges shorter than the cut form a
        cluster when at least ``min_cluster_size`` of them, else noise (-1); rows with NaN or an infinity
        keep -3 and -2. The partition is scikit-learn's; the numbers are not: Sylva numbers the clusters by
        their first row (0 for the cluster of the first non-noise row, and so on)."""
        if not hasattr(self, "labels_"):
            raise NotFittedError("dbscan_clustering needs a fitted HDBSCAN; call fit first")
        if isinstance(cut_distance, (str, bytes)):   # float() would parse it; scikit-learn's typed cut refuses it
            raise TypeError(f"cut_distance must be a real number, not {type(cut_distance).__name__}")
        # scikit-learn takes any int here: below 1 it acts as 1 (every component is large enough)
        mcs = max(1, _engine_int(min_cluster_size))
        cut = float(cut_distance)
        # scikit-learn joins the ends of an edge whose weight is below the cut: below NaN none is, as below -inf
        cut = -math.inf if math.isnan(cut) else cut
        r = get_engine().call("cut", {"cut_distance": cut, "min_cluster_size": mcs},
                              {"mst": np.ascontiguousarray(self.minimum_spanning_tree_, dtype="<f8")})
        labels = self.labels_.copy()
        rows, first = np.unique(self._fitted_rows(), return_index=True)   # a weighted row: its first copy's
        labels[rows] = r.arrays["labels"][first]
        return labels

    @property
    def relative_validity_(self):
        """The ``hdbscan`` package's ``relative_validity_``: a fast, tree-based estimate of DBCV for
        comparing clusterings of the same data (computed on first use)."""
        if not hasattr(self, "labels_"):
            raise NotFittedError("relative_validity_ needs a fitted HDBSCAN")
        if getattr(self, "_relative_validity", None) is None:
            labels = np.ascontiguousarray(self.labels_[self._fitted_rows()], dtype="<i4")
            r = get_engine().call("validity", {"what": "relative"},
                                  {"mst": np.ascontiguousarray(self.minimum_spanning_tree_, dtype="<f8"),
                                   "labels": labels})
            self._relative_validity = float(r.params["relative_validity"])
        return self._relative_validity

    def _weighted_cluster_center(self, X):
        """Centroids (probability-weighted means) and medoids per cluster, as scikit-learn computes them."""
        n_clusters = len(set(self.labels_.tolist()) - {-1, -2, -3})
        make_centroids = self.store_centers in ("centroid", "both")
        make_medoids = self.store_centers in ("medoid", "both")
        X = np.asarray(X, dtype=np.float64)
        if make_centroids:
            self.centroids_ = np.empty((n_clusters, X.shape[1]), dtype=np.float64)
        if make_medoids:
            self.medoids_ = np.empty((n_clusters, X.shape[1]), dtype=np.float64)
        for idx in range(n_clusters):
            mask = self.labels_ == idx
            data = X[mask]
            strength = self.probabilities_[mask]
            if getattr(self, "_sample_weight", None) is not None:   # a row of weight w is w rows
                strength = strength * self._sample_weight[mask]
            if make_centroids:
                self.centroids_[idx] = np.average(data, weights=strength, axis=0)
            if make_medoids:
                dist = _pairwise(data, _METRICS[self.metric], (self.metric_params or {}).get("p", 2))
                self.medoids_[idx] = data[np.argmin((dist * strength).sum(axis=1))]

    if HAVE_SKLEARN:   # scikit-learn's tags (1.6 and later); without it the estimator has none to extend
        def __sklearn_tags__(self):
            return self._tags_of(super().__sklearn_tags__())

    def _tags_of(self, tags):
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = self.metric != "precomputed"   # a distance matrix holds no NaN (+inf: missing)
        tags.input_tags.positive_only = self.metric == "precomputed"   # and its distances >= 0
        tags.non_deterministic = False
        return tags
