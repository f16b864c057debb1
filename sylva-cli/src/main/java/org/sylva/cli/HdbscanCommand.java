package org.sylva.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.io.AtomicOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sylva hdbscan}: cluster a file of points, write labels and trees, optionally a report. */
@Command(name = "hdbscan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Exact HDBSCAN with scikit-learn's parameters (sklearn.cluster.HDBSCAN names in kebab case).",
            "Writes labels, probabilities, outlier_scores, core_distances, mst, single_linkage,",
            "condensed_tree and persistence (.npy, or .csv with --format csv) into --out.",
            "min-samples counts the point itself, as in scikit-learn (the hdbscan package's value + 1)."},
        footer = {"", "Examples:",
            "  sylva hdbscan clips.npy --min-cluster-size 20 --out result/ --report result/report.html",
            "  sylva hdbscan points.csv --min-cluster-size 10 --method leaf --out result/ --format csv --json",
            "  cat clips.f32 | sylva hdbscan - --shape 50000,61 --out result/"})
final class HdbscanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    InputOptions in = new InputOptions();

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory (created if needed).")
    Path out;

    @Option(names = "--min-cluster-size", paramLabel = "M", defaultValue = "5",
            description = "Smallest cluster size (>= 2; default ${DEFAULT-VALUE}).")
    int minClusterSize;

    @Option(names = "--min-samples", paramLabel = "K",
            description = "Neighbours for the core distance, counting the point itself (default: min-cluster-size).")
    Integer minSamples;

    @Option(names = "--cluster-selection-epsilon", paramLabel = "EPS", defaultValue = "0.0",
            description = "Merge clusters that split below this distance (default ${DEFAULT-VALUE}).")
    double epsilon;

    @Option(names = "--max-cluster-size", paramLabel = "N", defaultValue = "0",
            description = "Largest cluster EOM may select; 0 = no limit (default).")
    int maxClusterSize;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "1.0",
            description = "Distance scaling in max(core_a, core_b, d/alpha) (default ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--method", paramLabel = "eom|leaf", defaultValue = "eom",
            description = "Cluster selection method: eom (excess of mass, default) or leaf.")
    SelectionMethod method;

    @Option(names = "--allow-single-cluster", description = "Let EOM return one cluster holding everything.")
    boolean allowSingleCluster;

    @Option(names = "--non-finite", paramLabel = "reject|sklearn", defaultValue = "reject",
            description = "Rows with NaN/inf: reject (default: error naming row and column) or sklearn "
                    + "(left out; labels -2 for inf, -3 for NaN).")
    NonFinitePolicy nonFinite;

    @Option(names = "--backend", paramLabel = "auto|scalar|simd", defaultValue = "auto",
            description = "Distance kernels (default auto). Results do not depend on it.")
    String backend;

    @Option(names = "--format", paramLabel = "npy|csv", defaultValue = "npy", description = "Output file format.")
    OutputFormat format;

    @Option(names = "--report", paramLabel = "FILE.html", description = "Also write a self-contained HTML report.")
    Path report;

    @Option(names = "--json", description = "Print a machine-readable summary on stdout.")
    boolean json;

    @Mixin
    RunOptions run = new RunOptions();

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        Hdbscan h = Hdbscan.builder().minClusterSize(minClusterSize).minSamples(minSamples)
                .clusterSelectionEpsilon(epsilon).maxClusterSize(maxClusterSize).alpha(alpha)
                .clusterSelectionMethod(method).allowSingleCluster(allowSingleCluster).nonFinite(nonFinite)
                .threads(run.threadCount()).backend(backend).build();
        AtomicOutput.checkOutputDirectory(out, 0);
        if (report != null) AtomicOutput.checkOutputDirectory(report.toAbsolutePath().getParent(), 0);

        long t0 = System.nanoTime();
        PointSet points = in.read(err, run.quiet);
        double readSeconds = (System.nanoTime() - t0) / 1e9;
        HdbscanResult r;
        try (ProgressPrinter progress = ProgressPrinter.forStderr(run.quiet)) {
            r = h.fit(points, progress, Main.CANCEL);
        }
        Main.CANCEL.throwIfCancelled();
        List<Path> written = HdbscanOutputs.write(r, out, format, report, points, in.input);
        Main.CANCEL.throwIfCancelled();
        if (json) {
            spec.commandLine().getOut().println(HdbscanOutputs.json(r, in.input, points, readSeconds, written));
        }
        if (!run.quiet) err.println(HdbscanOutputs.summary(r, points, readSeconds, written));
        return 0;
    }

    static String formatSeconds(double s) {
        return String.format(Locale.ROOT, "%.3f s", s);
    }

    static List<String> names(List<Path> paths) {
        List<String> l = new ArrayList<>();
        for (Path p : paths) l.add(p.toString());
        return l;
    }
}
