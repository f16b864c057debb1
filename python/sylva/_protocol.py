"""The frames of the engine protocol (``docs/engine-protocol.md``): writing and reading one frame.

A frame is ``b"SYLV"``, the kind (u8 length + ASCII), the parameters (u32 length + one JSON
object in UTF-8), the number of arrays (u8) and each array: name (u8 length + ASCII), dtype
(u8 length + NumPy's ``dtype.str``: ``<f4 <f8 <i4 <i8 |b1 |u1``), ndim (u8), the shape (u64 each) and
the payload (C order, little-endian). Every integer is little-endian.
"""
from __future__ import annotations

import io
import json
import math
import os
import select
import struct
from typing import BinaryIO, Dict, NamedTuple

import numpy as np

MAGIC = b"SYLV"
DTYPES = ("<f4", "<f8", "<i4", "<i8", "|b1", "|u1")
#: Bounds on what the client reads, so that a corrupted stream cannot make it allocate without end.
MAX_KIND = 64
MAX_JSON = 1 << 20
MAX_ARRAYS = 16
MAX_DIMS = 4


class ProtocolError(Exception):
    """The bytes from the engine are not a frame: the stream cannot be read any further."""


class Frame(NamedTuple):
    """One message: its kind, its parameters and its arrays (by name, in order)."""

    kind: str
    params: dict
    arrays: Dict[str, np.ndarray]


def _json_value(v):
    """A parameter as JSON can carry it: numpy scalars as Python numbers, non-finite floats as strings."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    return v


def encode(kind: str, params: dict, arrays: Dict[str, np.ndarray]) -> list:
    """The frame as a list of buffers to write one after the other (the payloads are not copied).

    Every array must already be C-contiguous and of one of :data:`DTYPES`.
    """
    k = kind.encode("ascii")
    text = json.dumps({key: _json_value(v) for key, v in params.items()}, allow_nan=False,
                      separators=(",", ":")).encode("utf-8") if params else b""
    head = [MAGIC, struct.pack("<B", len(k)), k, struct.pack("<I", len(text)), text,
            struct.pack("<B", len(arrays))]
    parts = [b"".join(head)]
    for name, a in arrays.items():
        dtype = a.dtype.str
        if dtype not in DTYPES or not a.flags.c_contiguous:
            raise TypeError(f"array {name!r} must be C-contiguous {DTYPES}; got {dtype}")
        n = name.encode("ascii")
        d = dtype.encode("ascii")
        parts.append(struct.pack("<B", len(n)) + n + struct.pack("<B", len(d)) + d
                     + struct.pack("<B", a.ndim) + struct.pack(f"<{a.ndim}Q", *a.shape))
        if a.nbytes:
            parts.append(memoryview(a).cast("B"))
    return parts


def write(stream: BinaryIO, kind: str, params: dict, arrays: Dict[str, np.ndarray]) -> None:
    """Writes one frame and flushes the stream."""
    for part in encode(kind, params, arrays):
        stream.write(part)
    stream.flush()


def _exact(stream: BinaryIO, n: int, what: str) -> bytes:
    b = stream.read(n)
    if b is None or len(b) < n:
        raise EOFError(f"the engine's output ended inside a frame (reading {what})")
    return b


def _fill(stream: BinaryIO, view: memoryview, what: str) -> None:
    """Reads exactly ``len(view)`` bytes into ``view``; every pass reads at least one byte."""
    done = 0
    while done < len(view):
        got = stream.readinto(view[done:])
        if not got:
            raise EOFError(f"the engine's output ended inside a frame (reading {what})")
        done += got


#: How long :func:`_quote` waits for the bytes that follow output which is not a frame.
QUOTE_WAIT_SECONDS = 0.2


def _quote(stream: BinaryIO, n: int) -> bytes:
    """Up to ``n`` bytes of what the engine wrote after output that is not a frame, for the error: what Python's
    buffer and the pipe hold after at most :data:`QUOTE_WAIT_SECONDS`, never more. An engine that writes something
    else may stay up writing nothing more, and a read of ``n`` bytes would then wait for good."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return stream.read(n) or b""   # an in-memory stream, whose end is known
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    poller.poll(int(QUOTE_WAIT_SECONDS * 1000))
    os.set_blocking(fd, False)
    try:
        # the buffer's bytes, or one read of what the pipe has (a stream without a buffer: its read is one read)
        return getattr(stream, "read1", stream.read)(n) or b""
    except BlockingIOError:
        return b""
    finally:
        os.set_blocking(fd, True)


def read(stream: BinaryIO, max_frame_bytes: int = 1 << 62) -> Frame:
    """Reads one frame. Raises :class:`EOFError` at the end of the stream, :class:`ProtocolError` on bytes
    that are not a frame."""
    # the magic's first bytes as they come (read1): output of fewer bytes that is not a frame is told at once,
    # where waiting for four would wait for good on an engine that stays up writing nothing more
    read1 = getattr(stream, "read1", stream.read)
    magic = read1(4) or b""
    if not magic:
        raise EOFError("the engine's output ended")
    if MAGIC.startswith(magic) and len(magic) < len(MAGIC):
        magic += stream.read(len(MAGIC) - len(magic)) or b""
    if magic != MAGIC:
        rest = _quote(stream, 200)
        raise ProtocolError("the engine's output is not the protocol; it starts with "
                            + repr((magic + rest)[:200]))
    kind_len = _exact(stream, 1, "the kind")[0]
    if not 1 <= kind_len <= MAX_KIND:
        raise ProtocolError(f"a frame's kind has {kind_len} bytes")
    kind = _exact(stream, kind_len, "the kind").decode("ascii")
    (json_len,) = struct.unpack("<I", _exact(stream, 4, "the parameters' length"))
    if json_len > MAX_JSON:
        raise ProtocolError(f"a frame's parameters have {json_len} bytes")
    params = json.loads(_exact(stream, json_len, "the parameters").decode("utf-8")) if json_len else {}
    count = _exact(stream, 1, "the number of arrays")[0]
    if count > MAX_ARRAYS:
        raise ProtocolError(f"a frame has {count} arrays")
    arrays = {}
    total = 0
    for _ in range(count):
        name = _exact(stream, _exact(stream, 1, "an array's name")[0], "an array's name").decode("ascii")
        dtype = _exact(stream, _exact(stream, 1, "a dtype")[0], "a dtype").decode("ascii")
        if dtype not in DTYPES:
            raise ProtocolError(f"array {name!r} has dtype {dtype!r}")
        ndim = _exact(stream, 1, "an array's ndim")[0]
        if ndim > MAX_DIMS:
            raise ProtocolError(f"array {name!r} has {ndim} dimensions")
        shape = struct.unpack(f"<{ndim}Q", _exact(stream, 8 * ndim, "a shape"))
        nbytes = math.prod(shape) * np.dtype(dtype).itemsize
        total += nbytes
        if total > max_frame_bytes:
            raise ProtocolError(f"a frame of the engine declares {total} bytes")
        if dtype == "|u1" and ndim == 1:
            # bytes (a model's): read as an immutable bytes object, viewed without a copy; never writeable, as the
            # estimator keeps model bytes (_inputs.locked)
            a = np.frombuffer(_exact(stream, nbytes, f"the payload of {name!r}") if nbytes else b"", dtype=np.uint8)
        else:
            a = np.empty(shape, dtype=dtype)
            if nbytes:
                _fill(stream, memoryview(a).cast("B"), f"the payload of {name!r}")
        arrays[name] = a
    return Frame(kind, params, arrays)
