"""A cold one-shot scikit-learn HDBSCAN run, the peer of a cold `sylva hdbscan` (issue 17):
reads FILE.npy, fits sklearn.cluster.HDBSCAN(min_cluster_size=M[, min_samples=S]), writes labels to OUT.npy.
Without S, scikit-learn's default (min_samples = min_cluster_size). A FILE.npz (scipy.sparse.save_npz) is a
sparse distance matrix, fitted with metric="precomputed", the peer of `sylva hdbscan FILE.npz --metric precomputed`.

usage: python3 scripts/sklearn-fit.py FILE.npy|FILE.npz M OUT.npy [S]
"""
import sys
import numpy as np
from sklearn.cluster import HDBSCAN

kw = {"min_samples": int(sys.argv[4])} if len(sys.argv) > 4 else {}
if sys.argv[1].endswith(".npz"):
    import scipy.sparse
    x = scipy.sparse.load_npz(sys.argv[1])
    kw.update(metric="precomputed", copy=True)
else:
    x = np.load(sys.argv[1])
labels = HDBSCAN(min_cluster_size=int(sys.argv[2]), **kw).fit(x).labels_
np.save(sys.argv[3], labels)
