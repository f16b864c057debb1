package org.sylva.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

import scala.Tuple2;

/**
 * {@link SylvaHdbscan#fitGroups}: each row is tagged with its place in the dataset (its partition and its
 * position there), grouped by key as Spark SQL groups ({@link GroupKey}; one shuffle), each group fitted on
 * one executor by the CPU engine with the task's cores on its rows in dataset order, and the rows, extended
 * with their group's outputs, sent back to their own partition and sorted there (a second shuffle, by a
 * partitioner that needs no sampling). Sylva runs no job until the result is consumed (an input that ends in a
 * shuffle may have Spark's adaptive execution run that shuffle's stages when its rows are taken here), and each
 * group is fitted once per job that consumes it.
 */
final class GroupedFits {
    /** A row's place: partition {@code p}, position {@code i} within it, as {@code p * 2^PARTITION_SHIFT + i}. */
    static final int PARTITION_SHIFT = 40;

    private GroupedFits() {
    }

    static Dataset<Row> run(Dataset<?> dataset, String keyColumn, SylvaHdbscan estimator, boolean smallAsNoise) {
        StructType schema = dataset.schema();
        StructType out = estimator.transformSchema(schema);
        int keyIndex = FeatureColumn.fieldIndex(schema, keyColumn);
        String collation = collatedString(schema.fields()[keyIndex].dataType());
        if (collation != null) {
            // df.groupBy compares such strings under their collation ("ch" and "CH" are one group under
            // UTF8_LCASE); here keys are compared as values, which would split that group
            throw new InvalidInputException("fitGroups: key column '" + keyColumn + "' holds strings of collation "
                    + collation + ", under which df.groupBy makes one group of different strings; give the key in "
                    + "the binary collation (collate(key, 'UTF8_BINARY'), or lower(key) for UTF8_LCASE)");
        }
        FeatureColumn fc = FeatureColumn.of(schema, estimator.getOrDefault(estimator.featuresCol()));
        FitSettings settings = estimator.settings();
        Dataset<Row> source = dataset.toDF();
        // Spark SQL groups strings by their UTF-8 bytes, where a Row holds them decoded: invalid sequences all
        // decode to U+FFFD, so two groups would become one. A key holding strings is grouped by a copy of it with
        // each string cast to its bytes, appended to the row for the tagging only; the row keeps its own columns.
        DataType bytesType = stringsAsBinary(schema.fields()[keyIndex].dataType());
        int width = schema.fields().length;
        if (bytesType != null) {
            // the columns renamed by position first: the key is taken as the first column of its name (a join can
            // leave two), which a look-up by name would call ambiguous; the rows are read by index all the same
            String[] names = new String[width];
            for (int i = 0; i < width; i++) names[i] = "c" + i;
            source = source.toDF(names).withColumn("key_bytes", functions.col("c" + keyIndex).cast(bytesType));
        }
        boolean byBytes = bytesType != null;
        JavaRDD<Row> rows = source.javaRDD();
        int partitions = Math.max(1, rows.getNumPartitions());
        JavaPairRDD<Object, Tuple2<Long, Row>> byKey = rows.mapPartitionsWithIndex(
                (p, it) -> tagged(p, it, keyIndex, byBytes ? width : -1), false).mapToPair(t -> t);
        JavaRDD<Tuple2<Long, Row>> fitted = byKey.groupByKey(partitions)
                .flatMap(g -> fitGroup(g._1(), g._2(), fc, settings, smallAsNoise).iterator());
        fitted.setName("sylva hdbscan: one fit per '" + keyColumn + "'");
        JavaRDD<Row> ordered = fitted.mapToPair(t -> t)
                .repartitionAndSortWithinPartitions(new HomePartition(partitions))
                .values();
        return dataset.sparkSession().createDataFrame(ordered, out);
    }

    /**
     * Partition {@code p}'s rows with their key and place, one at a time as the shuffle pulls them (streamed). With
     * {@code bytesIndex} at least 0, the row's last column (at that index) is its key's copy with strings as bytes:
     * the key compares by it, is shown as the key column's value, and the row goes on without that column.
     */
    private static Iterator<Tuple2<Object, Tuple2<Long, Row>>> tagged(int p, Iterator<Row> rows, int keyIndex,
                                                                       int bytesIndex) {
        return RowPlaces.numbered(rows, 0, (r, position) -> {
            if (bytesIndex < 0) return new Tuple2<>(GroupKey.of(r.get(keyIndex)), new Tuple2<>(place(p, position), r));
            Object[] values = new Object[bytesIndex];
            for (int i = 0; i < bytesIndex; i++) values[i] = r.get(i);
            return new Tuple2<>(GroupKey.shownAs(GroupKey.of(r.get(bytesIndex)), r.get(keyIndex)),
                    new Tuple2<>(place(p, position), org.apache.spark.sql.RowFactory.create(values)));
        });
    }

    /**
     * {@code t} with every string type in it (at its top, in arrays, maps and structs) made binary, which a cast
     * turns into the string's UTF-8 bytes; null where {@code t} holds no string.
     */
    static DataType stringsAsBinary(DataType t) {
        if (t instanceof StringType) return DataTypes.BinaryType;
        if (t instanceof ArrayType a) {
            DataType e = stringsAsBinary(a.elementType());
            return e == null ? null : DataTypes.createArrayType(e, a.containsNull());
        }
        if (t instanceof MapType m) {
            DataType k = stringsAsBinary(m.keyType()), v = stringsAsBinary(m.valueType());
            if (k == null && v == null) return null;
            return DataTypes.createMapType(k == null ? m.keyType() : k, v == null ? m.valueType() : v,
                    m.valueContainsNull());
        }
        if (t instanceof StructType s) {
            StructField[] fields = s.fields().clone();
            boolean any = false;
            for (int i = 0; i < fields.length; i++) {
                DataType f = stringsAsBinary(fields[i].dataType());
                if (f != null) {
                    fields[i] = new StructField(fields[i].name(), f, fields[i].nullable(), fields[i].metadata());
                    any = true;
                }
            }
            return any ? new StructType(fields) : null;
        }
        return null;
    }

    /**
     * The collation of a string type whose equality is not byte equality, at the top of {@code t} or inside its
     * arrays, maps and structs; null where every string compares by its bytes.
     */
    static String collatedString(DataType t) {
        if (t instanceof StringType s) return s.supportsBinaryEquality() ? null : s.collationName();
        if (t instanceof ArrayType a) return collatedString(a.elementType());
        if (t instanceof MapType m) {
            String k = collatedString(m.keyType());
            return k != null ? k : collatedString(m.valueType());
        }
        if (t instanceof StructType s) {
            for (StructField f : s.fields()) {
                String c = collatedString(f.dataType());
                if (c != null) return c;
            }
        }
        return null;
    }

    static long place(int partition, long position) {
        return ((long) partition << PARTITION_SHIFT) | position;
    }

    /** "row i of partition p", as refusals name a row of a grouped fit. */
    static String describePlace(long place) {
        return RowPlaces.describe((int) (place >>> PARTITION_SHIFT), place & ((1L << PARTITION_SHIFT) - 1));
    }

    /** Sends each row back to the partition it came from (its place's high bits). */
    static final class HomePartition extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int partitions;

        HomePartition(int partitions) {
            this.partitions = partitions;
        }

        @Override
        public int numPartitions() {
            return partitions;
        }

        @Override
        public int getPartition(Object key) {
            return (int) ((Long) key >>> PARTITION_SHIFT);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof HomePartition h && h.partitions == partitions;
        }

        @Override
        public int hashCode() {
            return partitions;
        }
    }

    /**
     * The group's rows with its fit's outputs appended, in dataset order. A group too small for the fit (fewer than
     * two rows, or fewer than {@code minSamples}, {@code minClusterSize} when unset) is refused, or, with {@code
     * smallAsNoise}, returned as noise: label -1, probability 0 and outlier score NaN (no fit, so no score). Its rows
     * are read all the same, so a bad row is refused whatever its group's size.
     */
    static List<Tuple2<Long, Row>> fitGroup(Object key, Iterable<Tuple2<Long, Row>> members, FeatureColumn fc,
                                                    FitSettings settings, boolean smallAsNoise) {
        List<Tuple2<Long, Row>> rows = new ArrayList<>();
        for (Iterator<Tuple2<Long, Row>> it = members.iterator(); it.hasNext(); ) rows.add(it.next());
        // the shuffle delivers a group's rows in any order: the fit takes them in dataset order
        rows.sort((a, b) -> Long.compare(a._1(), b._1()));
        String group = "group " + GroupKey.describe(key) + " (" + rows.size()
                + (rows.size() == 1 ? " row): " : " rows): ");
        int n = rows.size();
        double[] coords;
        try {
            coords = packed(rows, fc);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(group + e.getMessage());
        }
        if (smallAsNoise && settings.tooFew(n)) return asNoise(rows);
        HdbscanResult result;
        try {
            org.apache.spark.TaskContext tc = org.apache.spark.TaskContext.get();
            int threads = tc == null ? 1 : Math.max(1, tc.cpus());
            CancellationToken token = tc == null ? CancellationToken.NEVER : CancellationToken.polling(tc::isInterrupted);
            result = settings.builder(threads).build().fit(coords, n, coords.length / n, ProgressListener.NONE, token);
        } catch (InvalidInputException e) {
            String why = e.getMessage();
            if (settings.tooFew(n)) {
                // in the params' terms, as the estimator's own fit says it, and with the way out
                if (e.parameter().filter("min_samples"::equals).isPresent()) {
                    why += " (" + settings.minSamplesParam() + ")";
                }
                why += "; smallGroups \"noise\" makes such a group noise";
            }
            throw new InvalidInputException(group + why);
        }
        return withOutputs(rows, result.labels(), result.probabilities(), result.outlierScores());
    }

    /** The group's points, row-major, each row named by its place in a refusal (null, non-finite, ragged, empty). */
    private static double[] packed(List<Tuple2<Long, Row>> rows, FeatureColumn fc) {
        List<double[]> points = new ArrayList<>(rows.size());
        for (Tuple2<Long, Row> r : rows) {
            double[] x = fc.read(r._2(), describePlace(r._1()));
            if (x.length == 0) {
                throw new InvalidInputException(describePlace(r._1()) + ": column '" + fc.name() + "' is empty");
            }
            if (!points.isEmpty() && x.length != points.get(0).length) {
                throw new InvalidInputException(describePlace(r._1()) + ": column '" + fc.name() + "' has " + x.length
                        + " values, " + describePlace(rows.get(0)._1()) + " has " + points.get(0).length);
            }
            points.add(x);
        }
        return FeatureColumn.pack(points, fc.name());
    }

    private static List<Tuple2<Long, Row>> asNoise(List<Tuple2<Long, Row>> rows) {
        int n = rows.size();
        int[] labels = new int[n];
        java.util.Arrays.fill(labels, -1);
        double[] scores = new double[n];
        java.util.Arrays.fill(scores, Double.NaN);
        return withOutputs(rows, labels, new double[n], scores);
    }

    private static List<Tuple2<Long, Row>> withOutputs(List<Tuple2<Long, Row>> rows, int[] labels,
                                                       double[] probabilities, double[] outlierScores) {
        List<Tuple2<Long, Row>> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            out.add(new Tuple2<>(rows.get(i)._1(), FeatureColumn.withFitOutputs(rows.get(i)._2(), labels,
                    probabilities, outlierScores, i)));
        }
        return out;
    }
}
