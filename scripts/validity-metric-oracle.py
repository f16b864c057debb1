"""Reference values of DBCV under other metrics than Euclidean: the `hdbscan` package's
`validity.validity_index(X, labels, metric=..., per_cluster_scores=True)` (0.8.43) on a small data set with
noise, for cityblock (Sylva's manhattan; the package hands the name to scipy's `cdist`, which knows no
"manhattan"), chebyshev, minkowski with p = 3 and cosine. (The package's `d` argument is overwritten with the
number of features unless the metric is precomputed, so it is not a case.) Writes X, the labels and each case's index and per-cluster
values as .npy into sylva-core's test resources, which DensityValidityMetricTest compares with.

The package is not part of this repository: build it from its public sources (scripts/peer-build.sh) and run
    PYTHONPATH=/tmp/peers/hdbscan python3 scripts/validity-metric-oracle.py
"""
import os

import numpy as np
from hdbscan.validity import validity_index

OUT = os.path.join(os.path.dirname(__file__), "..", "sylva-core", "src", "test", "resources", "org", "sylva",
                   "hdbscan", "validity-metrics")

# name, metric, keyword arguments
CASES = [
    ("manhattan", "cityblock", {}),
    ("chebyshev", "chebyshev", {}),
    ("minkowski3", "minkowski", {"p": 3}),
    ("cosine", "cosine", {}),
]


def main():
    rng = np.random.default_rng(1)
    X = np.concatenate([rng.normal(0, 1, (40, 3)), rng.normal(6, 1, (40, 3)), rng.normal((0, 6, 0), 1, (40, 3))])
    labels = np.repeat([0, 1, 2], 40).astype("<i4")
    labels[::17] = -1
    os.makedirs(OUT, exist_ok=True)
    np.save(os.path.join(OUT, "X.npy"), X.astype("<f8"))
    np.save(os.path.join(OUT, "labels.npy"), labels)
    for name, metric, kw in CASES:
        index, per = validity_index(X, labels, metric=metric, per_cluster_scores=True, **kw)
        np.save(os.path.join(OUT, name + ".npy"), np.concatenate([[index], per]).astype("<f8"))
        print(name, index, per)


if __name__ == "__main__":
    main()
