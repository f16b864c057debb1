#!/usr/bin/env python3
"""Cold runs of the commands other than a fit of a .npy, two distributions side by side.

    python3 scripts/cold-commands-bench.py BEFORE_HOME AFTER_HOME [REPS]

BEFORE_HOME and AFTER_HOME are unpacked distributions (the folders holding bin/sylva). Writes small inputs into a
temporary folder (200 x 5 and 1 000 x 61 text tables as numpy.savetxt writes them, %.18e, the 1 000 x 61 one also
as %.9g, a 20 000 x 61 one and the same as float32 .npy, a 200 x 3 .npy and a model fitted on it), then runs each
command REPS times per distribution (default 9), alternating which goes first, after one untimed run each, and
prints per command the median wall time and the median CPU time of the process and its children (user + system,
steadier than wall time on a busy machine), and the ratios after / before. The last row, a fit of the .npy, is the
run whose start neither side changes: a baseline for the machine's drift.
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    homes = {"before": sys.argv[1], "after": sys.argv[2]}
    reps = int(sys.argv[3]) if len(sys.argv) == 4 else 9
    work = tempfile.mkdtemp(prefix="sylva-cold-commands.")
    os.chdir(work)
    rng = np.random.default_rng(1)
    np.savetxt("s.csv", rng.normal(size=(200, 5)), delimiter=",")
    np.savetxt("k61.csv", rng.normal(size=(1000, 61)), delimiter=",")
    np.savetxt("k61g9.csv", rng.normal(size=(1000, 61)).astype(np.float32), delimiter=",", fmt="%.9g")
    big = rng.normal(size=(20_000, 61)).astype(np.float32)
    np.savetxt("k61big.csv", big, delimiter=",")
    np.save("k61big.npy", big)
    x = np.vstack([rng.normal(0, 1, (100, 3)), rng.normal(6, 1, (100, 3))])
    np.save("x.npy", x)
    subprocess.run([os.path.join(homes["before"], "bin", "sylva"), "hdbscan", "x.npy", "--min-cluster-size", "5",
                    "--out", "fit", "--save-model", "m.model", "-q"], check=True)
    cases = [
        ("hdbscan s.csv (200 x 5)", ["hdbscan", "s.csv", "--out", "o_{}", "-q"]),
        ("hdbscan k61.csv (1 000 x 61)", ["hdbscan", "k61.csv", "--out", "o_{}", "-q"]),
        ("hdbscan k61g9.csv (1 000 x 61, %.9g)", ["hdbscan", "k61g9.csv", "--out", "o_{}", "-q"]),
        ("hdbscan k61big.csv (20 000 x 61)", ["hdbscan", "k61big.csv", "--out", "o_{}", "-q"]),
        ("the same as .npy", ["hdbscan", "k61big.npy", "--out", "o_{}", "-q"]),
        ("cut", ["cut", "m.model", "--distance", "1", "--out", "o_{}", "-q"]),
        ("reselect", ["reselect", "m.model", "--method", "leaf", "--out", "o_{}", "-q"]),
        ("balltree x.npy (200 x 3)", ["balltree", "x.npy", "--out", "o_{}", "-q"]),
        ("hdbscan --help", ["hdbscan", "--help"]),
        ("devices", ["devices"]),
        ("baseline: hdbscan x.npy", ["hdbscan", "x.npy", "--out", "o_{}", "-q"]),
    ]

    def run(side, args):
        exe = os.path.join(homes[side], "bin", "sylva")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([exe] + [a.format(side) for a in args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        return wall * 1000, cpu * 1000

    print("| command | before: wall / CPU ms | after: wall / CPU ms | wall after/before | CPU after/before |")
    print("|---|---|---|---|---|")
    for name, args in cases:
        runs = {"before": [], "after": []}
        run("before", args)
        run("after", args)
        for i in range(reps):
            for side in (("before", "after") if i % 2 == 0 else ("after", "before")):
                runs[side].append(run(side, args))
        wall = {s: statistics.median(w for w, _ in r) for s, r in runs.items()}
        cpu = {s: statistics.median(c for _, c in r) for s, r in runs.items()}
        print(f"| {name} | {wall['before']:.0f} / {cpu['before']:.0f} | {wall['after']:.0f} / {cpu['after']:.0f} | "
              f"{wall['after'] / wall['before']:.2f} | {cpu['after'] / cpu['before']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
