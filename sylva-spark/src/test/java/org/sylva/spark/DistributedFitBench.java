package org.sylva.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.spark.sql.SparkSession;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The distributed fit's benchmark (not a test; run by {@code scripts/spark-bench.sh}): clip-like points,
 * {@code min_cluster_size} 20, the library's fit on the CPU engine with {@code threads} threads against the
 * same fit through {@link SparkHdbscanEngine} on {@code local[threads]}, alternating, after one warm-up of
 * each; medians, the ratio, and the bytes broadcast and collected per stage of the last distributed fit.
 * Both results are checked equal (core distances, tree, labels) on every repetition. Also timed: the whole
 * {@link SylvaHdbscan#fit} on a cached DataFrame of the same rows in {@code slices} partitions (the column
 * collected to the driver, then the same distributed fit).
 *
 * <p>Arguments: {@code n repetitions threads slices [skipLocal]}; {@code skipLocal} times the engine alone
 * (no local fit, no DataFrame), for sizes where only completion and memory are in question.
 */
public final class DistributedFitBench {
    private DistributedFitBench() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int reps = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        int slices = Integer.parseInt(args[3]);
        boolean skipLocal = args.length > 4 && args[4].equals("skipLocal");
        double[] coords = ClipLikeData.generate(n, 42).points().coordinates64();
        int d = ClipLikeData.SAMPLES;
        SparkSession spark = SparkSession.builder().master("local[" + threads + "]").appName("sylva-bench")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        SparkHdbscanEngine engine = new SparkHdbscanEngine(spark, slices);
        Hdbscan local = Hdbscan.builder().minClusterSize(20).threads(threads).build();
        Hdbscan distributed = local.toBuilder().engine(engine).build();
        List<Double> tl = new ArrayList<>(), td = new ArrayList<>(), te = new ArrayList<>();
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df = skipLocal ? null
                : DatasetOf.points(spark, coords, n, d, slices).cache();
        if (df != null) df.count();
        HdbscanResult ref = null;
        for (int r = 0; r <= reps; r++) {
            if (!skipLocal) {
                long t0 = System.nanoTime();
                ref = local.fit(coords, n, d, ProgressListener.NONE, CancellationToken.NEVER);
                double s = (System.nanoTime() - t0) / 1e9;
                if (r > 0) tl.add(s);
                System.out.printf(Locale.ROOT, "local       rep %d: %.2f s%n", r, s);
            }
            long t0 = System.nanoTime();
            HdbscanResult got = distributed.fit(coords, n, d, ProgressListener.NONE, CancellationToken.NEVER);
            double s = (System.nanoTime() - t0) / 1e9;
            if (r > 0) td.add(s);
            System.out.printf(Locale.ROOT, "distributed rep %d: %.2f s (%d clusters), stages %s%n", r, s,
                    got.clusterCount(), got.timings().seconds());
            if (df == null) continue;
            long e0 = System.nanoTime();
            SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(20).fit(df);
            double es = (System.nanoTime() - e0) / 1e9;
            if (r > 0) te.add(es);
            System.out.printf(Locale.ROOT, "estimator   rep %d: %.2f s (collect the column, then the same fit)%n", r, es);
            if (!Arrays.equals(model.result().labels(), got.labels())) {
                throw new IllegalStateException("the estimator's labels differ from the engine's");
            }
            if (ref != null && !(Arrays.equals(ref.coreDistances(), got.coreDistances())
                    && ref.spanningTree().equals(got.spanningTree()) && Arrays.equals(ref.labels(), got.labels()))) {
                throw new IllegalStateException("distributed result differs from the local fit");
            }
        }
        DistributedFitStats st = engine.lastFitStats();
        System.out.printf(Locale.ROOT, "%nn=%d d=%d threads=%d slices=%d heap=%d MiB%n", n, d, threads, st.slices(),
                Runtime.getRuntime().maxMemory() >> 20);
        if (!skipLocal) System.out.printf(Locale.ROOT, "local median %.2f s%n", median(tl));
        System.out.printf(Locale.ROOT, "distributed median %.2f s%n", median(td));
        if (!skipLocal) System.out.printf(Locale.ROOT, "estimator median %.2f s%n", median(te));
        if (!skipLocal) {
            System.out.printf(Locale.ROOT, "ratio distributed/local %.2f, estimator/local %.2f%n", median(td) / median(tl),
                    median(te) / median(tl));
        }
        System.out.println("| stage | components | broadcast | collected | job s | driver s |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (DistributedFitStats.Stage s : st.stages()) {
            System.out.printf(Locale.ROOT, "| %s | %d | %s | %s | %.2f | %.3f |%n", s.name(), s.componentsBefore(),
                    mib(s.broadcastBytes()), mib(s.collectedBytes()), s.jobSeconds(), s.driverSeconds());
        }
        spark.stop();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.2f MiB", bytes / 1048576.0);
    }

    private static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (a.length == 0) return Double.NaN;
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
