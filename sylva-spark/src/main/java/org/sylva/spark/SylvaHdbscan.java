package org.sylva.spark;

import java.util.List;
import java.util.UUID;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Exact HDBSCAN* as a Spark ML {@link Estimator}, with scikit-learn's parameter names and defaults
 * ({@code minClusterSize} 5, {@code minSamples} unset = {@code minClusterSize}, counting the point itself,
 * {@code clusterSelectionEpsilon} 0, {@code alpha} 1, {@code clusterSelectionMethod} "eom",
 * {@code allowSingleCluster} false). The heavy stages run on the executors ({@link SparkHdbscanEngine}):
 * the core distances, then every Borůvka round; the hierarchy and selection run on the driver with the
 * library's code. The result is bitwise {@code Hdbscan.fit} on the same rows in the dataset's order,
 * whatever the number of partitions ({@code numSlices} tasks per stage; unset = the dataset's partitions).
 * The points column is a vector or an array of numbers; a null, a non-finite value or a row of another
 * length is refused with the row named, as the library's {@link org.sylva.data.InvalidInputException}.
 *
 * <p>{@code fit} reads the points column to the driver (one job; the driver then holds the points as
 * {@code 8·n·d} bytes for the fit, and the model keeps them for {@link SylvaHdbscanModel#transform}). Every
 * job a fit runs carries the job tag {@link SparkHdbscanEngine#JOB_TAG}, added to the caller's job group and
 * tags, which stay in force: {@code sc.cancelJobsWithTag(SparkHdbscanEngine.JOB_TAG)}, the caller's own
 * {@code sc.cancelJobGroup(...)} or the {@link CancellationToken} of {@link #fit(Dataset, CancellationToken)}
 * stops it with {@link org.sylva.progress.CancelledException}. Spark's cancels reach the jobs running at that
 * moment only; between two of the fit's jobs, {@code sc.cancelJobGroupAndFutureJobs(...)} stops it at its next.
 *
 * <p>The estimator is saved with Spark ML's params writer ({@code write().save(path)}) and read back with
 * {@link #load(String)}, every param kept, alone or inside a {@code Pipeline}; its model is saved too
 * ({@link SylvaHdbscanModel#write()}).
 *
 * <pre>{@code
 * SylvaHdbscanModel model = new SylvaHdbscan().setFeaturesCol("features").setMinClusterSize(20).fit(df);
 * Dataset<Row> labelled = model.transform(df);   // adds label, probability, outlier_score
 * }</pre>
 */
public final class SylvaHdbscan extends Estimator<SylvaHdbscanModel> implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final HdbscanParams p;

    public SylvaHdbscan() {
        this(Identifiable$.MODULE$.randomUID("sylvaHdbscan"));
    }

    public SylvaHdbscan(String uid) {
        this.uid = uid;
        p = new HdbscanParams(this);
        setDefault(p.featuresCol, "features");
        setDefault(p.labelCol, "label");
        setDefault(p.probabilityCol, "probability");
        setDefault(p.outlierScoreCol, "outlier_score");
        setDefault(p.minClusterSize, 5);
        setDefault(p.minSamples, 0);
        setDefault(p.clusterSelectionEpsilon, 0.0);
        setDefault(p.maxClusterSize, 0);
        setDefault(p.alpha, 1.0);
        setDefault(p.clusterSelectionMethod, "eom");
        setDefault(p.allowSingleCluster, false);
        setDefault(p.numSlices, 0);
        setDefault(p.transformMode, "fitted");
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() { return p.featuresCol; }
    public Param<String> labelCol() { return p.labelCol; }
    public Param<String> probabilityCol() { return p.probabilityCol; }
    public Param<String> outlierScoreCol() { return p.outlierScoreCol; }
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
    public int getMinSamples() { return (Integer) getOrDefault(p.minSamples); }
    public double getClusterSelectionEpsilon() { return (Double) getOrDefault(p.clusterSelectionEpsilon); }
    public int getMaxClusterSize() { return (Integer) getOrDefault(p.maxClusterSize); }
    public double getAlpha() { return (Double) getOrDefault(p.alpha); }
    public String getClusterSelectionMethod() { return getOrDefault(p.clusterSelectionMethod); }
    public boolean getAllowSingleCluster() { return (Boolean) getOrDefault(p.allowSingleCluster); }
    public int getNumSlices() { return (Integer) getOrDefault(p.numSlices); }
    public String getTransformMode() { return getOrDefault(p.transformMode); }

    public SylvaHdbscan setFeaturesCol(String v) {
        set(p.featuresCol, HdbscanParams.notNull(p.featuresCol, v));
        return this;
    }

    public SylvaHdbscan setLabelCol(String v) {
        set(p.labelCol, HdbscanParams.notNull(p.labelCol, v));
        return this;
    }

    public SylvaHdbscan setProbabilityCol(String v) {
        set(p.probabilityCol, HdbscanParams.notNull(p.probabilityCol, v));
        return this;
    }

    public SylvaHdbscan setOutlierScoreCol(String v) {
        set(p.outlierScoreCol, HdbscanParams.notNull(p.outlierScoreCol, v));
        return this;
    }

    public SylvaHdbscan setMinClusterSize(int v) { set(p.minClusterSize, v); return this; }
    public SylvaHdbscan setMinSamples(int v) { set(p.minSamples, v); return this; }
    public SylvaHdbscan setClusterSelectionEpsilon(double v) { set(p.clusterSelectionEpsilon, v); return this; }
    public SylvaHdbscan setMaxClusterSize(int v) { set(p.maxClusterSize, v); return this; }
    public SylvaHdbscan setAlpha(double v) { set(p.alpha, v); return this; }
    public SylvaHdbscan setClusterSelectionMethod(String v) {
        set(p.clusterSelectionMethod, HdbscanParams.notNull(p.clusterSelectionMethod, v));
        return this;
    }

    public SylvaHdbscan setAllowSingleCluster(boolean v) { set(p.allowSingleCluster, v); return this; }
    public SylvaHdbscan setNumSlices(int v) { set(p.numSlices, v); return this; }

    /** What the fitted model's {@code transform} gives: see {@link SylvaHdbscanModel#setTransformMode}. */
    public SylvaHdbscan setTransformMode(String v) {
        set(p.transformMode, HdbscanParams.notNull(p.transformMode, v));
        return this;
    }

    /** The parameters as they travel to executors. */
    FitSettings settings() {
        return p.settings(this);
    }

    /**
     * One independent fit per value of {@code keyColumn} (a recording, a channel group): the groups are spread over
     * the executors, each fitted there by the CPU engine on its rows in dataset order, so each group's labels,
     * probabilities and outlier scores equal a separate {@code Hdbscan.fit} of those rows. Returns every row with the
     * three output columns appended, in the dataset's order. Labels are numbered within each group. A group too small
     * for the parameters (fewer than two rows, or fewer than {@code minSamples}, {@code minClusterSize} when unset)
     * fails the job with the group's key named; {@link #fitGroups(Dataset, String, String)} can make such groups noise
     * instead. The result is lazy: the fits run in the job that consumes it (its RDD is named {@code sylva hdbscan:
     * one fit per 'KEY'} in the UI).
     */
    public Dataset<Row> fitGroups(Dataset<?> dataset, String keyColumn) {
        return fitGroups(dataset, keyColumn, "error");
    }

    /**
     * {@link #fitGroups(Dataset, String)}, with {@code smallGroups} saying what becomes of a group too small for the
     * parameters: {@code "error"} fails the job with the group's key named; {@code "noise"} gives each of its rows
     * label -1, probability 0 and outlier score NaN (not fitted, so not scored), as a recording's few spikes on a
     * quiet channel would otherwise end a job of many channels. Its rows are still read: a bad row is refused in a
     * group of any size.
     *
     * <pre>{@code
     * Dataset<Row> out = new SylvaHdbscan().setMinClusterSize(20).fitGroups(clips, "channel", "noise");
     * }</pre>
     */
    public Dataset<Row> fitGroups(Dataset<?> dataset, String keyColumn, String smallGroups) {
        if (!"error".equals(smallGroups) && !"noise".equals(smallGroups)) {
            throw new InvalidInputException("fitGroups: smallGroups must be \"error\" or \"noise\", got "
                    + (smallGroups == null ? "null" : "\"" + smallGroups + "\""));
        }
        return GroupedFits.run(dataset, keyColumn, this, smallGroups.equals("noise"));
    }

    @Override
    public SylvaHdbscanModel fit(Dataset<?> dataset) {
        return fit(dataset, CancellationToken.NEVER);
    }

    /** Fits, stopping with {@link org.sylva.progress.CancelledException} when {@code cancel} is cancelled. */
    public SylvaHdbscanModel fit(Dataset<?> dataset, CancellationToken cancel) {
        return fit(dataset, ProgressListener.NONE, cancel);
    }

    /**
     * As {@link #fit(Dataset, CancellationToken)}, telling {@code progress} the stages on the driver as the library's
     * fits do ({@link ProgressListener}): {@code "core distances"} as its job starts and ends, then {@code "spanning
     * tree round k"} after each round's job, counting the edges found, on the calling thread.
     *
     * <pre>{@code
     * SylvaHdbscanModel m = new SylvaHdbscan().fit(df, (stage, done, total) -> log.info(stage + " " + done + "/" + total),
     *         CancellationToken.NEVER);
     * }</pre>
     */
    public SylvaHdbscanModel fit(Dataset<?> dataset, ProgressListener progress, CancellationToken cancel) {
        java.util.Objects.requireNonNull(progress, "progress");
        transformSchema(dataset.schema());
        String col = getOrDefault(p.featuresCol);
        // Whole rows, as transform reads them, not the column alone: Spark would push that selection below a
        // round-robin repartition (df.repartition(n)), whose local sort before dealing rows out (its
        // sortBeforeRepartition) would then order the column's values alone, another order than the whole rows'.
        // Read whole on every pass, each row takes the same place in each, and transform takes its own dataset.
        Dataset<Row> points = dataset.toDF();
        FeatureColumn fc = FeatureColumn.of(points.schema(), col);
        SparkSession spark = dataset.sparkSession();
        // One job, under the fit's job tags and token like the fit's own jobs (SparkJobs): each row is read in
        // its task, and a bad row comes back as its refusal rather than failing the task, which Spark would
        // retry (re-reading the partition each time) and then report wrapped in a SparkException: here it is
        // the InvalidInputException the library throws, for the first bad row in dataset order. collect keeps
        // the partitions and their rows in order, so a row's place in the list is its place in the dataset
        // (no zipWithIndex, whose own job would compute the dataset once more to count its partitions).
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        SparkJobs reading = new SparkJobs(sc, SparkHdbscanEngine.JOB_TAG + "-" + UUID.randomUUID(), cancel);
        // The RDD is taken under the fit's tags (adaptive execution runs a shuffled input's stages as it is taken),
        // once: its partitions are the default slices, where taking dataset.rdd() again would compute the input again.
        int[] partitions = new int[1];
        List<Object> read = reading.collect(() -> {
            org.apache.spark.api.java.JavaRDD<Row> rdd = points.javaRDD();
            partitions[0] = rdd.getNumPartitions();
            return rdd.map(r -> FeatureColumn.readOrRefusal(fc, r));
        }, "sylva hdbscan: reading column '" + col + "'");
        List<double[]> rows = new java.util.ArrayList<>(read.size());
        long position = 0;
        int width = -1;   // row 0's number of values
        for (Object r : read) {   // walked, not indexed: the list need not be random-access
            if (r instanceof String refusal) throw FeatureColumn.refusal(refusal, position);
            double[] x = (double[]) r;
            if (width < 0) width = x.length;
            FeatureColumn.checkWidth(x, width, position, col);   // here: the first bad row is named, whatever its fault
            rows.add(x);
            position++;
        }
        read = null;
        double[] coords = FeatureColumn.pack(rows, col);
        int n = rows.size();
        rows = null;   // the rows' own arrays: from here on only the packed copy is held
        int d = coords.length / n;
        int slices = (Integer) getOrDefault(p.numSlices);
        if (slices == 0) slices = partitions[0];
        SparkHdbscanEngine engine = new SparkHdbscanEngine(spark, slices);
        HdbscanResult result;
        try {
            result = settings().builder(1).engine(engine).build().fit(coords, n, d, progress, cancel);
        } catch (InvalidInputException e) {
            throw inParamTerms(e);
        }
        SylvaHdbscanModel model = new SylvaHdbscanModel(uid, result, coords, d, engine.lastFitStats());
        model.setParent(this);
        return copyValues(model, ParamMap.empty());
    }

    /**
     * The library's refusal of a parameter (named as scikit-learn names it) with the param that sets it: {@code
     * (param minClusterSize)}, or for a {@code minSamples} left unset, the {@code minClusterSize} it defaults to.
     */
    InvalidInputException inParamTerms(InvalidInputException e) {
        if (e.parameter().isEmpty()) return e;
        String[] words = e.parameter().get().split("_");
        StringBuilder name = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            if (!words[i].isEmpty()) name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        if (!hasParam(name.toString())) return e;
        String note = name.toString().equals("minSamples") ? settings().minSamplesParam() : "param " + name;
        return InvalidInputException.forParameter(e.parameter().get(), e.getMessage() + " (" + note + ")");
    }

    @Override
    public StructType transformSchema(StructType schema) {
        String col = getOrDefault(p.featuresCol);
        FeatureColumn.of(schema, col);
        return FeatureColumn.appendFitOutputs(schema, getOrDefault(p.labelCol), getOrDefault(p.probabilityCol),
                getOrDefault(p.outlierScoreCol));
    }

    @Override
    public SylvaHdbscan copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    /**
     * The reader of a directory {@link #write()} (Spark ML's params writer) wrote: uid and every param. Another
     * stage's directory (a saved {@link SylvaHdbscanModel}, say) is refused naming the class it holds.
     */
    public static MLReader<SylvaHdbscan> read() {
        return new CheckedParamsReader<>(SylvaHdbscan.class);
    }

    /** As {@code read().load(path)}. */
    public static SylvaHdbscan load(String path) {
        return read().load(path);
    }
}
