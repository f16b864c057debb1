"""The Python package's costs: per-call overhead over the engine's own time, and a whole fit against
scikit-learn's HDBSCAN (and fast_hdbscan when installed) in the same process.

  python3 python/bench.py                # overhead (200 calls each; predictions against a 20 000-clip model)
                                         # and 20 000 clips (Sylva 5 fits, sklearn 3)
  python3 python/bench.py --quick        # fewer repetitions, no whole-fit comparison
  python3 python/bench.py --quick --model-n 200000   # predictions against a 200 000-clip model
  python3 python/bench.py --first-calls 60 --model-n 200000   # each of a fresh model's first 60 one-clip calls

Overhead of a call = its wall time in Python (argument checks, conversion, the pipe both ways, the
results as numpy arrays) minus the engine's own time for it (``compute_seconds``: the library call),
median over the calls after a warm-up. Data: ``clips()`` of scripts/cold-start-data.py (spike-like
61-sample clips, the generator of the cold-start figures in BENCHMARKS.md) and uniform float32 3-D points.
"""
import argparse
import importlib.util
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import sylva


def _clip_generator():
    path = Path(__file__).resolve().parents[1] / "scripts" / "cold-start-data.py"
    spec = importlib.util.spec_from_file_location("cold_start_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.clips


def overhead(label, call, engine, warmup, repeat):
    """Median wall, engine and overhead times of ``call()`` in milliseconds."""
    for _ in range(warmup):   # a bounded warm-up: the JIT compiles the engine's paths
        call()
    wall, own = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        wall.append(time.perf_counter() - t0)
        own.append(engine.last_compute_seconds)
    over = [w - o for w, o in zip(wall, own)]
    ms = lambda xs: statistics.median(xs) * 1e3   # noqa: E731
    print(f"{label:44s} wall {ms(wall):8.3f} ms   engine {ms(own):8.3f} ms   overhead {ms(over):6.3f} ms "
          f"(min {min(over) * 1e3:.3f}, max {max(over) * 1e3:.3f})")
    return ms(over)


def timed(fit, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fit()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def machine(engine):
    cpu = "?"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import sklearn
    h = engine.hello
    return (f"{platform.node()}: {cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}, numpy "
            f"{np.__version__}, scikit-learn {sklearn.__version__}; Sylva {h['sylva']} engine "
            f"({' '.join(sylva.engine_command())} serve), {h['threads']} threads, heap {h['heap_bytes'] >> 20} MiB")


def first_calls(calls, model_n):
    """Wall time of each of the first ``calls`` one-clip predictions against a fresh fit of ``model_n`` clips."""
    clips = _clip_generator()
    engine = sylva.engine()
    print(machine(engine))
    rng = np.random.default_rng(20261201)
    fit = sylva.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(clips(model_n, 12, rng))
    new = clips(calls, 12, rng)
    ms = []
    for i in range(calls):
        t0 = time.perf_counter()
        sylva.approximate_predict(fit, new[i:i + 1])
        ms.append((time.perf_counter() - t0) * 1e3)
    later = ms[1:]
    print(f"{model_n} clips, {calls} calls of one clip: first {ms[0]:.1f} ms, all {sum(ms):.0f} ms, "
          f"later calls median {statistics.median(later) if later else 0:.2f} ms, "
          f"slowest {max(ms):.0f} ms (call {ms.index(max(ms)) + 1})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=200, help="calls per overhead figure")
    ap.add_argument("--n", type=int, default=20000, help="clips of the whole-fit comparison")
    ap.add_argument("--model-n", type=int, default=20000, help="clips of the model the predictions use")
    ap.add_argument("--first-calls", type=int, default=0,
                    help="only time a fresh model's first N one-clip predictions, each (how the engine comes to its index)")
    args = ap.parse_args()
    if args.first_calls > 0:
        return first_calls(args.first_calls, args.model_n)
    repeat = 30 if args.quick else args.repeat
    clips = _clip_generator()
    engine = sylva.engine()
    t0 = time.perf_counter()
    print(machine(engine))
    print(f"engine start (first call of the process): {time.perf_counter() - t0:.2f} s")

    rng = np.random.default_rng(20261201)
    x1000 = clips(1000, 12, rng)
    cloud = rng.random((16384, 3), dtype=np.float32)
    h = sylva.HDBSCAN()
    o1 = overhead("HDBSCAN().fit, 1 000 clips x 61 (float32)", lambda: h.fit(x1000), engine, 50, repeat)
    o2 = overhead("build_balltree, 16 384 x 3 (float32, scalar)", lambda: sylva.build_balltree(cloud, None),
                  engine, 50, repeat)
    o3 = overhead("build_balltree, 16 384 x 3 (vector kernels)",
                  lambda: sylva.build_balltree(cloud, None, kernels="vector"), engine, 300, repeat)
    print(f"goal: overhead <= 5 ms per call: {'met' if max(o1, o2, o3) <= 5 else 'NOT met'}")
    # the first prediction sends the estimator's model (here 10.7 MB); the engine keeps it with its index, and
    # the later calls name it by its SHA-256: sending, parsing and indexing are paid once, not per call
    model_fit = sylva.HDBSCAN(min_cluster_size=20, prediction_data=True).fit(clips(args.model_n, 12, rng))
    new_clips = clips(100, 12, rng)
    model_label = f"{args.model_n:,}".replace(",", " ")
    overhead(f"approximate_predict, 1 clip ({model_label}-clip model)",
             lambda: sylva.approximate_predict(model_fit, new_clips[:1]), engine, 20, repeat)
    overhead("approximate_predict, 100 clips (same model)", lambda: sylva.approximate_predict(model_fit, new_clips),
             engine, 20, repeat)
    if args.quick:
        return

    x = clips(args.n, 12, np.random.default_rng(20261201))
    mcs = 20
    print(f"\nwhole fit, {args.n} clip-like x 61 float32, min_cluster_size={mcs}, medians (min):")
    sy = sylva.HDBSCAN(min_cluster_size=mcs)
    sy.fit(x)
    sy.fit(x)   # warm-up: two fits, as BENCHMARKS' in-process figures
    engine_times = []

    def fit_sylva():
        sy.fit(x)
        engine_times.append(sy.engine_seconds_)

    med, low = timed(fit_sylva, 5)
    print(f"  sylva.HDBSCAN               {med:8.3f} s ({low:.3f}); engine's own {statistics.median(engine_times):.3f} s")
    from sklearn.cluster import HDBSCAN as SkHDBSCAN
    sk = SkHDBSCAN(min_cluster_size=mcs, copy=False)
    smed, slow = timed(lambda: sk.fit(x), 3)
    print(f"  sklearn.cluster.HDBSCAN     {smed:8.3f} s ({slow:.3f})   Sylva {smed / med:.1f}x faster")
    same = np.array_equal(sy.labels_, sk.labels_)
    print(f"  labels equal to scikit-learn's: {same} ({sy.labels_.max() + 1} clusters, "
          f"{np.mean(sy.labels_ == -1) * 100:.1f} % noise)")
    try:
        import fast_hdbscan
    except ImportError:
        print("  fast_hdbscan: not installed, not measured")
    else:
        if x.shape[1] > 30:
            # above 30 dimensions fast_hdbscan.HDBSCAN.fit takes its approximate (nearest-neighbour descent) path:
            # no exact peer; scripts/peer-suite.py times its exact path
            print("  fast_hdbscan: not measured (approximate above 30 dimensions; scripts/peer-suite.py times its exact path)")
            return
        # its min_samples counts the other points, Sylva's and scikit-learn's the point too
        fh = fast_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=mcs - 1)
        fh.fit(x)
        fmed, flow = timed(lambda: fh.fit(x), 3)
        print(f"  fast_hdbscan.HDBSCAN        {fmed:8.3f} s ({flow:.3f})   Sylva {fmed / med:.1f}x faster")


if __name__ == "__main__":
    sys.exit(main())
