package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The distributed fit against the single-machine fit on the oracle datasets: core distances, spanning
 * tree, labels, probabilities and outlier scores bitwise equal for 1, 2, 3 and 7 partitions.
 */
class SylvaHdbscanTest {

    static Stream<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (String ds : new String[] {"blobs500", "blobs2000noise", "iris", "grid3000"}) {
            for (int partitions : new int[] {1, 2, 3, 7}) {
                a.add(Arguments.of(ds, 5, 5, partitions));
                a.add(Arguments.of(ds, 5, 11, partitions));
            }
        }
        a.add(Arguments.of("clip20k", 20, 20, 3));
        return a.stream();
    }

    @ParameterizedTest(name = "{0} mcs {1} ms {2}, {3} partitions")
    @MethodSource("cases")
    void distributedFitIsBitwiseTheLocalFit(String dataset, int mcs, int ms, int partitions) {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve(dataset + "_X.npy"));
        int n = x.rows(), d = x.cols();
        HdbscanResult local = Hdbscan.builder().minClusterSize(mcs).minSamples(ms).threads(2).build()
                .fit(x.values(), n, d, ProgressListener.NONE, CancellationToken.NEVER);
        Dataset<Row> df = LocalSpark.points(x.values(), n, d, partitions);
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(mcs).setMinSamples(ms).fit(df);
        assertSame(local, model.result());
        assertEquals(partitions, model.fitStats().slices());

        List<Row> out = model.transform(df).collectAsList();
        assertEquals(n, out.size());
        for (int i = 0; i < n; i++) {
            Row r = out.get(i);
            assertEquals(i, r.getInt(0));
            assertEquals(local.labels()[i], r.getInt(2));
            assertEquals(local.probabilities()[i], r.getDouble(3));
            assertEquals(local.outlierScores()[i], r.getDouble(4));
        }
    }

    /** Rows a UDF of the input saw (a static: the tests' Spark runs in this JVM). */
    static final java.util.concurrent.atomic.AtomicInteger SEEN = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * A shuffled input (adaptive execution runs its shuffle stages as its RDD is taken) is computed once, with the
     * default slices too, and every job the fit runs carries the fit's tags (sc.cancelJobsWithTag reaches them all).
     */
    @Test
    void aShuffledInputIsComputedOnceUnderTheFitsTags() {
        int n = 300;
        double[] x = new double[n * 2];
        java.util.Random rnd = new java.util.Random(9);
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextGaussian() + (i / 2 % 3) * 5;
        LocalSpark.get().udf().register("sylvaSeen", (org.apache.spark.sql.api.java.UDF1<Integer, Integer>) v -> {
            SEEN.incrementAndGet();
            return v;
        }, DataTypes.IntegerType);
        Dataset<Row> shuffled = LocalSpark.points(x, n, 2, 2)
                .withColumn("id", org.apache.spark.sql.functions.callUDF("sylvaSeen", org.apache.spark.sql.functions.col("id")))
                .groupBy("id").agg(org.apache.spark.sql.functions.first("features").as("features"));
        for (int slices : new int[] {0, 2}) {
            SEEN.set(0);
            List<String> jobs = LocalSpark.jobsDuring(() -> new SylvaHdbscan().setMinClusterSize(10).setNumSlices(slices)
                    .fit(shuffled));
            assertEquals(n, SEEN.get(), "each row computed once, slices " + slices);
            for (String job : jobs) assertTrue(job.contains(SparkHdbscanEngine.JOB_TAG), "untagged: " + job + " in " + jobs);
        }
    }

    /**
     * Identical points are searched once on the executors, with a multiplicity (the core-distance stage
     * sees the distinct rows only), and the result is bitwise the local fit's.
     */
    @Test
    void identicalPointsAreSearchedOnceAndExpanded() {
        int n = 20_000, d = 5;
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            int g = i % 7 == 0 ? 1000 + i : i % 3;   // three groups of thousands of copies, and distinct points
            for (int j = 0; j < d; j++) x[i * d + j] = g * 0.5 + j * 0.25;
        }
        HdbscanResult local = Hdbscan.builder().minClusterSize(10).minSamples(10).threads(2).build()
                .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(10).setMinSamples(10)
                .fit(LocalSpark.points(x, n, d, 3));
        assertSame(local, model.result());
        int distinct = 3 + (n + 6) / 7;
        assertEquals(distinct, model.fitStats().stages().get(0).componentsBefore(), "distinct rows searched");
    }

    static void assertSame(HdbscanResult local, HdbscanResult spark) {
        assertArrayEquals(local.coreDistances(), spark.coreDistances());
        assertArrayEquals(local.spanningTree().fromArray(), spark.spanningTree().fromArray());
        assertArrayEquals(local.spanningTree().toArray(), spark.spanningTree().toArray());
        assertArrayEquals(local.spanningTree().weightArray(), spark.spanningTree().weightArray());
        assertArrayEquals(local.labels(), spark.labels());
        assertArrayEquals(local.probabilities(), spark.probabilities());
        assertArrayEquals(local.outlierScores(), spark.outlierScores());
    }

    @Test
    void parametersReachTheLibrary() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        int n = x.rows(), d = x.cols();
        HdbscanResult local = Hdbscan.builder().minClusterSize(10).minSamples(4).alpha(0.8)
                .clusterSelectionEpsilon(0.3).allowSingleCluster(true)
                .clusterSelectionMethod(org.sylva.hdbscan.hierarchy.SelectionMethod.LEAF).build()
                .fit(x.values(), n, d, ProgressListener.NONE, CancellationToken.NEVER);
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(10).setMinSamples(4).setAlpha(0.8)
                .setClusterSelectionEpsilon(0.3).setAllowSingleCluster(true).setClusterSelectionMethod("leaf")
                .setNumSlices(3).fit(LocalSpark.points(x.values(), n, d, 2));
        assertSame(local, model.result());
        assertEquals(3, model.fitStats().slices());
    }

    @Test
    void aFitReportsItsStagesToAProgressListener() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        new SylvaHdbscan().setMinClusterSize(5).fit(LocalSpark.points(x.values(), x.rows(), x.cols(), 2),
                (stage, done, total) -> seen.add(stage + " " + done + "/" + total), CancellationToken.NEVER);
        assertEquals("core distances 0/1", seen.get(0), seen.toString());
        assertTrue(seen.contains("core distances 1/1"), seen.toString());
        assertTrue(seen.stream().anyMatch(l -> l.startsWith("spanning tree round 1 ")), seen.toString());
        String last = seen.get(seen.size() - 1);
        assertTrue(last.startsWith("spanning tree round ") && last.endsWith(" 499/499"), seen.toString());
    }

    @Test
    void farMoreSlicesThanPointsRunAtMostOneTaskPerSixteenPoints() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("iris_X.npy"));
        int n = x.rows(), d = x.cols();
        HdbscanResult local = Hdbscan.builder().minClusterSize(5).build()
                .fit(x.values(), n, d, ProgressListener.NONE, CancellationToken.NEVER);
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(5).setNumSlices(2000)
                .fit(LocalSpark.points(x.values(), n, d, 2));
        assertSame(local, model.result());
        assertEquals((n + SparkHdbscanEngine.MIN_TASK_POINTS - 1) / SparkHdbscanEngine.MIN_TASK_POINTS,
                model.fitStats().slices(), "iris has " + n + " distinct points");
    }

    @Test
    void aFailedTaskIsRetriedAndTheResultIsUnchanged() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        int n = x.rows(), d = x.cols();
        HdbscanResult local = Hdbscan.builder().minClusterSize(5).build()
                .fit(x.values(), n, d, ProgressListener.NONE, CancellationToken.NEVER);
        ExecutorTasks.FAIL_FIRST_ATTEMPTS.set(3);
        try {
            SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(5).fit(LocalSpark.points(x.values(), n, d, 3));
            assertEquals(0, ExecutorTasks.FAIL_FIRST_ATTEMPTS.get(), "the injected failures happened");
            assertSame(local, model.result());
        } finally {
            ExecutorTasks.FAIL_FIRST_ATTEMPTS.set(0);
        }
    }

    @Test
    void aCancelledTokenStopsTheFit() {
        CancellationToken token = new CancellationToken();
        token.cancel();
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        assertThrows(CancelledException.class, () -> new SylvaHdbscan().fit(df, token));
    }

    @Test
    void cancellingTheJobsThroughSparkStopsTheFit() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        String seen = cancelledAtRoundOne(df, sc::cancelAllJobs);
        assertTrue(seen.contains("components"), seen);
    }

    /** Until when (System.nanoTime) {@link #slowId} holds its calls, unless the test releases them first. */
    private static final java.util.concurrent.atomic.AtomicLong SLOW_UNTIL = new java.util.concurrent.atomic.AtomicLong();

    /** A row's id, returned at {@link #SLOW_UNTIL}: a stage that runs as long as the test wants, whatever its rows. */
    private static int slowId(int id) throws InterruptedException {
        for (int i = 0; i < 1200 && System.nanoTime() < SLOW_UNTIL.get(); i++) Thread.sleep(50);
        return id;
    }

    @Test
    void aCancelledTokenStopsTheFitWhileItsShuffledInputIsTaken() {
        // taking a shuffled Dataset's RDD has adaptive execution run the shuffle's stages on the caller's thread:
        // here a stage that runs 45 s; the token, cancelled once that stage runs, must end the fit at once
        org.apache.spark.sql.SparkSession spark = LocalSpark.get();
        spark.udf().register("sylvaSlowId", (org.apache.spark.sql.api.java.UDF1<Integer, Integer>) SylvaHdbscanTest::slowId,
                DataTypes.IntegerType);
        int n = 40;
        double[] x = new double[2 * n];
        for (int i = 0; i < x.length; i++) x[i] = i % 7;
        Dataset<Row> shuffled = LocalSpark.points(x, n, 2, 2)
                .withColumn("id", org.apache.spark.sql.functions.callUDF("sylvaSlowId", org.apache.spark.sql.functions.col("id")))
                .groupBy("id").agg(org.apache.spark.sql.functions.first("features").as("features"));
        CancellationToken token = new CancellationToken();
        org.apache.spark.SparkContext sc = spark.sparkContext();
        long[] cancelledAt = new long[1];
        org.apache.spark.scheduler.SparkListener onStart = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
                if (start.properties().getProperty("spark.job.tags", "").contains(SparkHdbscanEngine.JOB_TAG)) {
                    synchronized (cancelledAt) {
                        if (cancelledAt[0] == 0) cancelledAt[0] = System.nanoTime();
                    }
                    token.cancel();
                }
            }
        };
        SLOW_UNTIL.set(System.nanoTime() + 45_000_000_000L);
        sc.addSparkListener(onStart);
        try {
            assertThrows(CancelledException.class, () -> new SylvaHdbscan().setMinClusterSize(5).fit(shuffled, token));
            double seconds;
            synchronized (cancelledAt) {
                seconds = (System.nanoTime() - cancelledAt[0]) / 1e9;
            }
            // not when the stage ends (45 s): a bound far above the 100 ms poll and any scheduling delay
            assertTrue(cancelledAt[0] != 0 && seconds < 20, "ended " + seconds + " s after the token was cancelled");
        } finally {
            SLOW_UNTIL.set(0);   // the stage's tasks, which a cancel need not interrupt, end now
            sc.removeSparkListener(onStart);
        }
    }

    @Test
    void aJobGroupCancelledWithItsFutureJobsStopsTheFitBetweenJobs() {
        // Spark's cancelJobGroup reaches the jobs running at that moment only; cancelJobGroupAndFutureJobs, called
        // here when the fit's first job ends (the driver's own work, no job running), stops it at its next job
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        String group = "sylva-test-" + java.util.UUID.randomUUID();
        java.util.concurrent.atomic.AtomicInteger ends = new java.util.concurrent.atomic.AtomicInteger();
        org.apache.spark.scheduler.SparkListener onEnd = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobEnd(org.apache.spark.scheduler.SparkListenerJobEnd end) {
                if (ends.incrementAndGet() == 1) sc.cancelJobGroupAndFutureJobs(group);
            }
        };
        sc.setJobGroup(group, "a caller's group", false);
        sc.addSparkListener(onEnd);
        try {
            assertThrows(CancelledException.class, () -> new SylvaHdbscan().setMinClusterSize(5).fit(df));
        } finally {
            sc.removeSparkListener(onEnd);
            sc.clearJobGroup();
        }
    }

    @Test
    void anInterruptedFitEndsCancelledKeepsTheFlagAndReleasesTheIndex() {
        // Spark's Broadcast.destroy throws InterruptedException on an interrupted thread: the fit's clean-up must
        // not let it replace the CancelledException, nor stop before the index is released
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        Thread fitter = Thread.currentThread();
        try {
            cancelledAtRoundOne(df, fitter::interrupt);
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
        } finally {
            Thread.interrupted();
        }
        assertFalse(ExecutorTasks.holdsIndex(), "an interrupted fit leaves no index behind");
    }

    @Test
    void aJobFailureWordedCancelledIsAFailureNotACancellation() {
        RuntimeException failure = new java.io.UncheckedIOException(
                new java.io.IOException("S3 read of part-00001 canceled: connection reset"));
        assertTrue(SparkJobs.translate(failure, "sylva hdbscan: core distances") == failure);
        // what Spark throws for a cancelled job carries the condition, whatever its wording
        RuntimeException cancelled = new RuntimeException("wrapped", new SparkCondition(SparkJobs.JOB_CANCELLED));
        assertTrue(SparkJobs.translate(cancelled, "x") instanceof CancelledException);
        RuntimeException other = new SparkCondition("TASK_WRITE_FAILED");
        assertTrue(SparkJobs.translate(other, "x") == other);
    }

    /** A Spark exception of the given error condition. */
    private static final class SparkCondition extends RuntimeException implements org.apache.spark.SparkThrowable {
        private final String condition;

        SparkCondition(String condition) {
            super("a Spark exception");
            this.condition = condition;
        }

        @Override
        public String getCondition() {
            return condition;
        }
    }

    /**
     * Fits {@code df} with the round tasks held until killed; when round 1's job starts, runs {@code cancel} on a
     * thread of its own, and the fit must end in {@link CancelledException}. Returns round 1's job description.
     */
    private static String cancelledAtRoundOne(Dataset<Row> df, Runnable cancel) {
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
        org.apache.spark.scheduler.SparkListener cancelRound1 = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
                String description = start.properties().getProperty("spark.job.description", "");
                if (description.startsWith("sylva hdbscan: spanning tree round 1") && seen.compareAndSet(null, description)) {
                    new Thread(cancel).start();
                }
            }
        };
        sc.addSparkListener(cancelRound1);
        ExecutorTasks.HOLD_TASKS_MS.set(60_000);   // tasks wait until killed, so the cancel cannot miss the job
        try {
            assertThrows(CancelledException.class, () -> new SylvaHdbscan().fit(df));
        } finally {
            ExecutorTasks.HOLD_TASKS_MS.set(0);
            sc.removeSparkListener(cancelRound1);
        }
        return seen.get();
    }

    @Test
    void badRowsAreRefusedWithTheRowNamed() throws Exception {
        StructType schema = new StructType().add("features", DataTypes.createArrayType(DataTypes.DoubleType, true), true);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) rows.add(RowFactory.create(LocalSpark.seq(List.of((double) i, 1.0))));
        List<Row> withNull = new ArrayList<>(rows);
        withNull.set(7, RowFactory.create((Object) null));
        assertMessage(withNull, schema, "row 7: column 'features' is null");
        List<Row> ragged = new ArrayList<>(rows);
        ragged.set(11, RowFactory.create(LocalSpark.seq(List.of(1.0, 2.0, 3.0))));
        assertMessage(ragged, schema, "row 11: column 'features' has 3 values, row 0 has 2");
        List<Row> nan = new ArrayList<>(rows);
        nan.set(13, RowFactory.create(LocalSpark.seq(List.of(1.0, Double.NaN))));
        assertMessage(nan, schema, "row 13: column 'features' holds NaN at index 1");
        List<Row> huge = new ArrayList<>(rows);
        huge.set(11, RowFactory.create(LocalSpark.seq(List.of(1.0, 1e200))));
        assertMessage(huge, schema, "row 11: column 'features' holds 1.0E200 at index 1, beyond +-1e150: its squared "
                + "distances would overflow");
        // the first bad row in dataset order is named, whatever makes each bad (a width before a NaN, and after it)
        List<Row> both = new ArrayList<>(ragged);
        both.set(17, RowFactory.create(LocalSpark.seq(List.of(1.0, Double.NaN))));
        assertMessage(both, schema, "row 11: column 'features' has 3 values, row 0 has 2");
        both.set(5, RowFactory.create(LocalSpark.seq(List.of(1.0, Double.NaN))));
        assertMessage(both, schema, "row 5: column 'features' holds NaN at index 1");

        Dataset<Row> ok = LocalSpark.get().createDataFrame(rows, schema);
        InvalidInputException missing = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setFeaturesCol("x").fit(ok));
        assertTrue(missing.getMessage().contains("no column 'x'"), missing.getMessage());
        InvalidInputException taken = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setLabelCol("features").fit(ok));
        assertTrue(taken.getMessage().contains("output column 'features' already exists"), taken.getMessage());
        // Spark resolves names regardless of case (by default): FEATURES is the same column
        InvalidInputException upper = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setLabelCol("FEATURES").fit(ok));
        assertTrue(upper.getMessage().contains("output column 'FEATURES' already exists"), upper.getMessage());
        // an input column is matched exactly, as Spark ML's estimators match one; the refusal names the near miss
        InvalidInputException caseOnly = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setFeaturesCol("Features").fit(ok));
        assertTrue(caseOnly.getMessage().contains("no column 'Features'")
                && caseOnly.getMessage().endsWith("(column names are matched exactly, case included; did you mean "
                + "'features'?)"), caseOnly.getMessage());
        assertFalse(missing.getMessage().contains("did you mean"), missing.getMessage());
        // the old mllib vectors: named as such, with the converter
        StructType old = new StructType().add("features", new org.apache.spark.mllib.linalg.VectorUDT());
        InvalidInputException mllib = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().transformSchema(old));
        assertEquals("column 'features' holds the old org.apache.spark.mllib vectors; expected org.apache.spark.ml vectors "
                + "or an array of numbers (MLUtils.convertVectorColumnsToML converts them)", mllib.getMessage());
    }

    /**
     * A round-robin repartition (df.repartition(n), the way to more tasks) is read whole by every pass, so the fit is
     * of the rows in df's own order and transform takes df: a fit of the features column alone was of another
     * order (Spark sorts before dealing rows out, and sorted the column's values alone) and transform refused it.
     */
    @Test
    void aRepartitionedDatasetIsFittedInItsOwnOrderAndTransformTakesIt() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        int n = x.rows(), d = x.cols();
        Dataset<Row> df = LocalSpark.points(x.values(), n, d, 2).repartition(3);
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(10).fit(df);
        List<Row> rows = df.collectAsList();
        double[] inOrder = new double[n * d];
        for (int i = 0; i < n; i++) {
            List<Object> f = rows.get(i).getList(1);
            for (int j = 0; j < d; j++) inOrder[i * d + j] = (Double) f.get(j);
        }
        assertFalse(java.util.Arrays.equals(inOrder, x.values()), "the repartition moved rows");
        HdbscanResult want = Hdbscan.builder().minClusterSize(10).threads(1).build()
                .fit(inOrder, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(want.labels(), model.result().labels());
        assertEquals(want.spanningTree(), model.result().spanningTree());
        List<Row> out = model.transform(df).collectAsList();
        assertEquals(n, out.size());
        for (int i = 0; i < n; i++) assertEquals(want.labels()[i], out.get(i).getInt(2), "row " + i);
    }

    @Test
    void typedGettersReadTheParamsAndAnOutputColumnNeedsAName() {
        SylvaHdbscan h = new SylvaHdbscan().setMinClusterSize(12).setAlpha(0.5).setClusterSelectionMethod("leaf")
                .setAllowSingleCluster(true).setLabelCol("cluster");
        assertEquals(12, h.getMinClusterSize());
        assertEquals(0, h.getMinSamples());
        assertEquals(0.5, h.getAlpha());
        assertEquals(0.0, h.getClusterSelectionEpsilon());
        assertEquals(0, h.getMaxClusterSize());
        assertEquals("leaf", h.getClusterSelectionMethod());
        assertTrue(h.getAllowSingleCluster());
        assertEquals(0, h.getNumSlices());
        assertEquals("features", h.getFeaturesCol());
        assertEquals("cluster", h.getLabelCol());
        assertEquals("probability", h.getProbabilityCol());
        assertEquals("outlier_score", h.getOutlierScoreCol());
        StructType schema = new StructType().add("features", DataTypes.createArrayType(DataTypes.DoubleType, false));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setLabelCol("").transformSchema(schema));
        assertEquals("an output column needs a name; got '' (param labelCol)", e.getMessage());
        // alpha is a finite number above 0, refused when set as the library would refuse it in the fit
        for (double bad : new double[] {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException a = assertThrows(IllegalArgumentException.class, () -> new SylvaHdbscan().setAlpha(bad));
            assertTrue(a.getMessage().contains("parameter alpha given invalid value " + bad), a.getMessage());
        }
        assertEquals(1e300, new SylvaHdbscan().setAlpha(1e300).getAlpha());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new SylvaHdbscan().setClusterSelectionMethod(null));
        assertEquals("parameter clusterSelectionMethod given null; it needs a value", none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SylvaHdbscan().setFeaturesCol(null));
    }

    /** The library names a parameter as scikit-learn does; a Spark fit adds the param that set it. */
    @Test
    void aParameterTheDataCannotTakeIsNamedByItsParam() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        InvalidInputException unset = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setMinClusterSize(600).fit(df));
        assertEquals("min_samples (600) must be at most the number of samples in X (500) (param minClusterSize: "
                + "minSamples, unset, defaults to it)", unset.getMessage());
        assertEquals("min_samples", unset.parameter().orElseThrow());
        InvalidInputException set = assertThrows(InvalidInputException.class,
                () -> new SylvaHdbscan().setMinSamples(501).fit(df));
        assertTrue(set.getMessage().endsWith("(param minSamples)"), set.getMessage());
    }

    @Test
    void transformRefusesAnotherDataset() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        int n = x.rows(), d = x.cols();
        SylvaHdbscanModel model = new SylvaHdbscan().fit(LocalSpark.points(x.values(), n, d, 2));
        double[] moved = x.values().clone();
        moved[2 * 37 + 1] += 1.0;
        Exception e = assertThrows(Exception.class,
                () -> model.transform(LocalSpark.points(moved, n, d, 2)).collectAsList());
        assertTrue(String.valueOf(rootMessage(e)).contains("row 37: column 'features' differs from the fitted point"),
                rootMessage(e));
    }

    /** The refusal is the library's InvalidInputException itself, and no task failed (none was retried). */
    private static void assertMessage(List<Row> rows, StructType schema, String expected) throws Exception {
        Dataset<Row> df = LocalSpark.get().createDataFrame(rows, schema);
        java.util.concurrent.atomic.AtomicInteger failedTasks = new java.util.concurrent.atomic.AtomicInteger();
        org.apache.spark.scheduler.SparkListener l = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
                if (!end.taskInfo().successful()) failedTasks.incrementAndGet();
            }
        };
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        sc.addSparkListener(l);
        try {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> new SylvaHdbscan().fit(df));
            assertTrue(e.getMessage().contains(expected), e.getMessage());
            sc.listenerBus().waitUntilEmpty();
            assertEquals(0, failedTasks.get(), "a bad row fails no task");
        } finally {
            sc.removeSparkListener(l);
        }
    }

    @Test
    void aFeaturesColumnWithADotInItsNameIsFitted() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        int n = x.rows(), d = x.cols();
        Dataset<Row> df = LocalSpark.points(x.values(), n, d, 2).withColumnRenamed("features", "my.features");
        SylvaHdbscanModel model = new SylvaHdbscan().setFeaturesCol("my.features").fit(df);
        HdbscanResult local = Hdbscan.builder().build().fit(x.values(), n, d, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(local.labels(), model.result().labels());
        assertEquals(n, model.transform(df).count());
    }

    @Test
    void theCallersJobGroupAndDescriptionStayAndEveryJobOfTheFitCarriesTheTag() throws Exception {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        java.util.List<java.util.Properties> jobs = java.util.Collections.synchronizedList(new ArrayList<>());
        org.apache.spark.scheduler.SparkListener l = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
                jobs.add(start.properties());
            }
        };
        sc.setJobGroup("nightly-etl", "my nightly job", false);
        try {
            sc.listenerBus().waitUntilEmpty();
            sc.addSparkListener(l);
            SylvaHdbscanModel model = new SylvaHdbscan().fit(df);
            sc.listenerBus().waitUntilEmpty();
            sc.removeSparkListener(l);
            assertEquals("nightly-etl", sc.getLocalProperty("spark.jobGroup.id"));
            assertEquals("my nightly job", sc.getLocalProperty("spark.job.description"));
            assertTrue(sc.getJobTags().isEmpty(), "no tag left behind: " + sc.getJobTags());
            // reading the column, the core distances, one job per round (in local mode no release job: the
            // driver is the only executor and drops the index itself)
            List<String> descriptions = jobs.stream().map(p -> p.getProperty("spark.job.description", "")).toList();
            assertEquals(model.fitStats().stages().size() + 1, jobs.size(), descriptions.toString());
            assertEquals("sylva hdbscan: reading column 'features'", descriptions.get(0));
            for (java.util.Properties p : jobs) {
                assertEquals("nightly-etl", p.getProperty("spark.jobGroup.id"), "the caller's group stays in force");
                assertTrue(p.getProperty("spark.job.tags", "").contains(SparkHdbscanEngine.JOB_TAG), p.toString());
            }
        } finally {
            sc.clearJobGroup();
            sc.removeSparkListener(l);
        }
    }

    @Test
    void theCallersCancelJobGroupStopsARunningFit() throws Exception {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        sc.setJobGroup("their-group", "their job", true);
        try {
            cancelledAtRoundOne(df, () -> sc.cancelJobGroup("their-group"));
        } finally {
            sc.clearJobGroup();
        }
        assertFalse(ExecutorTasks.holdsIndex(), "a cancelled fit leaves no index behind");
    }

    @Test
    void aCancelledTokenStartsNoJob() throws Exception {
        CancellationToken token = new CancellationToken();
        token.cancel();
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        java.util.concurrent.atomic.AtomicInteger jobs = new java.util.concurrent.atomic.AtomicInteger();
        org.apache.spark.scheduler.SparkListener l = new org.apache.spark.scheduler.SparkListener() {
            @Override
            public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
                jobs.incrementAndGet();
            }
        };
        sc.listenerBus().waitUntilEmpty();
        sc.addSparkListener(l);
        try {
            assertThrows(CancelledException.class, () -> new SylvaHdbscan().fit(df, token));
            sc.listenerBus().waitUntilEmpty();
            assertEquals(0, jobs.get(), "not even the column is read");
        } finally {
            sc.removeSparkListener(l);
        }
    }

    @Test
    void cancellingTheTagStopsTheFitAndTheIndexIsReleasedAfterAnyFit() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        new SylvaHdbscan().fit(df);
        assertFalse(ExecutorTasks.holdsIndex(), "a finished fit leaves no index behind");
        org.apache.spark.SparkContext sc = LocalSpark.get().sparkContext();
        cancelledAtRoundOne(df, () -> sc.cancelJobsWithTag(SparkHdbscanEngine.JOB_TAG));
        assertFalse(ExecutorTasks.holdsIndex(), "a cancelled fit leaves no index behind");
    }

    /** The fitted transform numbers rows from each partition's counted start, empty partitions among them. */
    @Test
    void transformNumbersTheRowsAcrossEmptyPartitions() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        int n = 60;
        Dataset<Row> df = LocalSpark.points(java.util.Arrays.copyOf(x.values(), n * x.cols()), n, x.cols(), 80);
        assertTrue(df.javaRDD().glom().collect().stream().filter(List::isEmpty).count() >= 20, "empty partitions");
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(5).fit(df);
        List<Row> out = model.transform(df).collectAsList();
        assertEquals(n, out.size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, out.get(i).getInt(0), "dataset order");
            assertEquals(model.result().labels()[i], out.get(i).getInt(2), "row " + i);
            assertEquals(model.result().outlierScores()[i], out.get(i).getDouble(4), "row " + i);
        }
    }

    static String rootMessage(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) all.append(c.getMessage()).append(" | ");
        return all.toString();
    }
}
