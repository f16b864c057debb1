package org.sylva.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.io.AtomicOutput;
import org.sylva.io.NpyArray;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sylva cut}: the flat DBSCAN* clustering of a saved model at one distance. */
final class CutCommand implements Callable<Integer> {
    /** The files this command writes, without extension. */
    static final List<String> OUTPUTS = List.of("labels");
    CommandSpec spec;
    private final CliContext context;
    Path model;
    double distance;
    Integer minClusterSize;
    ResultFolderOptions folder = new ResultFolderOptions();
    QuietOptions run = new QuietOptions();

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("cut", this)
                .unsorted()
                .header("The flat DBSCAN* clustering of a saved HDBSCAN model at one distance.")
                .description("Reads a model saved by 'sylva hdbscan --save-model' and writes into --out the labels "
                        + "of the DBSCAN* clustering at --distance, one per input row of the fit: the partition the "
                        + "hdbscan package's dbscan_clustering(cut_distance, min_cluster_size) gives (points joined by "
                        + "spanning-tree edges of mutual-reachability distance below the cut, components smaller "
                        + "than --min-cluster-size noise, -1), its clusters numbered by their smallest row, where the "
                        + "package numbers them otherwise; rows left "
                        + "out of the fit keep -2 / -3 (non-finite), rows of sample weight 0 are -1. Exact: the fit's spanning tree is stored in the model "
                        + "(format version 2 to 7; a version 1 model is refused). For a --pca model the distance is "
                        + "between principal-component scores, as the fit's.")
                .footer("",
                        "Examples:",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --out fit/ \\",
                        "      --save-model clips.model",
                        "  sylva cut clips.model --distance 0.8 --out cut/",
                        "  sylva cut clips.model --distance 0.8 --min-cluster-size 5 --out cut/");
        m.parameter(Path.class, v -> model = v)
                .index("0")
                .paramLabel("MODEL")
                .description("A model file written by sylva hdbscan --save-model.");
        m.option(double.class, v -> distance = v, "--distance")
                .required(true)
                .paramLabel("D")
                .description("The cut distance (mutual reachability): edges shorter than D join points.");
        m.option(Integer.class, v -> minClusterSize = v, "--min-cluster-size")
                .paramLabel("M")
                .description("Components smaller than M are noise, M >= 1 (default: the model's min_cluster_size; 1 makes "
                        + "every point of the cut a member of its component).");
        folder.declare(m, false);
        run.declare(m);
        spec = m.spec();
        return spec;
    }

    CutCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        Path out = folder.out;
        OutputFormat format = folder.format;
        boolean json = folder.json;
        if (distance < 0) {
            throw new InvalidInputException("--distance " + distance + " is negative: mutual-reachability distances "
                    + "are at least 0, and a cut at 0 already keeps every edge out");
        }
        folder.claim(context, err, run.quiet, OUTPUTS);
        folder.refuseOverlaps(OUTPUTS, List.of(), List.of(new OutputTargets.OptionFile("model", model)));
        RunRecord.Input modelRead = RunRecord.Input.of("model", model, context.cancel());
        long t0 = System.nanoTime();
        HdbscanModel m = ResultFolderOptions.modelWithTree(model, "sylva cut", context.cancel());
        double modelSeconds = JsonSummary.since(t0);
        int mcs = minClusterSize != null ? minClusterSize : m.parameters().minClusterSize();
        long t1 = System.nanoTime();
        int[] labels = m.dbscanClustering(distance, mcs);
        double cutSeconds = JsonSummary.since(t1);
        context.cancel().throwIfCancelled();
        List<Path> written = new ArrayList<>();
        try (AtomicOutput.Group g = AtomicOutput.group(context.cancel())) {
            written.add(format.stage(g, out, "labels", NpyArray.ofInt32(labels, labels.length)));
            context.cancel().throwIfCancelled();
            g.commitFolder(out, "cut", RunRecord.of(spec, List.of(modelRead), null).describe(), () -> { });
            OutputTargets.tellRemoved(spec.commandLine().getErr(), run.quiet, g, out);
        }
        int clusters = 0, noise = 0;
        for (int l : labels) {
            clusters = Math.max(clusters, l + 1);
            if (l == -1) noise++;
        }
        if (json) {
            Map<String, Object> seconds = new LinkedHashMap<>();
            seconds.put("model", modelSeconds);
            seconds.put("cut", cutSeconds);
            spec.commandLine().getOut().println(new JsonSummary("cut")
                    .put("model", model.toString())
                    .put("cut_distance", distance)
                    .put("min_cluster_size", mcs)
                    .put("n_points", labels.length)
                    .clusters(labels, clusters)
                    .put("seconds", seconds)
                    .files(written)
                    .line());
        }
        if (!run.quiet) {
            err.println(String.format(Locale.ROOT, "%d rows cut at distance %s (min cluster size %d): %s, %d "
                    + "noise%nwrote %s to %s", labels.length, distance, mcs, HdbscanOutputs.clusters(clusters), noise,
                    HdbscanOutputs.files(written.size()),
                    written.get(0).toAbsolutePath().getParent()));
        }
        return 0;
    }
}
