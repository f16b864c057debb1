package org.sylva.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sylva.cli.report.HtmlReport;
import org.sylva.cli.report.Waveforms;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Backend;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.metric.DistanceGraph;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.io.SparseMatrix;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.RowShape;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.io.AtomicOutput;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sylva hdbscan}: cluster a file of points (or several, each into its own folder: {@link InputBatch}), write
 * labels and trees, optionally a report.
 */
final class HdbscanCommand implements Callable<Integer> {
    CommandSpec spec;
    private final CliContext context;
    /** --shape; the inputs' own options are {@code inputOptions.forInput(input)}. */
    InputOptions inputOptions = new InputOptions();
    List<String> inputs;
    Path outOption;
    int minClusterSize;
    Integer minSamples;
    double epsilon;
    int maxClusterSize;
    double alpha;
    SelectionMethod method = SelectionMethod.EOM;   // set here, not as --method's default, which would be applied
                                                    // after --cluster-selection-method and undo it
    boolean allowSingleCluster;
    String metric;
    Double p;
    NonFinitePolicy nonFinite;
    Path sampleWeight;
    Integer pca;
    String backend;
    OutputFormat format;
    Path reportOption;
    Path saveModelOption;
    String centers;
    WaveformOptions waveformOptions = new WaveformOptions();
    boolean json;
    RunOptions run = new RunOptions();

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("hdbscan", this)
                .unsorted()
                .header("Cluster a file of points with exact HDBSCAN; write labels, trees and a report.")
                .description("Exact HDBSCAN with scikit-learn's parameters (sklearn.cluster.HDBSCAN's names in kebab "
                        + "case; --method and --centers are short for --cluster-selection-method and --store-centers, "
                        + "and --p is metric_params' p). Writes labels (-1 = noise), probabilities, outlier_scores, core_distances, mst, "
                        + "single_linkage, condensed_tree and persistence (NumPy files, or CSV with --format csv) "
                        + "into --out (with several inputs, into a folder each); all of them or, on error or "
                        + "Ctrl-C, none.",
                        "--min-samples counts the point itself, as in scikit-learn (the hdbscan package's value + "
                        + "1). Every input is converted exactly: a float64 or 32- or 64-bit integer .npy, and text "
                        + "(.csv/.tsv, parsed as float64 as NumPy reads it), is clustered from its float64 values, "
                        + "exactly as scikit-learn would (an integer float64 cannot hold, possible only beyond 2^53, is refused); other inputs are read as "
                        + "float32, which holds float16, int8, int16, uint16, uint8 and bool exactly. Distances are "
                        + "always computed in float64.")
                .footer("",
                        "Examples:",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --out result/ \\",
                        "      --report result/report.html --waveforms",
                        "  sylva hdbscan tetrode.npy --channels 4 --out result/ \\",
                        "      --report result/report.html",
                        "  sylva hdbscan features.npy --waveforms-from clips.npy --out result/ \\",
                        "      --report result/report.html",
                        "  sylva hdbscan points.csv --min-cluster-size 10 --method leaf \\",
                        "      --out result/ --format csv --json",
                        "  cat clips.f32 | sylva hdbscan - --shape 50000,61 --out result/",
                        "  sylva hdbscan tetrodes.npy --pca 6 --channels 4 --min-cluster-size 30 \\",
                        "      --out result/ --report result/report.html",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --out result/ \\",
                        "      --save-model clips.model",
                        "  sylva hdbscan day*.npy --min-cluster-size 20 --out result/ \\",
                        "      --report report.html    # result/day1/, result/day2/, ...",
                        "  sylva hdbscan points.npy --out result/ --centers both",
                        "  sylva hdbscan binned.npy --sample-weight counts.npy --out result/",
                        "  sylva hdbscan points.npy --metric minkowski --p 3 --out result/",
                        "  sylva hdbscan distances.npy --metric precomputed --out result/");
        inputOptions.declareInputs(m, v -> inputs = v, "Several inputs are fitted one after the other in one process, "
                + "each into its own folder --out/NAME (NAME: the input's file name without its last extension), "
                + "exactly as a separate run of each would write it, and each folder locked and complete or "
                + "without outputs as --out says; --report and --save-model then name a file in each folder, "
                + "--json prints a line per input, and --sample-weight and --waveforms-from are refused. One "
                + "input (a pattern such as day*.npy that matches one file, too) writes into --out itself, with "
                + "--report and --save-model paths as given.");
        m.option(Path.class, v -> outOption = v, "--out")
                .required(true)
                .paramLabel("DIR")
                .description("Output directory (created if needed). The files the earlier run's manifest names "
                        + "that this run does not write (labels.csv after --format npy, report.html without --report "
                        + "there, another command's outputs) are removed once the new outputs are in place, if they "
                        + "are still as that run wrote them; files whose names a user chose (--save-model, --report), "
                        + "files changed since and files no run recorded are left alone (a warning names those under "
                        + "Sylva's names). A "
                        + "second run into the same DIR while this one runs is refused at once (lock file "
                        + ".sylva.lock, removed at the end); an output name taken by anything but a regular file "
                        + "(directory, link, FIFO, device) is refused before the fit. The manifest sylva-run.json, "
                        + "removed before the new files land and put in place last, marks the folder complete (sylva "
                        + "verify DIR).");
        m.option(int.class, v -> minClusterSize = v, "--min-cluster-size")
                .paramLabel("M")
                .defaultValue("5")
                .description("Smallest cluster size (>= 2; default ${DEFAULT-VALUE}).");
        m.option(Integer.class, v -> minSamples = v, "--min-samples")
                .paramLabel("K")
                .description("Neighbours for the core distance, counting the point itself (default: "
                        + "min-cluster-size).");
        m.option(double.class, v -> epsilon = v, "--cluster-selection-epsilon")
                .paramLabel("EPS")
                .defaultValue("0.0")
                .description("Merge clusters that split below this distance (default ${DEFAULT-VALUE}).");
        m.option(int.class, v -> maxClusterSize = v, "--max-cluster-size")
                .paramLabel("N")
                .defaultValue("0")
                .description("Largest cluster EOM may select; 0 = no limit (default).");
        m.option(double.class, v -> alpha = v, "--alpha")
                .paramLabel("A")
                .defaultValue("1.0")
                .description("Distance scaling in max(core_a, core_b, d/alpha) (default ${DEFAULT-VALUE}); for cosine "
                        + "and precomputed max(core_a, core_b, d)/alpha, as scikit-learn's default (brute) path for "
                        + "them.");
        m.option(SelectionMethod.class, v -> method = v, "--method")
                .paramLabel("eom|leaf")
                .description("Cluster selection method: eom (excess of mass, default) or leaf.");
        // scikit-learn's names, as a user of it types them; hidden, so that the help shows each option once and an
        // error names the option typed
        m.option(SelectionMethod.class, v -> method = v, "--cluster-selection-method").hidden(true)
                .paramLabel("eom|leaf").description("--method under scikit-learn's name.");
        m.option(boolean.class, v -> allowSingleCluster = v, "--allow-single-cluster")
                .description("Let EOM return one cluster holding everything.");
        m.option(String.class, v -> metric = v, "--metric")
                .paramLabel("NAME")
                .defaultValue("euclidean")
                .description("Distance: euclidean (default; the fast partition-tree engine), manhattan, chebyshev, "
                        + "minkowski (with --p), cosine, or precomputed (the input is an n x n distance matrix: "
                        + "square, >= 0 (inf for a missing distance, as scikit-learn takes it; the tree then joins what no distance "
                        + "joins at infinity, with a warning), zero diagonal, symmetric: |D_ij - D_ji| <= 1e-9 + 1e-7 |D_ji|; its "
                        + "upper triangle is used). Manhattan, chebyshev and minkowski in up to 16 dimensions run "
                        + "an exact k-d tree engine where a probe finds that its boxes prune (the summary says "
                        + "which ran); cosine, precomputed and the rest an exact brute-force engine (O(n^2) "
                        + "distances, at most 100 000 points); each distance is summed in coordinate "
                        + "order as scikit-learn's DistanceMetric does; a --save-model model measures new points by "
                        + "the same metric. Precomputed not with --save-model, --pca, --centers or --report.");
        m.option(Double.class, v -> p = v, "--p")
                .paramLabel("P")
                .description("The exponent of --metric minkowski (>= 1; default 2).");
        m.option(NonFinitePolicy.class, v -> nonFinite = v, "--non-finite")
                .paramLabel("reject|sklearn")
                .defaultValue("reject")
                .description("Rows with NaN/inf: reject (default: error naming row and column) or sklearn (left out; "
                        + "labels -2 for inf, -3 for NaN; the trees then number the finite rows, and fitted_rows "
                        + "gives each one's input row; text's decimals beyond float64's range, such as 1e400, are inf "
                        + "there, as numpy.loadtxt reads them).");
        m.option(Path.class, v -> sampleWeight = v, "--sample-weight")
                .paramLabel("FILE")
                .description("Per-row weights (.npy of shape (n,) or (n, 1), or text with one per line): a row of "
                        + "weight w counts as w identical rows, for core distances and cluster sizes alike (whole "
                        + "numbers; 0 leaves the row out, label -1). The trees then index those copies; fitted_rows "
                        + "maps each to its row.");
        m.option(Integer.class, v -> pca = v, "--pca")
                .paramLabel("K")
                .description("Cluster on the first K principal components of the input (exact, float64, from every "
                        + "row) instead of its coordinates: a choice for spike waveforms, not a default. Outputs are "
                        + "per input point as before and the report draws the input's waveforms. Needs finite input; "
                        + "not with --sample-weight. The components come from the d x d covariance's eigenvectors "
                        + "(Jacobi rotations up to 256 coordinates, Householder and QL beyond), O(d^3), its "
                        + "decomposition on one thread: "
                        + "instant for clips, under a second at 784 coordinates, half a minute at 2 000; with fewer "
                        + "rows n than coordinates, from the rows' n x n Gram matrix instead, O(n^2 d + n^3).");
        m.option(String.class, v -> backend = v, "--backend")
                .paramLabel("auto|scalar|simd|opencl|cuda")
                .defaultValue("auto")
                .converters(new EngineChoice.Name())
                .description("Where the distances are computed (default auto: CPU kernels per stage, scalar for "
                        + "small inputs, SIMD for large ones); opencl or cuda: the GPU engine on the first usable "
                        + "device, for opencl a GPU before a CPU device (refused with the reason when there is none; "
                        + "see sylva devices), for the euclidean metric without --sample-weight and at most 2048 "
                        + "coordinates per point only. scalar and simd "
                        + "pick the euclidean metric's kernels; another metric runs its own engine (the summary names "
                        + "it) with either. Results do not depend on it.");
        OutputFormat.declare(m, v -> format = v);
        m.option(Path.class, v -> reportOption = v, "--report")
                .paramLabel("FILE.html")
                .description("Also write a self-contained HTML report (its folder is made when missing, as --out "
                        + "is). FILE must be a regular file or not exist: a directory, symbolic link, FIFO or device "
                        + "there is refused (never written through or replaced), and so is an output's name in --out. "
                        + "If the report fails, the outputs are still written and sylva exits with status 3.");
        m.option(Path.class, v -> saveModelOption = v, "--save-model")
                .paramLabel("FILE")
                .description("Also save the fitted model (parameters, fitted points, condensed tree: what prediction "
                        + "needs, and the spanning tree; a versioned, checksummed file) to FILE (its folder is made "
                        + "when missing), together with the other outputs; 'sylva predict FILE NEW' then assigns new "
                        + "points to its clusters, 'sylva cut' and 'sylva reselect' cluster it again. With --pca the "
                        + "model holds the components: new points are given as the input was, and projected on them.");
        m.option(String.class, v -> centers = v, "--store-centers").hidden(true)
                .paramLabel("centroid|medoid|both").description("--centers under scikit-learn's name.");
        m.option(String.class, v -> centers = v, "--centers")
                .paramLabel("centroid|medoid|both")
                .description("Also write the clusters' centres, as scikit-learn's store_centers: centroids (the "
                        + "members' mean weighted by their membership probabilities) and / or medoids (the member "
                        + "with the smallest probability-weighted sum of distances to the others, under --metric), "
                        + "one row per cluster, in the coordinates the fit saw (the component scores with --pca). A "
                        + "medoid costs m^2 distances for a cluster of m points.");
        waveformOptions.declare(m);
        m.option(boolean.class, v -> json = v, "--json")
                .description("Print a machine-readable summary on stdout (one JSON line per input; parameters typed as "
                        + "scikit-learn's, null for None, \"inf\" for an infinite "
                        + "number). Where stdout cannot be written (a full device, a closed pipe) the exit status is 2, "
                        + "but the outputs, in place by then, stay complete: only the summary is lost.");
        run.declare(m);
        spec = m.spec();
        return spec;
    }

    HdbscanCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        // The library validates the parameters; ErrorHandler names the option of a bad one.
        Hdbscan.Builder b = Hdbscan.builder();
        if (minSamples != null) b.minSamples(minSamples);   // unset: min-cluster-size, as scikit-learn's None
        b.minClusterSize(minClusterSize)
                .clusterSelectionEpsilon(epsilon).maxClusterSize(maxClusterSize).alpha(alpha)
                .clusterSelectionMethod(method).allowSingleCluster(allowSingleCluster).nonFinite(nonFinite)
                .threads(run.threadCount()).metric(Metric.parse(metric, p));
        Hdbscan h = EngineChoice.apply(backend, b).build();
        HdbscanOptionConflicts.refuseFirst(this, h.metric());
        CenterKind centerKind = centers == null ? null : CenterKind.parse(centers);
        InputBatch.refuseOneFileOption(inputs.size(), "--sample-weight", sampleWeight);
        HdbscanOptionConflicts.refuseWeightConflicts(this, h.metric());
        InputBatch.refuseOneFileOption(inputs.size(), "--waveforms-from", waveformOptions.from);
        HdbscanOptionConflicts.refuseWaveformsWithoutReport(this);
        List<InputBatch.Target> targets = InputBatch.plan(inputs, inputOptions.shape, outOption, reportOption,
                saveModelOption);
        List<String> names = new ArrayList<>(HdbscanOutputs.names(format));
        if (centerKind != null && centerKind.centroids()) names.add("centroids" + format.extension());
        if (centerKind != null && centerKind.medoids()) names.add("medoids" + format.extension());
        if (sampleWeight != null) names.add(HdbscanOutputs.FITTED_ROWS + format.extension());
        // Before reading and fitting: an unwritable, busy or wrong destination is reported before the long work,
        // for every input of the run.
        for (InputBatch.Target t : targets) claim(t, names, targets, err);
        String processor = EngineChoice.processorNote(h.engine());
        if (processor != null && !run.quiet) err.println(processor);
        context.completed().plan(targets.size(), outOption);
        for (int i = 0; i < targets.size(); i++) {
            InputBatch.Target t = targets.get(i);
            if (targets.size() > 1 && !run.quiet) err.println(InputBatch.startLine(i, targets));
            fit(h, centerKind, inputOptions.forInput(t.input()), t, err);
            context.completed().done();
        }
        return 0;
    }

    /** The files a fit of {@code input} reads, their hashing started ({@link RunRecord.Input#of}; nulls: none). */
    private List<RunRecord.Input> inputsOf(Hdbscan h, String input) {
        return java.util.Arrays.asList(
                RunRecord.Input.of(h.metric().isPrecomputed() ? "distances" : "points", input, context.cancel()),
                RunRecord.Input.of("sample_weight", sampleWeight, context.cancel()),
                // the waveforms only shape the report, and are refused without one
                RunRecord.Input.of("waveforms", waveformOptions.from, context.cancel()));
    }

    /**
     * What the manifest of {@code input}'s folder says the run was made from ({@link RunRecord}): with several inputs,
     * the command that makes that folder alone, its {@code --out}, {@code --report} and {@code --save-model} those of
     * {@code t}.
     */
    private Map<String, Object> runRecord(List<RunRecord.Input> read, String input, InputBatch.Target t,
            HdbscanResult r) {
        Map<String, Object> options = new java.util.LinkedHashMap<>();
        options.put("non_finite", nonFinite.name().toLowerCase(Locale.ROOT));
        options.put("pca", pca);
        options.put("centers", centerName());
        Map<String, String> values = new java.util.HashMap<>();
        values.put("--out", t.out().toString());
        if (t.report() != null) values.put("--report", t.report().toString());
        if (t.saveModel() != null) values.put("--save-model", t.saveModel().toString());
        return RunRecord.of(spec, read, r.parameters().describeTyped(), inputs, List.of(input), values)
                .withOptions(options).describe();
    }

    /** {@code --centers} as scikit-learn's {@code store_centers} names it, lower case; null without it. */
    private String centerName() {
        return centers == null ? null : CenterKind.parse(centers).name().toLowerCase(Locale.ROOT);
    }

    /** Claims the output locations of {@code t}, whose outputs are {@code names}, and refuses overlaps. */
    private void claim(InputBatch.Target t, List<String> names, List<InputBatch.Target> all, java.io.PrintWriter err)
            throws java.io.IOException {
        OutputTargets.claim(context, err, run.quiet, t.out(), names, StaleOutputs.ARRAY_FILES, t.report());
        if (t.saveModel() != null) {
            OutputTargets.claimFile(context, err, run.quiet, "--save-model", t.out(), StaleOutputs.ARRAY_FILES,
                    t.saveModel());
        }
        List<OutputTargets.OptionFile> read = new ArrayList<>();
        for (InputBatch.Target other : all) {
            read.add(new OutputTargets.OptionFile("input", inputOptions.forInput(other.input()).readPath()));
        }
        read.add(new OutputTargets.OptionFile("--sample-weight", sampleWeight));
        read.add(new OutputTargets.OptionFile("--waveforms-from", waveformOptions.from));
        OutputTargets.refuseOverlaps(t.out(), OutputTargets.union(names, StaleOutputs.ARRAY_FILES),
                List.of(new OutputTargets.OptionFile("--report", t.report()),
                        new OutputTargets.OptionFile("--save-model", t.saveModel())), read);
    }

    /** Reads, fits and writes one input into its folder {@code t}. */
    private void fit(Hdbscan h, CenterKind centerKind, InputOptions in, InputBatch.Target t, java.io.PrintWriter err)
            throws Exception {
        Path out = t.out();
        Path report = t.report();
        Path saveModel = t.saveModel();
        long t0 = System.nanoTime();
        PhaseTrace.enter(err, "read");
        List<RunRecord.Input> read = inputsOf(h, in.input);
        if (h.metric().isPrecomputed() && in.isSparseNpz()) {
            fitGraph(h, in, t, err, t0, read);
            return;
        }
        in.overflowToInfinity = nonFinite == NonFinitePolicy.SKLEARN;   // 1e400 left out as inf, as numpy reads it
        InputOptions.Loaded loaded = in.readForFit(err, context.stdin(), context.cancel(), context, run.quiet);
        PointSet points = loaded.points();
        SampleWeights weights = sampleWeight == null ? null
                : SampleWeightFile.read(sampleWeight, points.size(), context.cancel());
        double readSeconds = (System.nanoTime() - t0) / 1e9;
        // a precomputed matrix is checked by the library (>= 0 or +inf, square, symmetric), naming the entry
        boolean coordinates = !h.metric().isPrecomputed();
        if (coordinates && nonFinite == NonFinitePolicy.REJECT) {
            in.requireFinite(loaded, "; use --non-finite sklearn to leave such rows out (labels -3 for NaN, -2 for inf)");
        } else if (pca != null) {
            in.requireFinite(loaded, "; --pca needs finite coordinates: it cannot leave rows out");
        }
        if (coordinates) in.requireRepresentable(loaded, h.metric());
        // Before the fit: a bad waveform option or a second file of the wrong length fails at once (without a
        // report, HdbscanOptionConflicts refused them before the read).
        Waveforms waveforms = null;
        if (report != null) waveforms = waveformOptions.resolve(loaded, in.input, err, run.quiet, context.cancel());
        // Enough free space for the outputs? Checked now that n is known, before the long computation.
        AtomicOutput.checkOutputDirectory(out, HdbscanOutputs.estimateBytes(points.size(), format));
        HdbscanResult r;
        HdbscanModel model = null;
        ClusterCenters centerSet = null;
        PcaFeatures features = null;
        PhaseTrace.enter(err, "fit");
        try (ProgressPrinter progress = context.progress(err, run.quiet, points.size())) {
            if (pca != null) {
                features = PcaFeatures.of(loaded, pca, new Execution(h.threads(), progress, context.cancel()));
                r = h.fit(features.scores(), points.size(), features.k(), weights, progress, context.cancel());
            } else if (loaded.float64() != null) {
                // float64/int32/int64 input is fitted in float64, as scikit-learn does; float32 input as it is
                r = h.fit(loaded.float64(), points.size(), points.dimensions(), weights, progress, context.cancel());
            } else {
                r = h.fit(points, weights, progress, context.cancel());
            }
            if (saveModel != null) {
                model = features != null ? model(h, r, features, points.size(), progress, context.cancel())
                        : model(h, r, loaded, progress, context.cancel());
                // clips (a 3-D .npy): the model records their axes, so predict can refuse clips in the other order
                int[] clip = loaded.clipShape();
                if (clip != null) model = model.withRowShape(new RowShape(clip[0], clip[1]));
            }
            if (centerKind != null) {
                PointSet fitted = features != null ? PointSet.uncheckedFloat64(points.size(), features.k(), features.scores())
                        : loaded.exact();
                centerSet = r.centers(fitted, centerKind, new Execution(h.threads(), progress, context.cancel()));
            }
        } catch (InvalidInputException e) {
            // too few points, min_samples above n, coordinates too large, not enough memory: name the input
            throw e.withContext(in.input);
        }
        context.cancel().throwIfCancelled();
        // All files or none; once committed they are complete, so a late Ctrl-C no longer undoes them.
        // The report draws the input points (scatter and waveforms), also when the fit was on --pca scores.
        PhaseTrace.enter(err, "write");
        HdbscanOutputs.Written w = HdbscanOutputs.write(h, r, out, format, report, points, loaded.float64(), features,
                waveforms,
                in.input, model, saveModel, centerSet, runRecord(read, in.input, t, r), context.cancel(), data -> {
                    PhaseTrace.enter(err, "report");
                    return HtmlReport.render(data, context.cancel());
                });
        List<Path> written = w.files();
        if (json) {
            spec.commandLine().getOut().println(HdbscanOutputs.json(h, r, in.input, loaded.dtype(), points,
                    readSeconds, features, centerName(), written));
        }
        String noCluster = HdbscanOutputs.noClusterWarning(r.fittedPoints(), h.minClusterSize(), h.allowSingleCluster(),
                r.weighted(), r.clusterCount());
        if (noCluster != null) err.println(noCluster);
        String infinite = HdbscanOutputs.infiniteEdgesWarning(r.spanningTree(), h.metric().isPrecomputed(),
                h.alpha());
        if (infinite != null) err.println(infinite);
        if (!run.quiet) err.println(HdbscanOutputs.summary(r, points, loaded.dtype(), readSeconds, features,
                EngineChoice.gpuEngine(h.engine()), written));
        if (!run.quiet && !w.removed().isEmpty()) err.println(w.removedLine());
        if (!w.left().isEmpty()) err.println(w.leftLine());
        if (w.reportFailure() != null) throw new ReportNotWritten(report, out, w.reportFailure());
    }

    /**
     * The fit of a sparse distance matrix (a {@code .npz} with {@code --metric precomputed}): read, checked and
     * fitted as a graph ({@link Hdbscan#fit(DistanceGraph, ProgressListener, CancellationToken)}), its outputs
     * written as any fit's. What needs points or weights is refused before the reading.
     */
    private void fitGraph(Hdbscan h, InputOptions in, InputBatch.Target t, java.io.PrintWriter err, long t0,
            List<RunRecord.Input> read)
            throws java.io.IOException {
        Path out = t.out();
        if (sampleWeight != null) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights are supported with the euclidean "
                    + "metric only; this fit uses precomputed");
        }
        DistanceGraph graph;
        try {
            int[] shape = org.sylva.io.SparseNpz.shape(java.nio.file.Path.of(in.input));   // refused before the reading
            if (shape != null && shape[0] != shape[1]) {
                throw InvalidInputException.forParameter("metric", "a precomputed distance matrix must be square "
                        + "(n x n); got " + shape[0] + " x " + shape[1]);
            }
            SparseMatrix m = in.readSparse(context.cancel());
            if (m.rows() != m.columns()) {
                throw InvalidInputException.forParameter("metric", "a precomputed distance matrix must be square "
                        + "(n x n); got " + m.rows() + " x " + m.columns());
            }
            graph = DistanceGraph.ofCsr(m.rows(), m.indptr(), m.indices(), m.data(), context.cancel());
        } catch (InvalidInputException e) {
            throw e.withContext(in.input);
        }
        double readSeconds = (System.nanoTime() - t0) / 1e9;
        AtomicOutput.checkOutputDirectory(out, HdbscanOutputs.estimateBytes(graph.size(), format));
        HdbscanResult r;
        PhaseTrace.enter(err, "fit");
        try (ProgressPrinter progress = context.progress(err, run.quiet, graph.size())) {
            r = h.fit(graph, progress, context.cancel());
        } catch (InvalidInputException e) {
            throw e.withContext(in.input);
        }
        context.cancel().throwIfCancelled();
        PhaseTrace.enter(err, "write");
        // no report (refused above for precomputed): the points and the renderer are never asked for
        HdbscanOutputs.Written w = HdbscanOutputs.write(h, r, out, format, null, null, null, null, in.input, null, null,
                null, runRecord(read, in.input, t, r), context.cancel(), null);
        if (json) spec.commandLine().getOut().println(HdbscanOutputs.graphJson(h, r, in.input, readSeconds, w.files()));
        String noCluster = HdbscanOutputs.noClusterWarning(r.fittedPoints(), h.minClusterSize(), h.allowSingleCluster(),
                false, r.clusterCount());
        if (noCluster != null) err.println(noCluster);
        if (!run.quiet) err.println(HdbscanOutputs.graphSummary(r, graph.storedEntries(), readSeconds, w.files()));
        if (!run.quiet && !w.removed().isEmpty()) err.println(w.removedLine());
        if (!w.left().isEmpty()) err.println(w.leftLine());
    }

    /**
     * The model of the fit: its prediction core distances come from the fit's own lists where the CPU engine kept
     * them (an unweighted Euclidean fit of every row); otherwise they need one more neighbour pass over the fitted
     * points, shown as its own stage, which Ctrl-C cancels like the fit's. The points are the fit's: exact float64
     * where the fit used them.
     */
    private static HdbscanModel model(Hdbscan h, HdbscanResult r, InputOptions.Loaded loaded, ProgressListener progress,
            CancellationToken cancel) {
        PointSet fitted = loaded.exact();
        ProgressListener renamed = (stage, done, total) -> progress.progress(MODEL_STAGE, done, total);
        return HdbscanModel.of(r, fitted, new Execution(h.threads(), renamed, cancel));
    }

    /**
     * The model of a fit on {@code --pca} scores: the scores are its fitted points, and it projects new points
     * (given in the input's coordinates) on the same components before predicting.
     */
    private static HdbscanModel model(Hdbscan h, HdbscanResult r, PcaFeatures features, int n, ProgressListener progress,
            CancellationToken cancel) {
        ProgressListener renamed = (stage, done, total) -> progress.progress(MODEL_STAGE, done, total);
        return HdbscanModel.of(r, PointSet.uncheckedFloat64(n, features.k(), features.scores()),
                new Execution(h.threads(), renamed, cancel)).withProjection(features.components());
    }

    /** The progress stage of {@link #model}. */
    static final String MODEL_STAGE = "prediction data";

    static String formatSeconds(double s) {
        return String.format(Locale.ROOT, "%.3f s", s);
    }

    static List<String> names(List<Path> paths) {
        List<String> l = new ArrayList<>();
        for (Path p : paths) l.add(p.toString());
        return l;
    }
}
