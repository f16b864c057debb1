"""Shared fixtures: the CLI the engine was found as (to compare files with), and test data."""
import subprocess
from pathlib import Path

import numpy as np
import pytest

import sylva


@pytest.fixture(scope="session")
def cli():
    """Runs the same ``sylva`` the package uses as its engine; returns the completed process."""
    command = sylva.engine_command()

    def run(*args):
        p = subprocess.run(command + [str(a) for a in args], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, f"sylva {' '.join(map(str, args))} exited {p.returncode}: {p.stderr}"
        return p
    return run


def blobs(n, d, centers, seed, spread=1.0, dtype=np.float64):
    """Gaussian blobs in float64: no two distances tie (with probability one), so the spanning tree is
    unique and scikit-learn's answer is the one answer."""
    rng = np.random.default_rng(seed)
    c = rng.normal(0, 8, (centers, d))
    which = rng.integers(0, centers, n)
    return (c[which] + rng.normal(0, spread, (n, d))).astype(dtype)


def clips(n, seed):
    """Spike-like 61-sample clips in float32 (templates + AR(1) noise, a tenth pure noise)."""
    rng = np.random.default_rng(seed)
    t = np.arange(61)
    shapes = np.array([-(40 + 12 * k) * np.exp(-0.5 * ((t - 18 - 3 * k) / 1.5) ** 2) for k in range(5)])
    noise = np.zeros((n, 61))
    e = rng.normal(0, 8, (n, 61))
    noise[:, 0] = e[:, 0]
    for j in range(1, 61):
        noise[:, j] = 0.6 * noise[:, j - 1] + e[:, j]
    x = shapes[rng.integers(0, 5, n)] + noise
    pure = rng.random(n) < 0.1
    x[pure] = noise[pure]
    return x.astype(np.float32)


def load(d: Path, name):
    return np.load(d / f"{name}.npy")


def as_cli_writes(h, attr):
    """The fitted estimator's attribute as ``sylva hdbscan`` writes it: ``labels_`` is scikit-learn's intp in Python
    and int32 in the command's ``labels.npy``, with the same values."""
    value = getattr(h, attr)
    if attr == "labels_":
        assert value.dtype == np.intp and np.array_equal(value, value.astype(np.int32))
        return value.astype(np.int32)
    return value


def assert_same_bytes(a, b, what):
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    assert a.tobytes() == b.tobytes(), f"{what}: the bytes differ"
