package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** One fit per key: each group's outputs equal a separate {@code Hdbscan.fit} of its rows in dataset order. */
class GroupedFitsTest {
    private static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.IntegerType, false)
            .add("channel", DataTypes.StringType, true)
            .add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), true);

    @Test
    void eachGroupEqualsItsOwnFit() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        int n = x.rows(), d = x.cols();
        String[] keys = {"ch0", "ch1", "ch2", null, "ch4"};
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Double> p = new ArrayList<>();
            for (int j = 0; j < d; j++) p.add(x.values()[i * d + j]);
            rows.add(RowFactory.create(i, keys[(i * 7 + i / 3) % keys.length], LocalSpark.seq(p)));
        }
        Dataset<Row> df = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(rows, 3), SCHEMA);
        List<Row> out = new SylvaHdbscan().setMinClusterSize(8).setMinSamples(4).fitGroups(df, "channel").collectAsList();
        assertEquals(n, out.size());
        for (String key : keys) {
            List<Integer> members = new ArrayList<>();
            for (int i = 0; i < n; i++) if (java.util.Objects.equals(keys[(i * 7 + i / 3) % keys.length], key)) members.add(i);
            double[] coords = new double[members.size() * d];
            for (int m = 0; m < members.size(); m++) System.arraycopy(x.values(), members.get(m) * d, coords, m * d, d);
            HdbscanResult own = Hdbscan.builder().minClusterSize(8).minSamples(4).build()
                    .fit(coords, members.size(), d, ProgressListener.NONE, CancellationToken.NEVER);
            for (int m = 0; m < members.size(); m++) {
                Row r = out.get(members.get(m));
                assertEquals(members.get(m).intValue(), r.getInt(0), "rows come back in dataset order");
                assertEquals(key, r.getString(1));
                assertEquals(own.labels()[m], r.getInt(3), "group " + key + " row " + m);
                assertEquals(own.probabilities()[m], r.getDouble(4));
                assertEquals(own.outlierScores()[m], r.getDouble(5));
            }
        }
    }

    @Test
    void aGroupTooSmallIsNamed() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 30; i++) rows.add(RowFactory.create(i, i < 27 ? "big" : "tiny", LocalSpark.seq(List.of((double) i, i * 0.5))));
        Dataset<Row> df = LocalSpark.get().createDataFrame(rows, SCHEMA);
        Exception e = assertThrows(Exception.class,
                () -> new SylvaHdbscan().setMinClusterSize(5).fitGroups(df, "channel").collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("group 'tiny' (3 rows): min_samples (5) must be at most the number of samples in X (3) "
                + "(param minClusterSize: minSamples, unset, defaults to it); smallGroups \"noise\" makes such a group "
                + "noise"), all);
    }

    /**
     * With "noise", a group too small to fit (fewer than minSamples rows) is noise, unscored; a group of minSamples
     * rows or more is its own fit, also below minClusterSize; bad rows still fail, named by their place.
     */
    @Test
    void aGroupTooSmallIsNoiseWhenAsked() {
        double[] x = twoBlobs(40);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add(i == 7 ? "one" : i == 11 || i == 30 ? "two" : i == 2 || i == 20 || i == 33 ? "three"
                    : i % 9 == 4 ? "four" : "big");
        }
        Dataset<Row> df = keyed(x, keys, DataTypes.StringType, 3);
        SylvaHdbscan estimator = new SylvaHdbscan().setMinClusterSize(6).setMinSamples(3);
        List<Row> out = estimator.fitGroups(df, "key", "noise").collectAsList();
        assertEquals(40, out.size());
        for (int i = 0; i < 40; i++) assertEquals(i, out.get(i).getInt(0), "rows come back in dataset order");
        java.util.Map<Object, List<Integer>> members = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 40; i++) members.computeIfAbsent(keys.get(i), k -> new ArrayList<>()).add(i);
        assertEquals(4, members.get("four").size());
        for (var g : members.entrySet()) {
            List<Integer> m = g.getValue();
            if (m.size() < 3) {
                for (int i : m) {
                    assertEquals(-1, out.get(i).getInt(3), "row " + i + " of a group too small to fit");
                    assertEquals(0.0, out.get(i).getDouble(4));
                    assertTrue(Double.isNaN(out.get(i).getDouble(5)), "no outlier score for a group not fitted");
                }
                continue;
            }
            double[] c = new double[m.size() * 2];
            for (int j = 0; j < m.size(); j++) System.arraycopy(x, m.get(j) * 2, c, j * 2, 2);
            HdbscanResult own = Hdbscan.builder().minClusterSize(6).minSamples(3).build()
                    .fit(c, m.size(), 2, ProgressListener.NONE, CancellationToken.NEVER);
            for (int j = 0; j < m.size(); j++) {
                Row r = out.get(m.get(j));
                assertEquals(own.labels()[j], r.getInt(3), "group " + g.getKey() + " row " + m.get(j));
                assertEquals(own.probabilities()[j], r.getDouble(4));
                assertEquals(own.outlierScores()[j], r.getDouble(5));
                assertTrue(Double.isFinite(r.getDouble(5)), "a fitted group is scored");
            }
        }
        assertTrue(members.get("big").stream().anyMatch(i -> out.get(i).getInt(3) >= 0), "the big group has clusters");

        // a bad row is refused in a small group too (no way out offered: "noise" is given), named by its place
        List<Row> bad = new ArrayList<>(df.collectAsList());
        bad.set(7, RowFactory.create(7, "one", LocalSpark.seq(List.of(Double.NaN, 1.0))));
        Dataset<Row> badDf = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(bad, 3), df.schema());
        Exception e = assertThrows(Exception.class, () -> estimator.fitGroups(badDf, "key", "noise").collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("group 'one' (1 row): " + LocalSpark.placeOf(badDf, "id", 7) + ": column 'features' "
                + "holds NaN at index 0"), all);
        assertFalse(all.contains("makes such a group noise"), all);
        // rows of another length in a group: named by their places, not by their order in the group
        List<Row> ragged = new ArrayList<>(df.collectAsList());
        ragged.set(30, RowFactory.create(30, "two", LocalSpark.seq(List.of(1.0, 2.0, 3.0))));
        Dataset<Row> raggedDf = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(ragged, 3), df.schema());
        e = assertThrows(Exception.class, () -> estimator.fitGroups(raggedDf, "key", "noise").collectAsList());
        all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("group 'two' (2 rows): " + LocalSpark.placeOf(raggedDf, "id", 30) + ": column "
                + "'features' has 3 values, " + LocalSpark.placeOf(raggedDf, "id", 11) + " has 2"), all);
        InvalidInputException wrong = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().fitGroups(df, "key", "skip"));
        assertEquals("fitGroups: smallGroups must be \"error\" or \"noise\", got \"skip\"", wrong.getMessage());
    }

    /** Fits of each group of {@code keys} (any key type) made separately, in dataset order, 2-D points. */
    private static void assertEachGroupEqualsItsOwnFit(List<Row> out, List<Object> groupOf, double[] x, int mcs) {
        java.util.Map<Object, List<Integer>> members = new java.util.LinkedHashMap<>();
        for (int i = 0; i < groupOf.size(); i++) members.computeIfAbsent(groupOf.get(i), k -> new ArrayList<>()).add(i);
        for (List<Integer> m : members.values()) {
            double[] c = new double[m.size() * 2];
            for (int j = 0; j < m.size(); j++) System.arraycopy(x, m.get(j) * 2, c, j * 2, 2);
            HdbscanResult own = Hdbscan.builder().minClusterSize(mcs).build()
                    .fit(c, m.size(), 2, ProgressListener.NONE, CancellationToken.NEVER);
            for (int j = 0; j < m.size(); j++) {
                Row r = out.get(m.get(j));
                assertEquals(m.get(j).intValue(), r.getInt(0), "rows come back in dataset order");
                assertEquals(own.labels()[j], r.getInt(3), "row " + m.get(j));
                assertEquals(own.probabilities()[j], r.getDouble(4), "row " + m.get(j));
            }
        }
    }

    private static double[] twoBlobs(int n) {
        java.util.Random rnd = new java.util.Random(5);
        double[] x = new double[n * 2];
        for (int i = 0; i < n; i++) {
            x[2 * i] = (i % 2) * 10 + rnd.nextGaussian();
            x[2 * i + 1] = rnd.nextGaussian();
        }
        return x;
    }

    private static Dataset<Row> keyed(double[] x, List<Object> keys, org.apache.spark.sql.types.DataType keyType,
                                      int partitions) {
        StructType schema = new StructType().add("id", DataTypes.IntegerType, false).add("key", keyType, true)
                .add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), true);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            rows.add(RowFactory.create(i, keys.get(i), LocalSpark.seq(List.of(x[2 * i], x[2 * i + 1]))));
        }
        return LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(rows, partitions), schema);
    }

    /** Strings of a collation whose equality is not byte equality: df.groupBy's groups are not values; refused. */
    @Test
    void aKeyOfCollatedStringsIsRefused() {
        double[] x = twoBlobs(60);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < 60; i++) keys.add(new String[] {"ch", "CH", "Ch"}[i % 3]);
        Dataset<Row> plain = keyed(x, keys, DataTypes.StringType, 2);
        assertEquals(3, new SylvaHdbscan().setMinClusterSize(5).fitGroups(plain, "key").select("key").distinct().count());
        for (String expr : new String[] {"collate(key, 'UTF8_LCASE')", "array(collate(key, 'UNICODE_CI'))"}) {
            Dataset<Row> df = plain.selectExpr("id", expr + " AS key", "features");
            assertEquals(1, df.groupBy("key").count().count(), expr);
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> new SylvaHdbscan().setMinClusterSize(5).fitGroups(df, "key"));
            assertTrue(e.getMessage().startsWith("fitGroups: key column 'key' holds strings of collation "
                    + (expr.contains("LCASE") ? "UTF8_LCASE" : "UNICODE_CI") + ", under which df.groupBy makes one "
                    + "group of different strings"), e.getMessage());
        }
        // the binary collation is taken, as plain strings are
        Dataset<Row> binary = plain.selectExpr("id", "collate(key, 'UTF8_BINARY') AS key", "features");
        assertEquals(3, new SylvaHdbscan().setMinClusterSize(5).fitGroups(binary, "key").select("key").distinct().count());
    }

    @Test
    void keysGroupAsSparkSqlGroupsThem() {
        int n = 120;
        double[] x = twoBlobs(n);
        // binary keys by content (three byte strings, a fresh array per row), doubles with -0.0 and NaN
        List<Object> bin = new ArrayList<>(), binGroup = new ArrayList<>();
        List<Object> dbl = new ArrayList<>(), dblGroup = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            bin.add(new byte[] {(byte) (i % 3), 7});
            binGroup.add(i % 3);
            double v = i % 3 == 0 ? (i % 2 == 0 ? 0.0 : -0.0) : i % 3 == 1 ? Double.NaN : 1.0;
            dbl.add(v);
            dblGroup.add(i % 3);
        }
        assertEachGroupEqualsItsOwnFit(new SylvaHdbscan().setMinClusterSize(5)
                .fitGroups(keyed(x, bin, DataTypes.BinaryType, 3), "key").collectAsList(), binGroup, x, 5);
        assertEachGroupEqualsItsOwnFit(new SylvaHdbscan().setMinClusterSize(5)
                .fitGroups(keyed(x, dbl, DataTypes.DoubleType, 3), "key").collectAsList(), dblGroup, x, 5);
        // floats, and arrays of binary and of doubles (element by element, with the same rules)
        List<Object> flt = new ArrayList<>(), binArrays = new ArrayList<>(), dblArrays = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flt.add(i % 3 == 0 ? (i % 2 == 0 ? 0.0f : -0.0f) : i % 3 == 1 ? Float.NaN : 2.5f);
            binArrays.add(LocalSpark.seq(List.of(new byte[] {1}, new byte[] {(byte) (i % 3)})));
            dblArrays.add(LocalSpark.seq(List.of(i % 3 == 0 ? (i % 2 == 0 ? 0.0 : -0.0) : i % 3 == 1 ? Double.NaN : 1.0)));
        }
        Object[][] cases = {
            {flt, DataTypes.FloatType},
            {binArrays, DataTypes.createArrayType(DataTypes.BinaryType, false)},
            {dblArrays, DataTypes.createArrayType(DataTypes.DoubleType, false)},
        };
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Dataset<Row> df = keyed(x, (List<Object>) c[0], (org.apache.spark.sql.types.DataType) c[1], 3);
            assertEquals(3, df.groupBy("key").count().count(), "Spark SQL's own groups, " + c[1]);
            assertEachGroupEqualsItsOwnFit(new SylvaHdbscan().setMinClusterSize(5).fitGroups(df, "key").collectAsList(),
                    dblGroup, x, 5);
        }
        // a refusal names a binary key by its bytes
        List<Object> tiny = new ArrayList<>(bin);
        tiny.set(5, new byte[] {(byte) 0xab});
        Exception e = assertThrows(Exception.class, () -> new SylvaHdbscan().setMinClusterSize(5)
                .fitGroups(keyed(x, tiny, DataTypes.BinaryType, 3), "key").collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("group 0xab (1 row)"), all);
    }

    @Test
    void stringKeysGroupByTheirBytesAsSparkSqlGroupsThem() {
        // invalid UTF-8 (strings cast from bytes, as a Parquet column of bytes read as strings holds them) decodes to
        // U+FFFD whatever the bytes: Spark SQL groups by the bytes, so three groups, also inside structs and arrays
        int n = 120;
        double[] x = twoBlobs(n);
        List<Object> raw = new ArrayList<>(), group = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            raw.add(new byte[] {(byte) (0xfd + i % 3)});
            group.add(i % 3);
        }
        Dataset<Row> bytes = keyed(x, raw, DataTypes.BinaryType, 3);
        org.apache.spark.sql.Column text = bytes.col("key").cast("string");
        List<Dataset<Row>> keyedByText = List.of(
                bytes.withColumn("key", text),
                bytes.withColumn("key", org.apache.spark.sql.functions.struct(text.as("a"),
                        org.apache.spark.sql.functions.lit(1).as("b"))),
                bytes.withColumn("key", org.apache.spark.sql.functions.array(text)),
                bytes.withColumn("key", org.apache.spark.sql.functions.map(org.apache.spark.sql.functions.lit(1), text)));
        for (Dataset<Row> df : keyedByText) {
            assertEquals(3, df.groupBy("key").count().count(), "Spark SQL's own groups, " + df.schema().simpleString());
            List<Row> out = new SylvaHdbscan().setMinClusterSize(5).fitGroups(df, "key").collectAsList();
            assertEachGroupEqualsItsOwnFit(out, group, x, 5);
            assertEquals(df.schema().length() + 3, out.get(0).length(), "the rows keep their own columns only");
            assertEquals(df.collectAsList().get(7).get(1), out.get(7).get(1), "and their key as it was");
        }
        // a key name twice (as a join on an expression leaves it): the first is the key, as for keys of other types
        Dataset<Row> first = keyedByText.get(0);
        Dataset<Row> twice = first.select(first.col("id"), first.col("key"), first.col("features"),
                org.apache.spark.sql.functions.lit("other").as("key"));
        List<Row> once = new SylvaHdbscan().setMinClusterSize(5).fitGroups(first, "key").collectAsList();
        List<Row> withTwice = new SylvaHdbscan().setMinClusterSize(5).fitGroups(twice, "key").collectAsList();
        for (int i = 0; i < n; i++) {
            assertEquals(once.get(i).getInt(3), withTwice.get(i).getInt(4), "row " + i);
            assertEquals(once.get(i).getDouble(4), withTwice.get(i).getDouble(5), "row " + i);
        }
        // a refusal names a string key by its text
        Exception e = assertThrows(Exception.class, () -> new SylvaHdbscan().setMinClusterSize(41)
                .fitGroups(keyedByText.get(0), "key").collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("group '" + (char) 0xfffd + "' (40 rows)"), all);
    }

    @Test
    void aGroupsRowsAreFittedInDatasetOrderWhateverOrderTheShuffleDeliversThem() {
        // (a local session's shuffle delivers them in dataset order, a cluster's in any: so, the group's fit itself)
        int n = 60;
        double[] x = twoBlobs(n);
        StructType schema = new StructType().add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), true);
        FeatureColumn fc = FeatureColumn.of(schema, "features");
        List<scala.Tuple2<Long, Row>> inOrder = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            inOrder.add(new scala.Tuple2<>(GroupedFits.place(i % 3, i), RowFactory.create(LocalSpark.seq(List.of(x[2 * i], x[2 * i + 1])))));
        }
        List<scala.Tuple2<Long, Row>> shuffled = new ArrayList<>(inOrder);
        java.util.Collections.shuffle(shuffled, new java.util.Random(3));
        FitSettings settings = new SylvaHdbscan().setMinClusterSize(5).settings();
        List<scala.Tuple2<Long, Row>> a = GroupedFits.fitGroup("k", inOrder, fc, settings, false);
        List<scala.Tuple2<Long, Row>> b = GroupedFits.fitGroup("k", shuffled, fc, settings, false);
        inOrder.sort((p, q) -> Long.compare(p._1(), q._1()));
        double[] sorted = new double[2 * n];
        for (int i = 0; i < n; i++) {
            List<Object> v = inOrder.get(i)._2().getList(0);
            sorted[2 * i] = (Double) v.get(0);
            sorted[2 * i + 1] = (Double) v.get(1);
        }
        HdbscanResult own = Hdbscan.builder().minClusterSize(5).build()
                .fit(sorted, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
        for (int i = 0; i < n; i++) {
            assertEquals(inOrder.get(i)._1(), b.get(i)._1(), "returned in dataset order");
            assertEquals(own.labels()[i], b.get(i)._2().getInt(1), "row " + i);
            assertEquals(own.probabilities()[i], b.get(i)._2().getDouble(2), "row " + i);
            assertEquals(a.get(i)._2(), b.get(i)._2());
        }
    }

    @Test
    void rowsArrivingInAnyOrderAreFittedInDatasetOrder() {
        int n = 400;
        double[] x = twoBlobs(n);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) keys.add((long) (i % 2));
        // end to end from 8 partitions: each group's rows come from all of them, and the rows go back to their own
        // partitions (the sort inside a group is checked on its own above: a local shuffle keeps dataset order)
        Dataset<Row> df = keyed(x, keys, DataTypes.LongType, 8);
        assertEachGroupEqualsItsOwnFit(new SylvaHdbscan().setMinClusterSize(10).fitGroups(df, "key").collectAsList(),
                keys, x, 10);
    }

    @Test
    void nothingRunsUntilTheResultIsConsumedAndEachGroupIsFittedOnce() throws Exception {
        int n = 300;
        double[] x = twoBlobs(n);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) keys.add("g" + i % 4);
        Dataset<Row> df = keyed(x, keys, DataTypes.StringType, 3);
        java.util.concurrent.atomic.AtomicInteger jobs = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger fitStages = new java.util.concurrent.atomic.AtomicInteger();
        org.apache.spark.scheduler.SparkListener l = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart s) {
                jobs.incrementAndGet();
            }

            @Override
            public void onStageCompleted(org.apache.spark.scheduler.SparkListenerStageCompleted s) {
                boolean fits = scala.jdk.javaapi.CollectionConverters.asJava(s.stageInfo().rddInfos()).stream()
                        .anyMatch(r -> r.name().startsWith("sylva hdbscan: one fit per"));
                if (fits) fitStages.incrementAndGet();
            }
        };
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        sc.addSparkListener(l);
        try {
            Dataset<Row> out = new SylvaHdbscan().setMinClusterSize(5).fitGroups(df, "key");
            sc.listenerBus().waitUntilEmpty();
            assertEquals(0, jobs.get(), "fitGroups itself runs no job");
            assertEquals(n, out.count());
            sc.listenerBus().waitUntilEmpty();
            assertEquals(1, fitStages.get(), "one stage fits the groups, once");
        } finally {
            sc.removeSparkListener(l);
        }
    }
}
