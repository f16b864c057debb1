"""build_balltree / partition_balltree: the CLI's bytes, Erwin's reference, errors, torch tensors."""
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import sylva
from conftest import assert_same_bytes, load

ORACLE = Path(__file__).resolve().parents[2].parent / "shared" / "oracle" / "balltree"


def cloud(n=5000, d=3, seed=0):
    return np.random.default_rng(seed).random((n, d), dtype=np.float32)


def batches(sizes):
    return np.repeat(np.arange(len(sizes)), sizes).astype(np.int64)


def test_tree_and_mask_are_the_clis_files_byte_for_byte(cli, tmp_path):
    x = cloud()
    b = batches([1000, 1, 2500, 1499])
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "b.npy", b)
    cli("balltree", tmp_path / "x.npy", "--batch", tmp_path / "b.npy", "--out", tmp_path / "tree", "-q")
    tree_idx, mask = sylva.build_balltree(x, b)
    assert_same_bytes(tree_idx, load(tmp_path / "tree", "tree_idx"), "tree_idx")
    assert_same_bytes(mask, load(tmp_path / "tree", "mask"), "mask")
    # the layout Erwin's callers rely on: each batch's 2^(L+1) slots after the previous batch's
    assert len(tree_idx) == 1024 + 2 + 4096 + 2048
    v_idx, v_mask = sylva.build_balltree(x, b, kernels="vector", threads=1)
    assert_same_bytes(v_idx, tree_idx, "vector kernels, one thread")


def test_partition_is_the_clis_file_byte_for_byte(cli, tmp_path):
    x = cloud(3000, 3, 5)
    b = batches([1000, 2000])
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "b.npy", b)
    cli("balltree", tmp_path / "x.npy", "--batch", tmp_path / "b.npy", "--partition-level", 4,
        "--out", tmp_path / "part", "-q")
    perm = sylva.partition_balltree(x, b, 4)
    assert_same_bytes(perm, load(tmp_path / "part", "perm"), "perm")
    assert sorted(perm.tolist()) == list(range(3000))


def _oracle_case(name):
    raw = (ORACLE / "inputs" / f"{name}.in").read_bytes()
    n, d = np.frombuffer(raw[:16], dtype="<i8")
    x = np.frombuffer(raw[16:16 + 4 * n * d], dtype="<f4").reshape(n, d)
    b = np.frombuffer(raw[16 + 4 * n * d:], dtype="<i8")
    return x, b


@pytest.mark.skipif(not ORACLE.is_dir(), reason="Erwin's reference outputs (../shared/oracle/balltree) are absent")
def test_erwins_reference_accepts_the_trees(tmp_path):
    # the reference's own checker (CANONICAL rule: the trees Erwin's C++ builds, up to its tie choices)
    cases = ["u_n1000_d3", "batched8_unequal_d3", "gauss61_n5000", "dup_grid_n1000_d2"]
    for case in cases:
        x, b = _oracle_case(case)
        tree_idx, mask = sylva.build_balltree(x, b)
        tree_idx.astype("<i8").tofile(tmp_path / f"{case}.tree_idx.i64")
        mask.astype("u1").tofile(tmp_path / f"{case}.mask.u8")
    for level in (0, 3, 6, 10):
        x, b = _oracle_case("rot_u_n1000_d3")
        sylva.partition_balltree(x, b, level).astype("<i8").tofile(tmp_path / f"rot_u_n1000_d3.t{level}.perm.i64")
    out = subprocess.run([sys.executable, str(ORACLE / "check_balltree.py"), str(tmp_path)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


def test_one_batch_without_ids_and_a_batch_of_one_point():
    x = cloud(5, 2, 1)
    tree_idx, mask = sylva.build_balltree(x, None)
    assert tree_idx.dtype == np.int64 and mask.dtype == np.bool_ and len(tree_idx) == 8
    assert sorted(tree_idx[mask].tolist()) == [0, 1, 2, 3, 4]
    t1, m1 = sylva.build_balltree(x[:1], np.zeros(1, dtype=np.int32))
    assert t1.tolist() == [0, 0] and m1.tolist() == [True, False]


def test_float64_points_are_rounded_to_float32_with_a_warning():
    x = cloud(100, 3, 2)
    exact = x.astype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t_exact, _ = sylva.build_balltree(exact, None)   # every value is a float32: no warning
    t32, _ = sylva.build_balltree(x, None)
    assert np.array_equal(t_exact, t32)
    with pytest.warns(UserWarning, match="rounded to float32"):
        sylva.build_balltree(exact + 1e-12, None)


# (a uint64 beyond int64, 2^64 - 1, is refused as the CLI refuses it: test_bad_input_is_a_value_error_...)
@pytest.mark.parametrize("dtype, big", [(np.int64, 2**60 + 1), (np.uint64, 2**62 + 1), (np.int64, -(2**60) - 1)])
def test_integers_beyond_float32_are_rounded_with_a_warning(dtype, big):
    # compared as float64, 2^60 + 1 would equal its float32 rounding: the comparison is exact, in the integers
    x = np.array([[big], [0], [1]], dtype=dtype)
    with pytest.warns(UserWarning, match="rounded to float32"):
        sylva.build_balltree(x, None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sylva.build_balltree(np.array([[2**60], [0], [1]], dtype=dtype), None)   # a float32 exactly: no warning


def test_the_rounding_warning_names_the_callers_line():
    x = cloud(100, 3, 2).astype(np.float64) + 1e-12
    for call in (lambda: sylva.build_balltree(x, None), lambda: sylva.partition_balltree(x, None, 2),
                 lambda: sylva.build_balltree_with_rotations(x, None, [2], [8, 8])):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert caught and {Path(w.filename).name for w in caught} == {Path(__file__).name}, \
            [(w.filename, w.lineno) for w in caught]


@pytest.mark.parametrize("points, batch, part", [
    (np.zeros((4, 2, 1), np.float32), None, "2-D"),
    (np.zeros((4, 2), np.float32), np.array([0, 1, 0, 1]), "batch"),
    (np.zeros((4, 2), np.float32), np.array([0, 0, 2, 2]), "batch"),
    (np.zeros((4, 2), np.float32), np.array([0, 0, 1]), "3 ids for 4 points"),
    (np.zeros((4, 2), np.float32), np.array([0.0, 0, 0, 0]), r"integers; got dtype float64 \(whole numbers\?"),
    (np.zeros((4, 2), np.float32), np.array([False, False, True, True]), "integers; got dtype bool$"),
    (np.zeros((4, 2), np.float32), np.zeros((2, 2), np.int64), "1-D"),
    (np.zeros((4, 2), np.float32), np.array([0, 0, 0, 2**63], np.uint64), "beyond int64"),
    (np.array([[0, 1], [2**63, 2]], np.uint64), None, "uint64 value 9223372036854775808 at row 1, column 0 is beyond int64"),
    (np.array([[0, 1], [np.nan, 2]], np.float32), None, "NaN"),
])
def test_bad_input_is_a_value_error_with_the_engines_message(points, batch, part):
    with pytest.raises(ValueError, match=part):
        sylva.build_balltree(points, batch)


def test_batch_ids_of_every_integer_dtype_and_a_column_are_the_same_tree(cli, tmp_path):
    # as ``sylva balltree --batch`` takes them: the CLI reads these files to the same tree
    x = cloud(500, 3, 4)
    b = batches([200, 50, 250])
    want_idx, want_mask = sylva.build_balltree(x, b)
    np.save(tmp_path / "x.npy", x)
    for dtype in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "uint64"):
        for ids in (b.astype(dtype), b.astype(dtype).reshape(-1, 1)):
            idx, mask = sylva.build_balltree(x, ids)
            assert_same_bytes(idx, want_idx, f"{dtype} {ids.shape}")
            assert_same_bytes(mask, want_mask, f"{dtype} {ids.shape}")
            np.save(tmp_path / "b.npy", ids)
            out = tmp_path / f"tree-{dtype}-{ids.ndim}"
            cli("balltree", tmp_path / "x.npy", "--batch", tmp_path / "b.npy", "--out", out, "-q")
            assert_same_bytes(load(out, "tree_idx"), want_idx, f"CLI, {dtype} {ids.shape}")


def test_a_negative_level_is_a_value_error():
    with pytest.raises(ValueError, match="level"):
        sylva.partition_balltree(cloud(10), None, -1)


@pytest.mark.parametrize("level", ["a", 2.5, None, True])
def test_a_level_that_is_not_an_integer_is_a_value_error_naming_it(level):
    with pytest.raises(ValueError, match="target_level must be an integer"):
        sylva.partition_balltree(cloud(10), None, level)


def test_a_level_given_as_a_numpy_scalar_or_a_0d_array_is_an_integer():
    x = cloud(100, 3, 2)
    want = sylva.partition_balltree(x, None, 2)
    for level in (np.int64(2), np.uint8(2), np.array(2)):
        assert np.array_equal(sylva.partition_balltree(x, None, level), want)
    for level in (np.float64(2.0), np.array(2.0), np.bool_(True)):
        with pytest.raises(ValueError, match="target_level must be an integer"):
            sylva.partition_balltree(x, None, level)


def test_bfloat16_tensors_are_taken_as_their_float32_values():
    torch = pytest.importorskip("torch")
    x = torch.tensor(np.asarray(cloud(200, 3, 4)), dtype=torch.bfloat16)
    exact = x.float()
    for a, b in zip(sylva.build_balltree(x, None), sylva.build_balltree(exact, None)):
        assert torch.equal(a, b)
    assert torch.equal(sylva.partition_balltree(x, None, torch.tensor(2)), sylva.partition_balltree(exact, None, 2))


def test_a_level_past_every_depth_is_the_single_cells_and_a_negative_one_is_refused():
    x = cloud(300, 3, 5)
    deepest = sylva.partition_balltree(x, None, 31)
    assert np.array_equal(sylva.partition_balltree(x, None, 2**31), deepest)
    assert np.array_equal(sylva.partition_balltree(x, None, 10**30), deepest)
    with pytest.raises(ValueError, match="target_level must be >= 0; got -3"):
        sylva.partition_balltree(x, None, -3)


def test_float64_beyond_float32_is_refused_naming_the_value():
    x = np.random.default_rng(1).random((10, 3))
    x[4, 2] = -1e300
    with pytest.raises(ValueError, match=r"point 4, coordinate 2 is -1e\+300, beyond float32's range"):
        sylva.build_balltree(x, None)


def test_uint64_batch_ids_beyond_int64_are_named_as_given():
    b = np.array([0] * 5 + [2**64 - 1] * 5, dtype=np.uint64)
    with pytest.raises(ValueError, match="position 5 is 18446744073709551615, beyond int64"):
        sylva.build_balltree(cloud(10), b)


class _StandInTensor:
    """The part of torch.Tensor the package touches: detach, cpu, numpy, device."""

    def __init__(self, a, device):
        self.a, self.device = np.asarray(a), device

    def detach(self):
        return self

    def cpu(self):
        return _StandInTensor(self.a, "cpu")

    def numpy(self):
        return self.a

    def to(self, device):
        return _StandInTensor(self.a, device)


def test_tensors_through_a_stand_in_torch_come_back_on_their_device(monkeypatch):
    """The tensor branch, run in CI where torch is not installed (the test below runs it with torch)."""
    import types
    fake = types.ModuleType("torch")
    fake.Tensor = _StandInTensor
    fake.from_numpy = lambda a: _StandInTensor(a, "cpu")
    monkeypatch.setitem(sys.modules, "torch", fake)
    x, b = cloud(500, 3, 4), batches([200, 300])
    tree_idx, mask = sylva.build_balltree(_StandInTensor(x, "cuda:1"), _StandInTensor(b, "cuda:1"))
    assert isinstance(tree_idx, _StandInTensor) and tree_idx.device == "cuda:1" and mask.device == "cuda:1"
    n_idx, n_mask = sylva.build_balltree(x, b)
    assert np.array_equal(tree_idx.a, n_idx) and np.array_equal(mask.a, n_mask)
    assert tree_idx.a.dtype == np.int64 and mask.a.dtype == np.bool_
    perm = sylva.partition_balltree(_StandInTensor(x, "cuda:0"), _StandInTensor(b, "cuda:0"), 3)
    assert perm.device == "cuda:0" and np.array_equal(perm.a, sylva.partition_balltree(x, b, 3))


def test_torch_tensors_come_back_as_tensors_on_the_same_device():
    torch = pytest.importorskip("torch")
    x = cloud(1000, 3, 3)
    b = batches([400, 600])
    tree_idx, mask = sylva.build_balltree(torch.from_numpy(x), torch.from_numpy(b))
    assert isinstance(tree_idx, torch.Tensor) and tree_idx.dtype == torch.int64 and mask.dtype == torch.bool
    assert tree_idx.device == torch.device("cpu")
    n_idx, n_mask = sylva.build_balltree(x, b)
    assert np.array_equal(tree_idx.numpy(), n_idx) and np.array_equal(mask.numpy(), n_mask)
    perm = sylva.partition_balltree(torch.from_numpy(x).requires_grad_(True), torch.from_numpy(b), 3)
    assert isinstance(perm, torch.Tensor) and perm.dtype == torch.int64
