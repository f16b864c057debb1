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
}
