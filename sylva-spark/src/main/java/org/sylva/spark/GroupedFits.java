package org.sylva.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

import scala.Tuple2;

/**
 * {@link SylvaHdbscan#fitGroups}: rows are numbered in dataset order, grouped by key (one shuffle), each
 * group fitted on one executor by the CPU engine with the task's cores, and the rows, extended with their
 * group's outputs, sorted back into dataset order (a second shuffle).
 */
final class GroupedFits {
    private GroupedFits() {
    }

    static Dataset<Row> run(Dataset<?> dataset, String keyColumn, SylvaHdbscan estimator) {
        StructType schema = dataset.schema();
        StructType out = estimator.transformSchema(schema);
        int keyIndex = FeatureColumn.fieldIndex(schema, keyColumn);
        FeatureColumn fc = FeatureColumn.of(schema, estimator.getOrDefault(estimator.featuresCol()));
        FitSettings settings = estimator.settings();
        int partitions = Math.max(1, dataset.rdd().getNumPartitions());
        // lazy, like any transformation: the fits run in the job that consumes the result
        JavaPairRDD<Object, Tuple2<Long, Row>> byKey = dataset.toDF().javaRDD().zipWithIndex()
                .mapToPair(t -> new Tuple2<>(t._1().get(keyIndex), new Tuple2<>(t._2(), t._1())));
        JavaRDD<Tuple2<Long, Row>> fitted = byKey.groupByKey(partitions)
                .flatMap(g -> fitGroup(g._1(), g._2(), fc, settings).iterator());
        fitted.setName("sylva hdbscan: one fit per '" + keyColumn + "'");
        JavaRDD<Row> ordered = fitted.mapToPair(t -> t).sortByKey(true, partitions).values();
        return dataset.sparkSession().createDataFrame(ordered, out);
    }

    private static List<Tuple2<Long, Row>> fitGroup(Object key, Iterable<Tuple2<Long, Row>> members, FeatureColumn fc,
                                                    FitSettings settings) {
        List<Tuple2<Long, Row>> rows = new ArrayList<>();
        for (Iterator<Tuple2<Long, Row>> it = members.iterator(); it.hasNext(); ) rows.add(it.next());
        rows.sort((a, b) -> Long.compare(a._1(), b._1()));
        List<double[]> points = new ArrayList<>(rows.size());
        for (Tuple2<Long, Row> r : rows) points.add(fc.read(r._2(), r._1()));
        double[] coords;
        HdbscanResult result;
        try {
            coords = FeatureColumn.pack(points, fc.name());
            int n = rows.size();
            org.apache.spark.TaskContext tc = org.apache.spark.TaskContext.get();
            int threads = tc == null ? 1 : Math.max(1, tc.cpus());
            CancellationToken token = tc == null ? CancellationToken.NEVER : CancellationToken.polling(tc::isInterrupted);
            result = settings.builder(threads).build().fit(coords, n, coords.length / n, ProgressListener.NONE, token);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("group " + keyColumnValue(key) + " (" + rows.size() + " rows): "
                    + e.getMessage());
        }
        List<Tuple2<Long, Row>> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            out.add(new Tuple2<>(rows.get(i)._1(), FeatureColumn.withFitOutputs(rows.get(i)._2(), result.labels(),
                    result.probabilities(), result.outlierScores(), i)));
        }
        return out;
    }

    private static String keyColumnValue(Object key) {
        String s = key == null ? "null" : "'" + key + "'";
        return s.length() > 80 ? s.substring(0, 77) + "...'" : s;
    }
}
