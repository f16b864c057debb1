"""Reference outputs for weighted fits: scikit-learn 1.9's HDBSCAN on the rows repeated by their weights.

Sylva's sample weights mean "a row of weight w counts as w identical rows", so the reference of a
weighted fit is scikit-learn's fit of np.repeat(X, w, axis=0), each row reading its first copy's label
and probability (rows of weight 0 are left out: label -1, probability 0). Writes, per case, the weights,
the per-row labels and probabilities, and a mask of the rows whose result does not depend on how ties are
broken, as .npy into sylva-core's test resources. Copies are tied by construction (they lie at distance 0
and are joined at their core distance), and scikit-learn breaks ties by its own traversal order, so the
mask keeps a row only when scikit-learn gives all its copies the same cluster (matched by overlap) and
probability under the original order and under SHUFFLES random orders of the repeated rows. Needs numpy and
scikit-learn (pip install scikit-learn): python3 scripts/weighted-oracle.py ../shared/oracle/hdbscan
"""
import os
import sys

import numpy as np
from sklearn.cluster import HDBSCAN

SHUFFLES = 8
OUT = os.path.join(os.path.dirname(__file__), "..", "sylva-core", "src", "test", "resources", "org", "sylva",
                   "hdbscan", "weighted")

# name, data set, min_cluster_size, min_samples (scikit-learn's, counting the point), largest weight, seed;
# weights are drawn from 0..min(largest, 4), and with a largest weight of at least min_cluster_size five
# rows get it (each then outweighs a cluster on its own)
CASES = [
    ("blobs500_w3", "blobs500", 10, 5, 3, 1),
    ("blobs500_heavy", "blobs500", 15, 10, 20, 2),
    ("iris_w4", "iris", 5, 5, 4, 3),
]


def main(oracle_dir):
    os.makedirs(OUT, exist_ok=True)
    for name, data, mcs, ms, wmax, seed in CASES:
        X = np.load(os.path.join(oracle_dir, data + "_X.npy")).astype(np.float64)
        rng = np.random.default_rng(seed)
        w = rng.integers(0, min(wmax, 4) + 1, size=X.shape[0]).astype(np.int64)
        if wmax >= mcs:   # a few rows heavier than a cluster on their own
            w[rng.choice(X.shape[0], 5, replace=False)] = wmax
        rep = np.repeat(X, w, axis=0)
        first = np.concatenate(([0], np.cumsum(w)[:-1]))
        runs = []
        for shuffle in range(SHUFFLES + 1):
            order = np.arange(rep.shape[0]) if shuffle == 0 else rng.permutation(rep.shape[0])
            fit = HDBSCAN(min_cluster_size=mcs, min_samples=ms, copy=True).fit(rep[order])
            lab = np.empty(rep.shape[0], dtype=np.int64)
            pr = np.empty(rep.shape[0])
            lab[order] = fit.labels_
            pr[order] = fit.probabilities_
            runs.append((lab, pr))
        labels = np.full(X.shape[0], -1, dtype=np.int64)
        prob = np.zeros(X.shape[0])
        agree = w > 0
        base_lab, base_pr = runs[0]
        for lab, pr in runs:
            # each cluster of this run stands for the base cluster it shares most copies with
            mapping = {-1: -1}
            for c in np.unique(lab[lab >= 0]):
                vals, counts = np.unique(base_lab[lab == c], return_counts=True)
                mapping[c] = vals[np.argmax(counts)]
            mapped = np.array([mapping[c] for c in lab])
            for i in np.flatnonzero(w > 0):
                copies = slice(first[i], first[i] + w[i])
                agree[i] &= bool(np.all(mapped[copies] == base_lab[first[i]])
                                 and np.all(np.abs(pr[copies] - base_pr[first[i]]) <= 1e-12))
        for i in np.flatnonzero(w > 0):
            labels[i] = base_lab[first[i]]
            prob[i] = base_pr[first[i]]
        np.save(os.path.join(OUT, name + "_weights.npy"), w)
        np.save(os.path.join(OUT, name + "_labels.npy"), labels)
        np.save(os.path.join(OUT, name + "_prob.npy"), prob)
        np.save(os.path.join(OUT, name + "_agree.npy"), agree)
        print(f"{name}: {X.shape[0]} rows, {rep.shape[0]} points, {labels.max() + 1} clusters, "
              f"rows compared: {int(agree.sum())} of {int((w > 0).sum())} weighted")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/oracle/hdbscan")
