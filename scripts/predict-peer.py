"""New points against a fitted model, side by side with the `hdbscan` package: fits the package's exact path
on FIT (as scripts/peer-suite.py does: `boruvka_kdtree`, `approx_min_span_tree=False`, min_samples S - 1
in the package's convention), times its `approximate_predict` + `membership_vector` on NEW (what
`sylva predict` computes), and compares the answers with a `sylva predict` output folder of the same model.

The package is not part of this repository: build it from its public sources outside it
(`cd hdbscan && python3 setup.py build_ext --inplace`, see scripts/peer-build.sh) and pass its folder's parent
as --peers-dir (default $SYLVA_PEERS or /tmp/peers, holding hdbscan/).

Sylva numbers clusters as scikit-learn does and the package in its own order (its condensed tree's, which
follows its spanning tree's edge order), so labels and membership columns are compared through the fit's
labels: the fit's clusters must be the same up to that numbering.

With --metric (manhattan, chebyshev, minkowski with --p) the package fits and predicts with that metric, as
`sylva hdbscan --metric ...` does by brute force; for minkowski pass --algorithm generic (the package's KD-tree
algorithms fit with p = 2 whatever --p says, so their fit is another).

usage: python3 scripts/predict-peer.py FIT.npy NEW.npy SYLVA_FIT_DIR SYLVA_PREDICT_DIR
                                       [--min-cluster-size 20] [--min-samples S] [--repeat 3] [--peers-dir DIR]
                                       [--metric M] [--p P] [--algorithm generic]
e.g.:  ./sylva hdbscan fit.npy --min-cluster-size 20 --out fit/ --save-model fit.model
       ./sylva predict fit.model new.npy --out pred/
       python3 scripts/predict-peer.py fit.npy new.npy fit/ pred/
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fit")
    ap.add_argument("new")
    ap.add_argument("sylva_fit")
    ap.add_argument("sylva_predict")
    ap.add_argument("--min-cluster-size", type=int, default=20)
    ap.add_argument("--min-samples", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peers-dir", default=os.environ.get("SYLVA_PEERS", "/tmp/peers"))
    ap.add_argument("--metric", default="euclidean")
    ap.add_argument("--p", type=float, default=None)
    ap.add_argument("--algorithm", default="boruvka_kdtree")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.peers_dir, "hdbscan"))
    import hdbscan

    s = a.min_samples if a.min_samples is not None else a.min_cluster_size
    fit = np.load(a.fit).astype(np.float64)
    new = np.load(a.new).astype(np.float64)
    metric = {"metric": a.metric} if a.p is None else {"metric": a.metric, "p": a.p}
    c = hdbscan.HDBSCAN(min_cluster_size=a.min_cluster_size, min_samples=s - 1, algorithm=a.algorithm,
                        approx_min_span_tree=False, prediction_data=True, core_dist_n_jobs=2, **metric).fit(fit)
    times = []
    for _ in range(a.repeat):
        t = time.perf_counter()
        labels, probs = hdbscan.approximate_predict(c, new)
        member = hdbscan.membership_vector(c, new)
        times.append(time.perf_counter() - t)
    print(f"hdbscan package ({hdbscan.__file__}): approximate_predict + membership_vector of {len(new)} x "
          f"{new.shape[1]} against {len(fit)} fitted: {' '.join(f'{x:.3f}' for x in times)} s "
          f"(median {statistics.median(times):.3f} s)")

    fl = np.load(os.path.join(a.sylva_fit, "labels.npy"))
    k = int(fl.max()) + 1
    same_fit = all(len(np.unique(c.labels_[fl == j])) == 1 for j in range(-1, k)) and \
        len(np.unique(c.labels_)) == len(np.unique(fl))
    print(f"fit: {k} clusters, the same up to numbering: {same_fit}")
    if not same_fit:
        return 1
    to_package = np.array([int(np.unique(c.labels_[fl == j])[0]) for j in range(k)], dtype=np.int64)
    sl = np.load(os.path.join(a.sylva_predict, "labels.npy"))
    sp = np.load(os.path.join(a.sylva_predict, "probabilities.npy"))
    sm = np.load(os.path.join(a.sylva_predict, "membership.npy"))
    mapped = np.where(sl >= 0, to_package[np.maximum(sl, 0)], -1)
    diff = np.abs(sm - member[:, to_package]).max(axis=1)
    print(f"labels equal: {np.array_equal(mapped, labels)}; probabilities equal: {np.array_equal(sp, probs)}; "
          f"membership rows within 1e-12: {int((diff <= 1e-12).sum())} of {len(diff)} (largest difference "
          f"{float(diff.max()):.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
