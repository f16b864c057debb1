package org.sylva.spark;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * A fitted {@link SylvaHdbscan}: the library's {@link HdbscanResult} (labels, probabilities, outlier
 * scores, core distances, the spanning tree, the condensed tree) held on the driver, and
 * {@link #transform} to join the labels back to each row of the fitted dataset. {@code transform} takes the
 * fitted dataset only: it checks, row by row on the executors, that the points are the fitted ones in the
 * same order, and refuses another dataset (the model assigns fitted rows; new points need prediction,
 * which the library offers through {@code HdbscanModel}). The model is not persisted with Spark ML's
 * writers; save its labels with the dataset.
 *
 * <pre>{@code
 * SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(20).fit(df);
 * model.transform(df).select("label", "probability", "outlier_score").show();
 * SpanningTree mst = model.spanningTree();
 * }</pre>
 */
public final class SylvaHdbscanModel extends Model<SylvaHdbscanModel> {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final transient HdbscanResult result;
    private final transient double[] coords;
    private final int d;
    private final transient DistributedFitStats stats;
    private final Param<String> featuresCol;
    private final Param<String> labelCol;
    private final Param<String> probabilityCol;
    private final Param<String> outlierScoreCol;

    SylvaHdbscanModel(String uid, HdbscanResult result, double[] coords, int d, DistributedFitStats stats) {
        this.uid = uid;
        this.result = result;
        this.coords = coords;
        this.d = d;
        this.stats = stats;
        featuresCol = new Param<>(this, "featuresCol", "points column: a vector or an array of numbers");
        labelCol = new Param<>(this, "labelCol", "output column of cluster labels (-1 = noise)");
        probabilityCol = new Param<>(this, "probabilityCol", "output column of membership strengths");
        outlierScoreCol = new Param<>(this, "outlierScoreCol", "output column of GLOSH outlier scores");
        setDefault(featuresCol, "features");
        setDefault(labelCol, "label");
        setDefault(probabilityCol, "probability");
        setDefault(outlierScoreCol, "outlier_score");
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() { return featuresCol; }
    public Param<String> labelCol() { return labelCol; }
    public Param<String> probabilityCol() { return probabilityCol; }
    public Param<String> outlierScoreCol() { return outlierScoreCol; }

    public SylvaHdbscanModel setFeaturesCol(String v) { set(featuresCol, v); return this; }
    public SylvaHdbscanModel setLabelCol(String v) { set(labelCol, v); return this; }
    public SylvaHdbscanModel setProbabilityCol(String v) { set(probabilityCol, v); return this; }
    public SylvaHdbscanModel setOutlierScoreCol(String v) { set(outlierScoreCol, v); return this; }

    /** The library's result: everything {@code Hdbscan.fit} returns for the same rows. */
    public HdbscanResult result() {
        return result;
    }

    /** The minimum spanning tree of the mutual-reachability distance, edges in the tie order. */
    public SpanningTree spanningTree() {
        return result.spanningTree();
    }

    /** The condensed cluster tree. */
    public CondensedTree condensedTree() {
        return result.condensedTree();
    }

    /** What the distributed stages moved and spent. */
    public DistributedFitStats fitStats() {
        return stats;
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        StructType out = transformSchema(dataset.schema());
        String col = getOrDefault(featuresCol);
        FeatureColumn fc = FeatureColumn.of(dataset.schema(), col);
        int n = result.size();
        long rows = dataset.count();
        if (rows != n) {
            throw new InvalidInputException("transform takes the fitted dataset: it has " + rows
                    + " rows, the model was fitted on " + n);
        }
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext());
        Broadcast<double[]> pointsB = sc.broadcast(coords);
        Broadcast<int[]> labelsB = sc.broadcast(result.labels());
        Broadcast<double[]> probB = sc.broadcast(result.probabilities());
        Broadcast<double[]> scoreB = sc.broadcast(result.outlierScores());
        int dims = d;
        JavaRDD<Row> joined = dataset.toDF().javaRDD().zipWithIndex().map(t -> {
            Row row = t._1();
            int i = Math.toIntExact(t._2());
            double[] x = fc.read(row, i);
            double[] fitted = pointsB.value();
            boolean same = x.length == dims;
            for (int j = 0; same && j < dims; j++) same = Double.compare(x[j], fitted[i * dims + j]) == 0;
            if (!same) {
                throw new InvalidInputException("row " + i + ": column '" + fc.name()
                        + "' differs from the fitted point; transform takes the fitted dataset in its order");
            }
            return FeatureColumn.withFitOutputs(row, labelsB.value(), probB.value(), scoreB.value(), i);
        });
        // the broadcasts stay until the caller's plan no longer needs them; Spark's cleaner frees them
        return dataset.sparkSession().createDataFrame(joined, out);
    }

    @Override
    public StructType transformSchema(StructType schema) {
        FeatureColumn.of(schema, getOrDefault(featuresCol));
        return FeatureColumn.appendFitOutputs(schema, getOrDefault(labelCol), getOrDefault(probabilityCol),
                getOrDefault(outlierScoreCol));
    }

    @Override
    public SylvaHdbscanModel copy(ParamMap extra) {
        SylvaHdbscanModel m = new SylvaHdbscanModel(uid, result, coords, d, stats);
        m.setParent(parent());
        return copyValues(m, extra);
    }
}
