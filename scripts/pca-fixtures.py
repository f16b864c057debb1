#!/usr/bin/env python3
"""Writes the expected values of PrincipalComponentsTest: scikit-learn's PCA (svd_solver="full") on a
few fixed inputs, one text file per case, under sylva-core/src/test/resources/org/sylva/features/.

    python3 scripts/pca-fixtures.py          # needs numpy and scikit-learn (pip install numpy scikit-learn)

The inputs come from numpy's PCG64 with fixed seeds, so the files only change when numpy or
scikit-learn compute differently. Float32 cases are written as float32 (shortest repr that reads back
to the same float32) and fitted by scikit-learn on their float64 values, as Sylva fits them. Every
number is written with repr(), which reads back to the same double in Java (Double.parseDouble).

File layout: '#' comment lines, then 'key value' lines (name, dtype, n, d, k), then one block per array,
a line with its name followed by its rows (x: n x d, mean: 1 x d, components: k x d,
explained_variance and explained_variance_ratio: 1 x k, scores: n x k, total_variance: 1 x 1).
"""
import os
import numpy as np
import sklearn
from sklearn.decomposition import PCA

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sylva-core", "src", "test", "resources",
                   "org", "sylva", "features")


def cases():
    rng = np.random.default_rng(17)
    # correlated gaussian cloud with distinct variances, shifted away from the origin
    mix = rng.normal(size=(5, 5)) * np.array([5.0, 3.0, 2.0, 1.0, 0.5])[:, None]
    yield "gaussian", rng.normal(size=(200, 5)) @ mix + np.array([10, -3, 0.5, 7, 100]), 3
    # float32 clip-like rows: three waveform shapes plus noise
    t = np.linspace(0, 1, 12)
    shapes = np.stack([np.exp(-((t - c) / 0.15) ** 2) * a for c, a in ((0.3, -80), (0.5, -50), (0.4, 60))])
    which = rng.integers(0, 3, size=200)
    clips = (shapes[which] * rng.uniform(0.8, 1.2, size=(200, 1)) + rng.normal(scale=4, size=(200, 12)))
    yield "clips_float32", clips.astype(np.float32), 4
    # rank 2 in 6 dimensions: 4 components have variance 0 (up to rounding)
    yield "rank_deficient", (rng.normal(size=(50, 2)) * [4.0, 1.5]) @ rng.normal(size=(2, 6)) + 2.5, 6
    # column 2 is constant: its component is e_2 with variance 0
    x = rng.normal(size=(40, 4)) @ np.diag([3.0, 2.0, 1.0, 0.7])
    x[:, 2] = 3.25
    yield "constant_column", x, 4
    # fewer points than dimensions: rank n - 1 = 7
    yield "wide", rng.normal(size=(8, 10)) * np.arange(1, 11), 5


def block(name, a):
    a = np.atleast_2d(a)
    return [name] + [" ".join(repr(v.item()) for v in row) for row in a]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, x, k in cases():
        n, d = x.shape
        pca = PCA(n_components=k, svd_solver="full").fit(x.astype(np.float64))
        scores = pca.transform(x.astype(np.float64))
        lines = ["# scikit-learn " + sklearn.__version__ + ", numpy " + np.__version__
                 + "; written by scripts/pca-fixtures.py, do not edit",
                 "name " + name, "dtype " + str(x.dtype), "n %d" % n, "d %d" % d, "k %d" % k]
        lines += block("x", x)
        lines += block("mean", pca.mean_)
        lines += block("components", pca.components_)
        lines += block("explained_variance", pca.explained_variance_)
        lines += block("explained_variance_ratio", pca.explained_variance_ratio_)
        lines += block("total_variance", np.array([np.var(x.astype(np.float64), axis=0, ddof=1).sum()]))
        lines += block("scores", scores)
        with open(os.path.join(OUT, "pca-" + name + ".txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print(name, x.dtype, x.shape, "k", k, "variance", pca.explained_variance_)


if __name__ == "__main__":
    main()
