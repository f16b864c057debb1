"""Erwin's ``build_balltree`` and ``partition_balltree``, computed by the Sylva engine."""
from __future__ import annotations

import numbers

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
    at 0, never decreasing, never skipping), or None for one batch. Returns ``tree_idx`` (int64: global
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
    if not isinstance(target_level, numbers.Integral) or isinstance(target_level, bool):
        raise ValueError(f"target_level must be an integer; got {target_level!r}")
    if target_level < 0:
        raise ValueError(f"target_level must be >= 0; got {int(target_level)}")
    # any level past 2^31 - 1 is past every tree's depth: the same single cells
    level = min(int(target_level), 2**31 - 1)
    arrays, device = _request(points, batch_idx)
    r = get_engine().call("partition", {"level": level, "threads": threads, "kernels": kernels}, arrays)
    return to_torch(r.arrays["perm"], device)
