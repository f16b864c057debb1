package org.sylva.spark;

import java.util.Arrays;
import java.util.Random;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * A distributed fit, per-group fits and its model's transform in a session whose {@code spark.serializer} is
 * Kryo: run in a JVM of its own by {@code KryoRoundTripTest} (one Spark context per JVM). Prints
 * {@code kryo fit ok} and exits 0 when every output equals the local fit's.
 */
public final class KryoFitMain {
    private KryoFitMain() {
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sylva-kryo-check")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        int status = 1;
        try {
            int n = 600, d = 3;
            Random rnd = new Random(9);
            double[] x = new double[n * d];
            for (int i = 0; i < x.length; i++) x[i] = (i / d % 3) * 8 + rnd.nextGaussian();
            Dataset<Row> df = DatasetOf.points(spark, x, n, d, 3);
            HdbscanResult local = Hdbscan.builder().minClusterSize(10).build()
                    .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
            SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(10).fit(df);
            boolean fit = Arrays.equals(local.labels(), model.result().labels())
                    && Arrays.equals(local.probabilities(), model.result().probabilities());
            long transformed = model.transform(df).count();
            Dataset<Row> keyed = df.withColumn("key", org.apache.spark.sql.functions.expr("cast(cast(id % 2 as string) as binary)"));
            long grouped = new SylvaHdbscan().setMinClusterSize(10).fitGroups(keyed, "key").count();
            System.out.println("fit equal " + fit + ", transformed " + transformed + ", grouped " + grouped);
            if (fit && transformed == n && grouped == n) {
                System.out.println("kryo fit ok");
                status = 0;
            }
        } finally {
            spark.stop();
        }
        System.exit(status);
    }
}
