package org.sylva.spark;

import java.util.List;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** One local Spark session for the module's tests: two executor threads, up to 4 attempts per task. */
final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {
    }

    static synchronized SparkSession get() {
        if (session == null) {
            session = SparkSession.builder().master("local[2,4]").appName("sylva-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.driver.host", "127.0.0.1")
                    .getOrCreate();
            session.sparkContext().setLogLevel("WARN");
        }
        return session;
    }

    static JavaSparkContext context() {
        return JavaSparkContext.fromSparkContext(get().sparkContext());
    }

    /** A Scala sequence, the external type Spark's rows take for an array column. */
    static <T> scala.collection.immutable.Seq<T> seq(List<T> values) {
        return scala.jdk.javaapi.CollectionConverters.asScala(values).toList();
    }

    /** A dataset of {@code id} and {@code features} (array of doubles), rows in order, in {@code partitions} partitions. */
    static Dataset<Row> points(double[] coords, int n, int d, int partitions) {
        return DatasetOf.points(get(), coords, n, d, partitions);
    }

    /**
     * How a refusal names the row of {@code df} whose column {@code idCol} equals {@code id} ("row 1 of
     * partition 3"): its partition of {@code df}'s rows and its position there, found here by walking them.
     */
    static String placeOf(Dataset<Row> df, String idCol, Object id) {
        int col = df.schema().fieldIndex(idCol);
        List<String> found = df.javaRDD().mapPartitionsWithIndex((p, it) -> {
            List<String> hits = new java.util.ArrayList<>();
            for (long i = 0; it.hasNext(); i++) {
                if (java.util.Objects.equals(it.next().get(col), id)) hits.add("row " + i + " of partition " + p);
            }
            return hits.iterator();
        }, true).collect();
        if (found.size() != 1) throw new IllegalArgumentException(found.size() + " rows with " + idCol + " = " + id);
        return found.get(0);
    }

    /** The jobs that start while {@code action} runs, each as its description and its tags: "DESCRIPTION [TAGS]". */
    static List<String> jobsDuring(Runnable action) {
        org.apache.spark.SparkContext sc = get().sparkContext();
        List<String> jobs = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        org.apache.spark.scheduler.SparkListener l = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart s) {
                jobs.add(s.properties().getProperty("spark.job.description", "") + " ["
                        + s.properties().getProperty("spark.job.tags", "") + "]");
            }
        };
        try {
            sc.listenerBus().waitUntilEmpty();
            sc.addSparkListener(l);
            try {
                action.run();
                sc.listenerBus().waitUntilEmpty();
            } finally {
                sc.removeSparkListener(l);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Spark's listener bus did not drain", e);
        }
        return List.copyOf(jobs);
    }
}
