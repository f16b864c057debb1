"""A cold one-shot scikit-learn HDBSCAN run, the peer of a cold `sylva hdbscan` (issue 17):
reads FILE.npy, fits sklearn.cluster.HDBSCAN(min_cluster_size=M[, min_samples=S]), writes labels to OUT.npy.
Without S, scikit-learn's default (min_samples = min_cluster_size).

usage: python3 scripts/sklearn-fit.py FILE.npy M OUT.npy [S]
"""
import sys
import numpy as np
from sklearn.cluster import HDBSCAN

x = np.load(sys.argv[1])
kw = {"min_samples": int(sys.argv[4])} if len(sys.argv) > 4 else {}
labels = HDBSCAN(min_cluster_size=int(sys.argv[2]), **kw).fit(x).labels_
np.save(sys.argv[3], labels)
