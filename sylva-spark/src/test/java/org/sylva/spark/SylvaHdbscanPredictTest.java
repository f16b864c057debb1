package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * {@link SylvaHdbscanModel#predict}: new points assigned on the executors are bitwise the library's prediction of
 * the same points on one machine (from a model made of a local fit, independently of Spark), whatever the
 * partitioning, across the chunks a task assigns at a time, and after a save and load; bad rows are refused with
 * their position.
 */
class SylvaHdbscanPredictTest {
    @TempDir
    Path dir;

    private static final OracleData.Array BLOBS = OracleData.read(OracleData.dir().resolve("blobs2000noise_X.npy"));

    /** {@code m} new points: fitted points moved by up to 0.6 in each coordinate, and a few far away. */
    private static double[] newPoints(int m, long seed) {
        Random r = new Random(seed);
        int d = BLOBS.cols();
        double[] q = new double[m * d];
        for (int i = 0; i < m; i++) {
            int from = r.nextInt(BLOBS.rows());
            for (int j = 0; j < d; j++) {
                q[i * d + j] = i % 97 == 0 ? 1e3 + r.nextDouble() : BLOBS.values()[from * d + j] + 1.2 * (r.nextDouble() - 0.5);
            }
        }
        return q;
    }

    /** The library's prediction of {@code q}, from a model of a local fit with the estimator's defaults. */
    private static Prediction local(double[] q, int m) {
        int n = BLOBS.rows(), d = BLOBS.cols();
        HdbscanResult fit = Hdbscan.builder().minClusterSize(5).threads(2).build()
                .fit(BLOBS.values(), n, d, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(fit, PointSet.ofFloat64(n, d, BLOBS.values()));
        return model.approximatePredict(PointSet.ofFloat64(m, d, q), Execution.sequential());
    }

    private static SylvaHdbscanModel fitted() {
        return new SylvaHdbscan().setMinClusterSize(5).fit(LocalSpark.points(BLOBS.values(), BLOBS.rows(), BLOBS.cols(), 2));
    }

    /** Row {@code i} of {@code out} is new point {@code i}, with the expected answers bitwise. */
    private static void assertPredicted(Prediction expected, List<Row> out) {
        assertEquals(expected.size(), out.size());
        int labels = 0;
        for (int i = 0; i < out.size(); i++) {
            Row row = out.get(i);
            assertEquals(i, row.getInt(0), "row order");
            assertEquals(expected.labels()[i], row.getInt(2), "label of row " + i);
            assertEquals(Double.doubleToRawLongBits(expected.probabilities()[i]), Double.doubleToRawLongBits(row.getDouble(3)),
                    "probability of row " + i);
            assertEquals(Double.doubleToRawLongBits(expected.outlierScores()[i]), Double.doubleToRawLongBits(row.getDouble(4)),
                    "outlier score of row " + i);
            if (row.getInt(2) >= 0) labels++;
        }
        assertTrue(labels > out.size() / 2 && labels < out.size(), "most new points in clusters, some noise: " + labels);
    }

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 3, 7})
    void newPointsAreTheLibrarysPredictionWhateverThePartitioning(int partitions) {
        int m = 3_001;
        double[] q = newPoints(m, 11);
        List<Row> out = fitted().predict(LocalSpark.points(q, m, BLOBS.cols(), partitions)).collectAsList();
        assertPredicted(local(q, m), out);
    }

    @Test
    void aVectorColumnIsPredictedAsAnArrayColumnIs() {
        int m = 800;
        double[] q = newPoints(m, 16);
        Dataset<Row> arrays = LocalSpark.points(q, m, BLOBS.cols(), 3);
        Dataset<Row> vectors = new org.apache.spark.ml.feature.VectorAssembler().setInputCols(new String[] {"x0", "x1"})
                .setOutputCol("vec").transform(arrays.selectExpr("id", "features", "features[0] AS x0",
                        "features[1] AS x1")).select("id", "vec");
        List<Row> out = fitted().setFeaturesCol("vec").predict(vectors).collectAsList();
        assertPredicted(local(q, m), out);
    }

    @Test
    void aPartitionLargerThanAChunkIsAssignedChunkByChunkWithTheSameAnswers() {
        int m = PredictionTasks.CHUNK + 1_234;
        double[] q = newPoints(m, 12);
        List<Row> out = fitted().predict(LocalSpark.points(q, m, BLOBS.cols(), 1)).collectAsList();
        assertPredicted(local(q, m), out);
    }

    @Test
    void aLoadedModelPredictsTheSame() throws java.io.IOException {
        int m = 1_500;
        double[] q = newPoints(m, 13);
        SylvaHdbscanModel model = fitted();
        String path = dir.resolve("model").toString();
        model.write().save(path);
        SylvaHdbscanModel back = SylvaHdbscanModel.load(path);
        Dataset<Row> df = LocalSpark.points(q, m, BLOBS.cols(), 3);
        assertPredicted(local(q, m), back.predict(df).collectAsList());
        assertEquals(model.predict(df).collectAsList(), back.predict(df).collectAsList());
    }

    /** With transformMode "predict" a pipeline's model assigns new rows: transform is predict, saved and loaded. */
    @Test
    void aPipelineWithThePredictModeTransformsNewRowsAsPredictDoes() throws java.io.IOException {
        int m = 700;
        double[] q = newPoints(m, 15);
        Dataset<Row> fitRows = LocalSpark.points(BLOBS.values(), BLOBS.rows(), BLOBS.cols(), 2);
        Dataset<Row> newRows = LocalSpark.points(q, m, BLOBS.cols(), 3);
        org.apache.spark.ml.PipelineModel pipeline = new org.apache.spark.ml.Pipeline().setStages(
                new org.apache.spark.ml.PipelineStage[] {new SylvaHdbscan().setMinClusterSize(5).setTransformMode("predict")})
                .fit(fitRows);
        assertPredicted(local(q, m), pipeline.transform(newRows).collectAsList());
        String path = dir.resolve("pipeline").toString();
        pipeline.write().save(path);
        assertPredicted(local(q, m), org.apache.spark.ml.PipelineModel.load(path).transform(newRows).collectAsList());
        // the default mode refuses them, and a model's mode can be set after the fit
        SylvaHdbscanModel model = fitted();
        assertEquals("fitted", model.getTransformMode());
        InvalidInputException other = assertThrows(InvalidInputException.class, () -> model.transform(newRows));
        assertTrue(other.getMessage().contains("transform takes the fitted dataset"), other.getMessage());
        assertPredicted(local(q, m), model.setTransformMode("predict").transform(newRows).collectAsList());
        assertThrows(IllegalArgumentException.class, () -> model.setTransformMode("new"));
    }

    @Test
    void theOutputColumnsAreTheModelsAndATakenNameIsRefused() {
        int m = 200;
        double[] q = newPoints(m, 14);
        SylvaHdbscanModel model = fitted().setLabelCol("cluster").setProbabilityCol("strength");
        Dataset<Row> out = model.predict(LocalSpark.points(q, m, BLOBS.cols(), 2));
        assertEquals(List.of("id", "features", "cluster", "strength", "outlier_score"), List.of(out.columns()));
        InvalidInputException taken = assertThrows(InvalidInputException.class,
                () -> model.setLabelCol("id").predict(LocalSpark.points(q, m, BLOBS.cols(), 2)));
        assertTrue(taken.getMessage().contains("output column 'id' already exists"), taken.getMessage());
    }

    private static final StructType SCHEMA = new StructType().add("id", DataTypes.IntegerType, false)
            .add("features", DataTypes.createArrayType(DataTypes.DoubleType, true), true);

    @Test
    void aBadRowFailsTheActionWithItsPosition() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            double[] x = i == 5 ? new double[] {1.0, 2.0, 3.0} : new double[] {BLOBS.values()[2 * i], BLOBS.values()[2 * i + 1]};
            rows.add(RowFactory.create(i, x));
        }
        Dataset<Row> df = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(rows, 2), SCHEMA);
        Exception e = assertThrows(Exception.class, () -> fitted().predict(df).collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        String place = LocalSpark.placeOf(df, "id", 5);
        assertTrue(place.endsWith("of partition 1"), place + ": the bad row is not in the first partition");
        assertTrue(all.contains(place + ": column 'features' has 3 values; the model was fitted on points of 2"), all);
    }

    /**
     * predict, and transform in either mode, run no job to number the rows (zipWithIndex would, before returning):
     * predict none until consumed, the fitted transform one, which counts the rows to check them.
     */
    @Test
    void predictRunsNoJobUntilConsumedAndTheFittedTransformOne() {
        SylvaHdbscanModel model = fitted();
        Dataset<Row> fittedRows = LocalSpark.points(BLOBS.values(), BLOBS.rows(), BLOBS.cols(), 3);
        Dataset<Row> newRows = LocalSpark.points(newPoints(300, 21), 300, BLOBS.cols(), 3);
        model.predictionModel();   // made on first use, with a job of its own
        assertEquals(List.of(), LocalSpark.jobsDuring(() -> model.predict(newRows)));
        // an input with a shuffle: its stages run with the result too (Dataset.rdd taken at call time would run them)
        Dataset<Row> shuffled = newRows.repartition(4);
        assertEquals(List.of(), LocalSpark.jobsDuring(() -> model.predict(shuffled)));
        assertPredicted(local(newPoints(300, 21), 300), model.predict(shuffled).orderBy("id").collectAsList());
        assertEquals(List.of(), LocalSpark.jobsDuring(() -> model.copy(new org.apache.spark.ml.param.ParamMap())
                .setTransformMode("predict").transform(newRows)));
        List<String> counting = LocalSpark.jobsDuring(() -> model.transform(fittedRows));
        assertEquals(1, counting.size(), counting.toString());
        assertTrue(counting.get(0).startsWith("sylva hdbscan: transform counts the rows of the fitted dataset [")
                && counting.get(0).contains(SparkHdbscanEngine.JOB_TAG), counting.get(0));
        List<Row> joined = model.transform(fittedRows).collectAsList();
        HdbscanResult r = model.result();
        for (int i = 0; i < joined.size(); i++) {
            assertEquals(r.labels()[i], joined.get(i).getInt(2), "row " + i);
            assertEquals(r.outlierScores()[i], joined.get(i).getDouble(4), "row " + i);
        }
    }

    @Test
    void eachKindOfBadRowIsNamed() {
        FeatureColumn column = FeatureColumn.of(SCHEMA, "features");
        Object[][] cases = {
            {LocalSpark.seq(List.of(1.0)), "row 17 of partition 3: column 'features' has 1 value; the model was fitted on points of 2"},
            {LocalSpark.seq(List.of(Double.NaN, 2.0)), "row 17 of partition 3: column 'features' holds NaN at index 0"},
            {LocalSpark.seq(List.of(1.0, Double.NEGATIVE_INFINITY)), "row 17 of partition 3: column 'features' holds -Infinity at index 1"},
            {LocalSpark.seq(List.of(1.0, -1e200)), "row 17 of partition 3: column 'features' holds -1.0E200 at index 1, beyond +-1e150"},
            {LocalSpark.seq(java.util.Arrays.asList(1.0, null)), "row 17 of partition 3: column 'features' has a null at index 1"},
            {null, "row 17 of partition 3: column 'features' is null"},
        };
        for (Object[] c : cases) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> PredictionTasks.read(column, RowFactory.create(17, c[0]), 3, 17, 2));
            assertTrue(e.getMessage().startsWith((String) c[1]), e.getMessage());
        }
        assertEquals(2, PredictionTasks.read(column, RowFactory.create(17, LocalSpark.seq(List.of(1e150, -3.0))), 3, 17, 2).length);
    }

    @Test
    void transformStillTakesOnlyTheFittedDatasetAndNamesPredict() {
        double[] q = newPoints(BLOBS.rows(), 15);
        Exception e = assertThrows(Exception.class,
                () -> fitted().transform(LocalSpark.points(q, BLOBS.rows(), BLOBS.cols(), 2)).collectAsList());
        assertTrue(SylvaHdbscanTest.rootMessage(e).contains("(predict assigns new points)"), SylvaHdbscanTest.rootMessage(e));
    }
}
