"""A cold one-shot fast_hdbscan run, the peer of a cold `sylva hdbscan` (issue 17): reads FILE.npy, runs
fast_hdbscan's exact path exactly as scripts/peer-suite.py calls it (build_kdtree + parallel_boruvka +
clusters_from_spanning_tree: what fast_hdbscan.HDBSCAN.fit runs for Euclidean data of at most 30
dimensions, called directly so that wider data gets the same exact path) and writes the labels to OUT.npy.

S is min_samples in scikit-learn's and Sylva's convention (the point itself counted); fast_hdbscan counts
other points only, so it gets S - 1. fast_hdbscan is not installed from a registry: its source folder is put
on sys.path from --peers-dir (default $SYLVA_PEERS or /tmp/peers), as peer-suite.py does.

Numba: fast_hdbscan compiles its functions with cache=True (its variables.py: FAST_HDBSCAN_NUMBA_CACHE,
default true), so after one run the compiled code is loaded from its __pycache__ (or NUMBA_CACHE_DIR).
--cache-report FILE appends one line "misses hits" to FILE after the fit: the numba cache misses (functions
compiled in this process) and hits (loaded from the on-disk cache) over fast_hdbscan's functions.

usage: python3 scripts/fast-hdbscan-fit.py FILE.npy M S OUT.npy [--peers-dir DIR] [--cache-report FILE]
"""
import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("min_cluster_size", type=int)
ap.add_argument("min_samples", type=int)
ap.add_argument("out")
ap.add_argument("--peers-dir", default=os.environ.get("SYLVA_PEERS", "/tmp/peers"))
ap.add_argument("--cache-report")
args = ap.parse_args()
sys.path.insert(0, os.path.join(args.peers_dir, "fast_hdbscan"))

import numba  # noqa: E402
import numpy as np  # noqa: E402
from sklearn.utils import check_array  # noqa: E402
from fast_hdbscan.boruvka import parallel_boruvka  # noqa: E402
from fast_hdbscan.hdbscan import clusters_from_spanning_tree  # noqa: E402
from fast_hdbscan.numba_kdtree import build_kdtree  # noqa: E402

data = check_array(np.load(args.file))
tree = build_kdtree(data)
edges, _, _ = parallel_boruvka(tree, numba.get_num_threads(), min_samples=args.min_samples - 1,
                               sample_weights=np.empty(1, dtype=np.float32), reproducible=False)
labels, _, _, _, _ = clusters_from_spanning_tree(edges, min_cluster_size=args.min_cluster_size)
np.save(args.out, labels)

if args.cache_report:
    from numba.core.dispatcher import Dispatcher
    misses = hits = 0
    seen = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("fast_hdbscan"):
            continue
        for f in vars(module).values():
            if isinstance(f, Dispatcher) and id(f) not in seen:
                seen.add(id(f))
                s = f.stats
                misses += sum(s.cache_misses.values())
                hits += sum(s.cache_hits.values())
    with open(args.cache_report, "a") as fh:
        fh.write(f"{misses} {hits}\n")
