"""Writes the three inputs of the cold-start benchmark (issue 17) into DIR, with a fixed seed.

  phy_like.npy    1 653 x 96 float32: 9 Gaussian units in a 96-D feature space (3 PCs x 32 channels)
  clips_1149.npy  1 149 x 61 float32: spike clips, 6 templates + AR(1) noise
  clips_20000.npy 20 000 x 61 float32: the same generator, 12 templates

usage: python3 scripts/cold-start-data.py DIR
"""
import sys, os
import numpy as np

def clips(n, templates, rng):
    t = np.arange(61)
    shapes = []
    for k in range(templates):
        peak = 18 + 3 * (k % 5)
        amp = 40 + 12 * k
        w = 1.5 + 0.3 * (k % 4)
        shapes.append(-amp * np.exp(-0.5 * ((t - peak) / w) ** 2)
                      + 0.35 * amp * np.exp(-0.5 * ((t - peak - 8 - k % 3) / (2 * w)) ** 2))
    shapes = np.array(shapes)
    which = rng.integers(0, templates, n)
    noise = np.zeros((n, 61))
    e = rng.normal(0, 8, (n, 61))
    noise[:, 0] = e[:, 0]
    for j in range(1, 61):
        noise[:, j] = 0.6 * noise[:, j - 1] + e[:, j]
    x = shapes[which] + noise
    pure = rng.random(n) < 0.1
    x[pure] = noise[pure]
    return x.astype(np.float32)

def phy_like(n, rng):
    centers = rng.normal(0, 6, (9, 96))
    which = rng.integers(0, 9, n)
    scales = 0.8 + rng.random(9)
    return (centers[which] + rng.normal(0, 1, (n, 96)) * scales[which, None]).astype(np.float32)

if __name__ == "__main__":   # python/bench.py imports clips() from here
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20261201)
    np.save(os.path.join(out, "phy_like.npy"), phy_like(1653, rng))
    np.save(os.path.join(out, "clips_1149.npy"), clips(1149, 6, rng))
    np.save(os.path.join(out, "clips_20000.npy"), clips(20000, 12, rng))
