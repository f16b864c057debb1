package org.sylva.spark;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

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

    /** A dataset of one {@code features} column (array of doubles), rows in order, in {@code partitions} partitions. */
    static Dataset<Row> points(double[] coords, int n, int d, int partitions) {
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<Double> x = new ArrayList<>(d);
            for (int j = 0; j < d; j++) x.add(coords[i * d + j]);
            rows.add(RowFactory.create(i, seq(x)));
        }
        StructType schema = new StructType()
                .add("id", DataTypes.IntegerType, false)
                .add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), true);
        return get().createDataFrame(context().parallelize(rows, partitions), schema);
    }
}
