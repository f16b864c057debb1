"""build_balltree_with_rotations and generate_rotation_matrix against Erwin's reference (data/rotations_oracle.npz,
written by data/make_rotations_oracle.py with the reference package and torch, which these tests do not need)."""
import math
from pathlib import Path

import numpy as np
import pytest

import sylva

ORACLE = np.load(Path(__file__).with_name("data") / "rotations_oracle.npz")
CASES = sorted({k.split("/")[0] for k in ORACLE.files} - {"matrix"})


def case(name):
    return {k.split("/", 1)[1]: ORACLE[k] for k in ORACLE.files if k.startswith(name + "/")}


def row_points(tree_idx, pooled):
    """What each row of a layer stands for: the points of the ``pooled`` consecutive slots it averages."""
    slots = [int(t) for t in tree_idx]
    return [tuple(sorted(slots[k * pooled:(k + 1) * pooled])) for k in range(len(slots) // pooled)]


def cells(perm, batch, level, rows, increasing=False):
    """The cells of a partition to ``level`` (each batch halved, floor left, down to one row), each as the
    sorted points of its rows; sorted, so that the order inside a cell and of equal cells is free.
    ``increasing``: check Sylva's order inside each cell, rows in increasing order (a partition one level
    too deep would hold two increasing runs)."""
    cuts = [0] + [i for i in range(1, len(batch)) if batch[i] != batch[i - 1]] + [len(batch)]
    spans = []

    def halve(start, m, depth):
        if depth == level or m <= 1:
            spans.append((start, m))
            return
        halve(start, m // 2, depth + 1)
        halve(start + m // 2, m - m // 2, depth + 1)

    for a, b in zip(cuts[:-1], cuts[1:]):
        halve(a, b - a, 0)
    if increasing:
        for s, m in spans:
            assert all(perm[s + j] < perm[s + j + 1] for j in range(m - 1)), f"cell at {s}: rows not increasing"
    return sorted(tuple(sorted(rows[perm[s + j]] for j in range(m))) for s, m in spans)


def assert_same_trees(c, tree_idx, mask, rot):
    assert np.array_equal(mask, c["tree_mask"])
    # every leaf the reference's pair (the order inside a leaf is Sylva's)
    assert sorted(row_points(tree_idx, 2)) == sorted(row_points(c["tree_idx"], 2))
    strides, sizes = [int(s) for s in c["strides"]], [int(s) for s in c["ball_sizes"]]
    if float(c["angle"]) <= 0:
        assert rot == [None] * len(sizes)
        return
    assert len(rot) == len(sizes)
    for i, perm in enumerate(rot):
        pooled = math.prod(strides[:i])
        level = max(0, int(math.log2(len(tree_idx) / sizes[i])))
        perm = np.asarray(perm)
        assert sorted(perm.tolist()) == list(range(len(tree_idx) // pooled)), f"layer {i}: a permutation of its rows"
        mine = cells(perm, c["batch_idx"][tree_idx][::pooled], level, row_points(tree_idx, pooled), increasing=True)
        ref = cells(c[f"rot{i}"], c["batch_idx"][c["tree_idx"]][::pooled], level, row_points(c["tree_idx"], pooled))
        assert mine == ref, f"layer {i}: cells differ from the reference's"


@pytest.mark.parametrize("name", CASES)
def test_the_reference_s_leaves_and_cells_from_numpy_arrays(name):
    c = case(name)
    tree_idx, mask, rot = sylva.build_balltree_with_rotations(
        c["points"], c["batch_idx"], [int(s) for s in c["strides"]], [int(s) for s in c["ball_sizes"]],
        float(c["angle"]))
    assert_same_trees(c, tree_idx, mask, rot)
    assert np.array_equal(tree_idx, sylva.build_balltree(c["points"], c["batch_idx"])[0])


@pytest.mark.parametrize("name", CASES)
def test_the_reference_s_leaves_and_cells_from_torch_tensors(name):
    torch = pytest.importorskip("torch")
    c = case(name)
    tree_idx, mask, rot = sylva.build_balltree_with_rotations(
        torch.from_numpy(c["points"]), torch.from_numpy(c["batch_idx"]), [int(s) for s in c["strides"]],
        [int(s) for s in c["ball_sizes"]], float(c["angle"]))
    assert isinstance(tree_idx, torch.Tensor) and all(r is None or isinstance(r, torch.Tensor) for r in rot)
    assert_same_trees(c, tree_idx.numpy(), mask.numpy(), [None if r is None else r.numpy() for r in rot])


def test_the_rotation_matrix_is_the_reference_s_bit_for_bit():
    keys = [k for k in ORACLE.files if k.startswith("matrix/")]
    assert len(keys) == 12
    for k in keys:
        _, d, angle = k.split("/")
        m = sylva.generate_rotation_matrix(float(angle), int(d))
        assert m.dtype == np.float32 and m.tobytes() == ORACLE[k].tobytes(), k


def test_one_batch_without_ids_and_the_layers_sizes():
    x = np.random.default_rng(5).random((1000, 3), dtype=np.float32)
    tree_idx, mask, rot = sylva.build_balltree_with_rotations(x, None, [2, 4], [16, 16, 16])
    assert [len(r) for r in rot] == [1024, 512, 128]
    with_ids = sylva.build_balltree_with_rotations(x, np.zeros(1000, np.int64), [2, 4], [16, 16, 16])
    assert all(np.array_equal(a, b) for a, b in zip(rot, with_ids[2]))


def test_no_points_give_empty_layers_as_build_balltree_gives_an_empty_tree():
    for batch in (None, np.zeros(0, np.int64)):
        tree_idx, mask, rot = sylva.build_balltree_with_rotations(np.zeros((0, 3), np.float32), batch, [2], [4, 4])
        assert len(tree_idx) == 0 and len(mask) == 0
        assert [len(r) for r in rot] == [0, 0]


def test_float64_points_rounded_to_float32_warn_once():
    x = np.random.default_rng(7).random((64, 3)) + 1e-9   # float64 values float32 cannot hold
    with pytest.warns(UserWarning, match="rounded to float32") as seen:
        sylva.build_balltree_with_rotations(x, None, [2], [4, 4])
    assert len([w for w in seen if "rounded to float32" in str(w.message)]) == 1


def test_a_zero_angle_gives_no_rotated_trees():
    x = np.random.default_rng(6).random((100, 5), dtype=np.float32)   # any dimension without a rotation
    tree_idx, mask, rot = sylva.build_balltree_with_rotations(x, None, [2], [8, 8], angle=0)
    assert rot == [None, None] and np.array_equal(tree_idx, sylva.build_balltree(x, None)[0])


@pytest.mark.parametrize("args, message", [
    (([2, 2], [8, 8]), "strides must be one fewer than ball_sizes; got 2 strides for 2 ball sizes"),
    (([2], [8, 0]), "ball_sizes must be integers >= 1"),
    (([0], [8, 8]), "strides must be integers >= 1"),
    (([2.5], [8, 8]), "strides must be integers >= 1"),
    (([3], [8, 8]), "layer 0 has 128 rows, which stride 3 does not divide"),
])
def test_bad_layer_parameters_are_named(args, message):
    x = np.random.default_rng(7).random((100, 3), dtype=np.float32)
    with pytest.raises(ValueError, match=message):
        sylva.build_balltree_with_rotations(x, None, *args)


def test_a_rotation_needs_two_or_three_dimensions():
    x = np.random.default_rng(8).random((100, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="a rotation needs 2 or 3 dimensions; got 4"):
        sylva.build_balltree_with_rotations(x, None, [2], [8, 8])


def test_a_stride_that_pools_two_batches_is_named():
    x = np.random.default_rng(9).random((152, 3), dtype=np.float32)
    b = np.repeat(np.arange(4), [40, 2, 2, 108])   # slots 64, 2, 2, 128: rows 64 to 67 hold batches 1 and 2
    with pytest.raises(ValueError, match="layer 0: stride 4 pools rows 64 to 67, which belong to batches 1 to 2"):
        sylva.build_balltree_with_rotations(x, b, [4], [4, 8])
