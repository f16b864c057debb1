package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sylva.cli.report.CondensedTreeData;
import org.sylva.cli.report.HdbscanReportData;
import org.sylva.cli.report.HtmlReport;
import org.sylva.cli.report.Waveforms;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.metric.KdTreeEngine;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.hierarchy.SingleLinkageTree;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.io.AtomicOutput;
import org.sylva.io.NpyArray;
import org.sylva.progress.CancellationToken;

/** Writes an HDBSCAN result's files, its report, and its text / JSON summaries. */
final class HdbscanOutputs {
    private HdbscanOutputs() {
    }

    /**
     * Bytes the output files of {@code n} points take, roughly: four per-point arrays, the spanning and
     * single-linkage trees, the condensed tree (at most 2n rows, usually about n). Text output is as large: its
     * ids, sizes and labels take fewer bytes than the NumPy files' 4 or 8, its shortest float64s more (up to 24),
     * and the condensed tree's bound makes up for those. A bound above the output's size would refuse runs that
     * fit; a run whose disk fills anyway fails with the earlier results kept.
     */
    static long estimateBytes(long n, OutputFormat format) {
        return n * (4 + 8 + 8 + 8) + n * (3 * 8 + 4 * 8) + 2 * n * 4 * 8 + 4096;
    }

    /** The array a weighted fit adds: the input row of each point the trees index. */
    static final String FITTED_ROWS = "fitted_rows";

    /** The file names {@link #write} gives the arrays in {@code format}, in the order it writes them. */
    static List<String> names(OutputFormat format) {
        List<String> l = new ArrayList<>();
        for (String a : StaleOutputs.ARRAYS) l.add(a + format.extension());
        return l;
    }

    /**
     * What {@link #write} did.
     *
     * @param files         the files written, in order
     * @param removed       files of an earlier run that this run did not write, removed from the output
     *                      directory (and the earlier report at the report's path when the new one failed)
     * @param left          files under output names that this run did not write and left in place
     *                      ({@link StaleOutputs#leftovers}, and an earlier run's files changed since)
     * @param reportFailure why the report was not written, or null (none asked, or written)
     */
    record Written(List<Path> files, List<Path> removed, List<Path> left, Throwable reportFailure) {
        /** One line for the summary, or the empty string when nothing was removed. */
        String removedLine() {
            return HdbscanOutputs.removedLine(removed);
        }

        /** The warning naming {@link #left}, or the empty string. */
        String leftLine() {
            return StaleOutputs.leftLine(left);
        }
    }

    /** One line naming the files of an earlier run that a run removed, or the empty string for none. */
    static String removedLine(List<Path> removed) {
        if (removed.isEmpty()) return "";
        List<String> names = new ArrayList<>();
        for (Path p : removed) names.add(p.getFileName().toString());
        return "removed " + removed.size() + (removed.size() == 1 ? " file" : " files")
                + " of an earlier run that this run does not write: " + String.join(", ", names);
    }

    /** Renders a report's HTML (the command's is {@link HtmlReport#render}; tests give a failing one). */
    @FunctionalInterface
    interface Renderer {
        String render(HdbscanReportData data);
    }

    /** As below for {@code sylva demo}: no model, the report rendered with {@link HtmlReport#render}. */
    static Written writeDemo(Hdbscan h, HdbscanResult r, Path dir, Path report, PointSet points, Waveforms waveforms,
            String inputName, Map<String, Object> run, CancellationToken cancel) throws IOException {
        return write("demo", h, r, dir, OutputFormat.NPY, report, points, null, null, waveforms, inputName, null, null,
                null, run, cancel, data -> HtmlReport.render(data, cancel));
    }

    /**
     * Writes every output (and the report and the model, when asked) together: all of them or, on
     * failure, none; a {@code cancel} cancelled before the files are committed leaves none either. A report
     * that fails to render or to be written does not stop the outputs: they are committed without it and
     * {@link Written#reportFailure()} says why ({@link ReportStage}). Once they are in place, the outputs
     * of an earlier run that this run does not write are removed from {@code dir} ({@link StaleOutputs}),
     * and so is an earlier report at the report's path when the new one failed. {@code pca}: the fit ran
     * on these principal components ({@code --pca}; null when not), which the report notes;
     * {@code waveforms} (may be null) are drawn per cluster; {@code model} (may be null) is saved to
     * {@code modelFile}; {@code centers} (may be null) are written as {@code centroids} and / or
     * {@code medoids} (clusters x coordinates). The folder is published with a manifest written last
     * ({@link AtomicOutput.Group#commitFolder}), which says what the run was made from ({@code run}, {@link
     * RunRecord}); the earlier run's files go before it is written.
     */
    static Written write(Hdbscan h, HdbscanResult r, Path dir, OutputFormat format, Path report, PointSet points,
            PcaFeatures pca, Waveforms waveforms, String inputName, HdbscanModel model, Path modelFile,
            ClusterCenters centers, Map<String, Object> run, CancellationToken cancel, Renderer renderer)
            throws IOException {
        return write(h, r, dir, format, report, points, null, pca, waveforms, inputName, model, modelFile, centers, run,
                cancel, renderer);
    }

    /**
     * As above; {@code exact} holds a float64 input's values as the fit read them (null for a float32 input), which
     * the report draws instead of {@code points}' float32 copy.
     */
    static Written write(Hdbscan h, HdbscanResult r, Path dir, OutputFormat format, Path report, PointSet points,
            double[] exact, PcaFeatures pca, Waveforms waveforms, String inputName, HdbscanModel model, Path modelFile,
            ClusterCenters centers, Map<String, Object> run, CancellationToken cancel, Renderer renderer)
            throws IOException {
        return write("hdbscan", h, r, dir, format, report, points, exact, pca, waveforms, inputName, model, modelFile,
                centers, run, cancel, renderer);
    }

    private static Written write(String command, Hdbscan h, HdbscanResult r, Path dir, OutputFormat format,
            Path report, PointSet points, double[] exact, PcaFeatures pca, Waveforms waveforms, String inputName, HdbscanModel model,
            Path modelFile, ClusterCenters centers, Map<String, Object> run, CancellationToken cancel,
            Renderer renderer) throws IOException {
        List<Path> written = new ArrayList<>();
        List<Path> removed = new ArrayList<>();
        List<Path> left = new ArrayList<>();
        Throwable reportFailure = null;
        try (AtomicOutput.Group g = AtomicOutput.group(cancel)) {
            int n = r.size();
            written.add(format.stage(g, dir, "labels", NpyArray.ofInt32(r.labels(), n)));
            written.add(format.stage(g, dir, "probabilities", NpyArray.ofFloat64(r.probabilities(), n)));
            written.add(format.stage(g, dir, "outlier_scores", NpyArray.ofFloat64(r.outlierScores(), n)));
            written.add(format.stage(g, dir, "core_distances", NpyArray.ofFloat64(r.coreDistances(), n)));
            SpanningTree t = r.spanningTree();
            written.add(format.stage(g, dir, "mst", NpyArray.ofFloat64(t.toMatrix(), t.edges(), 3), 0, 1)); // from, to, weight
            SingleLinkageTree slt = r.singleLinkageTree();
            written.add(format.stage(g, dir, "single_linkage", NpyArray.ofFloat64(slt.toMatrix(), slt.merges(), 4),
                    0, 1, 3)); // left, right, distance, size
            CondensedTree ct = r.condensedTree();
            written.add(format.stage(g, dir, "condensed_tree", NpyArray.ofFloat64(ct.toMatrix(), ct.rows(), 4),
                    0, 1, 3)); // parent, child, lambda, size
            // the trees index the copies a weight stands for, or the finite rows: each fitted point's input row
            if (r.weighted() || r.fittedPoints() != n) {
                int[] rows = r.fittedRows();
                written.add(format.stage(g, dir, FITTED_ROWS, NpyArray.ofInt32(rows, rows.length)));
            }
            double[] pers = r.clusterPersistence();
            written.add(format.stage(g, dir, "persistence", NpyArray.ofFloat64(pers, pers.length)));
            if (centers != null && centers.centroids() != null) {
                written.add(format.stage(g, dir, "centroids", NpyArray.ofFloat64(centers.centroids(), centers.clusters(),
                        centers.dimensions())));
            }
            if (centers != null && centers.medoids() != null) {
                written.add(format.stage(g, dir, "medoids", NpyArray.ofFloat64(centers.medoids(), centers.clusters(),
                        centers.dimensions())));
            }
            if (model != null) {
                g.writeChosen(modelFile, model::writeTo);
                written.add(modelFile);
            }
            if (report != null) {
                reportFailure = ReportStage.stage(g, dir, report,
                        () -> renderer.render(reportData(h, r, points, exact, pca, waveforms, inputName)));
                if (reportFailure == null) written.add(report);
            }
            cancel.throwIfCancelled();
            Throwable failed = reportFailure;
            g.commitFolder(dir, command, run, () -> {
                if (failed != null && ReportStage.removeEarlier(report)) removed.add(report);
            });
            for (Path p : g.removedEarlier()) if (!removed.contains(p)) removed.add(p);
            left.addAll(g.keptEarlier());   // absolute paths; a relative --out names the same files otherwise
            for (Path p : StaleOutputs.leftovers(dir, written)) {
                if (!left.contains(p.toAbsolutePath().normalize())) left.add(p.toAbsolutePath().normalize());
            }
        }
        return new Written(written, removed, left, reportFailure);
    }

    /** The report's data; {@code waveforms} (may be null: no waveform section) are drawn per cluster. */
    static HdbscanReportData reportData(Hdbscan h, HdbscanResult r, PointSet points, PcaFeatures pca, Waveforms waveforms,
            String inputName) {
        return reportData(h, r, points, null, pca, waveforms, inputName);
    }

    /** As above, drawing {@code exact} (a float64 input's values; null for none) instead of {@code points}' own. */
    static HdbscanReportData reportData(Hdbscan h, HdbscanResult r, PointSet points, double[] exact, PcaFeatures pca,
            Waveforms waveforms, String inputName) {
        CondensedTree ct = r.condensedTree();
        int[] sel = r.selectedClusters();
        long[] selected = new long[sel.length];
        for (int i = 0; i < sel.length; i++) selected[i] = sel[i];
        var b = HdbscanReportData.builder()
                .title("Sylva HDBSCAN — " + ("-".equals(inputName) ? "standard input" : inputName))
                .points(points.size(), points.dimensions(), points.coordinates())
                .exactPoints(exact != null ? exact : points.isFloat64() ? points.coordinates64() : null)
                .labels(r.labels())
                .probabilities(r.probabilities())
                .tree(new CondensedTreeData(ct.points(), ct.parentArray(), ct.childArray(), ct.lambdaArray(),
                        ct.childSizeArray()))
                .selectedClusters(selected, r.clusterPersistence())
                .waveforms(waveforms)
                .sylvaVersion(SylvaCommand.version());
        b.parameter("input", inputName);
        b.parameter("points", points.size() + " x " + points.dimensions());
        if (pca != null) b.parameter("principal components", pca.reportParameter());
        if (waveforms != null) {
            b.parameter("waveforms", waveforms.channels() + (waveforms.channels() == 1 ? " channel x " : " channels x ")
                    + waveforms.samples() + " samples per clip");
        }
        r.parameters().describe().forEach(b::parameter);
        if (r.weighted()) {
            // the summary and the cluster table count rows, the trees count each row's copies
            int[] weights = r.sampleWeights(), labels = r.labels();
            int zero = 0;
            for (int i = 0; i < weights.length; i++) if (weights[i] == 0 && labels[i] == -1) zero++;
            b.parameter("sample_weight", String.format(Locale.ROOT, "%,d", r.fittedPoints()) + " points in all, each row counted as many times "
                    + "as its weight (the tree counts them; the summary and the cluster table count rows)"
                    + (zero == 0 ? "" : "; " + String.format(Locale.ROOT, "%,d", zero) + (zero == 1 ? " row" : " rows") + " of weight 0 took no "
                    + "part in the fit and are labelled noise (-1)"));
        }
        b.parameter("threads", Integer.toString(h.threads()));
        r.timings().seconds().forEach(b::stage);
        return b.build();
    }

    /** The rows {@code --non-finite sklearn} left out: {@code {with NaN (label -3), with an infinity (label -2)}}. */
    static int[] leftOut(int[] labels) {
        int nan = 0, inf = 0;
        for (int l : labels) {
            if (l == -3) nan++;
            else if (l == -2) inf++;
        }
        return new int[] {nan, inf};
    }

    /** "1 file", "8 files": the count of a summary's last line. */
    static String files(int n) {
        return n + (n == 1 ? " file" : " files");
    }

    /** "1 cluster", "3 clusters". */
    static String clusters(int n) {
        return n + (n == 1 ? " cluster" : " clusters");
    }

    /**
     * The warning for a fit that could form no cluster at all, or null: without allow_single_cluster a cluster
     * needs {@code minClusterSize} points on each side of a split, so fewer than twice that many points leave
     * every point noise (scikit-learn says nothing). Unweighted fits only: a weighted point counts its weight.
     */
    static String noClusterWarning(int fittedPoints, int minClusterSize, boolean allowSingleCluster, boolean weighted,
                                   int clusters) {
        if (clusters > 0 || allowSingleCluster || weighted || fittedPoints >= 2L * minClusterSize) return null;
        return "sylva: warning: no cluster can form: a cluster needs --min-cluster-size (" + minClusterSize
                + ") points on each side of a split, and the fit has " + fittedPoints + " points, so every point is "
                + "noise (--allow-single-cluster makes them one cluster)";
    }

    /**
     * The warning for a spanning tree with edges of infinite weight, or null. Two causes: a precomputed matrix's
     * missing distances ({@code +inf}) left some points (or whole groups) joined to the rest only through them, as
     * scikit-learn warns for the same matrix; or distances divided by a tiny {@code alpha} overflowed float64.
     */
    static String infiniteEdgesWarning(SpanningTree tree, boolean precomputed, double alpha) {
        int infinite = 0;
        for (int e = 0; e < tree.edges(); e++) if (tree.weight(e) == Double.POSITIVE_INFINITY) infinite++;
        if (infinite == 0) return null;
        String head = "sylva: warning: the spanning tree has " + infinite + (infinite == 1 ? " edge" : " edges")
                + " of infinite weight: ";
        String overflow = "distances divided by --alpha " + alpha + " overflow float64";
        if (!precomputed) return head + overflow + ", so those points join the rest at lambda 0 (a larger --alpha "
                + "keeps them finite)";
        return head + "some points join the rest only through missing distances (inf)"
                + (alpha == 1.0 ? "" : " or " + overflow) + ", at lambda 0"
                + " (a point with fewer known distances than --min-samples, or groups that no known distance joins)";
    }

    /**
     * The summary of a fit on the input read from a file, or on {@code pca}'s scores when not null; {@code engine}
     * names a GPU engine the fit ran on ({@link EngineChoice#gpuEngine}), null for the CPU's.
     */
    static String summary(HdbscanResult r, PointSet points, String dtype, double readSeconds, PcaFeatures pca,
            String engine, List<Path> written) {
        return summary(r, points.size(), points.dimensions(), -1, dtype, "read", readSeconds, pca, engine, written);
    }

    /** As above, naming the input stage ({@code "read"}, or {@code "generate"} for the demo). */
    static String summary(HdbscanResult r, PointSet points, String dtype, String inputStage, double inputSeconds,
            List<Path> written) {
        return summary(r, points.size(), points.dimensions(), -1, dtype, inputStage, inputSeconds, null, null,
                written);
    }

    /** The summary of a fit on a sparse distance matrix of {@code storedEntries} entries read from a file. */
    static String graphSummary(HdbscanResult r, long storedEntries, double readSeconds, List<Path> written) {
        return summary(r, r.size(), r.dimensions(), storedEntries, "float64", "read", readSeconds, null, null,
                written);
    }

    /** {@code storedEntries}: those of a sparse distance matrix, or -1 for any other input. */
    private static String summary(HdbscanResult r, int n, int d, long storedEntries, String dtype, String inputStage,
            double inputSeconds, PcaFeatures pca, String engine, List<Path> written) {
        StringBuilder s = new StringBuilder();
        int[] labels = r.labels();
        int k = r.clusterCount();
        int[] sizes = new int[k];
        for (int l : labels) if (l >= 0) sizes[l]++;
        String weighted = "";
        if (r.weighted()) weighted = ", weighted as " + r.fittedPoints() + " points";
        int[] out = leftOut(labels);
        int nan = out[0], inf = out[1];
        String leftOut = nan + inf == 0 ? "" : String.format(Locale.ROOT,
                ", %d %s left out (%d with NaN: label -3, %d with an infinity: label -2)", nan + inf,
                nan + inf == 1 ? "row" : "rows", nan, inf);
        String shape = storedEntries >= 0 ? String.format(Locale.ROOT, "%d %s of a sparse distance matrix", n,
                n == 1 ? "point" : "points")
                : String.format(Locale.ROOT, "%d %s x %d %s", n, n == 1 ? "point" : "points", d, d == 1 ? "dim" : "dims");
        s.append(String.format(Locale.ROOT, "%s (%s%s): %d %s, %d noise%s%n", shape, dtype, weighted, k,
                k == 1 ? "cluster" : "clusters", r.noiseCount(), leftOut));
        Metric metric = r.parameters().metric();
        if (storedEntries >= 0) {
            s.append(String.format(Locale.ROOT, "metric: precomputed, %d stored entries (sparse-graph engine)%n",
                    storedEntries));
        } else if (!metric.isEuclidean()) {
            s.append(String.format(Locale.ROOT, "metric: %s (exact %s engine)%s%n", metric.describe(),
                    KdTreeEngine.ranOnTree(r.timings().seconds()) ? "k-d tree" : "brute-force",
                    metric.isPrecomputed() ? ", the input is the distance matrix" : ""));
        }
        for (int c = 0; c < k; c++) {
            s.append(String.format(Locale.ROOT, "  cluster %d: %d points, persistence %.4g%n", c, sizes[c],
                    r.clusterPersistence()[c]));
            if (c == 19 && k > 21) {
                s.append(String.format(Locale.ROOT, "  ... %d more clusters%n", k - 20));
                break;
            }
        }
        if (pca != null) s.append(pca.describe()).append(String.format(Locale.ROOT, "%n"));
        s.append(String.format(Locale.ROOT, "time: %s %.3f s", inputStage, inputSeconds));
        if (pca != null) s.append(String.format(Locale.ROOT, ", pca %.3f s", pca.seconds()));
        for (Map.Entry<String, Double> e : r.timings().seconds().entrySet()) {
            s.append(String.format(Locale.ROOT, ", %s %.3f s", e.getKey(), e.getValue()));
        }
        s.append(String.format(Locale.ROOT, " (fit %.3f s%s)", r.timings().total(), engine == null ? "" : " on " + engine));
        if (!written.isEmpty()) s.append(String.format(Locale.ROOT, "%n")).append(wrote(written));
        return s.toString();
    }

    /**
     * "wrote 8 files to DIR", the folder of the first file, counting the files there; a report or model elsewhere is
     * named on its own (", and m.model").
     */
    static String wrote(List<Path> written) {
        Path folder = written.get(0).toAbsolutePath().getParent();
        List<String> elsewhere = new ArrayList<>();
        int inFolder = 0;
        for (Path p : written) {
            if (p.toAbsolutePath().getParent().equals(folder)) inFolder++;
            else elsewhere.add(p.toString());
        }
        return "wrote " + files(inFolder) + " to " + folder
                + (elsewhere.isEmpty() ? "" : ", and " + String.join(", ", elsewhere));
    }

    /**
     * The {@code --json} line; {@code pca} is null without {@code --pca} (then {@code "pca": null}), {@code centers}
     * ({@code centroid}, {@code medoid}, {@code both}) null without {@code --centers}.
     */
    static String json(Hdbscan h, HdbscanResult r, String input, String dtype, PointSet points, double readSeconds,
            PcaFeatures pca, String centers, List<Path> written) {
        return json(h, r, input, dtype, points.size(), points.dimensions(), EngineChoice.ran(h, r), readSeconds, pca,
                centers, written);
    }

    /** The {@code --json} line of a fit on a sparse distance matrix (backend {@code cpu/sparse-graph}). */
    static String graphJson(Hdbscan h, HdbscanResult r, String input, double readSeconds, List<Path> written) {
        return json(h, r, input, "float64", r.size(), r.dimensions(),
                org.sylva.hdbscan.metric.GraphSpanningTree.ENGINE, readSeconds, null, null, written);
    }


    private static String json(Hdbscan h, HdbscanResult r, String input, String dtype, int n, int d, String backend,
            double readSeconds, PcaFeatures pca, String centers, List<Path> written) {
        JsonSummary m = new JsonSummary("hdbscan");
        m.put("input", input);
        m.put("dtype", dtype);
        m.put("n_points", n);
        m.put("n_dims", d);
        m.put("pca", pca == null ? null : pca.json());
        m.put("parameters", r.parameters().describeTyped());
        m.put("non_finite", h.nonFinitePolicy().name().toLowerCase(Locale.ROOT));
        m.put("centers", centers);
        m.put("threads", h.threads());
        m.put("backend", backend);
        if (r.weighted()) m.put("n_weighted_points", r.fittedPoints());
        m.put("n_clusters", r.clusterCount());
        m.put("n_noise", r.noiseCount());
        int[] out = leftOut(r.labels());
        int nonFinite = out[0] + out[1];
        if (nonFinite > 0) m.put("n_non_finite", nonFinite);   // rows left out by --non-finite sklearn
        int[] sizes = new int[r.clusterCount()];
        for (int l : r.labels()) if (l >= 0) sizes[l]++;
        m.put("cluster_sizes", JsonSummary.list(sizes));
        m.put("cluster_persistence", JsonSummary.list(r.clusterPersistence()));
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("read", readSeconds);
        if (pca != null) t.put("pca", pca.seconds());
        t.putAll(r.timings().seconds());
        m.put("seconds", t);
        return m.files(written).line();
    }
}
