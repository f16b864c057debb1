"""Erwin's ``build_balltree``, ``partition_balltree`` and ``build_balltree_with_rotations``, computed by the
Sylva engine."""
from __future__ import annotations

import math
import numbers
import operator
import sys

import numpy as np

from ._engine import get_engine
from ._inputs import balltree_points, batch_ids, from_torch, to_torch


def _request(points, batch_idx):
    x, device = from_torch(points)
    x = balltree_points(x)
    arrays = {"points": x}
    b = batch_ids(batch_idx, x.shape[0])
    if b is not None:
        arrays["batch_idx"] = b
    return arrays, device


def build_balltree(points, batch_idx, *, threads=None, kernels=None):
    """Erwin's perfect binary ball tree: ``(tree_idx, tree_mask)``, as ``balltree.build_balltree``.

    ``points``: ``(n, d)`` array or torch tensor, computed in float32 (float64 values are rounded, with a
    warning when that changes one); ``batch_idx``: one id per point, ``0, 0, ..., 1, 1, ...`` (starting
    at 0, never decreasing, never skipping; any integer dtype, shape ``(n,)`` or ``(n, 1)``), or None for one
    batch. Returns ``tree_idx`` (int64: global
    row indices in heap layout, each batch's ``2^(L+1)`` slots after the previous batch's) and
    ``tree_mask`` (bool: False = padding, a repeat of the slot before it), numpy arrays, or torch tensors
    on ``points``' device when ``points`` is a tensor. The same bytes as ``sylva balltree``'s
    ``tree_idx.npy`` and ``mask.npy``. Ties are broken by the smaller index, so the tree is a pure
    function of the input; a batch of one point gives ``[p, p]`` with mask ``[True, False]``.
    ``threads``: the engine's threads (default: every core); ``kernels``: ``"scalar"`` (default) or
    ``"vector"``, the Vector API kernels, about twice as fast once warm but tens of times slower
    for their first tens of builds in an engine: for loops that build many trees. Neither changes the tree.
    """
    arrays, device = _request(points, batch_idx)
    r = get_engine().call("balltree", {"threads": threads, "kernels": kernels}, arrays)
    return to_torch(r.arrays["tree_idx"], device), to_torch(r.arrays["mask"], device)


def partition_balltree(points, batch_idx, target_level, *, threads=None, kernels=None):
    """Erwin's rotated-tree partition: ``perm`` (int64), as ``balltree.partition_balltree``.

    The ball tree's split rule applied to each batch down to depth ``target_level`` (or to cells of at
    most one point), without padding: a permutation of the rows (global indices), cells in tree order,
    rows inside a cell in increasing order. Inputs, device and keywords as :func:`build_balltree`; the same bytes as
    ``sylva balltree --partition-level T``'s ``perm.npy``.
    """
    # an integer: Python's, NumPy's, or a one-element integer tensor (what has __index__; not a bool, not a float)
    try:
        boolean = isinstance(target_level, (bool, np.bool_)) or "bool" in str(getattr(target_level, "dtype", ""))
        whole = None if boolean else operator.index(target_level)
    except TypeError:
        whole = None
    if whole is None:
        raise ValueError(f"target_level must be an integer; got {target_level!r}")
    if whole < 0:
        raise ValueError(f"target_level must be >= 0; got {whole}")
    # any level past 2^31 - 1 is past every tree's depth: the same single cells
    level = min(whole, 2**31 - 1)
    arrays, device = _request(points, batch_idx)
    r = get_engine().call("partition", {"level": level, "threads": threads, "kernels": kernels}, arrays)
    return to_torch(r.arrays["perm"], device)


def generate_rotation_matrix(angle, dim, device=None):
    """Erwin's rotation matrix for ``angle`` degrees in ``dim`` = 2 or 3 dimensions, float32, as
    ``balltree.generate_rotation_matrix``: entries computed in float64 from ``cos`` and ``sin`` of the angle
    and rounded to float32. For 3 dimensions it is the reference's matrix entry for entry, which is not an
    orthogonal matrix; Erwin uses it only to reorder points, and its trees are the target. A numpy array, or a
    torch tensor on ``device`` when ``device`` is given.
    """
    if dim not in (2, 3):
        raise ValueError(f"a rotation needs 2 or 3 dimensions; got {dim}")
    a = math.radians(float(angle))
    c, s = math.cos(a), math.sin(a)
    rows = ([[c, -s], [s, c]] if dim == 2 else
            [[c * c, s * c * (s - 1), s * (s + c * c)],
             [s * c, s * s * s + c * c, s * c * (s - 1)],
             [-s, s * c, c * c]])
    if device is not None:
        return sys.modules["torch"].tensor(rows, dtype=sys.modules["torch"].float32, device=device)
    return np.array(rows, dtype=np.float32)


def _count(name, values, at_least):
    out = []
    for v in values:
        if not isinstance(v, numbers.Integral) or isinstance(v, bool) or v < at_least:
            raise ValueError(f"{name} must be integers >= {at_least}; got {list(values)!r}")
        out.append(int(v))
    return out


def _require_one_batch_per_row(batch, stride, layer):
    """Refuses pooling rows of two batches. The reference gives the pooled row the first one's id, silently mixing
    the two batches in the next layer; where that leaves a batch with no row of its own, the next layer's ids have
    a gap and the reference fails there."""
    groups = np.asarray(batch).reshape(-1, stride)
    mixed = np.flatnonzero((groups != groups[:, :1]).any(axis=1))
    if mixed.size:
        k = int(mixed[0])
        raise ValueError(f"layer {layer}: stride {stride} pools rows {k * stride} to {k * stride + stride - 1}, "
                         f"which belong to batches {int(groups[k].min())} to {int(groups[k].max())}; each batch's "
                         "row count must be a multiple of the stride (a batch of n >= 2 points has 2^ceil(log2 n) slots, "
                         "a batch of one point 2)")


def build_balltree_with_rotations(points, batch_idx, strides, ball_sizes, angle=45.0, *, threads=None,
                                  kernels=None):
    """The trees of an Erwin model's layers: ``(tree_idx, tree_mask, rot_tree_indices)``, as
    ``balltree.build_balltree_with_rotations``.

    ``tree_idx`` and ``tree_mask`` are :func:`build_balltree`'s. For layer ``i`` (``len(ball_sizes)``
    layers, ``strides`` one fewer), ``rot_tree_indices[i]`` is :func:`partition_balltree` of the tree's
    slots ``points[tree_idx]`` multiplied by :func:`generate_rotation_matrix` ``(angle, d)``, averaged over
    runs of ``strides[0] * ... * strides[i-1]`` consecutive slots as the layers before it pool them, with the
    batch id of each run's first slot, down to level ``max(0, int(log2(len(tree_idx) / ball_sizes[i])))``:
    indices into that layer's rows. ``angle <= 0`` gives ``[None] * len(ball_sizes)``. Points must have 2 or
    3 coordinates when ``angle > 0``.

    On tie-free data every leaf holds the reference's pair of points and every cell of a rotated partition
    the reference's rows (as the points of the slots they stand for); the order inside a leaf and inside a
    cell follows Sylva's rule (smaller index first), as for :func:`build_balltree`, so the index arrays are
    the reference's up to those orders, not byte for byte. With torch tensors the rotation and the averages
    are torch's float32 ``matmul`` and ``mean`` on ``points``' device, as in the reference, and the results
    come back as tensors there; with numpy arrays they are numpy's, which may round a coordinate differently
    in its last bit and so, rarely, split two nearly equal points the other way. ``threads`` and ``kernels``
    as :func:`build_balltree`.

    >>> x = np.random.default_rng(0).random((1000, 3), dtype=np.float32)
    >>> tree_idx, mask, rot = build_balltree_with_rotations(x, None, [2, 2], [16, 16, 16])
    >>> [len(r) for r in rot]
    [1024, 512, 256]
    """
    strides = _count("strides", list(strides), 1)
    ball_sizes = _count("ball_sizes", list(ball_sizes), 1)
    if len(strides) != len(ball_sizes) - 1:
        raise ValueError(f"strides must be one fewer than ball_sizes; got {len(strides)} strides for "
                         f"{len(ball_sizes)} ball sizes")
    torch = sys.modules.get("torch")
    is_tensor = torch is not None and isinstance(points, torch.Tensor)
    if is_tensor:
        points = points.detach().float()   # the tree and the rotation are float32, as the reference's inputs
    else:
        points = balltree_points(points)   # once: the tree and the rotation read the same float32 (one warning)
    tree_idx, tree_mask = build_balltree(points, batch_idx, threads=threads, kernels=kernels)
    if not float(angle) > 0:
        return tree_idx, tree_mask, [None] * len(ball_sizes)
    if is_tensor:
        leaves = points[tree_idx]
        batch = None if batch_idx is None else batch_idx.to(tree_idx.device)[tree_idx] \
            if isinstance(batch_idx, torch.Tensor) else torch.as_tensor(np.asarray(batch_idx))[tree_idx.cpu()]
        dim = leaves.shape[1]
        layer = torch.matmul(leaves, generate_rotation_matrix(angle, dim, leaves.device))
    else:
        leaves = points[tree_idx]
        batch = None if batch_idx is None else batch_ids(batch_idx, points.shape[0])[tree_idx]
        dim = leaves.shape[1]
        layer = np.matmul(leaves, generate_rotation_matrix(angle, dim))
    total = len(tree_idx)
    rot = []
    for i, size in enumerate(ball_sizes):
        level = max(0, int(math.log2(total / size))) if total else 0   # no points: empty layers, not an error
        rot.append(partition_balltree(layer, batch, level, threads=threads, kernels=kernels))
        if i < len(strides):
            if layer.shape[0] % strides[i]:
                raise ValueError(f"layer {i} has {layer.shape[0]} rows, which stride {strides[i]} does not divide")
            if batch is not None:
                _require_one_batch_per_row(batch.cpu().numpy() if is_tensor else batch, strides[i], i)
            layer = (layer.view(-1, strides[i], dim) if is_tensor else layer.reshape(-1, strides[i], dim)).mean(axis=1)
            batch = None if batch is None else batch[::strides[i]]
    return tree_idx, tree_mask, rot
