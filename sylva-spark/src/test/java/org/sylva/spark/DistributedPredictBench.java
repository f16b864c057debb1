package org.sylva.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The distributed prediction's benchmark (not a test; run by {@code scripts/spark-bench.sh predict}): a model of
 * {@code nFit} clip-like points ({@code min_cluster_size} 20, fitted once through {@link SylvaHdbscan}), then
 * {@code nNew} other clips assigned by {@link SylvaHdbscanModel#predict} on {@code local[threads]} (a cached
 * DataFrame in {@code slices} partitions, the three columns collected to the driver) against the library's
 * {@link HdbscanModel#approximatePredict} of the same points on {@code threads} threads, alternating, after one
 * warm-up of each; medians and the ratio. Every repetition checks the rows bitwise equal to the library's.
 *
 * <p>Arguments: {@code nFit nNew repetitions threads slices}.
 */
public final class DistributedPredictBench {
    private DistributedPredictBench() {
    }

    public static void main(String[] args) {
        int nFit = Integer.parseInt(args[0]);
        int nNew = Integer.parseInt(args[1]);
        int reps = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        int slices = Integer.parseInt(args[4]);
        int d = ClipLikeData.SAMPLES;
        double[] fit = ClipLikeData.generate(nFit, 42).points().coordinates64();
        double[] fresh = ClipLikeData.generate(nNew, 43).points().coordinates64();
        SparkSession spark = SparkSession.builder().master("local[" + threads + "]").appName("sylva-bench")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(20)
                .fit(DatasetOf.points(spark, fit, nFit, d, slices));
        HdbscanModel library = model.predictionModel();
        Dataset<Row> df = DatasetOf.points(spark, fresh, nNew, d, slices).cache();
        df.count();
        Execution ex = new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER);
        List<Double> tl = new ArrayList<>(), td = new ArrayList<>();
        for (int r = 0; r <= reps; r++) {
            long t0 = System.nanoTime();
            Prediction p = library.approximatePredict(PointSet.ofFloat64(nNew, d, fresh), ex);
            double s = (System.nanoTime() - t0) / 1e9;
            if (r > 0) tl.add(s);
            t0 = System.nanoTime();
            List<Row> rows = model.predict(df).select("id", "label", "probability", "outlier_score").collectAsList();
            double sd = (System.nanoTime() - t0) / 1e9;
            if (r > 0) td.add(sd);
            System.out.printf(Locale.ROOT, "rep %d: library %.3f s, Spark %.3f s%n", r, s, sd);
            int[] labels = p.labels();
            double[] prob = p.probabilities();
            double[] score = p.outlierScores();
            for (Row row : rows) {
                int i = row.getInt(0);
                if (labels[i] != row.getInt(1) || Double.doubleToRawLongBits(prob[i]) != Double.doubleToRawLongBits(row.getDouble(2))
                        || Double.doubleToRawLongBits(score[i]) != Double.doubleToRawLongBits(row.getDouble(3))) {
                    throw new IllegalStateException("row " + i + ": Spark's prediction differs from the library's");
                }
            }
            if (rows.size() != nNew) throw new IllegalStateException(rows.size() + " rows, expected " + nNew);
        }
        System.out.printf(Locale.ROOT, "%nfit n=%d, new n=%d, d=%d, threads=%d, slices=%d, heap=%d MiB%n", nFit, nNew, d,
                threads, slices, Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf(Locale.ROOT, "library median %.3f s, Spark median %.3f s, ratio Spark/library %.2f%n",
                median(tl), median(td), median(td) / median(tl));
        spark.stop();
    }

    private static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
