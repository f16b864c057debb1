package org.sylva.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.io.AtomicOutput;
import org.sylva.io.NpyArray;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sylva reselect}: select the clusters of a saved model again with other selection parameters. */
final class ReselectCommand implements Callable<Integer> {
    /** The files this command writes, without extension. */
    static final List<String> OUTPUTS = List.of("labels", "probabilities", "outlier_scores", "condensed_tree",
            "persistence");
    /** What the folder may hold besides: the row of each point the trees number, for a weighted fit's model. */
    private static final List<String> CLAIMED = java.util.stream.Stream.concat(OUTPUTS.stream(),
            java.util.stream.Stream.of(HdbscanOutputs.FITTED_ROWS)).toList();

    CommandSpec spec;
    private final CliContext context;
    Path model;
    SelectionMethod method;
    Integer minClusterSize;
    Double epsilon;
    Integer maxClusterSize;
    Boolean allowSingleCluster;
    ResultFolderOptions folder = new ResultFolderOptions();
    Path saveModel;
    QuietOptions run = new QuietOptions();

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("reselect", this)
                .unsorted()
                .header("Select the clusters of a saved HDBSCAN model again with other selection parameters.")
                .description("Reads a model saved by 'sylva hdbscan --save-model' and selects its clusters again "
                        + "from the stored spanning tree, without recomputing it: another --method, "
                        + "--cluster-selection-epsilon, --max-cluster-size, --allow-single-cluster or "
                        + "--min-cluster-size (which condenses the tree again). Options not given keep the model's "
                        + "values; min_samples and alpha define the spanning tree and cannot change (fit again for "
                        + "those). Writes into --out labels, probabilities, outlier_scores, condensed_tree and "
                        + "persistence (and, for the model of a weighted fit or of one that left non-finite rows out, "
                        + "fitted_rows: the row of each point the condensed tree numbers), the same as sylva hdbscan writes for a fit with these parameters; "
                        + "--save-model also saves the reselected model. Needs a model of format version 2 to 7 (a "
                        + "version 1 model, without the spanning tree, is refused); a --pca model stays one.")
                .footer("",
                        "Examples:",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --out fit/ \\",
                        "      --save-model clips.model",
                        "  sylva reselect clips.model --method leaf --out leaf/",
                        "  sylva reselect clips.model --min-cluster-size 50 --out coarse/ \\",
                        "      --save-model coarse.model");
        m.parameter(Path.class, v -> model = v)
                .index("0")
                .paramLabel("MODEL")
                .description("A model file written by sylva hdbscan --save-model.");
        m.option(SelectionMethod.class, v -> method = v, "--method")
                .paramLabel("eom|leaf")
                .description("Cluster selection method: eom (excess of mass) or leaf (default: the model's).");
        m.option(Integer.class, v -> minClusterSize = v, "--min-cluster-size")
                .paramLabel("M")
                .description("Smallest cluster (default: the model's).");
        m.option(Double.class, v -> epsilon = v, "--cluster-selection-epsilon")
                .paramLabel("E")
                .description("Merge clusters that split below this distance (default: the model's).");
        m.option(Integer.class, v -> maxClusterSize = v, "--max-cluster-size")
                .paramLabel("N")
                .description("Largest cluster EOM may select; 0 = no limit (default: the model's).");
        m.option(Boolean.class, v -> allowSingleCluster = v, "--allow-single-cluster")
                .negatable(true)
                .description("Let EOM return one cluster holding everything (default: the model's).");
        folder.declare(m, true);
        m.option(Path.class, v -> saveModel = v, "--save-model")
                .paramLabel("FILE")
                .description("Also save the reselected model to FILE, together with the other outputs.");
        run.declare(m);
        spec = m.spec();
        return spec;
    }

    ReselectCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        Path out = folder.out;
        OutputFormat format = folder.format;
        boolean json = folder.json;
        folder.claim(context, err, run.quiet, CLAIMED);
        if (saveModel != null) OutputTargets.claimFile(context, err, run.quiet, "--save-model", out,
                ResultFolderOptions.reserved(CLAIMED), saveModel);
        folder.refuseOverlaps(CLAIMED, List.of(new OutputTargets.OptionFile("--save-model", saveModel)),
                List.of(new OutputTargets.OptionFile("model", model)));
        RunRecord.Input modelRead = RunRecord.Input.of("model", model, context.cancel());
        long t0 = System.nanoTime();
        HdbscanModel m = ResultFolderOptions.modelWithTree(model, "sylva reselect", context.cancel());
        double modelSeconds = JsonSummary.since(t0);
        HdbscanParameters p = m.parameters();
        HdbscanParameters other = new HdbscanParameters(
                minClusterSize != null ? minClusterSize : p.minClusterSize(), p.minSamples(),
                epsilon != null ? epsilon : p.clusterSelectionEpsilon(),
                maxClusterSize != null ? maxClusterSize : p.maxClusterSize(), p.alpha(),
                method != null ? method : p.method(),
                allowSingleCluster != null ? allowSingleCluster : p.allowSingleCluster(), p.metric());
        long t1 = System.nanoTime();
        HdbscanModel re = m.reselect(other);
        double selectionSeconds = JsonSummary.since(t1);
        context.cancel().throwIfCancelled();
        int[] labels = re.labels();
        List<Path> written = new ArrayList<>();
        try (AtomicOutput.Group g = AtomicOutput.group(context.cancel())) {
            int n = labels.length;
            written.add(format.stage(g, out, "labels", NpyArray.ofInt32(labels, n)));
            written.add(format.stage(g, out, "probabilities", NpyArray.ofFloat64(re.probabilities(), n)));
            written.add(format.stage(g, out, "outlier_scores", NpyArray.ofFloat64(re.outlierScores(), n)));
            CondensedTree ct = re.condensedTree();
            written.add(format.stage(g, out, "condensed_tree", NpyArray.ofFloat64(ct.toMatrix(), ct.rows(), 4),
                    0, 1, 3)); // parent, child, lambda, size
            double[] pers = re.clusterPersistence();
            written.add(format.stage(g, out, "persistence", NpyArray.ofFloat64(pers, pers.length)));
            // the condensed tree numbers every copy a weight stands for, or the rows a fit did not leave out
            if (m.weighted() || m.fittedSize() != m.size()) {
                int[] rows = pointRows(m.sampleWeights(), re.condensedTree().points());
                written.add(format.stage(g, out, HdbscanOutputs.FITTED_ROWS, NpyArray.ofInt32(rows, rows.length)));
            }
            if (saveModel != null) {
                g.writeChosen(saveModel, re::writeTo);
                written.add(saveModel);
            }
            context.cancel().throwIfCancelled();
            g.commitFolder(out, "reselect", RunRecord.of(spec, List.of(modelRead), other.describeTyped()).describe(),
                    () -> { });
            OutputTargets.tellRemoved(spec.commandLine().getErr(), run.quiet, g, out);
        }
        int noise = 0;
        for (int l : labels) if (l == -1) noise++;
        if (json) {
            Map<String, Object> seconds = new LinkedHashMap<>();
            seconds.put("model", modelSeconds);
            seconds.put("selection", selectionSeconds);
            spec.commandLine().getOut().println(new JsonSummary("reselect")
                    .put("model", model.toString())
                    .put("parameters", other.describeTyped())
                    .put("n_points", labels.length)
                    .clusters(labels, re.clusterCount())
                    .put("cluster_persistence", JsonSummary.list(re.clusterPersistence()))
                    .put("seconds", seconds)
                    .files(written)
                    .line());
        }
        String noCluster = HdbscanOutputs.noClusterWarning(m.condensedTree().points(), other.minClusterSize(),
                other.allowSingleCluster(), m.weighted(), re.clusterCount());
        if (noCluster != null) err.println(noCluster);
        if (!run.quiet) {
            err.println(String.format(Locale.ROOT, "%d rows reselected (%s, min cluster size %d): %s, %d noise%n%s",
                    labels.length, other.method().name().toLowerCase(Locale.ROOT), other.minClusterSize(),
                    HdbscanOutputs.clusters(re.clusterCount()), noise, HdbscanOutputs.wrote(written)));
        }
        return 0;
    }

    /** The row of each point of a weighted fit: row {@code i} once per unit of its weight, in row order. */
    private static int[] pointRows(int[] weights, int points) {
        int[] rows = new int[points];
        for (int i = 0, p = 0; i < weights.length; i++) {
            java.util.Arrays.fill(rows, p, p + weights[i], i);
            p += weights[i];
        }
        return rows;
    }
}
