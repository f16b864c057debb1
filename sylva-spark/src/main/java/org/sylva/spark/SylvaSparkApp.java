package org.sylva.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sylva.data.InvalidInputException;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.progress.CancelledException;

/**
 * The {@code spark-submit} entry point: {@code hdbscan} fits a Parquet table's points column (or a 2-D
 * {@code .npy} read on the driver) and writes the table with {@code label}, {@code probability} and
 * {@code outlier_score} appended as Parquet (other names: {@code --label-col}, {@code --probability-col},
 * {@code --outlier-score-col}; a model predicts into its fit's unless they are given); {@code --group-by COL} fits each group separately
 * ({@code --small-groups noise}: a group too small to fit is noise, not an error), and
 * {@code --save-model DIR} saves the fit's model (Spark ML's persistence). {@code predict} assigns the points of
 * another table (or {@code .npy}) to a saved model's clusters ({@link SylvaHdbscanModel#predict}) and writes them
 * with the same three columns. {@code balltree} appends {@code tree_idx}, {@code mask} (and {@code partition}) to a table of point
 * clouds. The output and the model directory must not exist yet; both are checked before any work (Spark's
 * committer publishes the output whole, with {@code _SUCCESS}; a run that fails removes what it wrote, the output
 * directory and the model saved for it, so the same command runs again once its cause is fixed).
 * Bad input or parameters: a one-line error naming the option or the input, and exit status 2 (the usage too where
 * the command line itself is wrong: an unknown, repeated or missing option).
 *
 * <pre>{@code
 * spark-submit --class org.sylva.spark.SylvaSparkApp sylva-spark-0.1.0-all.jar \
 *     hdbscan --input clips.parquet --features features --min-cluster-size 20 --output labelled.parquet \
 *     --save-model clips.model
 * spark-submit --class org.sylva.spark.SylvaSparkApp sylva-spark-0.1.0-all.jar \
 *     predict --model clips.model --input later.parquet --output later-labelled.parquet
 * }</pre>
 */
public final class SylvaSparkApp {
    private static final String USAGE = """
            usage: SylvaSparkApp hdbscan --input PATH(.parquet|.npy) --output PATH [--features COL] \
            [--min-cluster-size N] [--min-samples N] [--cluster-selection-epsilon E] [--max-cluster-size N] \
            [--alpha A] [--cluster-selection-method eom|leaf] [--allow-single-cluster] [--group-by COL \
            [--small-groups error|noise]] [--slices N] [--save-model DIR] [--label-col COL] [--probability-col COL] \
            [--outlier-score-col COL]
                   SylvaSparkApp predict --model DIR --input PATH(.parquet|.npy) --output PATH [--features COL] \
            [--label-col COL] [--probability-col COL] [--outlier-score-col COL]
                   SylvaSparkApp balltree --input PATH.parquet --output PATH [--points COL] [--partition-level T] \
            [--tree-idx-col COL] [--mask-col COL] [--partition-col COL]""";

    private SylvaSparkApp() {
    }

    public static void main(String[] args) {
        int status = main(args, () -> SparkSession.builder().appName("sylva").getOrCreate(), System.out, System.err);
        if (status != 0) System.exit(status);
    }

    /**
     * What {@link #main} does, with the session from {@code spark}: help, a missing or an unknown command are
     * answered without starting Spark; otherwise the command runs ({@link #run}) and the session is stopped.
     */
    static int main(String[] args, Supplier<SparkSession> spark, PrintStream out, PrintStream err) {
        Integer answered = withoutSpark(args, out, err);
        if (answered != null) return answered;
        SparkSession session = spark.get();
        try {
            return run(session, args, out, err);
        } finally {
            session.stop();
        }
    }

    /** The exit status of help (0), a missing or an unknown command (2), or {@code null} for a command to run. */
    private static Integer withoutSpark(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && (Set.of("--help", "-h", "help").contains(args[0])
                || Set.of("hdbscan", "predict", "balltree").contains(args[0])
                        && Arrays.stream(args, 1, args.length).anyMatch(a -> a.equals("--help") || a.equals("-h")))) {
            out.println(USAGE);
            return 0;
        }
        String refusal = args.length == 0 ? "no command given"
                : !Set.of("hdbscan", "predict", "balltree").contains(args[0])
                        ? "unknown command '" + args[0] + "' (hdbscan, predict or balltree)"
                : null;
        if (refusal == null) return null;
        err.println("sylva-spark: " + refusal);
        err.println(USAGE);
        return 2;
    }

    /**
     * Runs one command on {@code spark}; returns the exit status (0 done or help shown; 2 bad input or
     * parameters, an input path that does not exist or that Spark cannot read, an output that exists; 130
     * cancelled). Any other failure is thrown.
     */
    public static int run(SparkSession spark, String[] args, PrintStream out, PrintStream err) {
        Integer answered = withoutSpark(args, out, err);
        if (answered != null) return answered;
        try {
            Map<String, String> o = options(args, 1, switch (args[0]) {
                case "hdbscan" -> Set.of("--input", "--output", "--features", "--min-cluster-size", "--min-samples",
                        "--cluster-selection-epsilon", "--max-cluster-size", "--alpha", "--cluster-selection-method",
                        "--group-by", "--small-groups", "--slices", "--save-model", "--label-col", "--probability-col",
                        "--outlier-score-col");
                case "predict" -> Set.of("--model", "--input", "--output", "--features", "--label-col",
                        "--probability-col", "--outlier-score-col");
                default -> Set.of("--input", "--output", "--points", "--partition-level", "--tree-idx-col",
                        "--mask-col", "--partition-col");
            }, args[0].equals("hdbscan") ? Set.of("--allow-single-cluster") : Set.of());
            String input = required(o, "--input");
            String output = required(o, "--output");
            String saveModel = o.get("--save-model");
            if (o.containsKey("--partition-col") && !o.containsKey("--partition-level")) {
                throw new InvalidInputException("--partition-col names the column of the partition at "
                        + "--partition-level; it takes --partition-level");
            }
            if (o.containsKey("--small-groups") && !o.containsKey("--group-by")) {
                throw new InvalidInputException("--small-groups says what becomes of a group too small to fit; it "
                        + "takes --group-by");
            }
            String small = o.getOrDefault("--small-groups", "error");
            if (!small.equals("error") && !small.equals("noise")) {
                throw new InvalidInputException("--small-groups " + small + ": must be error or noise");
            }
            if (saveModel != null && o.containsKey("--group-by")) {
                throw new InvalidInputException("--save-model saves the model of one fit; --group-by makes one fit per "
                        + "group");
            }
            if (saveModel != null && samePath(spark, saveModel, output)) {
                throw new PathRefused("--save-model and --output are the same path (" + output + "); give two");
            }
            if (saveModel != null && (within(spark, saveModel, output) || within(spark, output, saveModel))) {
                // one would be written into the other: Spark refuses an output that exists, or mixes the two
                throw new PathRefused("--save-model " + saveModel + " and --output " + output + " are one inside the "
                        + "other; give two separate paths");
            }
            refuseExistingOrUnwritable(spark, output, "--output");
            if (saveModel != null) refuseExistingOrUnwritable(spark, saveModel, "--save-model");
            Dataset<Row> result = switch (args[0]) {
                case "hdbscan" -> hdbscan(spark, o, input, saveModel);
                case "predict" -> predict(spark, o, input);
                case "balltree" -> new SylvaBallTrees().setPointsCol(o.getOrDefault("--points", "points"))
                        .setPartitionLevel(intOption(o, "--partition-level", -1))
                        .setTreeIdxCol(o.getOrDefault("--tree-idx-col", "tree_idx"))
                        .setMaskCol(o.getOrDefault("--mask-col", "mask"))
                        .setPartitionCol(o.getOrDefault("--partition-col", "partition"))
                        .transform(spark.read().parquet(input));
                default -> throw new InvalidInputException("unknown command '" + args[0] + "'");
            };
            try {
                result.write().parquet(output);
            } catch (Exception e) {
                // Spark's and Hadoop's exceptions are checked ones, thrown undeclared: every failure lands here. The
                // output did not exist (refused above), so what is there now is this run's, and a rerun must not
                // find it; no model either for an output never written.
                removeQuietly(spark, output);
                if (saveModel != null) removeQuietly(spark, saveModel);
                throw e;
            }
            out.println("sylva-spark: wrote " + output + (saveModel != null ? " and the model " + saveModel : ""));
            return 0;
        } catch (Exception e) {
            // Spark's AnalysisException (a path not found, an output that exists, an unresolved column) is a
            // checked exception that Scala methods throw undeclared; a task's refusal reaches the driver wrapped
            // in Spark's job failure: report the cause
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof CancelledException) {
                    err.println("sylva-spark: cancelled");
                    return 130;
                }
                if (c instanceof InvalidInputException bad) {
                    err.println("sylva-spark: " + asOptions(bad.getMessage()));
                    if (c instanceof UsageError) err.println(USAGE);
                    return 2;
                }
                if (c == e && c instanceof IllegalArgumentException bad) {
                    // Spark ML's parameter validators, in the options' words where the parameter is an option's
                    String option = optionRefusal(bad.getMessage());
                    err.println("sylva-spark: " + (option != null ? option : bad.getMessage()));
                    return 2;
                }
                if (c instanceof java.io.FileNotFoundException missing && missing.getMessage() != null
                        && missing.getMessage().startsWith("model file ")) {
                    // a model directory without its data file (ModelData names it): the user's --model
                    err.println("sylva-spark: --model: " + missing.getMessage());
                    return 2;
                }
                if (c instanceof org.apache.hadoop.fs.ParentNotDirectoryException
                        || c instanceof org.apache.hadoop.security.AccessControlException
                        || c instanceof java.nio.file.AccessDeniedException) {
                    // an output the file system refuses: the user's path, not a failure of Spark
                    err.println("sylva-spark: " + String.valueOf(c.getMessage()).lines().findFirst().orElse("cannot write"));
                    return 2;
                }
                if (c instanceof org.apache.spark.sql.AnalysisException || isInputError(c)) {
                    err.println("sylva-spark: " + String.valueOf(c.getMessage()).lines().findFirst().orElse("invalid input"));
                    return 2;
                }
            }
            if (e instanceof RuntimeException r) throw r;
            throw new IllegalStateException("sylva-spark: " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code t} is Spark's refusal of its input (a file it cannot read as Parquet, a malformed value):
     * an error condition in SQLSTATE class 22 (data), 42 (analysis), 0A (not supported) or KD (data source),
     * rather than a failure of the cluster or of Spark itself.
     */
    static boolean isInputError(Throwable t) {
        if (!(t instanceof org.apache.spark.SparkThrowable s) || s.getCondition() == null || s.isInternalError()) {
            return false;
        }
        String state = s.getSqlState();
        return state != null && state.length() >= 2 && Set.of("22", "42", "0A", "KD").contains(state.substring(0, 2));
    }

    /**
     * Refuses {@code path} (given as {@code option}) when it exists, nothing being overwritten, or when the file system
     * will not make it, before the work whose output it is.
     */
    private static void refuseExistingOrUnwritable(SparkSession spark, String path, String option) throws IOException {
        if (exists(spark, path)) throw new PathRefused(option + " " + path + " already exists; give a new path");
        // before the fit, not after it: a folder the file system will not make (a read-only place, a file on the
        // way) is found by making it, then removing it again with the parents it made
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
        org.apache.hadoop.fs.FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
        org.apache.hadoop.fs.Path top = fs.makeQualified(p);
        for (int up = 0; up < 4096 && top.getParent() != null && !fs.exists(top.getParent()); up++) {
            top = top.getParent();
        }
        boolean made;
        try {
            made = fs.mkdirs(p);
        } catch (IOException e) {
            throw new PathRefused(option + " " + path + " cannot be written: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("the file system refused it"));
        }
        if (!made) throw new PathRefused(option + " " + path + " cannot be written: the file system did not make it");
        fs.delete(top, true);
    }

    /** Whether two paths name one place on their file system (qualified, as Spark writes them). */
    private static boolean samePath(SparkSession spark, String a, String b) throws IOException {
        org.apache.hadoop.fs.Path pa = new org.apache.hadoop.fs.Path(a), pb = new org.apache.hadoop.fs.Path(b);
        var conf = spark.sparkContext().hadoopConfiguration();
        return pa.getFileSystem(conf).makeQualified(pa).equals(pb.getFileSystem(conf).makeQualified(pb));
    }

    /** Whether {@code inner} lies under {@code outer} (both qualified on their file systems). */
    private static boolean within(SparkSession spark, String inner, String outer) throws IOException {
        var conf = spark.sparkContext().hadoopConfiguration();
        org.apache.hadoop.fs.Path pi = new org.apache.hadoop.fs.Path(inner), po = new org.apache.hadoop.fs.Path(outer);
        org.apache.hadoop.fs.Path i = pi.getFileSystem(conf).makeQualified(pi), top = po.getFileSystem(conf).makeQualified(po);
        for (org.apache.hadoop.fs.Path p = i.getParent(); p != null; p = p.getParent()) {   // ends at the root
            if (p.equals(top)) return true;
        }
        return false;
    }

    /** A {@code .npy} read on the driver: a local path, or a {@code file:} URI as Spark's own paths take it. */
    private static Path localPath(String input) {
        return input.startsWith("file:") ? Path.of(java.net.URI.create(input)) : Path.of(input);
    }

    /** Whether {@code path} exists on its file system (local, HDFS, S3, as Spark's configuration reaches it). */
    private static boolean exists(SparkSession spark, String path) throws IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
        return p.getFileSystem(spark.sparkContext().hadoopConfiguration()).exists(p);
    }

    /** A path refused for what is (or is not) there: one line, no usage. */
    private static final class PathRefused extends InvalidInputException {
        private static final long serialVersionUID = 1L;

        PathRefused(String message) {
            super(message);
        }
    }

    private static void removeQuietly(SparkSession spark, String path) {
        try {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
            p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
        } catch (IOException | RuntimeException ignored) {
            // the output's own failure is what gets reported
        }
    }

    /** The points of {@code input} assigned to the clusters of the model saved at {@code --model}. */
    private static Dataset<Row> predict(SparkSession spark, Map<String, String> o, String input) throws IOException {
        String modelDir = required(o, "--model");
        if (!exists(spark, modelDir)) {
            throw new PathRefused("--model " + modelDir + ": no such model directory (sylva-spark hdbscan "
                    + "--save-model writes one)");
        }
        if (!exists(spark, modelDir + "/metadata")) {
            throw new PathRefused("--model " + modelDir + ": not a saved model (it has no metadata folder; "
                    + "sylva-spark hdbscan --save-model writes one)");
        }
        SylvaHdbscanModel model = SylvaHdbscanModel.load(modelDir);
        // the model's own columns (those of its fit: its points column, its outputs) unless the options name others
        if (o.containsKey("--features")) model.setFeaturesCol(o.get("--features"));
        String features = model.getFeaturesCol();
        if (o.containsKey("--label-col")) model.setLabelCol(o.get("--label-col"));
        if (o.containsKey("--probability-col")) model.setProbabilityCol(o.get("--probability-col"));
        if (o.containsKey("--outlier-score-col")) model.setOutlierScoreCol(o.get("--outlier-score-col"));
        if (input.endsWith(".npy")) {
            refuseNpyIdColumn(Map.of("--features", features, "--label-col", model.getLabelCol(), "--probability-col",
                    model.getProbabilityCol(), "--outlier-score-col", model.getOutlierScoreCol()), o.keySet());
        }
        Dataset<Row> df = input.endsWith(".npy") ? npyPoints(spark, localPath(input), features, 0)
                : spark.read().parquet(input);
        return model.predict(df);
    }

    private static Dataset<Row> hdbscan(SparkSession spark, Map<String, String> o, String input, String saveModel)
            throws IOException {
        String features = o.getOrDefault("--features", "features");
        SylvaHdbscan h = new SylvaHdbscan().setFeaturesCol(features)
                .setMinClusterSize(intOption(o, "--min-cluster-size", 5))
                .setMinSamples(intOption(o, "--min-samples", 0))
                .setClusterSelectionEpsilon(doubleOption(o, "--cluster-selection-epsilon", 0.0))
                .setMaxClusterSize(intOption(o, "--max-cluster-size", 0))
                .setAlpha(doubleOption(o, "--alpha", 1.0))
                .setClusterSelectionMethod(o.getOrDefault("--cluster-selection-method", "eom"))
                .setAllowSingleCluster(o.containsKey("--allow-single-cluster"))
                .setNumSlices(intOption(o, "--slices", 0))
                .setLabelCol(o.getOrDefault("--label-col", "label"))
                .setProbabilityCol(o.getOrDefault("--probability-col", "probability"))
                .setOutlierScoreCol(o.getOrDefault("--outlier-score-col", "outlier_score"));
        if (input.endsWith(".npy")) {
            refuseNpyIdColumn(Map.of("--features", features, "--label-col", h.getLabelCol(), "--probability-col",
                    h.getProbabilityCol(), "--outlier-score-col", h.getOutlierScoreCol()), o.keySet());
        }
        Dataset<Row> df = input.endsWith(".npy") ? npyPoints(spark, localPath(input), features,
                intOption(o, "--slices", 0))
                : spark.read().parquet(input);
        if (o.containsKey("--group-by")) {
            return h.fitGroups(df, o.get("--group-by"), o.getOrDefault("--small-groups", "error"));
        }
        SylvaHdbscanModel model = h.fit(df);
        if (saveModel != null) {
            try {
                model.write().save(saveModel);
            } catch (Exception e) {   // Spark's job failures too, checked exceptions Scala throws undeclared
                removeQuietly(spark, saveModel);   // refused above when it existed: what is there is this run's
                throw e;
            }
        }
        return model.transform(df);
    }

    /**
     * Refuses a column name (by its option, of {@code names}) that is {@code id} in any case (Spark's column names
     * are not case-sensitive): a {@code .npy} input is read as a table whose {@code id} column holds the row numbers
     * ({@link #npyPoints}). A name no option of {@code given} set is a saved model's own, and said to be.
     */
    private static void refuseNpyIdColumn(Map<String, String> names, Set<String> given) {
        for (String option : new java.util.TreeSet<>(names.keySet())) {
            String name = names.get(option);
            if (NPY_ID.equalsIgnoreCase(name)) {
                String which = given.contains(option) ? option + " " + name
                        : "column '" + name + "' (the model's; " + option + " names another)";
                throw new InvalidInputException(which + ": a .npy input is read as a table whose '" + NPY_ID
                        + "' column holds the row numbers; give the column another name");
            }
        }
    }

    /** The column of a {@code .npy} input's table that holds each row's number. */
    static final String NPY_ID = "id";

    /** A 2-D {@code .npy} read on the driver as a table of {@code id} (the row numbers) and an array column. */
    static Dataset<Row> npyPoints(SparkSession spark, Path path, String column, int partitions) {
        NpyArray a;
        try {
            a = Npy.read(path);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + path + ": " + e.getMessage());
        }
        if (a.rank() != 2) throw new InvalidInputException(path + ": expected a 2-D array, got rank " + a.rank());
        int n = a.shape()[0], d = a.shape()[1];
        double[] x = a.toFloat64();
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double[] p = new double[d];
            System.arraycopy(x, i * d, p, 0, d);
            rows.add(RowFactory.create(i, p));
        }
        StructType schema = new StructType().add(NPY_ID, DataTypes.IntegerType, false)
                .add(column, DataTypes.createArrayType(DataTypes.DoubleType, false), false);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int p = partitions > 0 ? partitions : sc.defaultParallelism();
        return spark.createDataFrame(sc.parallelize(rows, p), schema);
    }

    private static Map<String, String> options(String[] args, int from, Set<String> valued, Set<String> flags) {
        Map<String, String> o = new HashMap<>();
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (o.containsKey(a)) throw new UsageError(a + " is given twice");
            if (flags.contains(a)) {
                o.put(a, "true");
            } else if (valued.contains(a)) {
                if (i + 1 >= args.length) throw new UsageError(a + " needs a value");
                if (args[i + 1].isEmpty()) throw new UsageError(a + " needs a value; got an empty one");
                o.put(a, args[++i]);
            } else {
                throw new UsageError("unknown option '" + a + "'");
            }
        }
        return o;
    }

    /** A command line the usage answers: an unknown, repeated or missing option. */
    private static final class UsageError extends InvalidInputException {
        private static final long serialVersionUID = 1L;

        UsageError(String message) {
            super(message);
        }
    }

    /**
     * Each option that a Spark ML parameter's validator checks, by the parameter's name, with the rule in the app's
     * words: a refusal names the option and its rule, not the estimator's uid and parameter.
     */
    private static final Map<String, String[]> PARAMETER_OPTIONS = Map.ofEntries(
            Map.entry("minClusterSize", new String[] {"--min-cluster-size", "an integer >= 2"}),
            Map.entry("minSamples", new String[] {"--min-samples", "an integer >= 1 (0: --min-cluster-size)"}),
            Map.entry("clusterSelectionEpsilon", new String[] {"--cluster-selection-epsilon", "a number >= 0"}),
            Map.entry("maxClusterSize", new String[] {"--max-cluster-size", "an integer >= 1 (0: no limit)"}),
            Map.entry("alpha", new String[] {"--alpha", "a finite number > 0"}),
            Map.entry("clusterSelectionMethod", new String[] {"--cluster-selection-method", "eom or leaf"}),
            Map.entry("numSlices", new String[] {"--slices", "an integer >= 1 (0: the input's partitions)"}),
            Map.entry("partitionLevel", new String[] {"--partition-level", "an integer >= 0 (-1: the tree)"}),
            Map.entry("labelCol", new String[] {"--label-col", "a column name"}),
            Map.entry("probabilityCol", new String[] {"--probability-col", "a column name"}),
            Map.entry("outlierScoreCol", new String[] {"--outlier-score-col", "a column name"}),
            Map.entry("treeIdxCol", new String[] {"--tree-idx-col", "a column name"}),
            Map.entry("maskCol", new String[] {"--mask-col", "a column name"}),
            Map.entry("partitionCol", new String[] {"--partition-col", "a column name"}));

    /**
     * A refusal's "(param NAME" (SylvaHdbscan.inParamTerms) and a grouped fit's {@code smallGroups "noise"} in the
     * words of the options that set them.
     */
    static String asOptions(String message) {
        message = String.valueOf(message).replace("smallGroups \"noise\"", "--small-groups noise");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(param (\\w+)(: (\\w+), unset,)?")
                .matcher(String.valueOf(message));
        if (!m.find() || !PARAMETER_OPTIONS.containsKey(m.group(1))) return message;
        String option = PARAMETER_OPTIONS.get(m.group(1))[0];
        String replacement = m.group(3) == null ? "(option " + option
                : "(option " + option + ": " + PARAMETER_OPTIONS.get(m.group(3))[0] + ", not given,";
        return message.substring(0, m.start()) + replacement + message.substring(m.end());
    }

    /** Spark ML's "uid parameter NAME given invalid value V." as the option and its rule; null for another message. */
    static String optionRefusal(String message) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("parameter (\\w+) given invalid value (.*?)\\.?$")
                .matcher(String.valueOf(message));
        if (!m.find() || !PARAMETER_OPTIONS.containsKey(m.group(1))) return null;
        String[] o = PARAMETER_OPTIONS.get(m.group(1));
        return o[0] + " " + m.group(2) + ": must be " + o[1];
    }

    private static String required(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) throw new UsageError(name + " is required");
        return v;
    }

    private static int intOption(Map<String, String> o, String name, int fallback) {
        String v = o.get(name);
        if (v == null) return fallback;
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageError(name + " must be an integer, got '" + v + "'");
        }
    }

    private static double doubleOption(Map<String, String> o, String name, double fallback) {
        String v = o.get(name);
        if (v == null) return fallback;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageError(name + " must be a number, got '" + v + "'");
        }
    }
}
