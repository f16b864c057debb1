"""Erwin's ball tree from Python, side by side: the reference package (``balltree-erwin`` 0.1.0, as an
Erwin model calls it, torch tensors in) against ``sylva.build_balltree``, on the same points, timed
alternately in one process, with a check that both give the same tree (every leaf the same pair of points).

    python3 scripts/balltree-peer.py --threads 2                  # the table of BENCHMARKS.md
    python3 scripts/balltree-peer.py --threads 1 --rounds 11 --cases "16384 one batch"

Needs torch and the reference's ``balltree`` package importable (none of it enters this repository), e.g.
the snapshot of github.com/maxxxzdn/balltree at 29f8e74, whose ``balltree/`` holds the author's prebuilt
CPython 3.11 module: ``PYTHONPATH=SNAPSHOT:python`` with a numpy < 2 (the module was built against numpy
1.x) and torch in the environment. ``--threads`` sets the reference's OpenMP threads (its only parallel loop
is over batches) and Sylva's engine threads; the reference's OpenMP threads wait passively (``OMP_WAIT_POLICY``,
unless set), so that they do not spin on the cores while the engine works.

Both are timed from Python: the reference converts the tensor to float64 (``.double()``) and builds in its
OpenMP loop; Sylva sends the float32 points to its engine process (``sylva serve``) over a pipe and builds
there. Sylva's own build time (``compute_seconds``) is shown too. Points: float32 in [0, 1)^3 with no two
equal coordinates on an axis (``tie_free_uniform``, ``numpy.random.default_rng(42)``): where coordinates
tie, the reference's ``std::nth_element`` and Sylva's index rule may send different points left, both valid.
Each round times one call of each, the order alternating; the cells are medians over the rounds, after a warm-up of ``--warmup`` calls each (the engine's JIT compiles its paths).
"""
import argparse
import os
import platform
import statistics
import sys
import time

CASES = {
    "16384 one batch": (1, 16384),
    "64 x 256": (64, 256),
    "8 x 16384": (8, 16384),
    "64 x 16384": (64, 16384),
    "1048576 one batch": (1, 1 << 20),
}


def tie_free_uniform(rng, n, d):
    """Points spread uniformly over [0, 1)^d with no two equal coordinates on any axis: column j holds
    ``(k + u) / n`` for a random permutation k of 0..n-1 and u uniform in [0, 0.5), in float32 (whose spacing
    below 1, 6e-8, is finer than 0.5 / n up to 2^22 points). Without ties the tree is unique, so both
    builds must hold the same pair of points in every leaf."""
    import numpy as np
    cols = [(rng.permutation(n) + rng.random(n) * 0.5) / n for _ in range(d)]
    x = np.stack(cols, axis=1).astype(np.float32)
    assert all(len(np.unique(x[:, j])) == n for j in range(d)), "a tie in float32"
    return x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated names of " + ", ".join(CASES))
    ap.add_argument("--kernels", default="scalar", choices=["scalar", "vector"])
    a = ap.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(a.threads)   # before the reference's OpenMP runtime starts
    # GNU OpenMP's idle threads spin for a while after each parallel loop; on a small machine that spinning
    # would take the cores the engine works on next, timing the reference's leftovers into Sylva's calls
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import numpy as np
    import torch
    import balltree as reference
    import sylva
    engine = sylva.engine()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs; threads {a.threads}; "
          f"torch {torch.__version__}, numpy {np.__version__}; reference {reference.__file__}")
    print("| input | reference (ms) | Sylva from Python (ms) | Sylva's build (ms) | reference / Sylva |")
    print("|---|---|---|---|---|")
    rng = np.random.default_rng(42)
    for name in [c.strip() for c in a.cases.split(",") if c.strip()]:
        batches, size = CASES[name]
        x = tie_free_uniform(rng, batches * size, 3)
        b = np.repeat(np.arange(batches, dtype=np.int64), size)
        xt, bt = torch.from_numpy(x), torch.from_numpy(b)

        def ref():
            return reference.build_balltree(xt, bt)

        def ours():
            r = engine.call("balltree", {"threads": a.threads, "kernels": a.kernels}, {"points": x, "batch_idx": b})
            return r.arrays["tree_idx"], r.arrays["mask"], float(r.params["compute_seconds"])

        r_idx, r_mask = ref()
        s_idx, s_mask, _ = ours()
        same = np.array_equal(r_mask.numpy(), s_mask) and np.array_equal(
            np.sort(r_idx.numpy().reshape(-1, 2), axis=1), np.sort(s_idx.reshape(-1, 2), axis=1))
        if not same:
            sys.exit(f"{name}: the trees differ (a leaf holds another pair of points)")
        for _ in range(a.warmup):
            ref()
            ours()
        t_ref, t_ours, t_own = [], [], []
        for k in range(a.rounds):
            for which in ((0, 1) if k % 2 == 0 else (1, 0)):
                t0 = time.perf_counter()
                if which == 0:
                    ref()
                    t_ref.append(time.perf_counter() - t0)
                else:
                    own = ours()[2]
                    t_ours.append(time.perf_counter() - t0)
                    t_own.append(own)
        mr, mo, ms = (statistics.median(t) * 1e3 for t in (t_ref, t_ours, t_own))
        print(f"| {name} | {mr:.3f} | {mo:.3f} | {ms:.3f} | {mr / mo:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
