"""The model of a weighted fit against the model of the repeated rows, the only way to predict from binned or
deduplicated data without it (no peer predicts from a weighted fit: the `hdbscan` package takes no weights and
fast_hdbscan has no prediction). Both through the command line, on the same rows: `sylva hdbscan X --sample-weight W
--save-model` against `sylva hdbscan np.repeat(X, W) --save-model`; then the model files' sizes, `sylva predict`
cold (one process per run, as a user runs it; medians of --repeat runs, with the peak resident memory) and warm
(`sylva bench predict`, in process after warm-up), and a check that both give the same labels and memberships.

Data: --rows rows of 61 float32 samples around 12 centres, each of weight 1 .. --max-weight, and 10 000 new
points around the same centres.

    python3 scripts/weighted-model-bench.py --max-weight 5 --repeat 3
    python3 scripts/weighted-model-bench.py --max-weight 20 --repeat 3
"""
import argparse
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

SYLVA = str(Path(__file__).resolve().parent.parent / "sylva")


def run(*args):
    subprocess.run([SYLVA, *map(str, args)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cold_predict(model, new, out, repeat):
    seconds, peaks = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M", SYLVA, "predict", str(model), str(new), "--out", str(out),
                            "-q"], check=True, capture_output=True, text=True)
        seconds.append(time.perf_counter() - t)
        peaks.append(int(r.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(seconds), statistics.median(peaks)


def warm_predict(model, new, repeat):
    r = subprocess.run([SYLVA, "bench", "predict", str(model), str(new), "--repeat", str(max(repeat, 5))],
                       check=True, capture_output=True, text=True)
    return float(re.search(r"median_s=([0-9.]+)", r.stdout + r.stderr).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--max-weight", type=int, default=5)
    ap.add_argument("--min-cluster-size", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    d = 61
    centres = rng.normal(0, 6, (12, d))
    X = (centres[rng.integers(0, 12, a.rows)] + rng.normal(0, 1, (a.rows, d))).astype(np.float32)
    w = rng.integers(1, a.max_weight + 1, a.rows)
    new = (centres[rng.integers(0, 12, 10000)] + rng.normal(0, 1.2, (10000, d))).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        np.save(t / "x.npy", X)
        np.save(t / "w.npy", w)
        np.save(t / "rep.npy", np.repeat(X, w, axis=0))
        np.save(t / "new.npy", new)
        run("hdbscan", t / "x.npy", "--sample-weight", t / "w.npy", "--min-cluster-size", a.min_cluster_size,
            "--out", t / "fw", "--save-model", t / "w.model", "-q")
        run("hdbscan", t / "rep.npy", "--min-cluster-size", a.min_cluster_size, "--out", t / "fr",
            "--save-model", t / "r.model", "-q")
        rows = []
        for name, model, out in (("weighted rows", t / "w.model", t / "pw"), ("repeated rows", t / "r.model", t / "pr")):
            cold, peak = cold_predict(model, t / "new.npy", out, a.repeat)
            warm = warm_predict(model, t / "new.npy", a.repeat)
            rows.append((name, model.stat().st_size / 1e6, cold, peak, warm))
        same = (np.array_equal(np.load(t / "pw" / "labels.npy"), np.load(t / "pr" / "labels.npy"))
                and np.array_equal(np.load(t / "pw" / "membership.npy"), np.load(t / "pr" / "membership.npy"),
                                   equal_nan=True))
        clusters = int(np.load(t / "pw" / "labels.npy").max()) + 1
    print(f"{a.rows} rows x {d}, weights 1..{a.max_weight} ({int(w.sum())} points), min_cluster_size "
          f"{a.min_cluster_size}, {clusters} clusters; 10000 new points; medians of {a.repeat} cold runs")
    print(f"{'model':<15} {'file MB':>8} {'cold s':>7} {'peak MB':>8} {'warm s':>7}")
    for name, mb, cold, peak, warm in rows:
        print(f"{name:<15} {mb:8.2f} {cold:7.2f} {peak:8.0f} {warm:7.3f}")
    (_, mb_w, cold_w, peak_w, warm_w), (_, mb_r, cold_r, peak_r, warm_r) = rows
    print(f"{'ratio':<15} {mb_r / mb_w:7.1f}x {cold_r / cold_w:6.2f}x {peak_r / peak_w:7.2f}x {warm_r / warm_w:6.2f}x"
          f"   (repeated / weighted)")
    print("same labels and memberships:", same)
    if not same:
        raise SystemExit("the two models disagree")


if __name__ == "__main__":
    main()
