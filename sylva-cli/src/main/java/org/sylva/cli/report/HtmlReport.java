package org.sylva.cli.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sylva.progress.CancellationToken;

/**
 * Renders the HDBSCAN report: one self-contained HTML file (inline CSS and SVG, no script, no
 * network: a Content-Security-Policy forbids both) with the condensed tree as an icicle plot with the
 * selected clusters highlighted, a 2-D projection of the points coloured by cluster (noise grey), when
 * {@link Waveforms} are given each cluster's mean clip +- one standard deviation (per channel), a table of clusters (size,
 * persistence, mean probability), the parameters, the stage timings and the Sylva version.
 *
 * <p>Output is a pure function of the data it is given: no timestamp, no randomness, locale-independent number
 * formatting, so identical data give a byte-identical file (a run's data hold its stage timings, which differ
 * from run to run). Work and size are bounded for large
 * inputs: at most {@link #MAX_PLOTTED_POINTS} points (plus small per-cluster floors) are drawn,
 * the icicle plot aggregates to at most {@link IciclePlot#MAX_SHAPES} shapes, at most
 * {@link #MAX_WAVEFORM_PANELS} waveform panels appear, the cluster table lists at most
 * {@link #MAX_TABLE_CLUSTERS} clusters, and wide rows are sampled (the projection reads at
 * most {@link Pca#MAX_COLUMNS} evenly spaced coordinates, a waveform panel at most
 * {@link WaveformSection#MAX_DRAWN_SAMPLES} samples of {@link WaveformSection#MAX_DRAWN_CHANNELS}
 * channels), so that the report of a large or wide data set stays quick to render, small, and quick to
 * open in a browser.
 *
 * <pre>{@code
 * HdbscanReportData data = HdbscanReportData.builder()
 *         .title("clips.npy").points(n, 61, coords).labels(labels).probabilities(prob)
 *         .tree(tree).selectedClusters(selectedIds, persistence)
 *         .waveforms(Waveforms.channelMajor(n, 1, coords))
 *         .parameter("min_cluster_size", "20").stage("fit", 1.9).sylvaVersion("0.1.0").build();
 * HtmlReport.write(data, Path.of("report.html"));   // or: String html = HtmlReport.render(data);
 * }</pre>
 */
public final class HtmlReport {
    /** Target number of points drawn in the projection. */
    public static final int MAX_PLOTTED_POINTS = 5_000;
    /** Most waveform panels (the noise panel included). */
    public static final int MAX_WAVEFORM_PANELS = 32;
    /** Most rows of the cluster table: the clusters of smallest label; labels.npy holds every point's. */
    public static final int MAX_TABLE_CLUSTERS = 1_000;
    private static final int MIN_POINTS_PER_CLUSTER = 25;
    private static final int MAX_TAGGED_CLUSTERS = 40;
    private static final int LEGEND_MAX = 27;

    private HtmlReport() {
    }

    /** Writes the report to {@code file} through a temporary sibling and an atomic rename. */
    public static void write(HdbscanReportData data, Path file) throws IOException {
        byte[] bytes = render(data).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        org.sylva.io.AtomicOutput.write(file, out -> out.write(bytes));
    }

    /** The report as a string. */
    public static String render(HdbscanReportData data) {
        return render(data, CancellationToken.NEVER);
    }

    /**
     * The report as a string, looking at {@code cancel} between its sections (each bounded: the drawings
     * sample at most {@value #MAX_PLOTTED_POINTS} points and {@value #MAX_WAVEFORM_PANELS} panels), so
     * Ctrl-C during rendering ends it after the section under way.
     */
    public static String render(HdbscanReportData data, CancellationToken cancel) {
        int n = data.n(), d = data.d(), k = data.clusterCount();
        int[] labels = data.labels();
        long[] count = new long[k];
        long noise = 0, refused = 0;
        for (int i = 0; i < n; i++) {
            int l = labels[i];
            if (l >= 0) count[l]++;
            else if (l == -1) noise++;
            else refused++;
        }
        StringBuilder sb = new StringBuilder(256 * 1024);
        Html.open(sb, data.title());
        sb.append("<p class=\"summary\" id=\"summary\">").append(Fmt.count(n)).append(" points \u00d7 ").append(d)
                .append(d == 1 ? " dimension" : " dimensions").append(" \u00b7 <b>").append(k)
                .append(k == 1 ? " cluster" : " clusters").append("</b> \u00b7 ").append(Fmt.count(noise))
                .append(" noise points (").append(Fmt.percent(noise, n)).append(')');
        if (refused > 0) {
            sb.append(" \u00b7 ").append(Fmt.count(refused)).append(" rows not clustered (NaN or infinite values)");
        }
        sb.append(" \u00b7 Sylva ").append(Html.esc(data.sylvaVersion())).append("</p>\n");

        cancel.throwIfCancelled();
        treeSection(sb, data);
        cancel.throwIfCancelled();
        projectionSection(sb, data, count, noise);
        cancel.throwIfCancelled();
        if (data.waveforms() != null) WaveformSection.render(sb, data, count, noise);
        cancel.throwIfCancelled();
        clusterTable(sb, data, count, noise, refused);
        cancel.throwIfCancelled();
        sb.append("<div class=\"cols\">\n<section id=\"parameters\"><h2>Parameters</h2>\n");
        Html.keyValueTable(sb, "parameters-table", "parameter", "value", data.parameters());
        sb.append("<p class=\"note\" id=\"version\">Sylva version ").append(Html.esc(data.sylvaVersion()))
                .append("</p>\n</section>\n<section id=\"timings\"><h2>Timings per stage</h2>\n");
        Html.timingTable(sb, data.stageSeconds());
        sb.append("</section>\n</div>\n");
        Html.close(sb, data.sylvaVersion());
        return sb.toString();
    }

    private static void treeSection(StringBuilder sb, HdbscanReportData data) {
        sb.append("<section id=\"condensed-tree\"><h2>Condensed tree</h2>\n<figure>\n");
        IciclePlot.Summary s = IciclePlot.render(sb, "condensed-tree-plot", data.tree(), data.selectedClusterIds());
        sb.append("<figcaption>Each bar is a cluster of the condensed tree; it starts at the density \u03bb at which")
                .append(" the cluster appears and narrows, step by step, as points fall out of it, so its width is")
                .append(" the number of points it still holds. At a split the remaining points pass to the child")
                .append(" clusters drawn beneath it. Selected clusters carry their label colour and number.");
        if (s.scale() != null) sb.append(' ').append(Html.esc(s.scale().describe()));
        if (s.clusters() > 0) {
            sb.append(' ').append(Fmt.count(s.clusters(), "cluster", "clusters")).append(" in the tree, ")
                    .append(Fmt.count(s.shapes(), "shape", "shapes")).append(" drawn");
            if (s.aggregated() > 0) {
                sb.append("; ").append(Fmt.count(s.aggregated())).append(" of them stand for a whole subtree that")
                        .append(" is too narrow to draw cluster by cluster (narrower than ")
                        .append(Fmt.fixed(IciclePlot.MIN_EXPAND_PX, 0)).append(" pixels, or beyond ")
                        .append(Fmt.count(IciclePlot.MAX_SHAPES)).append(" shapes)");
            }
            sb.append('.');
            if (s.hiddenSelected() > 0) {
                sb.append(' ').append(Fmt.count(s.hiddenSelected()))
                        .append(" small selected clusters lie inside such aggregated shapes and are not outlined.");
            }
            if (s.infiniteRows() > 0) {
                sb.append(" <b>").append(Fmt.count(s.infiniteRows())).append(" rows have \u03bb = \u221e</b> (exact")
                        .append(" duplicates: distance 0); they are clipped into the shaded band marked \u221e, just")
                        .append(" below the largest finite \u03bb");
                if (s.scale() != null && s.scale().finiteLevels() > 0) sb.append(", ").append(Fmt.sig(s.lambdaMax()));
                sb.append('.');
            }
        }
        sb.append("</figcaption>\n</figure>\n</section>\n");
    }

    private static void projectionSection(StringBuilder sb, HdbscanReportData data, long[] count, long noise) {
        int n = data.n(), d = data.d(), k = data.clusterCount();
        int[] labels = data.labels();
        Coordinates coords = data.coords64() != null ? Coordinates.of(data.coords64()) : Coordinates.of(data.coords());
        int[] group = new int[n];
        int[] finite = new int[n];
        int nFinite = 0;
        int[] drawn = Projection2D.columns(d);   // a row is drawn when the coordinates the plane uses are finite
        for (int i = 0; i < n; i++) {
            boolean ok = Pca.finiteRow(coords, d, drawn, i);
            if (ok) finite[nFinite++] = i;
            int l = labels[i];
            group[i] = !ok || l < -1 ? -1 : l == -1 ? k : l;
        }
        int floor = Math.min(MIN_POINTS_PER_CLUSTER, MAX_PLOTTED_POINTS / (2 * (k + 1)));
        int[][] sample = Sampling.stratified(group, k + 1, MAX_PLOTTED_POINTS, floor);
        Projection2D proj = new Projection2D(coords, d, finite, nFinite);
        List<ScatterPlot.Series> series = new ArrayList<>(k + 1);
        long shown = 0;
        for (int g = 0; g <= k; g++) {
            int[] rows = sample[g];
            shown += rows.length;
            double[] xs = new double[rows.length], ys = new double[rows.length];
            for (int i = 0; i < rows.length; i++) {
                xs[i] = proj.x(rows[i]);
                ys[i] = proj.y(rows[i]);
            }
            if (g < k) {
                series.add(new ScatterPlot.Series("cluster " + g + " (" + Fmt.count(count[g]) + ")", "cluster",
                        Palette.colour(g), 2.1, 0.8, xs, ys, k <= MAX_TAGGED_CLUSTERS ? Integer.toString(g) : null));
            } else {
                series.add(new ScatterPlot.Series("noise (" + Fmt.count(noise) + ")", "noise", Palette.NOISE, 1.7,
                        0.7, xs, ys, null));
            }
        }
        // noise at the back, then clusters from largest to smallest so small ones stay visible
        Integer[] order = new Integer[k];
        for (int g = 0; g < k; g++) order[g] = g;
        Arrays.sort(order, (a, b) -> count[a] != count[b] ? Long.compare(count[b], count[a]) : Integer.compare(a, b));
        int[] drawOrder = new int[k + 1];
        drawOrder[0] = k;
        for (int g = 0; g < k; g++) drawOrder[g + 1] = order[g];
        sb.append("<section id=\"projection\"><h2>Points by cluster</h2>\n<figure>\n");
        ScatterPlot.render(sb, "projection-plot", "points coloured by cluster", series, List.of(), drawOrder,
                proj.xTitle(), proj.yTitle(), proj.equalAspect(), "label (points)", LEGEND_MAX);
        sb.append("<figcaption>").append(proj.describe()).append(' ');
        long drawable = 0;
        for (int g : group) if (g >= 0) drawable++;
        if (shown == drawable) {
            sb.append(shown == 1 ? "The one point is drawn." : "All " + Fmt.count(shown) + " points are drawn.");
        } else {
            sb.append("Drawn: ").append(Fmt.count(shown)).append(" of ").append(Fmt.count(drawable))
                    .append(" points, a deterministic subsample: each cluster and the noise keep a share proportional")
                    .append(" to their size");
            if (floor > 0) sb.append(" but at least ").append(floor).append(" points (when they have them)");
            sb.append(", taken evenly spaced in row order.");
            int undrawn = 0;
            for (int g = 0; g < k; g++) if (sample[g].length == 0 && count[g] > 0) undrawn++;
            if (undrawn > 0) {
                sb.append(' ').append(Fmt.count(undrawn)).append(" of the ").append(Fmt.count(k))
                        .append(" clusters are too small for a point of this sample and are not drawn.");
            }
        }
        sb.append(" Noise is grey; larger clusters are drawn first so that small ones stay on top.");
        if (k > MAX_TAGGED_CLUSTERS) sb.append(" With more than ").append(MAX_TAGGED_CLUSTERS)
                .append(" clusters the label numbers are left off the plot.");
        if (k > Palette.size()) sb.append(" Colours repeat after ").append(Palette.size()).append(" labels.");
        if (nFinite < n) {
            sb.append(' ').append(Fmt.count(n - nFinite)).append(" rows with NaN or infinite values are left out.");
        }
        sb.append("</figcaption>\n</figure>\n</section>\n");
    }

    private static void clusterTable(StringBuilder sb, HdbscanReportData data, long[] count, long noise,
                                     long refused) {
        int n = data.n(), k = data.clusterCount();
        int[] labels = data.labels();
        double[] prob = data.probabilities();
        double[] probSum = new double[k];
        for (int i = 0; i < n; i++) {
            if (labels[i] >= 0) probSum[labels[i]] += prob[i];
        }
        long[] ids = data.selectedClusterIds();
        double[] pers = data.persistence();
        sb.append("<section id=\"clusters\"><h2>Clusters</h2>\n<table id=\"cluster-table\">\n<thead><tr>")
                .append("<th class=\"key\">label</th><th>size</th><th>share</th><th>persistence</th>")
                .append("<th>mean probability</th><th>tree node</th></tr></thead>\n<tbody>\n");
        int rows = Math.min(k, MAX_TABLE_CLUSTERS);
        for (int g = 0; g < rows; g++) {
            sb.append("<tr class=\"cluster-row\"><td class=\"key\"><span class=\"swatch\" style=\"background:")
                    .append(Palette.colour(g)).append("\"></span>").append(g).append("</td><td>")
                    .append(Fmt.count(count[g])).append("</td><td>").append(Fmt.percent(count[g], n)).append("</td><td>")
                    .append(Fmt.sig(pers[g])).append("</td><td>")
                    .append(count[g] > 0 ? Fmt.fixed(probSum[g] / count[g], 3) : "\u2013").append("</td><td>")
                    .append(ids[g]).append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n<p class=\"note\" id=\"noise-summary\">");
        if (k == 0) sb.append("No cluster was found. ");
        if (rows < k) {
            sb.append("The table lists the first ").append(Fmt.count(rows)).append(" of the ").append(Fmt.count(k))
                    .append(" clusters, by label (so that the report stays small); the labels file holds them all. ");
        }
        sb.append("Noise: ").append(Fmt.count(noise)).append(" points (").append(Fmt.percent(noise, n)).append(").");
        if (refused > 0) {
            sb.append(" Not clustered because of NaN or infinite values: ").append(Fmt.count(refused)).append(" rows.");
        }
        sb.append(" Persistence as reported by the run (hdbscan's cluster_persistence_: 0 for a cluster that")
                .append(" vanishes as soon as it appears, larger the longer it lasts, about 1 for one that persists")
                .append(" over all distance scales, and more where points that left it early count too, as in the")
                .append(" root cluster of allow_single_cluster); the mean")
                .append(" probability averages the membership strength of the cluster's points; the tree node is the")
                .append(" cluster's id in the condensed tree.");
        if (k > 0 && data.tree() != null && undefinedPersistence(data.tree())) {
            sb.append(" Here every persistence is 1 by hdbscan's rule, not a measure: the condensed tree's largest")
                    .append(" density is infinite (points at distance 0 from one another, such as exact duplicates),")
                    .append(" or 0, and a cluster's persistence is then undefined.");
        }
        sb.append("</p>\n</section>\n");
    }

    /**
     * True when the run's persistence is 1 for every cluster by rule (ClusterSelector, after hdbscan's
     * {@code get_stability_scores}): the tree's largest lambda is infinite or 0.
     */
    static boolean undefinedPersistence(CondensedTreeData tree) {
        double most = 0;
        for (double l : tree.lambda()) most = Math.max(most, l);
        return Double.isInfinite(most) || most == 0.0;
    }
}
