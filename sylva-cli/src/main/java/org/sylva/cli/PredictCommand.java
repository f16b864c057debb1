package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Membership;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.hdbscan.predict.RowShape;
import org.sylva.io.AtomicOutput;
import org.sylva.io.NpyArray;
import org.sylva.parallel.Execution;
import org.sylva.progress.ProgressListener;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sylva predict}: assign new points to the clusters of a saved model. */
final class PredictCommand implements Callable<Integer> {
    /** The files this command writes, without extension. */
    static final List<String> OUTPUTS = List.of("labels", "probabilities", "outlier_scores", "membership");
    CommandSpec spec;
    private final CliContext context;
    Path model;
    List<String> inputs;
    String shape;
    ResultFolderOptions folder = new ResultFolderOptions();
    RunOptions run = new RunOptions();

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("predict", this)
                .unsorted()
                .header("Assign new points to the clusters of a saved HDBSCAN model.")
                .description("Reads a model saved by 'sylva hdbscan --save-model' and a file of new points with as "
                        + "many coordinates as the fitted ones, and writes into --out: labels (-1 = noise), "
                        + "probabilities, outlier_scores (may be negative for points denser than their cluster's "
                        + "fitted points) and membership (one row per new point, one column per cluster: soft "
                        + "clustering); all of them or, on error or Ctrl-C, none.",
                        "The answers are those of the hdbscan package's approximate_predict, "
                        + "approximate_predict_scores and membership_vector, exact and deterministic, but for the "
                        + "clusters: the package's prediction selects clusters again, and differs from its own fit "
                        + "where it picks others; Sylva labels by the fit's clusters (README, 'Predict and soft "
                        + "clustering'). For a model of --min-samples 1, where the package has no answer, a new point's "
                        + "core distance is its nearest fitted point's distance. New points are "
                        + "read as for sylva hdbscan (a float64 or 32- or 64-bit integer .npy exactly as float64, others as "
                        + "float32).")
                .footer("",
                        "Examples:",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --out fit/ \\",
                        "      --save-model clips.model",
                        "  sylva predict clips.model later.npy --out assigned/",
                        "  sylva predict clips.model later.csv --out assigned/ --format csv",
                        "  sylva predict clips.model day*.npy --out assigned/   # assigned/day1/, ...");
        m.parameter(Path.class, v -> model = v)
                .index("0")
                .paramLabel("MODEL")
                .description("A model file written by sylva hdbscan --save-model.");
        @SuppressWarnings("unchecked")
        Class<List<String>> list = (Class<List<String>>) (Class<?>) List.class;
        m.parameter(list, v -> inputs = v)
                .index("1..*")
                .arity("1..*")
                .auxiliaryTypes(String.class)
                .paramLabel("NEW")
                .description("New points: .npy, .csv/.tsv, .npz (a scipy sparse matrix, its rows as dense points), "
                        + "or raw little-endian float32 with --shape; '-' reads stdin. Several files are assigned "
                        + "one after the other with the model read once, each into its own folder --out/NAME (NAME: "
                        + "the file name without its last extension), exactly as a separate run of each writes it; "
                        + "--json then prints a line per file.");
        m.option(String.class, v -> shape = v, "--shape")
                .paramLabel("N,D")
                .description("Shape of a raw float32 input (required for raw files).");
        folder.declare(m, false);
        run.declare(m);
        spec = m.spec();
        return spec;
    }

    /** Seconds the model's reading took, for --json. */
    private double modelSeconds;

    PredictCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        int threads = run.threadCount();   // a bad --threads is refused before anything is read or claimed
        List<InputBatch.Target> targets = InputBatch.plan(inputs, shape, folder.out, null, null);
        List<OutputTargets.OptionFile> read = new ArrayList<>();
        read.add(new OutputTargets.OptionFile("model", model));
        for (InputBatch.Target t : targets) {
            read.add(new OutputTargets.OptionFile("input", Path.of(t.input())));   // "-": standard input
        }
        for (InputBatch.Target t : targets) {
            folder.claim(context, err, run.quiet, OUTPUTS, t.out());
            folder.refuseOverlaps(OUTPUTS, t.out(), List.of(), read);
        }
        RunRecord.Input modelRead = RunRecord.Input.of("model", model, context.cancel());   // hashed once, beside
        long t0 = System.nanoTime();
        HdbscanModel m = loadModel(err);   // once, for every file of new points
        modelSeconds = JsonSummary.since(t0);
        context.completed().plan(targets.size(), folder.out);
        for (int i = 0; i < targets.size(); i++) {
            InputBatch.Target t = targets.get(i);
            if (targets.size() > 1 && !run.quiet) err.println(InputBatch.startLine(i, targets));
            predict(m, modelRead, t, threads, err, i == 0);
            context.completed().done();
        }
        return 0;
    }

    /** Model files of this size or more show their reading's progress: reading and checking them takes a second or more. */
    static final long MODEL_PROGRESS_BYTES = 128L << 20;

    /** The model, read so that Ctrl-C stops the read; a large file shows its progress (none with {@code --quiet}). */
    private HdbscanModel loadModel(java.io.PrintWriter err) throws IOException {
        if (!Files.isRegularFile(model) || Files.size(model) < MODEL_PROGRESS_BYTES) {
            return HdbscanModel.load(model, ProgressListener.NONE, context.cancel());
        }
        try (ProgressPrinter reading = context.progress(err, run.quiet, 0)) {
            return HdbscanModel.load(model, reading, context.cancel());
        }
    }

    /**
     * Reads the new points of {@code t}, assigns them and writes the answers into its folder; {@code first}: the
     * run's first file, after whose points (once they are found good) a model that labels nothing is warned of.
     */
    private void predict(HdbscanModel m, RunRecord.Input modelRead, InputBatch.Target t, int threads,
            java.io.PrintWriter err, boolean first) throws Exception {
        String input = t.input();
        RunRecord.Input pointsRead = RunRecord.Input.of("points", input, context.cancel());
        long t0 = System.nanoTime();
        PointSet points = newPoints(m, model, input, shape, err, context, run.quiet);
        Map<String, Object> seconds = new LinkedHashMap<>();
        seconds.put("model", modelSeconds);   // read once, for every file of new points
        seconds.put("read", JsonSummary.since(t0));
        if (first && !m.predictsClusters()) {
            err.println("sylva: warning: the model's condensed tree never splits (its fit found " + m.clusterCount()
                    + (m.clusterCount() == 1 ? " cluster, the root" : " clusters") + "), so every new point is "
                    + "labelled noise, as the hdbscan package's approximate_predict does");
        }
        Prediction p;
        Membership soft;
        long t1 = System.nanoTime();
        try (ProgressPrinter progress = context.progress(err, run.quiet, points.size())) {
            Execution ex = new Execution(threads, progress, context.cancel());
            HdbscanModel.Answers both = m.predictWithMembership(points, ex);   // one neighbour search per point
            p = both.prediction();
            soft = both.membership();
        } catch (InvalidInputException e) {
            throw e.withContext(input);
        }
        seconds.put("prediction", JsonSummary.since(t1));
        context.cancel().throwIfCancelled();
        List<String> positional = new ArrayList<>();
        positional.add(model.toString());
        positional.addAll(inputs);
        List<Path> written = write(p, soft, t.out(), RunRecord.of(spec, java.util.Arrays.asList(modelRead, pointsRead),
                null, positional, List.of(model.toString(), input), java.util.Map.of("--out", t.out().toString()))
                .describe());
        if (folder.json) spec.commandLine().getOut().println(json(m, p, points, written, input, threads, seconds));
        if (!run.quiet) err.println(summary(m, p, points, written));
    }

    /** Every output together: all of them or, on failure or cancellation, none. */
    private List<Path> write(Prediction p, Membership soft, Path out, Map<String, Object> runRecord)
            throws java.io.IOException {
        List<Path> written = new ArrayList<>();
        int n = p.size();
        OutputFormat format = folder.format;
        try (AtomicOutput.Group g = AtomicOutput.group(context.cancel())) {
            written.add(format.stage(g, out, "labels", NpyArray.ofInt32(p.labels(), n)));
            written.add(format.stage(g, out, "probabilities", NpyArray.ofFloat64(p.probabilities(), n)));
            written.add(format.stage(g, out, "outlier_scores", NpyArray.ofFloat64(p.outlierScores(), n)));
            written.add(format.stage(g, out, "membership", NpyArray.ofFloat64(soft.values(), n, soft.clusters())));
            context.cancel().throwIfCancelled();
            g.commitFolder(out, "predict", runRecord, () -> { });
            OutputTargets.tellRemoved(spec.commandLine().getErr(), run.quiet, g, out);
        }
        return written;
    }

    /**
     * The new points of {@code input} (float64 where the file is), finite and with the model's number of
     * coordinates: refused otherwise, naming the file and the model.
     */
    static PointSet newPoints(HdbscanModel m, Path model, String input, String shape, java.io.PrintWriter err,
                              CliContext context, boolean quiet) throws java.io.IOException {
        InputOptions in = new InputOptions();
        in.input = input;
        in.shape = shape;
        InputOptions.Loaded loaded = in.readForFit(err, context.stdin(), context.cancel(), context, quiet);
        in.requireFinite(loaded, "");
        PointSet points = loaded.exact();
        if (points.dimensions() != m.inputDimensions()) {
            throw new InvalidInputException(input + ": points of " + points.dimensions()
                    + (points.dimensions() == 1 ? " coordinate" : " coordinates") + ", but the model "
                    + model + (m.projection().isPresent() ? " projects points of " + m.inputDimensions()
                    + " coordinates on its " + m.dimensions() + " principal components (a fit with --pca)"
                    : " was fitted on points of " + m.dimensions()));
        }
        refuseOtherClipAxes(m, model, input, loaded.clipShape());
        return points;
    }

    /**
     * Refuses new clips (a 3-D {@code .npy}) whose two axes differ from the fit's clips, recorded in the model:
     * {@code (m, 61, 4)} against a fit on {@code (n, 4, 61)} has as many values per clip but flattens to other
     * coordinates, and would be assigned as nonsense. Flat rows, and models that recorded no shape (fits on
     * 2-D input, models saved before format version 4), are taken as they are.
     */
    static void refuseOtherClipAxes(HdbscanModel m, Path model, String input, int[] clip) {
        RowShape fitted = m.rowShape().orElse(null);
        if (fitted == null || clip == null || (clip[0] == fitted.outer() && clip[1] == fitted.inner())) return;
        String given = "(" + clip[0] + ", " + clip[1] + ")";
        boolean swapped = clip[0] == fitted.inner() && clip[1] == fitted.outer();
        throw new InvalidInputException(input + ": clips of shape " + given + ", but the model " + model
                + " was fitted on clips of shape " + fitted + (swapped
                        ? "; the axes are in the other order: swap them first (numpy.swapaxes(x, 1, 2))"
                        : "; reshape them to " + fitted + " per clip"));
    }

    private static int[] sizes(HdbscanModel m, Prediction p) {
        int[] sizes = new int[m.clusterCount()];
        for (int l : p.labels()) if (l >= 0) sizes[l]++;
        return sizes;
    }

    private String summary(HdbscanModel m, Prediction p, PointSet points, List<Path> written) {
        int[] sizes = sizes(m, p);
        int noise = p.size();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d new %s x %d %s%s: ", points.size(),
                points.size() == 1 ? "point" : "points", points.dimensions(), points.dimensions() == 1 ? "dim" : "dims",
                m.projection().isPresent() ? " (projected on the model's " + m.dimensions() + " principal components)" : ""));
        List<String> parts = new ArrayList<>();
        for (int l = 0; l < sizes.length; l++) {
            noise -= sizes[l];
            if (l < 20) parts.add(l + ": " + sizes[l]);
        }
        if (sizes.length > 20) parts.add("... " + (sizes.length - 20) + " more");
        s.append(String.format(Locale.ROOT, "%d assigned to the model's %s (%s), %d noise", p.size() - noise,
                HdbscanOutputs.clusters(sizes.length), String.join(", ", parts), noise));
        s.append(String.format(Locale.ROOT, "%nwrote %s to %s", HdbscanOutputs.files(written.size()),
                written.get(0).toAbsolutePath().getParent()));
        return s.toString();
    }

    private String json(HdbscanModel m, Prediction p, PointSet points, List<Path> written, String input, int threads,
            Map<String, Object> seconds) {
        return new JsonSummary("predict")
                .put("model", model.toString())
                .put("input", input)
                .put("n_points", points.size())
                .put("n_dims", points.dimensions())
                .put("parameters", m.parameters().describeTyped())
                .put("threads", threads)
                .clusters(p.labels(), m.clusterCount())
                .put("seconds", seconds)
                .files(written)
                .line();
    }
}
