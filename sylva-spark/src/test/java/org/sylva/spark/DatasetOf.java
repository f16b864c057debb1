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

/** Row-major points as a DataFrame ({@code id}, {@code features} as array of double), order kept. */
final class DatasetOf {
    private DatasetOf() {
    }

    static Dataset<Row> points(SparkSession spark, double[] coords, int n, int d, int partitions) {
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double[] p = new double[d];
            System.arraycopy(coords, i * d, p, 0, d);
            rows.add(RowFactory.create(i, p));
        }
        StructType schema = new StructType()
                .add("id", DataTypes.IntegerType, false)
                .add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), true);
        return spark.createDataFrame(JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows, partitions),
                schema);
    }
}
