"""HDBSCAN fits under another metric than Euclidean, side by side with the `hdbscan` package, in one run.

For each FILE (.npy of float64 points) times, with --metric manhattan, chebyshev or cosine:
- Sylva warm: `sylva bench hdbscan FILE --metric M` (medians after its warm-up, in process);
- Sylva cold: `sylva hdbscan FILE --metric M --out ...`, one process per run, wall clock;
- the `hdbscan` package's exact Borůvka on a KD-tree (`boruvka_kdtree`, `approx_min_span_tree=False`,
  `core_dist_n_jobs` = --threads, min_samples S - 1 in its convention), fit() in this process, after one
  untimed fit; for cosine, which no tree of its takes, its `generic` algorithm (the full distance matrix,
  then Prim);
- with --sklearn, scikit-learn's HDBSCAN (`algorithm="kd_tree"`, for cosine `"brute"`, n_jobs = --threads)
  the same way.
Then checks that the package's spanning tree has Sylva's sorted edge weights, bitwise (scikit-learn does not
expose its tree); where its Borůvka's differ, its exact Prim (`prims_kdtree`, untimed) decides which tree is
the minimum. For cosine the package's distances come from BLAS dot products, summed in another order than
Sylva's, so the weights are compared within 1e-12. Prints one table of medians and ratios (peer time /
Sylva warm time).

The package is not part of this repository: build it from its public sources outside it (see
scripts/peer-build.sh) and pass its folder's parent as --peers-dir (default $SYLVA_PEERS or /tmp/peers).
Minkowski is left out: the package's KD-tree algorithms fit with p = 2 whatever p is asked.

usage: python3 scripts/metric-fit-bench.py FILE.npy [FILE.npy ...] --metric manhattan|chebyshev|cosine
                                           [--min-cluster-size 20] [--min-samples S] [--repeat 3]
                                           [--threads 2] [--sklearn] [--peers-dir DIR] [--sylva ./sylva]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def sylva_warm(sylva, path, metric, mcs, ms, repeat, threads):
    out = subprocess.run([sylva, "bench", "hdbscan", path, "--metric", metric, "--min-cluster-size", str(mcs),
                          "--min-samples", str(ms), "--repeat", str(repeat), "--threads", str(threads)],
                         check=True, capture_output=True, text=True).stdout
    m = re.search(r"^\s*total\s+median\s+([0-9.]+) s", out, re.M)
    if not m:
        sys.exit("no total in sylva bench's table:\n" + out)
    return float(m.group(1)), out.splitlines()[0]


def sylva_cold(sylva, path, metric, mcs, ms, repeat, threads, work):
    times = []
    for r in range(repeat):
        out = os.path.join(work, "run%d" % r)
        t = time.perf_counter()
        subprocess.run([sylva, "hdbscan", path, "--metric", metric, "--min-cluster-size", str(mcs), "--min-samples",
                        str(ms), "--threads", str(threads), "--out", out, "-q"], check=True)
        times.append(time.perf_counter() - t)
    mst = np.load(os.path.join(work, "run0", "mst.npy"))
    return statistics.median(times), np.sort(mst[:, 2])


def timed_fits(make, X, repeat):
    make().fit(X)   # untimed: imports, caches and numba's first compilation out of the figure
    times, est = [], None
    for _ in range(repeat):
        est = make()
        t = time.perf_counter()
        est.fit(X)
        times.append(time.perf_counter() - t)
    return statistics.median(times), est


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--metric", required=True, choices=["manhattan", "chebyshev", "cosine"])
    ap.add_argument("--min-cluster-size", type=int, default=20)
    ap.add_argument("--min-samples", type=int)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sklearn", action="store_true")
    ap.add_argument("--peers-dir", default=os.environ.get("SYLVA_PEERS", "/tmp/peers"))
    ap.add_argument("--sylva", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sylva"))
    a = ap.parse_args()
    ms = a.min_samples or a.min_cluster_size
    sys.path.insert(0, os.path.join(a.peers_dir, "hdbscan"))
    import hdbscan
    rows = []
    for path in a.files:
        X = np.load(path)
        if X.dtype != np.float64 or X.ndim != 2:
            sys.exit(path + ": expected a 2-d float64 array")
        warm, header = sylva_warm(a.sylva, path, a.metric, a.min_cluster_size, ms, a.repeat, a.threads)
        with tempfile.TemporaryDirectory() as work:
            cold, weights = sylva_cold(a.sylva, path, a.metric, a.min_cluster_size, ms, a.repeat, a.threads, work)
        cosine = a.metric == "cosine"
        peer, est = timed_fits(lambda: hdbscan.HDBSCAN(min_cluster_size=a.min_cluster_size, min_samples=ms - 1,
                                                       metric=a.metric,
                                                       algorithm="generic" if cosine else "boruvka_kdtree",
                                                       approx_min_span_tree=False, gen_min_span_tree=True,
                                                       core_dist_n_jobs=a.threads), X, a.repeat)
        peer_w = np.sort(est.minimum_spanning_tree_.to_numpy()[:, 2])
        if cosine:
            same = "within 1e-12" if np.allclose(peer_w, weights, rtol=0, atol=1e-12) else "NO"
        else:
            same = "yes" if np.array_equal(peer_w, weights) else None
        if same is None:
            # the package's Prim on the same KD-tree core distances (exact, slower), untimed: is Sylva's tree or
            # the package's Borůvka tree the minimum?
            prim = hdbscan.HDBSCAN(min_cluster_size=a.min_cluster_size, min_samples=ms - 1, metric=a.metric,
                                   algorithm="prims_kdtree", gen_min_span_tree=True).fit(X)
            prim_w = np.sort(prim.minimum_spanning_tree_.to_numpy()[:, 2])
            if np.array_equal(prim_w, weights):
                same = "its Borůvka's tree weighs %s more; its Prim's: yes" % repr(float(peer_w.sum() - weights.sum()))
            else:
                same = "NO"
        row = [os.path.basename(path), "%d x %d" % X.shape, warm, cold, peer, peer / warm, same]
        if a.sklearn:
            from sklearn.cluster import HDBSCAN
            sk, est = timed_fits(lambda: HDBSCAN(min_cluster_size=a.min_cluster_size, min_samples=ms, metric=a.metric,
                                                 algorithm="brute" if cosine else "kd_tree", n_jobs=a.threads,
                                                 copy=False),
                                 X, a.repeat)
            row += [sk, sk / warm]
        rows.append(row)
        print("#", header, flush=True)
    head = "| set | shape | Sylva warm | Sylva cold | package | package / Sylva warm | same MST weights |"
    if a.sklearn:
        head += " scikit-learn | scikit-learn / Sylva warm |"
    print("\nmetric %s, min_cluster_size %d, min_samples %d, %d threads, medians of %d\n" % (
        a.metric, a.min_cluster_size, ms, a.threads, a.repeat))
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in rows:
        cells = [r[0], r[1], "%.3f s" % r[2], "%.3f s" % r[3], "%.3f s" % r[4], "%.1f×" % r[5], r[6]]
        if a.sklearn:
            cells += ["%.3f s" % r[7], "%.1f×" % r[8]]
        print("| " + " | ".join(cells) + " |")
    if any(r[6] == "NO" for r in rows):
        sys.exit("the package's spanning trees, Borůvka's and Prim's, differ from Sylva's")


if __name__ == "__main__":
    main()
