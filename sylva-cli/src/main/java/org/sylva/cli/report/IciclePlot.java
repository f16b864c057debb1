package org.sylva.cli.report;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The condensed tree as an icicle plot, after the Python hdbscan package's
 * {@code condensed_tree_.plot(select_clusters=True)}: lambda runs down the page, each cluster is a
 * bar centred in the horizontal span its points occupy, and the bar narrows, in one-pixel steps, as
 * points fall out of the cluster, so that at every depth the total width of the bars is the number of
 * points still clustered. A split hands the remaining width to the children, laid side by side under
 * the parent in id order. Selected clusters are filled with their label colour and outlined; their
 * descendants are tinted with the same colour.
 *
 * <p>To stay light for half a million points, the drawing aggregates: a cluster is expanded into its
 * children only while its bar is at least {@link #MIN_EXPAND_PX} wide and at most
 * {@link #MAX_SHAPES} shapes are drawn (largest first, ties by id; selected clusters and their
 * ancestors first); an unexpanded subtree is drawn as one shape whose width counts all of its points.
 * Steps closer than half a pixel in width are merged. Lambda = +inf (exact duplicates) is clipped into a
 * shaded band just below the largest finite lambda, marked with the infinity sign.
 */
final class IciclePlot {
    static final int WIDTH = 1140;
    static final int HEIGHT = 600;
    /** Most cluster shapes drawn. */
    static final int MAX_SHAPES = 1500;
    /** A cluster narrower than this (pixels) is drawn as one aggregate shape. */
    static final double MIN_EXPAND_PX = 3.0;
    private static final double LEFT = 78, RIGHT = 24, TOP = 16, BOTTOM = 74;
    private static final double STEP_MERGE_PX = 0.5;
    /** Height of the band that shows lambda = +inf, below the finite axis. */
    private static final double INF_BAND = 36;

    /**
     * What the caption needs to know about the drawing.
     *
     * @param clusters       cluster nodes in the tree (root included)
     * @param shapes         shapes drawn
     * @param aggregated     drawn shapes that stand for a subtree of more than one cluster
     * @param infiniteRows   rows with lambda = +inf
     * @param lambdaMax      largest finite lambda (the bottom of the axis)
     * @param hiddenSelected selected clusters inside an aggregated shape (not individually visible)
     */
    record Summary(int clusters, int shapes, int aggregated, int infiniteRows, double lambdaMax, int hiddenSelected) {
    }

    private IciclePlot() {
    }

    static Summary render(StringBuilder sb, String id, CondensedTreeData t, long[] selectedIds) {
        double pw = WIDTH - LEFT - RIGHT, ph = HEIGHT - TOP - BOTTOM;
        openSvg(sb, id);
        int m = t.rows();
        if (m == 0) {
            sb.append("<text x=\"").append(WIDTH / 2).append("\" y=\"").append(HEIGHT / 2)
                    .append("\" text-anchor=\"middle\" font-size=\"16\" class=\"empty\">The condensed tree is empty:"
                            + " no cluster was found, every point is noise.</text>\n</svg>\n");
            return new Summary(0, 0, 0, 0, 0, 0);
        }
        int nn = t.n();
        int[] par = t.parent(), chi = t.child(), csz = t.childSize();
        double[] lam = t.lambda();
        int clusters = t.clusterCount();

        // largest finite lambda: the bottom of the axis; +inf rows are drawn there
        double lamMax = 0;
        int infRows = 0;
        for (int r = 0; r < m; r++) {
            if (Double.isInfinite(lam[r])) infRows++;
            else lamMax = Math.max(lamMax, lam[r]);
        }
        if (!(lamMax > 0)) lamMax = 1;
        // lambda = +inf is drawn in a band below the largest finite lambda: on the drawing scale it sits at
        // lamInf, the value the finite axis would reach at the bottom of the band
        double phFinite = infRows > 0 ? ph - INF_BAND : ph;
        double lamInf = lamMax * ph / phFinite;

        int[] parentOf = new int[clusters];
        double[] birth = new double[clusters];
        long[] size = new long[clusters];
        double[] death = new double[clusters];
        int[] nKids = new int[clusters];
        int[] nPts = new int[clusters];
        parentOf[0] = -1;
        for (int r = 0; r < m; r++) {
            int p = par[r] - nn;
            double l = Math.min(lam[r], lamInf);
            death[p] = Math.max(death[p], l);
            if (p == 0) size[0] += csz[r];
            if (chi[r] >= nn) {
                int c = chi[r] - nn;
                parentOf[c] = p;
                birth[c] = l;
                size[c] = csz[r];
                nKids[p]++;
            } else {
                nPts[p]++;
            }
        }
        for (int c = 0; c < clusters; c++) death[c] = Math.max(death[c], birth[c]);
        // cluster children in id order (ids ascend, so filling by id keeps each list sorted)
        int[] kidStart = prefix(nKids);
        int[] kids = new int[Math.max(0, clusters - 1)];
        int[] fill = kidStart.clone();
        for (int c = 1; c < clusters; c++) kids[fill[parentOf[c]]++] = c;
        // point rows per cluster: their lambdas
        int[] ptStart = prefix(nPts);
        double[] ptLam = new double[ptStart[clusters]];
        fill = ptStart.clone();
        for (int r = 0; r < m; r++) {
            if (chi[r] < nn) ptLam[fill[par[r] - nn]++] = Math.min(lam[r], lamInf);
        }
        double[] subDeath = death.clone();
        for (int c = clusters - 1; c >= 1; c--) {
            subDeath[parentOf[c]] = Math.max(subDeath[parentOf[c]], subDeath[c]);
        }
        int[] selLabel = new int[clusters];
        java.util.Arrays.fill(selLabel, -1);
        for (int l = 0; l < selectedIds.length; l++) selLabel[(int) (selectedIds[l] - nn)] = l;
        int[] underSel = new int[clusters];
        for (int c = 0; c < clusters; c++) {
            underSel[c] = selLabel[c] >= 0 ? selLabel[c] : c == 0 ? -1 : underSel[parentOf[c]];
        }

        double scale = pw / Math.max(1, size[0]);
        boolean[] expanded = new boolean[clusters];
        boolean[] visible = new boolean[clusters];
        visible[0] = true;
        int shapes = 1;
        // 1. selected clusters (largest first) and their ancestors, while the budget lasts
        Integer[] bySize = new Integer[selectedIds.length];
        for (int l = 0; l < bySize.length; l++) bySize[l] = l;
        java.util.Arrays.sort(bySize, (a, b) -> {
            int ca = (int) (selectedIds[a] - nn), cb = (int) (selectedIds[b] - nn);
            return size[ca] != size[cb] ? Long.compare(size[cb], size[ca]) : Integer.compare(ca, cb);
        });
        int hiddenSelected = 0;
        for (int l : bySize) {
            int c = (int) (selectedIds[l] - nn);
            int cost = 0;
            for (int a = parentOf[c]; a >= 0 && !expanded[a]; a = parentOf[a]) cost += nKids[a];
            if (shapes + cost > MAX_SHAPES) {
                hiddenSelected++;
                continue;
            }
            for (int a = parentOf[c]; a >= 0 && !expanded[a]; a = parentOf[a]) expanded[a] = true;
            shapes += cost;
        }
        for (int c = 0; c < clusters; c++) { // children of expanded nodes are visible (parents come first)
            if (c > 0 && expanded[parentOf[c]]) visible[c] = true;
        }
        // 2. the rest, widest first, while wide enough and within budget
        PriorityQueue<Integer> queue = new PriorityQueue<>((a, b) ->
                size[a] != size[b] ? Long.compare(size[b], size[a]) : Integer.compare(a, b));
        for (int c = 0; c < clusters; c++) {
            if (visible[c] && !expanded[c] && nKids[c] > 0) queue.add(c);
        }
        for (int guard = 0; guard < clusters && !queue.isEmpty(); guard++) {
            int c = queue.poll();
            if (size[c] * scale < MIN_EXPAND_PX) break; // every remaining node is narrower
            if (shapes + nKids[c] > MAX_SHAPES) continue;
            expanded[c] = true;
            shapes += nKids[c];
            for (int k = kidStart[c]; k < kidStart[c + 1]; k++) {
                visible[kids[k]] = true;
                if (nKids[kids[k]] > 0) queue.add(kids[k]);
            }
        }

        // horizontal layout in point units: children centred under the parent, side by side
        double[] x0 = new double[clusters];
        for (int c = 0; c < clusters; c++) {
            if (!expanded[c]) continue;
            long total = 0;
            for (int k = kidStart[c]; k < kidStart[c + 1]; k++) total += size[kids[k]];
            double at = x0[c] + (size[c] - total) / 2.0;
            for (int k = kidStart[c]; k < kidStart[c + 1]; k++) {
                x0[kids[k]] = at;
                at += size[kids[k]];
            }
        }

        Axes.Scale sy = new Axes.Scale(0, lamInf, TOP, TOP + ph);
        sb.append("<rect x=\"");
        Fmt.px(sb, LEFT).append("\" y=\"");
        Fmt.px(sb, TOP).append("\" width=\"");
        Fmt.px(sb, pw).append("\" height=\"");
        Fmt.px(sb, ph).append("\" fill=\"#fff\" stroke=\"#c4cbd3\"/>\n");
        if (infRows > 0) {
            sb.append("<rect class=\"infinite-band\" x=\"");
            Fmt.px(sb, LEFT).append("\" y=\"");
            Fmt.px(sb, TOP + phFinite).append("\" width=\"");
            Fmt.px(sb, pw).append("\" height=\"");
            Fmt.px(sb, INF_BAND).append("\" fill=\"#F6EDED\"/>\n");
        }
        Axes.left(sb, new Axes.Scale(0, lamMax, TOP, TOP + phFinite), Axes.niceStep(lamMax, 7), LEFT, LEFT + pw,
                "\u03bb = 1 / distance (increasing downward)", 20);

        int aggregated = 0;
        int[] stack = new int[clusters];
        double[] widthPx = new double[(int) ph + 4];
        long[] hist = new long[(int) ph + 4];
        List<double[]> labelBoxes = new ArrayList<>();
        StringBuilder labels = new StringBuilder();
        sb.append("<g id=\"").append(id).append("-nodes\">\n");
        for (int c = 0; c < clusters; c++) {
            if (!visible[c]) continue;
            boolean exp = expanded[c];
            double yTop = sy.at(birth[c]);
            double yBot = sy.at(exp ? death[c] : subDeath[c]);
            if (selLabel[c] >= 0 && yBot - yTop < 2) yBot = yTop + 2;
            if (!exp && nKids[c] > 0) aggregated++;
            if (yBot - yTop < 0.05) continue;
            int base = (int) Math.floor(yTop);
            int segs = Math.max(1, (int) Math.ceil(yBot) - base);
            java.util.Arrays.fill(hist, 0, segs, 0);
            long childTotal = 0;
            if (exp) {
                for (int k = kidStart[c]; k < kidStart[c + 1]; k++) childTotal += size[kids[k]];
                addPoints(hist, ptLam, ptStart[c], ptStart[c + 1], sy, base, segs);
            } else { // the whole subtree, through an explicit stack (bounded by the cluster count)
                int top = 0;
                stack[top++] = c;
                for (int guard = 0; guard < clusters && top > 0; guard++) {
                    int u = stack[--top];
                    addPoints(hist, ptLam, ptStart[u], ptStart[u + 1], sy, base, segs);
                    for (int k = kidStart[u]; k < kidStart[u + 1]; k++) stack[top++] = kids[k];
                }
            }
            long remaining = childTotal;
            for (int i = segs - 1; i >= 0; i--) {
                remaining += hist[i];
                widthPx[i] = Math.max(0.6, remaining * scale);
            }
            double cx = LEFT + (x0[c] + size[c] / 2.0) * scale;
            int label = selLabel[c], tint = underSel[c];
            String cls, style;
            if (label >= 0) {
                cls = "node selected";
                style = "fill=\"" + Palette.colour(label) + "\" stroke=\"" + Palette.dark(label)
                        + "\" stroke-width=\"1.6\"";
            } else if (tint >= 0) {
                cls = "node in-selected";
                style = "fill=\"" + Palette.colour(tint) + "\" fill-opacity=\"0.38\" stroke=\"" + Palette.colour(tint)
                        + "\" stroke-width=\"0.6\"";
            } else {
                cls = "node";
                style = "fill=\"" + Palette.UNSELECTED_FILL + "\" stroke=\"" + Palette.UNSELECTED_STROKE
                        + "\" stroke-width=\"0.6\"";
            }
            sb.append("<path class=\"").append(cls).append("\" data-node=\"").append(nn + c).append('"');
            if (label >= 0) sb.append(" data-label=\"").append(label).append('"');
            sb.append(' ').append(style).append(" d=\"");
            stepOutline(sb, widthPx, segs, base, yTop, yBot, cx);
            sb.append("\"/>\n");
            if (label >= 0) {
                placeLabel(labels, labelBoxes, label, cx, widthPx[0], yTop, yBot, TOP + ph);
            }
        }
        sb.append("</g>\n");
        sb.append("<g class=\"cluster-labels\" font-size=\"13\" font-weight=\"700\" text-anchor=\"middle\">")
                .append(labels).append("</g>\n");
        if (infRows > 0) {
            sb.append("<g class=\"infinite-lambda\" font-size=\"12\" style=\"fill:#B0413E\"><line x1=\"");
            Fmt.px(sb, LEFT).append("\" x2=\"");
            Fmt.px(sb, LEFT + pw).append("\" y1=\"");
            Fmt.px(sb, TOP + phFinite).append("\" y2=\"");
            Fmt.px(sb, TOP + phFinite).append("\" stroke=\"#B0413E\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>")
                    .append("<text x=\"");
            Fmt.px(sb, LEFT - 8).append("\" y=\"");
            Fmt.px(sb, TOP + ph - 4).append("\" text-anchor=\"end\" font-size=\"16\">\u221e</text><text x=\"");
            Fmt.px(sb, LEFT + pw).append("\" y=\"");
            Fmt.px(sb, TOP + ph + 30).append("\" text-anchor=\"end\">shaded band: \u03bb = \u221e (")
                    .append(Fmt.count(infRows)).append(" rows, exact duplicates), below the largest finite \u03bb")
                    .append(" (dashed)</text></g>\n");
        }
        scaleBar(sb, size[0], scale, LEFT, TOP + ph + 26);
        legend(sb, LEFT, TOP + ph + 50);
        sb.append("</svg>\n");
        return new Summary(clusters, shapes, aggregated, infRows, lamMax, hiddenSelected);
    }

    private static void openSvg(StringBuilder sb, String id) {
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"").append(id)
                .append("\" role=\"img\" aria-label=\"condensed tree icicle plot\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\">\n");
    }

    private static int[] prefix(int[] counts) {
        int[] start = new int[counts.length + 1];
        for (int i = 0; i < counts.length; i++) start[i + 1] = start[i] + counts[i];
        return start;
    }

    private static void addPoints(long[] hist, double[] ptLam, int from, int to, Axes.Scale sy, int base, int segs) {
        for (int i = from; i < to; i++) {
            int s = (int) Math.floor(sy.at(ptLam[i])) - base;
            hist[s < 0 ? 0 : s >= segs ? segs - 1 : s]++;
        }
    }

    /**
     * Writes the closed outline of a bar that is {@code widthPx[i]} wide in pixel row {@code base + i},
     * merging rows whose width differs by less than {@link #STEP_MERGE_PX} from the step's first row.
     */
    private static void stepOutline(StringBuilder sb, double[] widthPx, int segs, int base, double yTop, double yBot,
                                    double cx) {
        // steps: start row and width; each step ends where the next begins (the last at yBot)
        int[] stepRow = new int[segs];
        int steps = 0;
        for (int i = 0; i < segs; i++) {
            if (steps == 0 || Math.abs(widthPx[i] - widthPx[stepRow[steps - 1]]) >= STEP_MERGE_PX) stepRow[steps++] = i;
        }
        sb.append('M');
        Fmt.px(sb, cx - widthPx[0] / 2).append(' ');
        Fmt.px(sb, yTop);
        for (int s = 0; s < steps; s++) {
            double yEnd = s + 1 < steps ? base + stepRow[s + 1] : yBot;
            sb.append('V');
            Fmt.px(sb, yEnd);
            if (s + 1 < steps) {
                sb.append('H');
                Fmt.px(sb, cx - widthPx[stepRow[s + 1]] / 2);
            }
        }
        sb.append('H');
        Fmt.px(sb, cx + widthPx[stepRow[steps - 1]] / 2);
        for (int s = steps - 1; s >= 0; s--) {
            double yStart = s == 0 ? yTop : base + stepRow[s];
            sb.append('V');
            Fmt.px(sb, yStart);
            if (s > 0) {
                sb.append('H');
                Fmt.px(sb, cx + widthPx[stepRow[s - 1]] / 2);
            }
        }
        sb.append('Z');
    }

    /** The label number inside the top of a wide bar, else just below it; skipped where it would overlap. */
    private static void placeLabel(StringBuilder out, List<double[]> boxes, int label, double cx, double w,
                                   double yTop, double yBot, double floor) {
        String text = Integer.toString(label);
        double half = 4.5 * text.length() + 3;
        double y = (w >= 2 * half + 4 && yBot - yTop >= 18) ? yTop + 15 : Math.min(yBot + 15, floor - 3);
        double[] box = {cx - half, y - 12, cx + half, y + 3};
        for (double[] b : boxes) {
            if (box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]) return;
        }
        boxes.add(box);
        out.append("<text x=\"");
        Fmt.px(out, cx).append("\" y=\"");
        Fmt.px(out, y).append("\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\" style=\"fill:")
                .append(Palette.dark(label)).append("\">").append(text).append("</text>");
    }

    /** A horizontal bar showing how wide a round number of points is. */
    private static void scaleBar(StringBuilder sb, long total, double scale, double x, double y) {
        long unit = (long) Math.max(1, Axes.niceStep(total / 4.0, 1));
        while (unit > 1 && unit * scale > 200) unit /= 2;
        double len = unit * scale;
        sb.append("<g class=\"scale-bar\" font-size=\"12\"><path d=\"M");
        Fmt.px(sb, x).append(' ');
        Fmt.px(sb, y - 5).append("V");
        Fmt.px(sb, y + 5).append("M");
        Fmt.px(sb, x).append(' ');
        Fmt.px(sb, y).append("H");
        Fmt.px(sb, x + len).append("M");
        Fmt.px(sb, x + len).append(' ');
        Fmt.px(sb, y - 5).append("V");
        Fmt.px(sb, y + 5).append("\" stroke=\"#1d232b\" stroke-width=\"1.5\" fill=\"none\"/><text x=\"");
        Fmt.px(sb, x + len + 8).append("\" y=\"");
        Fmt.px(sb, y + 4).append("\">").append(Fmt.count(unit)).append(unit == 1 ? " point" : " points")
                .append(" (the full width: all ").append(Fmt.count(total)).append(")</text></g>\n");
    }

    private static void legend(StringBuilder sb, double x, double y) {
        sb.append("<g class=\"legend\" font-size=\"12\">");
        swatch(sb, x, y, Palette.colour(0), "1", Palette.dark(0), "1.6");
        text(sb, x + 20, y, "selected cluster (label colour, number)");
        swatch(sb, x + 270, y, Palette.colour(0), "0.38", Palette.colour(0), "0.6");
        text(sb, x + 290, y, "inside a selected cluster");
        swatch(sb, x + 470, y, Palette.UNSELECTED_FILL, "1", Palette.UNSELECTED_STROKE, "0.6");
        text(sb, x + 490, y, "not selected");
        sb.append("</g>\n");
    }

    private static void swatch(StringBuilder sb, double x, double y, String fill, String opacity, String stroke,
                               String strokeWidth) {
        sb.append("<rect x=\"");
        Fmt.px(sb, x).append("\" y=\"");
        Fmt.px(sb, y - 10).append("\" width=\"14\" height=\"12\" fill=\"").append(fill).append("\" fill-opacity=\"")
                .append(opacity).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"").append(strokeWidth)
                .append("\"/>");
    }

    private static void text(StringBuilder sb, double x, double y, String s) {
        sb.append("<text x=\"");
        Fmt.px(sb, x).append("\" y=\"");
        Fmt.px(sb, y).append("\">").append(Html.esc(s)).append("</text>");
    }
}
