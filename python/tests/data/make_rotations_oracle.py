"""Writes rotations_oracle.npz: the outputs of Erwin's ``build_balltree_with_rotations`` (``balltree-erwin``
0.1.0, github.com/maxxxzdn/balltree at 29f8e74, its prebuilt CPython 3.11 module) on small inputs, for
``test_balltree_rotations.py``. Not run by the tests: it needs that package and torch (2.14.1, CPU), which
the tests do not. Its only input is numpy's ``default_rng`` below.

    PYTHONPATH=DIR_HOLDING_THE_BALLTREE_PACKAGE python3 make_rotations_oracle.py

For each case it stores the points, the batch ids, the parameters, the reference's ``tree_idx``,
``tree_mask`` and rotated-tree indices, and the coordinates each rotated partition was computed from
(torch's float32 ``leaves @ R`` and its stride means), as this script recomputes them with the same torch
operations the reference documents.
"""
import math
from pathlib import Path

import numpy as np
import torch
import balltree

# Tie-free data only: where coordinates tie, the reference's std::nth_element and Sylva's index rule may
# send different points left (both valid; see ../shared/oracle/balltree/README.md).
CASES = [
    # name, dim, batch sizes, strides, ball sizes, angle, coordinates
    ("one3d", 3, [1000], [2, 2], [16, 32, 64], 45.0, "normal"),
    ("batches2d", 2, [300, 700, 2], [2], [32, 32], 45.0, "normal"),
    ("even3d", 3, [256, 256], [2, 2, 2], [8, 8, 8, 8], 30.0, "uniform"),
    ("stride8", 3, [40, 9, 90], [8, 2], [4, 4, 4], 12.5, "normal"),
    ("wide2d", 2, [2000], [4, 4], [64, 64, 64], 90.0, "scaled"),
    ("flat", 3, [128, 128], [2], [16, 16], 0.0, "normal"),
]


def points(kind, n, d, rng):
    if kind == "normal":
        return rng.standard_normal((n, d)).astype(np.float32)
    if kind == "uniform":
        return rng.random((n, d), dtype=np.float32)
    return (rng.standard_normal((n, d)) * np.array([1e3, 1e-3][:d])).astype(np.float32)


def main():
    rng = np.random.default_rng(20261204)
    out = {}
    for name, d, sizes, strides, ball_sizes, angle, kind in CASES:
        x = points(kind, sum(sizes), d, rng)
        b = np.repeat(np.arange(len(sizes)), sizes).astype(np.int64)
        xt, bt = torch.from_numpy(x), torch.from_numpy(b)
        tree_idx, mask, rot = balltree.build_balltree_with_rotations(xt, bt, strides, ball_sizes, angle)
        p = f"{name}/"
        out[p + "points"], out[p + "batch_idx"] = x, b
        out[p + "strides"], out[p + "ball_sizes"] = np.array(strides), np.array(ball_sizes)
        out[p + "angle"] = np.array(angle)
        out[p + "tree_idx"], out[p + "tree_mask"] = tree_idx.numpy(), mask.numpy()
        if angle > 0:
            r = balltree.generate_rotation_matrix(angle, d, torch.device("cpu"))
            layer, layer_b = torch.matmul(xt[tree_idx], r), bt[tree_idx]
            for i, perm in enumerate(rot):
                # the coordinates stored are those the reference partitioned: its own partition of them agrees
                level = max(0, int(math.log2(len(tree_idx) / ball_sizes[i])))
                assert torch.equal(balltree.partition_balltree(layer, layer_b, level), perm), (name, i)
                out[p + f"rot{i}"] = perm.numpy()
                out[p + f"coords{i}"] = layer.numpy().copy()
                if i < len(rot) - 1:
                    layer = layer.view(-1, strides[i], d).mean(axis=1)
                    layer_b = layer_b[::strides[i]]
    for angle in (45.0, 30.0, 12.5, 90.0, 1.0, 200.0):
        for d in (2, 3):
            out[f"matrix/{d}/{angle}"] = balltree.generate_rotation_matrix(angle, d, torch.device("cpu")).numpy()
    np.savez_compressed(Path(__file__).with_name("rotations_oracle.npz"), **out)


if __name__ == "__main__":
    main()
