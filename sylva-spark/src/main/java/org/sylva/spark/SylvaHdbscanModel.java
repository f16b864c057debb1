package org.sylva.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader$;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.parallel.Execution;

/**
 * A fitted {@link SylvaHdbscan}: the library's {@link HdbscanResult} (labels, probabilities, outlier scores, core
 * distances, the spanning tree, the condensed tree) and the fitted points, held on the driver, and
 * {@link #transform} to join the labels back to each row of the fitted dataset, in the columns named by
 * {@link #setLabelCol}, {@link #setProbabilityCol} and {@link #setOutlierScoreCol} (the points column by
 * {@link #setFeaturesCol}). It has the estimator's params with the fit's values, as Spark's own models do
 * ({@link #getMinClusterSize()}, {@code explainParams()}); only the columns have setters, and a {@link #copy} may not
 * give a fit-defining param another value. {@code transform} takes the fitted dataset only (unless
 * {@link #setTransformMode} says {@code "predict"}): it checks, row by row on the
 * executors, that the points are the fitted ones in the same order, and refuses another dataset. New points go
 * through {@link #predict}, which assigns the rows of any dataset to the fitted clusters on the executors, in the
 * same three columns (the {@code hdbscan} package's {@code approximate_predict}, bitwise the library's
 * {@link HdbscanModel#approximatePredict} whatever the partitioning). The model is saved with Spark ML's
 * persistence, alone or in a {@code PipelineModel}: {@link #write()} writes Spark ML's metadata (uid, params) and,
 * on the driver through Hadoop's file system (a local, HDFS or S3 path), the library's checksummed model file
 * {@code data/hdbscan.model}, computing the prediction core distances that file holds with one exact neighbour
 * search on the driver; {@link #load} reads both back, refuses a truncated or altered file with an error naming it,
 * and rebuilds the same result bitwise ({@link HdbscanResult#of(HdbscanModel, Execution)}, one more neighbour
 * search for the core distances), its params checked against the file's fit. A loaded model has the same
 * {@link #result()}, params and {@code transform} output; it has no {@link #fitStats()}, which describe the jobs of the fit and are not saved.
 *
 * <pre>{@code
 * SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(20).fit(df).setLabelCol("cluster");
 * model.transform(df).select("cluster", "probability", "outlier_score").show();
 * model.predict(laterClips).select("cluster", "probability").show();
 * model.write().overwrite().save("hdfs:///models/clips");
 * SylvaHdbscanModel same = SylvaHdbscanModel.load("hdfs:///models/clips");
 * SpanningTree mst = same.spanningTree();
 * }</pre>
 */
public final class SylvaHdbscanModel extends Model<SylvaHdbscanModel> implements MLWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final transient HdbscanResult result;
    private final transient double[] coords;
    private final int d;
    /** The fit's figures; null for a loaded model. */
    private final transient DistributedFitStats stats;
    /** The library's model of this fit, made on first use ({@link #predictionModel()}); given for a loaded model. */
    private transient volatile HdbscanModel prediction;
    private final HdbscanParams p;

    SylvaHdbscanModel(String uid, HdbscanResult result, double[] coords, int d, DistributedFitStats stats) {
        this(uid, result, coords, d, stats, null);
    }

    private SylvaHdbscanModel(String uid, HdbscanResult result, double[] coords, int d, DistributedFitStats stats,
                              HdbscanModel prediction) {
        this.prediction = prediction;
        this.uid = uid;
        this.result = result;
        this.coords = coords;
        this.d = d;
        this.stats = stats;
        p = new HdbscanParams(this);
        setDefault(p.featuresCol, "features");
        setDefault(p.labelCol, "label");
        setDefault(p.probabilityCol, "probability");
        setDefault(p.outlierScoreCol, "outlier_score");
        setDefault(p.numSlices, 0);
        setDefault(p.transformMode, "fitted");
        // no defaults for the fit-defining params: the fit copies the estimator's values, a loaded model reads
        // them from its metadata or, where that lacks them, from its model file (adoptFitParams)
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() { return p.featuresCol; }
    public Param<String> labelCol() { return p.labelCol; }
    public Param<String> probabilityCol() { return p.probabilityCol; }
    public Param<String> outlierScoreCol() { return p.outlierScoreCol; }
    /** The fit's {@code minClusterSize}; this param and the next seven describe the fit and have no setters. */
    public IntParam minClusterSize() { return p.minClusterSize; }
    public IntParam minSamples() { return p.minSamples; }
    public DoubleParam clusterSelectionEpsilon() { return p.clusterSelectionEpsilon; }
    public IntParam maxClusterSize() { return p.maxClusterSize; }
    public DoubleParam alpha() { return p.alpha; }
    public Param<String> clusterSelectionMethod() { return p.clusterSelectionMethod; }
    public BooleanParam allowSingleCluster() { return p.allowSingleCluster; }
    public IntParam numSlices() { return p.numSlices; }
    public Param<String> transformMode() { return p.transformMode; }

    public String getFeaturesCol() { return getOrDefault(p.featuresCol); }
    public String getLabelCol() { return getOrDefault(p.labelCol); }
    public String getProbabilityCol() { return getOrDefault(p.probabilityCol); }
    public String getOutlierScoreCol() { return getOrDefault(p.outlierScoreCol); }
    public int getMinClusterSize() { return (Integer) getOrDefault(p.minClusterSize); }
    /** As the estimator had it: 0 when it was left unset (then the fit used {@link #getMinClusterSize()}). */
    public int getMinSamples() { return (Integer) getOrDefault(p.minSamples); }
    public double getClusterSelectionEpsilon() { return (Double) getOrDefault(p.clusterSelectionEpsilon); }
    public int getMaxClusterSize() { return (Integer) getOrDefault(p.maxClusterSize); }
    public double getAlpha() { return (Double) getOrDefault(p.alpha); }
    public String getClusterSelectionMethod() { return getOrDefault(p.clusterSelectionMethod); }
    public boolean getAllowSingleCluster() { return (Boolean) getOrDefault(p.allowSingleCluster); }
    public int getNumSlices() { return (Integer) getOrDefault(p.numSlices); }
    public String getTransformMode() { return getOrDefault(p.transformMode); }

    public SylvaHdbscanModel setFeaturesCol(String v) {
        set(p.featuresCol, HdbscanParams.notNull(p.featuresCol, v));
        return this;
    }

    public SylvaHdbscanModel setLabelCol(String v) {
        set(p.labelCol, HdbscanParams.notNull(p.labelCol, v));
        return this;
    }

    public SylvaHdbscanModel setProbabilityCol(String v) {
        set(p.probabilityCol, HdbscanParams.notNull(p.probabilityCol, v));
        return this;
    }

    public SylvaHdbscanModel setOutlierScoreCol(String v) {
        set(p.outlierScoreCol, HdbscanParams.notNull(p.outlierScoreCol, v));
        return this;
    }

    /**
     * What {@link #transform} gives: {@code "fitted"} (the default) joins the fit's own labels, probabilities and
     * outlier scores to the fitted dataset and refuses any other; {@code "predict"} is {@link #predict} of any
     * dataset, so that a {@code PipelineModel} (or a tuning tool) can assign new rows. On the fitted rows the two
     * can differ: a prediction is {@code approximate_predict}, not the fit.
     */
    public SylvaHdbscanModel setTransformMode(String v) {
        set(p.transformMode, HdbscanParams.notNull(p.transformMode, v));
        return this;
    }


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

    /** True for a model {@link SylvaHdbscan#fit} returned (or its copy); false for a loaded one. */
    public boolean hasFitStats() {
        return stats != null;
    }

    /**
     * What the fit's distributed stages moved and spent. They describe the jobs of one fit in one session and
     * are not saved: a loaded model has none ({@link #hasFitStats()}), as Spark's own models have no training
     * summary once loaded.
     *
     * @throws IllegalStateException for a loaded model
     */
    public DistributedFitStats fitStats() {
        if (stats == null) {
            throw new IllegalStateException("no fit statistics: this model was loaded, and a model's fit statistics "
                    + "are not saved with it");
        }
        return stats;
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        if (getOrDefault(p.transformMode).equals("predict")) return predict(dataset);
        StructType out = transformSchema(dataset.schema());
        String col = getOrDefault(p.featuresCol);
        FeatureColumn fc = FeatureColumn.of(dataset.schema(), col);
        int n = result.size();
        // one job counts each partition's rows (count() and zipWithIndex would run two): the total is checked
        // here, and each task numbers its rows from its partition's start
        JavaRDD<Row> in = dataset.toDF().javaRDD();
        long[] starts = RowPlaces.starts(in, "sylva hdbscan: transform counts the rows of the fitted dataset");
        long rows = starts[starts.length - 1];
        if (rows != n) {
            throw new InvalidInputException("transform takes the fitted dataset: it has " + rows
                    + " rows, the model was fitted on " + n + " (predict assigns new points)");
        }
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext());
        Broadcast<double[]> pointsB = sc.broadcast(coords);
        Broadcast<int[]> labelsB = sc.broadcast(result.labels());
        Broadcast<double[]> probB = sc.broadcast(result.probabilities());
        Broadcast<double[]> scoreB = sc.broadcast(result.outlierScores());
        int dims = d;
        JavaRDD<Row> joined = in.mapPartitionsWithIndex((p, it) -> withFitOutputs(it, starts[p], fc, dims, pointsB,
                labelsB, probB, scoreB), true);
        // the broadcasts stay until the caller's plan no longer needs them; Spark's cleaner frees them
        return dataset.sparkSession().createDataFrame(joined, out);
    }

    /**
     * A partition's rows, whose first is the fitted dataset's row {@code first}, each checked against its fitted
     * point and joined to its outputs (static: a task must not capture the model, which does not serialize).
     */
    private static java.util.Iterator<Row> withFitOutputs(java.util.Iterator<Row> rows, long first, FeatureColumn fc,
                                                          int dims, Broadcast<double[]> pointsB,
                                                          Broadcast<int[]> labelsB, Broadcast<double[]> probB,
                                                          Broadcast<double[]> scoreB) {
        return RowPlaces.numbered(rows, first, (row, position) -> {
            if (position >= labelsB.value().length) {   // an input that gave more rows now than when counted
                throw new InvalidInputException("row " + position + ": transform takes the fitted dataset, of "
                        + labelsB.value().length + " rows; this one gives more rows than when it was counted");
            }
            int i = (int) position;
            double[] x = fc.read(row, i);
            double[] fitted = pointsB.value();
            boolean same = x.length == dims;
            for (int j = 0; same && j < dims; j++) same = Double.compare(x[j], fitted[i * dims + j]) == 0;
            if (!same) {
                throw new InvalidInputException("row " + i + ": column '" + fc.name()
                        + "' differs from the fitted point; transform takes the fitted dataset in its order "
                        + "(predict assigns new points)");
            }
            return FeatureColumn.withFitOutputs(row, labelsB.value(), probB.value(), scoreB.value(), i);
        });
    }

    /**
     * Assigns every row of {@code dataset} (new points, or any points) to the fitted clusters, on the executors,
     * appending the label ({@code -1}: noise), the probability and the outlier score of each row in the columns
     * {@link #transform} writes: the {@code hdbscan} package's {@code approximate_predict} and
     * {@code approximate_predict_scores}, bitwise {@link HdbscanModel#approximatePredict} of the same points on
     * one machine, whatever the partitioning (each point's answer depends on the fitted points only). The
     * model's file bytes are broadcast once and read once per executor; each task assigns its rows in chunks on
     * its slots' cores. Lazy: no job runs until the result is consumed, and a bad row (null, non-finite, another
     * number of coordinates) fails the action that runs it, with an {@code InvalidInputException} naming the row by
     * its partition and its position there ({@code row 17 of partition 3}: the 18th row of partition 3 of
     * {@code dataset.rdd()}), which needs no job to count the partitions.
     *
     * <pre>{@code
     * Dataset<Row> later = model.predict(spark.read().parquet("clips-day2.parquet"));
     * later.groupBy("label").count().show();
     * }</pre>
     */
    public Dataset<Row> predict(Dataset<?> dataset) {
        StructType out = transformSchema(dataset.schema());
        FeatureColumn fc = FeatureColumn.of(dataset.schema(), getOrDefault(p.featuresCol));
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext());
        Broadcast<byte[]> modelB = sc.broadcast(predictionModel().toBytes());
        // a step of the dataset's own plan, not of its RDD: taking Dataset.rdd here would have adaptive execution run
        // the input's shuffle stages now; the broadcast stays until the plan no longer needs it (Spark's cleaner)
        return dataset.toDF().mapPartitions((MapPartitionsFunction<Row, Row>) rows ->
                PredictionTasks.predict(TaskContext.getPartitionId(), rows, fc, modelB), Encoders.row(out));
    }

    /**
     * The library's prediction model of this fit (what {@link #write()} saves and {@link #predict} broadcasts):
     * made on first use, on the driver, with one exact neighbour search for the prediction core distances; a
     * loaded model has it from its file.
     */
    public HdbscanModel predictionModel() {
        HdbscanModel m = prediction;
        if (m == null) {
            synchronized (this) {
                m = prediction;
                if (m == null) {
                    m = HdbscanModel.of(result, PointSet.ofFloat64(result.size(), d, coords));
                    prediction = m;
                }
            }
        }
        return m;
    }

    @Override
    public StructType transformSchema(StructType schema) {
        requireParamsOfTheFit("the model does not transform or predict");
        FeatureColumn.of(schema, getOrDefault(p.featuresCol));
        return FeatureColumn.appendFitOutputs(schema, getOrDefault(p.labelCol), getOrDefault(p.probabilityCol),
                getOrDefault(p.outlierScoreCol));
    }

    /**
     * A copy with {@code extra}'s values. The columns, {@code numSlices} and {@code transformMode} may change; a
     * fit-defining param only to the value the fit had ({@code minSamples} 0 and the fit's {@code minClusterSize} are the same value), as a
     * tuning tool passes the map it fitted with: another value would describe a fit this model is not.
     *
     * @throws IllegalArgumentException naming the param, when {@code extra} gives a fit-defining param another value
     */
    @Override
    public SylvaHdbscanModel copy(ParamMap extra) {
        Param<?> changed = firstUnlikeTheFit(q -> extra.contains(q) ? extra.apply(q) : null);
        if (changed != null) {
            throw new IllegalArgumentException(changed.name() + ": the model was fitted with " + described(changed)
                    + "; a copy cannot give it " + extra.apply(changed) + " (fit again with that value)");
        }
        SylvaHdbscanModel m = new SylvaHdbscanModel(uid, result, coords, d, stats, prediction);
        m.setParent(parent());
        return copyValues(m, extra);
    }

    /** The param's value, and for an unset {@code minSamples} (0) the value it stood for. */
    private String described(Param<?> param) {
        Object v = getOrDefault(param);
        return param.equals(p.minSamples) && (Integer) v == 0 ? "0 (that is, minClusterSize: " + getMinClusterSize() + ")"
                : String.valueOf(v);
    }

    /**
     * The first fit-defining param to which {@code value} gives another value than the fit had ({@code null}: it
     * gives none), or null; minClusterSize comes first, so that minSamples' 0 is read against the fit's.
     */
    private Param<?> firstUnlikeTheFit(java.util.function.Function<Param<?>, Object> value) {
        List<Param<?>> params = p.fitDefining();
        List<Object> fitted = HdbscanParams.valuesOf(result.parameters());
        for (int i = 0; i < params.size(); i++) {
            Object v = value.apply(params.get(i));
            if (v != null && !sameFitValue(params.get(i), v, fitted.get(i))) return params.get(i);
        }
        return null;
    }

    /** Whether {@code a} and {@code b} are the same value of a fit-defining {@code param}. */
    private boolean sameFitValue(Param<?> param, Object a, Object b) {
        if (param.equals(p.minSamples)) {
            int mcs = getMinClusterSize();
            return ((Integer) a == 0 ? mcs : (Integer) a) == ((Integer) b == 0 ? mcs : (Integer) b);
        }
        return a.equals(b);
    }

    /**
     * Refuses to use a model whose fit-defining params no longer describe its fit ({@code refused}: what is not done):
     * Spark ML's {@code Params.set} is public, so one can be changed on the model; its getters would then describe a
     * fit this model is not, and a directory written would be refused on loading.
     */
    private void requireParamsOfTheFit(String refused) {
        Param<?> changed = firstUnlikeTheFit(q -> isDefined(q) ? getOrDefault(q) : null);
        if (changed != null) {
            throw new IllegalStateException(changed.name() + " is " + described(changed) + " on this model, but its fit "
                    + "had " + fitValue(changed) + ": the fit's params describe the fit (set them on the estimator and fit "
                    + "again); " + refused);
        }
    }

    /** The value the fit had for a fit-defining {@code param}. */
    private Object fitValue(Param<?> param) {
        return HdbscanParams.valuesOf(result.parameters()).get(p.fitDefining().indexOf(param));
    }

    /**
     * A fitted model keeps its fit and points on the driver (transient fields), so a Java-serialized copy would have
     * none: it is refused here, naming what to send instead, rather than failing later with a null.
     */
    @java.io.Serial
    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
        throw new java.io.NotSerializableException(SylvaHdbscanModel.class.getName() + ": a fitted model is not "
                + "Java-serializable (its fit is held on the driver); save it with write().save(path), or send "
                + "predictionModel().toBytes() and read it with HdbscanModel.fromBytes");
    }

    /**
     * Gives a loaded model the fit-defining params of the fit its model file holds: each one its metadata lacks
     * (a directory written before the model had them) is set to the file's value; one it has must agree with the
     * file's, or the directory is refused as inconsistent, naming the param and both values.
     */
    private void adoptFitParams(Path file) {
        for (Param<?> q : p.fitDefining()) {
            @SuppressWarnings("unchecked")
            Param<Object> param = (Param<Object>) q;
            if (!isDefined(param)) set(param, fitValue(param));
        }
        Param<?> unlike = firstUnlikeTheFit(this::getOrDefault);
        if (unlike != null) {
            throw new InvalidInputException("model directory " + file.getParent().getParent() + ": its metadata gives "
                    + unlike.name() + " " + described(unlike) + ", but its model file " + file + " was fitted with "
                    + fitValue(unlike));
        }
    }

    /**
     * Writes the model to a directory: Spark ML's metadata (class, uid, params) in {@code metadata/} and the
     * library's model file in {@code data/hdbscan.model}, written on the driver.
     */
    @Override
    public MLWriter write() {
        return new Writer(this);
    }

    /** The reader of a directory {@link #write()} wrote. */
    public static MLReader<SylvaHdbscanModel> read() {
        return new Reader();
    }

    /** As {@code read().load(path)}. */
    public static SylvaHdbscanModel load(String path) {
        return read().load(path);
    }

    /** Spark ML's metadata, then the library's model file ({@link ModelData}). */
    private static final class Writer extends MLWriter {
        private final SylvaHdbscanModel instance;

        Writer(SylvaHdbscanModel instance) {
            this.instance = instance;
        }

        @Override
        public void save(String path) throws IOException {
            // before Spark's save, which removes an existing directory first under overwrite()
            instance.requireParamsOfTheFit("the model was not saved");
            super.save(path);
        }

        @Override
        public void saveImpl(String path) {
            DefaultParamsWriter$.MODULE$.saveMetadata(instance, path, sparkSession());
            HdbscanModel model = instance.predictionModel();
            Path file = ModelData.file(path);
            try {
                ModelData.write(model, file, file.getFileSystem(sc().hadoopConfiguration()));
            } catch (IOException e) {
                throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
            }
        }
    }

    /** Reads what {@link Writer} wrote: the params from the metadata, the result rebuilt from the model file. */
    private static final class Reader extends MLReader<SylvaHdbscanModel> {
        @Override
        public SylvaHdbscanModel load(String path) {
            DefaultParamsReader.Metadata metadata = DefaultParamsReader$.MODULE$.loadMetadata(path, sparkSession(),
                    SylvaHdbscanModel.class.getName());
            Path file = ModelData.file(path);
            HdbscanModel model;
            try {
                model = ModelData.read(file, file.getFileSystem(sc().hadoopConfiguration()));
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
            if (model.fittedSize() != model.size() || model.projection().isPresent()
                    || !model.parameters().metric().isEuclidean()) {
                throw new InvalidInputException("model file " + file + ": not a SylvaHdbscanModel's data ("
                        + (!model.parameters().metric().isEuclidean() ? "a fit with the "
                                + model.parameters().metric().name() + " metric"
                                : model.projection().isPresent() ? "its new points are projected"
                                : (model.size() - model.fittedSize()) + " of its " + model.size()
                                        + " rows left out of the fit")
                        + "; SylvaHdbscan fits every row as it is)");
            }
            HdbscanResult result;
            try {
                // the fit's core distances: one exact neighbour search over the points, on the driver
                result = HdbscanResult.of(model, Execution.everyCore());
            } catch (InvalidInputException e) {
                throw e.withContext("model file " + file);
            }
            SylvaHdbscanModel m = new SylvaHdbscanModel(metadata.uid(), result, model.fittedCoordinates(),
                    model.dimensions(), null, model);
            metadata.getAndSetParams(m, metadata.getAndSetParams$default$2());
            m.adoptFitParams(file);   // the result's parameters are the file's
            return m;
        }
    }
}
