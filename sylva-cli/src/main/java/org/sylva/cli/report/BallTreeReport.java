package org.sylva.cli.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders the ball tree report: one self-contained HTML file showing one batch of a perfect binary
 * ball tree as a point cloud coloured by ball at a chosen level {@code k} (root = 0). A batch with
 * {@code L} levels below the root has {@code 2^(L+1)} slots in heap order; at level {@code k} it has
 * {@code 2^k} balls, each a block of {@code 2^(L+1-k)} consecutive slots, and a point belongs to the
 * ball whose block holds its slot. Two-dimensional clouds are drawn at their own coordinates (equal
 * axis units), one-dimensional ones along the horizontal axis, higher ones on their first two
 * principal components. At most {@link #MAX_PLOTTED_POINTS} points are drawn (a deterministic
 * subsample, every ball represented); each ball's extent is outlined when there are at most
 * {@link #MAX_OUTLINED_BALLS} balls. A table lists the balls (when few enough), then the parameters,
 * timings and the Sylva version. Output is byte-identical for identical data (a run's timings differ from run to
 * run).
 *
 * <pre>{@code
 * BallTreeReportData data = BallTreeReportData.builder()
 *         .title("cloud.npy").points(n, 3, coords).tree(treeIdx, mask, batchLevels)
 *         .level(3).sylvaVersion("0.1.0").build();
 * BallTreeReport.write(data, Path.of("balls.html"));   // or: String html = BallTreeReport.render(data);
 * }</pre>
 */
public final class BallTreeReport {
    /** Target number of points drawn. */
    public static final int MAX_PLOTTED_POINTS = 5_000;
    /** Balls are outlined by a circle up to this many balls. */
    public static final int MAX_OUTLINED_BALLS = 256;
    private static final int MAX_LEGEND_BALLS = 24;
    private static final int MAX_TABLE_BALLS = 64;
    private static final int MAX_TAGGED_BALLS = 32;

    private BallTreeReport() {
    }

    /** Writes the report to {@code file} through a temporary sibling and an atomic rename. */
    public static void write(BallTreeReportData data, Path file) throws IOException {
        byte[] bytes = render(data).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        org.sylva.io.AtomicOutput.write(file, out -> out.write(bytes));
    }

    /** The report as a string. */
    public static String render(BallTreeReportData data) {
        int n = data.n(), d = data.d();
        float[] coords = data.coords();
        Coordinates plane = Coordinates.of(coords);
        int[] treeIdx = data.treeIdx();
        boolean[] mask = data.mask();
        int batches = data.batchLevels().length;
        StringBuilder sb = new StringBuilder(128 * 1024);
        Html.open(sb, data.title());
        if (batches == 0) {
            sb.append("<p class=\"summary\" id=\"summary\">The tree is empty (no points).</p>\n");
            sb.append("<section id=\"balls\"><h2>Balls</h2>\n<figure>\n");
            ScatterPlot.render(sb, "ball-plot", "empty ball tree", List.of(), List.of(), new int[0], "x", "y", true,
                    null, 0);
            sb.append("<figcaption>No points.</figcaption>\n</figure>\n</section>\n");
            tail(sb, data);
            return sb.toString();
        }
        int b = data.batch();
        int levels = data.batchLevels()[b];
        int k = Math.min(data.level(), levels);
        long off = data.slotOffset(b);
        int slots = 1 << (levels + 1);
        int shift = levels + 1 - k;
        int balls = 1 << k;
        // rows of this batch in slot order, their ball, and per-ball statistics
        int m = 0;
        for (int s = 0; s < slots; s++) if (mask[(int) (off + s)]) m++;
        int[] rows = new int[m];
        int[] ballOfRow = new int[m];
        int[] group = new int[n];
        java.util.Arrays.fill(group, -1);
        int[] ballCount = new int[balls];
        int[] drawn = Projection2D.columns(d);
        int r = 0;
        for (int s = 0; s < slots; s++) {
            int slot = (int) (off + s);
            if (!mask[slot]) continue;
            int row = treeIdx[slot];
            rows[r] = row;
            ballOfRow[r] = s >> shift;
            ballCount[s >> shift]++;
            if (Pca.finiteRow(plane, d, drawn, row)) group[row] = s >> shift;
            r++;
        }
        int[] finite = new int[m];
        int nFinite = 0;
        for (int i = 0; i < m; i++) if (group[rows[i]] >= 0) finite[nFinite++] = rows[i];
        Projection2D proj = new Projection2D(plane, d, finite, nFinite);

        sb.append("<p class=\"summary\" id=\"summary\">Batch ").append(b).append(" (of ").append(batches)
                .append(", numbered from 0) \u00b7 ").append(Fmt.count(m, "point", "points")).append(" \u00d7 ").append(d).append(d == 1 ? " dimension" : " dimensions")
                .append(" \u00b7 ").append(levels).append(" levels below the root, ").append(Fmt.count(slots))
                .append(" slots \u00b7 coloured at level ").append(k).append(": ").append(Fmt.count(balls))
                .append(balls == 1 ? " ball" : " balls").append(" \u00b7 Sylva ").append(Html.esc(data.sylvaVersion()))
                .append("</p>\n");

        int floor = Math.min(5, MAX_PLOTTED_POINTS / (2 * balls));
        int[][] sample = Sampling.stratified(group, balls, MAX_PLOTTED_POINTS, floor);
        boolean perBall = balls <= MAX_LEGEND_BALLS;
        int seriesCount = perBall ? balls : Math.min(balls, Palette.size());
        List<double[]> xs = new ArrayList<>(), ys = new ArrayList<>();
        int[] fillAt = new int[seriesCount];
        int[] seriesSize = new int[seriesCount];
        for (int g = 0; g < balls; g++) seriesSize[perBall ? g : g % Palette.size()] += sample[g].length;
        for (int s = 0; s < seriesCount; s++) {
            xs.add(new double[seriesSize[s]]);
            ys.add(new double[seriesSize[s]]);
        }
        long shown = 0;
        for (int g = 0; g < balls; g++) {
            int s = perBall ? g : g % Palette.size();
            for (int row : sample[g]) {
                xs.get(s)[fillAt[s]] = proj.x(row);
                ys.get(s)[fillAt[s]++] = proj.y(row);
                shown++;
            }
        }
        List<ScatterPlot.Series> series = new ArrayList<>(seriesCount);
        int[] drawOrder = new int[seriesCount];
        for (int s = 0; s < seriesCount; s++) {
            String name = perBall ? "ball " + s + " (" + Fmt.count(ballCount[s]) + ")" : "colour " + s;
            String tag = perBall && balls <= MAX_TAGGED_BALLS && balls > 1 ? Integer.toString(s) : null;
            series.add(new ScatterPlot.Series(name, "ball", Palette.colour(s), 2.2, 0.85, xs.get(s), ys.get(s), tag));
            drawOrder[s] = s;
        }
        List<ScatterPlot.Circle> circles = new ArrayList<>();
        double[][] ballGeom = ballGeometry(data, rows, ballOfRow, group, balls, proj);
        if (balls <= MAX_OUTLINED_BALLS && balls > 1) {
            for (int g = 0; g < balls; g++) {
                if (ballCount[g] > 0) {
                    circles.add(new ScatterPlot.Circle(ballGeom[g][0], ballGeom[g][1], ballGeom[g][2], Palette.colour(g)));
                }
            }
        }
        sb.append("<section id=\"balls\"><h2>Balls at level ").append(k).append("</h2>\n<figure>\n");
        ScatterPlot.render(sb, "ball-plot", "points coloured by ball", series, circles, drawOrder, proj.xTitle(),
                proj.yTitle(), true, perBall && balls > 1 ? "ball (points)" : null, MAX_LEGEND_BALLS + 1);
        sb.append("<figcaption>").append(proj.describe());
        if (proj.isPca()) sb.append(" Both axes share one unit, so the drawing does not stretch distances.");
        sb.append(" The tree of this batch has ").append(levels)
                .append(" levels below the root and ").append(Fmt.count(slots)).append(" slots in heap order;")
                .append(" at level ").append(k).append(" (root = 0) it has ").append(Fmt.count(balls))
                .append(balls == 1 ? " ball" : " balls").append(", each a block of 2^(L+1\u2212k) = ")
                .append(Fmt.count(1L << shift)).append(" consecutive slots, and every point is coloured by the block")
                .append(" its slot falls in.");
        if (data.level() > levels) {
            sb.append(" The colours were to be those of level ").append(data.level()).append(" (--report-level);")
                    .append(" this batch has only ").append(levels).append(levels == 1 ? " level" : " levels")
                    .append(", so its deepest level is shown.");
        }
        if (!circles.isEmpty()) {
            sb.append(" Dashed circles outline each ball in the drawing plane: centred on the mean of its drawn")
                    .append(" coordinates, through its farthest point.");
        }
        if (!perBall) sb.append(" Colours cycle through ").append(Palette.size())
                .append(", so consecutive balls (siblings in the tree) always differ; the circles tell the balls apart.");
        if (shown < nFinite) {
            sb.append(" Drawn: ").append(Fmt.count(shown)).append(" of ").append(Fmt.count(nFinite))
                    .append(" points, a deterministic subsample: every ball keeps a share proportional to its size");
            if (floor > 0) sb.append(" (at least ").append(floor).append(')');
            sb.append(", taken evenly spaced in row order.");
        } else {
            sb.append(shown == 1 ? " The one point is drawn." : " All " + Fmt.count(shown) + " points are drawn.");
        }
        sb.append("</figcaption>\n</figure>\n</section>\n");
        ballTable(sb, data, k, levels, slots, balls, ballCount, ballGeom, off, shift, m);
        tail(sb, data);
        return sb.toString();
    }

    /**
     * Per ball: centre x, y and radius in the drawing plane, and (when the ball table is shown) the radius
     * in the full space: the distance from the ball's float64 centroid to its farthest point.
     */
    private static double[][] ballGeometry(BallTreeReportData data, int[] rows, int[] ballOfRow, int[] group,
                                           int balls, Projection2D proj) {
        double[][] geom = new double[balls][4];
        long[] cnt = new long[balls];
        for (int i = 0; i < rows.length; i++) {
            if (group[rows[i]] < 0) continue;
            int g = ballOfRow[i];
            cnt[g]++;
            geom[g][0] += proj.x(rows[i]);
            geom[g][1] += proj.y(rows[i]);
        }
        for (int g = 0; g < balls; g++) {
            if (cnt[g] == 0) continue;
            geom[g][0] /= cnt[g];
            geom[g][1] /= cnt[g];
        }
        for (int i = 0; i < rows.length; i++) {
            if (group[rows[i]] < 0) continue;
            int g = ballOfRow[i];
            double dx = proj.x(rows[i]) - geom[g][0], dy = proj.y(rows[i]) - geom[g][1];
            geom[g][2] = Math.max(geom[g][2], Math.sqrt(dx * dx + dy * dy));
        }
        if (balls <= MAX_TABLE_BALLS) fullSpaceRadii(data, rows, ballOfRow, group, cnt, geom);
        return geom;
    }

    /**
     * {@code geom[g][3]}: ball by ball, since a ball's rows are one run of consecutive slots, so that one
     * centroid of d values serves them all (a centroid per ball would need balls x d values at once).
     */
    private static void fullSpaceRadii(BallTreeReportData data, int[] rows, int[] ballOfRow, int[] group, long[] cnt,
                                       double[][] geom) {
        int d = data.d();
        float[] coords = data.coords();
        double[] centroid = new double[d];
        for (int start = 0, end; start < rows.length; start = end) {   // each pass takes one run, at least one row
            int g = ballOfRow[start];
            end = start + 1;
            while (end < rows.length && ballOfRow[end] == g) end++;
            if (cnt[g] == 0) continue;
            java.util.Arrays.fill(centroid, 0);
            for (int i = start; i < end; i++) {
                if (group[rows[i]] < 0) continue;
                for (int j = 0; j < d; j++) centroid[j] += coords[rows[i] * d + j];
            }
            for (int j = 0; j < d; j++) centroid[j] /= cnt[g];
            for (int i = start; i < end; i++) {
                if (group[rows[i]] < 0) continue;
                double s = 0;
                for (int j = 0; j < d; j++) {
                    double e = coords[rows[i] * d + j] - centroid[j];
                    s += e * e;
                }
                geom[g][3] = Math.max(geom[g][3], Math.sqrt(s));
            }
        }
    }

    private static void ballTable(StringBuilder sb, BallTreeReportData data, int k, int levels, int slots, int balls,
                                  int[] ballCount, double[][] geom, long off, int shift, int m) {
        int min = Integer.MAX_VALUE, max = 0;
        for (int c : ballCount) {
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        sb.append("<section id=\"tree\"><h2>Tree</h2>\n<table id=\"tree-table\">\n<tbody>\n");
        row(sb, "batch", data.batch() + " (of " + data.batchLevels().length + ", numbered from 0)");
        row(sb, "points in the batch", Fmt.count(m));
        row(sb, "levels below the root (L)", Integer.toString(levels));
        row(sb, "slots (2^(L+1))", Fmt.count(slots) + ", of which " + Fmt.count(slots - m) + " padding");
        row(sb, "level shown (k)", Integer.toString(k));
        row(sb, "balls at level k (2^k)", Fmt.count(balls));
        row(sb, "slots per ball (2^(L+1\u2212k))", Fmt.count(1L << shift));
        row(sb, "points per ball", "min " + Fmt.count(min) + ", max " + Fmt.count(max));
        row(sb, "first slot of the batch", Fmt.count(off));
        sb.append("</tbody>\n</table>\n");
        if (balls > 1 && balls <= MAX_TABLE_BALLS) {
            sb.append("<h2 style=\"margin-top:16px\">Balls</h2>\n<table id=\"ball-table\">\n<thead><tr>")
                    .append("<th class=\"key\">ball</th><th>slots</th><th>points</th><th>radius (all ")
                    .append(data.d()).append(" dimensions)</th></tr></thead>\n<tbody>\n");
            for (int g = 0; g < balls; g++) {
                long first = off + ((long) g << shift), last = first + (1L << shift) - 1;
                sb.append("<tr class=\"ball-row\"><td class=\"key\"><span class=\"swatch\" style=\"background:")
                        .append(Palette.colour(g)).append("\"></span>").append(g).append("</td><td>")
                        .append(Fmt.count(first)).append(" \u2013 ").append(Fmt.count(last)).append("</td><td>")
                        .append(Fmt.count(ballCount[g])).append("</td><td>")
                        .append(ballCount[g] > 0 ? Fmt.sig(geom[g][3]) : "\u2013").append("</td></tr>\n");
            }
            sb.append("</tbody>\n</table>\n<p class=\"note\">Slots are global positions in the tree arrays; the radius")
                    .append(" is the largest distance from the ball's centroid (float64) to one of its points.</p>\n");
        }
        sb.append("</section>\n");
    }

    private static void row(StringBuilder sb, String key, String value) {
        sb.append("<tr><td class=\"key\">").append(Html.esc(key)).append("</td><td>").append(Html.esc(value))
                .append("</td></tr>\n");
    }

    private static void tail(StringBuilder sb, BallTreeReportData data) {
        sb.append("<div class=\"cols\">\n<section id=\"parameters\"><h2>Parameters</h2>\n");
        Html.keyValueTable(sb, "parameters-table", "parameter", "value", data.parameters());
        sb.append("<p class=\"note\" id=\"version\">Sylva version ").append(Html.esc(data.sylvaVersion()))
                .append("</p>\n</section>\n<section id=\"timings\"><h2>Timings per stage</h2>\n");
        Html.timingTable(sb, data.stageSeconds());
        sb.append("</section>\n</div>\n");
        Html.close(sb, data.sylvaVersion());
    }
}
