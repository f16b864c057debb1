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
 * Kryo: run in a JVM of its own by {@code KryoRoundTripTest} (one Spark context per JVM). With a directory as its
 * argument, it also saves the model there (label column {@code cluster}) and loads it back. Prints
 * {@code kryo fit ok} and exits 0 when every output equals the local fit's.
 */
public final class KryoFitMain {
    private KryoFitMain() {
    }

    /**
     * With {@code -Dsylva.kryo.registrationRequired=true}: Kryo refuses every class not registered, and the session
     * gives it {@link SylvaKryoRegistrator}.
     */
    static final boolean REGISTRATION_REQUIRED = Boolean.getBoolean("sylva.kryo.registrationRequired");

    static final int N = 600;
    static final int D = 3;

    /** The fit's rows: three groups of {@link #N} points in {@link #D} dimensions, row-major. */
    static double[] data() {
        Random rnd = new Random(9);
        double[] x = new double[N * D];
        for (int i = 0; i < x.length; i++) x[i] = (i / D % 3) * 8 + rnd.nextGaussian();
        return x;
    }

    public static void main(String[] args) throws java.io.IOException {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sylva-kryo-check")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .config("spark.kryo.registrationRequired", REGISTRATION_REQUIRED)
                .config("spark.kryo.registrator", REGISTRATION_REQUIRED ? SylvaKryoRegistrator.class.getName() : "")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        int status = 1;
        try {
            int n = N, d = D;
            double[] x = data();
            Dataset<Row> df = DatasetOf.points(spark, x, n, d, 3);
            HdbscanResult local = Hdbscan.builder().minClusterSize(10).build()
                    .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
            SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(10).fit(df);
            boolean fit = Arrays.equals(local.labels(), model.result().labels())
                    && Arrays.equals(local.probabilities(), model.result().probabilities());
            long transformed = model.transform(df).count();
            // the grouped fit shuffles whole rows with their schema: columns of several types ride along
            Dataset<Row> keyed = df.withColumn("key", org.apache.spark.sql.functions.expr("cast(cast(id % 2 as string) as binary)"))
                    .withColumn("name", org.apache.spark.sql.functions.expr("concat('clip ', cast(id as string))"))
                    .withColumn("big", org.apache.spark.sql.functions.expr("cast(id as bigint) * 3"))
                    .withColumn("when", org.apache.spark.sql.functions.expr("timestamp_seconds(id)"))
                    .withColumn("vec", org.apache.spark.ml.functions.array_to_vector(org.apache.spark.sql.functions.col("features")))
                    // arrays of every element type Spark keeps boxed, nested arrays, the newer time types
                    .withColumn("f32", org.apache.spark.sql.functions.expr("cast(features as array<float>)"))
                    .withColumn("ints", org.apache.spark.sql.functions.expr("array(id, id + 1)"))
                    .withColumn("longs", org.apache.spark.sql.functions.expr("array(cast(id as bigint))"))
                    .withColumn("flags", org.apache.spark.sql.functions.expr("array(id % 2 = 0)"))
                    .withColumn("decs", org.apache.spark.sql.functions.expr("array(cast(id as decimal(10, 2)))"))
                    .withColumn("dates", org.apache.spark.sql.functions.expr("array(date_from_unix_date(id))"))
                    .withColumn("nested", org.apache.spark.sql.functions.expr("array(features, features)"))
                    .withColumn("local", org.apache.spark.sql.functions.expr("cast(timestamp_seconds(id) as timestamp_ntz)"))
                    .withColumn("span", org.apache.spark.sql.functions.expr("make_dt_interval(id % 3)"));
            long grouped = new SylvaHdbscan().setMinClusterSize(10).fitGroups(keyed, "key").count();
            // keys that are arrays and structs (the group key class holds them as lists), features as float arrays
            Dataset<Row> arrayKeyed = keyed.withColumn("akey", org.apache.spark.sql.functions.expr("array(id % 2, 1)"))
                    .withColumn("skey", org.apache.spark.sql.functions.expr("named_struct('a', id % 2, 'b', array(1))"));
            grouped = Math.min(grouped, new SylvaHdbscan().setMinClusterSize(10).setFeaturesCol("f32")
                    .fitGroups(arrayKeyed, "akey").count());
            grouped = Math.min(grouped, new SylvaHdbscan().setMinClusterSize(10).fitGroups(arrayKeyed, "skey").count());
            boolean saved = true;
            if (args.length > 0) {
                model.setLabelCol("cluster").write().save(args[0]);
                SylvaHdbscanModel back = SylvaHdbscanModel.load(args[0]);
                saved = back.transform(df).collectAsList().equals(model.transform(df).collectAsList());
            }
            System.out.println("fit equal " + fit + ", transformed " + transformed + ", grouped " + grouped
                    + ", saved and loaded alike " + saved);
            if (fit && transformed == n && grouped == n && saved) {
                System.out.println("kryo fit ok");
                status = 0;
            }
        } finally {
            spark.stop();
        }
        System.exit(status);
    }
}
