package org.sylva.cli.report;

import java.util.Arrays;

/**
 * Draws the clusters of an {@link IcicleLayout} as icicle bars: each bar's width in every pixel row is
 * the number of points still in the cluster (its own points that have not left yet plus its children,
 * or, for an unexpanded cluster, every point of its subtree), drawn as a closed outline of steps,
 * coloured by selection.
 */
final class IcicleNodes {
    /** Rows whose widths differ by less than this (pixels) are merged into one step. */
    private static final double STEP_MERGE_PX = 0.5;

    private final IcicleTree tree;
    private final IcicleLayout layout;
    private final Axes.Scale sy;
    private final double left;
    private final int[] stack;
    private final double[] widthPx;
    private final long[] hist;

    /**
     * @param sy     lambda to pixel row
     * @param left   pixel column of the plot's left edge
     * @param height height of the plot in pixels (bounds the rows of a bar)
     */
    IcicleNodes(IcicleTree tree, IcicleLayout layout, Axes.Scale sy, double left, double height) {
        this.tree = tree;
        this.layout = layout;
        this.sy = sy;
        this.left = left;
        stack = new int[tree.clusters];
        widthPx = new double[(int) height + 4];
        hist = new long[(int) height + 4];
    }

    /**
     * Writes the group of bars, id {@code id + "-nodes"}, and places the selected clusters' labels;
     * returns the number of drawn shapes that stand for a subtree of more than one cluster.
     */
    int draw(StringBuilder sb, String id, IcicleLabels labels) {
        int aggregated = 0;
        sb.append("<g id=\"").append(id).append("-nodes\">\n");
        for (int c = 0; c < tree.clusters; c++) {
            if (!layout.visible[c]) continue;
            if (!layout.expanded[c] && tree.nKids[c] > 0) aggregated++;
            drawNode(sb, c, labels);
        }
        sb.append("</g>\n");
        return aggregated;
    }

    private void drawNode(StringBuilder sb, int c, IcicleLabels labels) {
        boolean exp = layout.expanded[c];
        int label = layout.selLabel[c];
        double yTop = sy.at(tree.birth[c]);
        double yBot = sy.at(exp ? tree.death[c] : tree.subDeath[c]);
        if (label >= 0 && yBot - yTop < 2) yBot = yTop + 2;
        if (yBot - yTop < 0.05) return;
        int base = (int) Math.floor(yTop);
        int segs = Math.max(1, (int) Math.ceil(yBot) - base);
        rowWidths(c, exp, base, segs);
        double cx = left + (layout.x0[c] + tree.size[c] / 2.0) * layout.scale;
        int tint = layout.underSel[c];
        sb.append("<path class=\"").append(label >= 0 ? "node selected" : tint >= 0 ? "node in-selected" : "node")
                .append("\" data-node=\"").append(tree.n + c).append('"');
        if (label >= 0) sb.append(" data-label=\"").append(label).append('"');
        sb.append(' ').append(style(label, tint)).append(" d=\"");
        stepOutline(sb, segs, base, yTop, yBot, cx);
        sb.append("\"/>\n");
        if (label >= 0) labels.place(label, cx, widthPx[0], yTop, yBot);
    }

    /** Fill and stroke: the label colour for a selected cluster, its tint inside one, grey otherwise. */
    private static String style(int label, int tint) {
        if (label >= 0) {
            return "fill=\"" + Palette.colour(label) + "\" stroke=\"" + Palette.dark(label) + "\" stroke-width=\"1.6\"";
        }
        if (tint >= 0) {
            return "fill=\"" + Palette.colour(tint) + "\" fill-opacity=\"0.38\" stroke=\"" + Palette.colour(tint)
                    + "\" stroke-width=\"0.6\"";
        }
        return "fill=\"" + Palette.UNSELECTED_FILL + "\" stroke=\"" + Palette.UNSELECTED_STROKE
                + "\" stroke-width=\"0.6\"";
    }

    /**
     * {@code widthPx[i]}: the bar's width in pixel row {@code base + i}, from the points still in it
     * there: those leaving at or below that row, plus the children of an expanded cluster.
     */
    private void rowWidths(int c, boolean exp, int base, int segs) {
        Arrays.fill(hist, 0, segs, 0);
        long childTotal = 0;
        if (exp) {
            childTotal = tree.childTotal(c);
            addPoints(c, base, segs);
        } else { // the whole subtree, through an explicit stack (bounded by the cluster count)
            int top = 0;
            stack[top++] = c;
            for (int guard = 0; guard < tree.clusters && top > 0; guard++) {
                int u = stack[--top];
                addPoints(u, base, segs);
                for (int k = tree.kidStart[u]; k < tree.kidStart[u + 1]; k++) stack[top++] = tree.kids[k];
            }
        }
        long remaining = childTotal;
        for (int i = segs - 1; i >= 0; i--) {
            remaining += hist[i];
            widthPx[i] = Math.max(0.6, remaining * layout.scale);
        }
    }

    /** Counts cluster {@code u}'s own points in the pixel row where each leaves. */
    private void addPoints(int u, int base, int segs) {
        for (int i = tree.ptStart[u]; i < tree.ptStart[u + 1]; i++) {
            int s = (int) Math.floor(sy.at(tree.ptLam[i])) - base;
            hist[s < 0 ? 0 : s >= segs ? segs - 1 : s]++;
        }
    }

    /**
     * Writes the closed outline of a bar that is {@code widthPx[i]} wide in pixel row {@code base + i},
     * merging rows whose width differs by less than {@link #STEP_MERGE_PX} from the step's first row.
     */
    private void stepOutline(StringBuilder sb, int segs, int base, double yTop, double yBot, double cx) {
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
}
