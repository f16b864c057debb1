"""Turning what a caller passes into what the engine takes, and results back into what the caller uses."""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np

#: Element types float32 holds exactly: sent as float32, as ``sylva hdbscan`` reads them from a .npy.
FLOAT32_EXACT = {np.dtype(t) for t in ("float32", "float16", "int8", "int16", "uint8", "uint16", "bool")}


def from_torch(x):
    """``(array, device)`` for a torch tensor (detached, on the CPU), ``(x, None)`` for anything else.

    torch is never imported here: a caller that passes a tensor has imported it already.
    """
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        t = x.detach().cpu()
        bf16 = getattr(torch, "bfloat16", None)
        if bf16 is not None and getattr(t, "dtype", None) == bf16:   # NumPy has none; float32 holds each exactly
            t = t.float()
        return t.numpy(), x.device
    return x, None


def to_torch(a: np.ndarray, device):
    """``a`` as a tensor on ``device``, or ``a`` itself when ``device`` is None (the input was no tensor)."""
    if device is None:
        return a
    return sys.modules["torch"].from_numpy(a).to(device)


def _exact_integers(X: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Where the float64 values ``f``, ``X``'s integers converted (to float64, or rounded to float32), are those
    integers exactly; compared in ``X``'s type, as float64 cannot tell 2^60 + 1 from 2^60. A value rounded up to
    2^63 (2^64 unsigned) is beyond the type: not exact."""
    limit = 2.0 ** (8 * X.dtype.itemsize - (1 if X.dtype.kind == "i" else 0))
    below = f < limit
    with np.errstate(invalid="ignore"):
        return below & (np.where(below, f, 0).astype(X.dtype) == X)


def fit_dtype(X: np.ndarray) -> np.ndarray:
    """The points of a fit in the engine's dtype, C-contiguous little-endian: float32 for the types
    float32 holds exactly, float64 for float64 and the wider integers, as ``sylva hdbscan`` converts a
    .npy file, so both compute on the same values (scikit-learn's, which it casts to float64)."""
    if X.dtype in FLOAT32_EXACT:
        return np.ascontiguousarray(X, dtype="<f4")
    refuse_beyond_int64(X)
    if X.dtype.kind in "iu" and X.size:
        # An integer float64 cannot hold (beyond 2^53 in magnitude, not every one) is refused, naming it, as
        # ``sylva hdbscan`` refuses it in a .npy; one it holds exactly (2^60, say) is taken.
        exact = _exact_integers(X, X.astype(np.float64))
        if not exact.all():
            at = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(~exact)[0]), X.shape))
            raise ValueError(f"{X.dtype} value {int(X[at])} at {at} is not exactly representable as float64 "
                             "(integers beyond 2^53 = 9007199254740992 in magnitude are not all); convert the data "
                             "yourself if rounding is acceptable")
    return np.ascontiguousarray(X, dtype="<f8")


def refuse_beyond_int64(a: np.ndarray) -> None:
    """Refuses a uint64 value beyond int64's range, naming it, as ``sylva hdbscan`` and ``sylva balltree`` refuse
    it in a .npy (the largest integer Sylva reads): the same array is taken by the CLI and the package or by
    neither."""
    if a.dtype.kind == "u" and a.dtype.itemsize == 8 and a.size and int(a.max()) > np.iinfo(np.int64).max:
        at = tuple(int(i) for i in np.unravel_index(int(np.argmax(a > np.iinfo(np.int64).max)), a.shape))
        where = f"at row {at[0]}, column {at[1]}" if len(at) == 2 else f"at {at}"
        raise ValueError(f"uint64 value {int(a[at])} {where} is beyond int64's range (up to "
                         f"{np.iinfo(np.int64).max}), the largest integer Sylva reads")


def _caller_outside_package() -> int:
    """The ``stacklevel`` of the first caller outside this package, for a warning raised by the function that calls
    this one: however deep inside the package the warning starts, it names the user's line."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
        frame, level = frame.f_back, level + 1
    return level


def balltree_points(x) -> np.ndarray:
    """Ball-tree points as C-contiguous float32 (the tree is float32, as Erwin's inputs are); a warning when
    rounding to float32 changes a value, as ``sylva balltree`` warns for a float64 file."""
    a = np.asarray(x)
    if a.ndim != 2:
        raise ValueError(f"points must be a 2-D array of shape (n, d); got shape {a.shape}")
    if a.dtype.kind not in "fiub":
        raise ValueError(f"points must be numbers; got dtype {a.dtype}")
    refuse_beyond_int64(a)
    with np.errstate(over="ignore"):   # an overflow is refused below, naming the value
        out = np.ascontiguousarray(a, dtype="<f4")
    if a.dtype.kind == "f" and a.dtype.itemsize > 4:
        overflowed = np.isinf(out) & np.isfinite(a)
        if overflowed.any():
            row, col = (int(i) for i in np.argwhere(overflowed)[0])
            raise ValueError(f"point {row}, coordinate {col} is {float(a[row, col])!r}, beyond float32's range "
                             f"(+-{float(np.finfo(np.float32).max)!r}), in which the ball tree works; rescale the points")
    if a.dtype != np.float32 and _changed_by_rounding(out, a):
        warnings.warn(f"points: {a.dtype} values were rounded to float32, the ball tree's type",
                      stacklevel=_caller_outside_package())
    return out


def _changed_by_rounding(out: np.ndarray, a: np.ndarray) -> bool:
    """Whether ``out``, ``a`` rounded to float32, differs from ``a``. Integers are compared as integers: compared as
    float64, an int64 beyond 2^53 (2^60 + 1, say) would equal its float32 rounding (2^60)."""
    if a.dtype.kind == "f":
        return not np.array_equal(out, a, equal_nan=True)
    if a.dtype.kind == "b" or a.dtype.itemsize < 8:
        return not np.array_equal(out, a)   # float64 holds these exactly
    return not _exact_integers(a, out.astype(np.float64)).all()   # every float32 is a float64 exactly


def batch_ids(batch_idx, n: int):
    """Batch ids as int64, or None for one batch."""
    if batch_idx is None:
        return None
    b, _ = from_torch(batch_idx)
    b = np.asarray(b)
    if b.ndim == 2 and b.shape[1] == 1:   # a column, as ``sylva balltree --batch`` takes it too
        b = b[:, 0]
    if b.ndim != 1:
        raise ValueError(f"batch_idx must be 1-D (one id per point) or a column (n, 1); got shape {b.shape}")
    if b.dtype.kind not in "iu":
        # as ``sylva balltree --batch``: a float or bool array is most likely another array given by mistake
        raise ValueError(f"batch_idx must hold integers; got dtype {b.dtype}"
                         + ("" if b.dtype.kind == "b" else " (whole numbers? pass batch_idx.astype(np.int64))"))
    if b.shape[0] != n:
        raise ValueError(f"batch_idx has {b.shape[0]} ids for {n} points")
    if b.dtype.kind == "u" and b.dtype.itemsize == 8 and b.size and int(b.max()) > np.iinfo(np.int64).max:
        at = int(np.argmax(b > np.iinfo(np.int64).max))
        raise ValueError(f"batch id at position {at} is {int(b[at])}, beyond int64; ids count batches from 0")
    return np.ascontiguousarray(b, dtype="<i8")


def locked(model) -> np.ndarray:
    """The model's bytes as an array that can never be written: a view of an immutable ``bytes`` object, whose
    ``writeable`` flag numpy refuses to set again (a read-only flag alone, its owner can set back)."""
    if isinstance(model, np.ndarray) and isinstance(model.base, bytes) and not model.flags.writeable:
        return model
    return np.frombuffer(np.ascontiguousarray(model, dtype=np.uint8).tobytes(), dtype=np.uint8)


def table_as_array(X) -> np.ndarray:
    """``np.asarray(X)``, but a pandas table whose nullable columns hold ``pd.NA`` (an object array) as float64 with
    NaN for the missing values, as scikit-learn reads it; any other table keeps its dtype (an int64 column is then
    checked for exactness as an array is)."""
    a = np.asarray(X)
    if a.dtype.kind == "O" and hasattr(X, "to_numpy") and hasattr(X, "dtypes"):
        try:
            return X.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError) as e:
            raise ValueError(f"X must hold numbers: {e}") from None
    return a
