"""A cold one-shot scikit-learn HDBSCAN run, the peer of a cold `sylva hdbscan` (issue 17):
reads FILE.npy, fits sklearn.cluster.HDBSCAN(min_cluster_size=M), writes labels to OUT.npy.

usage: python3 scripts/sklearn-fit.py FILE.npy M OUT.npy
"""
import sys
import numpy as np
from sklearn.cluster import HDBSCAN

x = np.load(sys.argv[1])
labels = HDBSCAN(min_cluster_size=int(sys.argv[2])).fit(x).labels_
np.save(sys.argv[3], labels)
