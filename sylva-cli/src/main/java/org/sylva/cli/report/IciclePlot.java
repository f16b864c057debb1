package org.sylva.cli.report;

import java.util.List;

/**
 * The condensed tree as an icicle plot, after the Python hdbscan package's
 * {@code condensed_tree_.plot(select_clusters=True)}: lambda runs down the page (on the
 * {@link LambdaScale}, log or rank, not linear from 0), each cluster is a
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
 *
 * <p>The parts: {@link IcicleTree} turns the rows into per-cluster tables, {@link IcicleLayout}
 * chooses the clusters drawn and places them, {@link IcicleNodes} draws the bars and
 * {@link IcicleLabels} the label numbers; this class draws the frame, the axes, the +inf band, the
 * scale bar and the legend around them.
 */
final class IciclePlot {
    static final int WIDTH = 1140;
    static final int HEIGHT = 600;
    /** Most cluster shapes drawn. */
    static final int MAX_SHAPES = 1500;
    /** A cluster narrower than this (pixels) is drawn as one aggregate shape. */
    static final double MIN_EXPAND_PX = 3.0;
    private static final double RIGHT = 24, TOP = 16, BOTTOM = 74;
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
     * @param scale          the lambda axis (null for an empty tree)
     */
    record Summary(int clusters, int shapes, int aggregated, int infiniteRows, double lambdaMax, int hiddenSelected,
                   LambdaScale scale) {
    }

    private IciclePlot() {
    }

    /**
     * Writes the plot as an {@code <svg>} element with id {@code id}; {@code selectedIds} are the node ids
     * of the selected clusters in label order.
     */
    static Summary render(StringBuilder sb, String id, CondensedTreeData t, long[] selectedIds) {
        openSvg(sb, id);
        if (t.rows() == 0) {
            sb.append("<text x=\"").append(WIDTH / 2).append("\" y=\"").append(HEIGHT / 2)
                    .append("\" text-anchor=\"middle\" font-size=\"16\" class=\"empty\">The condensed tree is empty:"
                            + " no cluster was found, every point is noise.</text>\n</svg>\n");
            return new Summary(0, 0, 0, 0, 0, 0, null);
        }
        IcicleTree.Lambdas lambdas = IcicleTree.Lambdas.of(t.lambda());
        int infRows = lambdas.infiniteRows();
        // the tree is drawn on the scale's positions (0 top .. 1 the largest finite lambda), a monotone map,
        // so the bars' order, widths and nesting are those of the lambdas
        LambdaScale scale = LambdaScale.choose(t, selectedIds);
        CondensedTreeData onScale = new CondensedTreeData(t.n(), t.parent(), t.child(), scale.positions(t.lambda()),
                t.childSize());
        List<LambdaScale.Tick> ticks = scale.ticks();
        String[] tickLabels = new String[ticks.size()];
        for (int i = 0; i < tickLabels.length; i++) tickLabels[i] = ticks.get(i).label();
        double left = Axes.marginFor(tickLabels); // wider than usual only for labels such as 1.25e-5
        double pw = WIDTH - left - RIGHT, ph = HEIGHT - TOP - BOTTOM;
        // lambda = +inf is drawn in a band below the largest finite lambda: on the drawing scale it sits at
        // posInf, the value the finite axis would reach at the bottom of the band
        double phFinite = infRows > 0 ? ph - INF_BAND : ph;
        double posInf = ph / phFinite;
        IcicleTree tree = new IcicleTree(onScale, posInf);
        IcicleLayout layout = new IcicleLayout(tree, selectedIds, pw);

        frame(sb, left, pw, ph, phFinite, infRows > 0);
        double[] ys = new double[ticks.size()];
        for (int i = 0; i < ys.length; i++) ys[i] = TOP + ticks.get(i).position() * phFinite;
        Axes.leftTicks(sb, ys, tickLabels, left, TOP, TOP + phFinite, left + pw, scale.title());
        IcicleLabels labels = new IcicleLabels(TOP + ph);
        Axes.Scale sy = new Axes.Scale(0, posInf, TOP, TOP + ph);
        int aggregated = new IcicleNodes(tree, layout, sy, left, ph).draw(sb, id, labels);
        labels.appendTo(sb);
        if (infRows > 0) infiniteMarker(sb, left, pw, ph, phFinite, infRows);
        scaleBar(sb, tree.size[0], layout.scale, left, TOP + ph + 26);
        legend(sb, left, TOP + ph + 50);
        sb.append("</svg>\n");
        return new Summary(tree.clusters, layout.shapes, aggregated, infRows, lambdas.max(), layout.hiddenSelected,
                scale);
    }

    private static void openSvg(StringBuilder sb, String id) {
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"").append(id)
                .append("\" role=\"img\" aria-label=\"condensed tree icicle plot\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\">\n");
    }

    /** The plot area, with the shaded band of lambda = +inf below {@code phFinite} when there is one. */
    private static void frame(StringBuilder sb, double left, double pw, double ph, double phFinite, boolean infinite) {
        sb.append("<rect x=\"");
        Fmt.px(sb, left).append("\" y=\"");
        Fmt.px(sb, TOP).append("\" width=\"");
        Fmt.px(sb, pw).append("\" height=\"");
        Fmt.px(sb, ph).append("\" fill=\"#fff\" stroke=\"#c4cbd3\"/>\n");
        if (infinite) {
            sb.append("<rect class=\"infinite-band\" x=\"");
            Fmt.px(sb, left).append("\" y=\"");
            Fmt.px(sb, TOP + phFinite).append("\" width=\"");
            Fmt.px(sb, pw).append("\" height=\"");
            Fmt.px(sb, INF_BAND).append("\" fill=\"#F6EDED\"/>\n");
        }
    }

    /** The dashed line at the largest finite lambda, the infinity sign and the note under the plot. */
    private static void infiniteMarker(StringBuilder sb, double left, double pw, double ph, double phFinite,
                                       int infRows) {
        sb.append("<g class=\"infinite-lambda\" font-size=\"12\" style=\"fill:#B0413E\"><line x1=\"");
        Fmt.px(sb, left).append("\" x2=\"");
        Fmt.px(sb, left + pw).append("\" y1=\"");
        Fmt.px(sb, TOP + phFinite).append("\" y2=\"");
        Fmt.px(sb, TOP + phFinite).append("\" stroke=\"#B0413E\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>")
                .append("<text x=\"");
        Fmt.px(sb, left - 8).append("\" y=\"");
        Fmt.px(sb, TOP + ph - 4).append("\" text-anchor=\"end\" font-size=\"16\">\u221e</text><text x=\"");
        Fmt.px(sb, left + pw).append("\" y=\"");
        Fmt.px(sb, TOP + ph + 30).append("\" text-anchor=\"end\">shaded band: \u03bb = \u221e (")
                .append(Fmt.count(infRows)).append(" rows, exact duplicates), below the largest finite \u03bb")
                .append(" (dashed)</text></g>\n");
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
