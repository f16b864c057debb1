package org.sylva.cli.report;

import java.util.Arrays;
import java.util.List;

/**
 * A 2-D scatter plot as inline SVG, one {@code <path>} per series: every point is a zero-length
 * subpath with a round cap, so 5 000 points cost one element per colour, not one per point. Optional
 * outline circles (the balls of a ball tree), a label at each series' median, and a legend.
 */
final class ScatterPlot {
    static final int WIDTH = 1140;
    static final int HEIGHT = 620;
    private static final double LEFT = 78, TOP = 16, BOTTOM = 58, LEGEND_W = 230;

    /**
     * One colour's worth of points, in data coordinates.
     *
     * @param name    legend text
     * @param cssClass class of the path ("cluster", "noise", "ball")
     * @param colour  fill colour
     * @param radius  dot radius in pixels
     * @param opacity dot opacity
     * @param x       x coordinates
     * @param y       y coordinates
     * @param tag     short text drawn at the series' median, or null
     */
    record Series(String name, String cssClass, String colour, double radius, double opacity, double[] x, double[] y,
                  String tag) {
    }

    /** An outline circle in data coordinates. */
    record Circle(double cx, double cy, double r, String colour) {
    }

    private ScatterPlot() {
    }

    /**
     * Renders the plot.
     *
     * @param id          id of the svg element
     * @param drawOrder   indices into {@code series}, back to front (the legend keeps list order)
     * @param equalAspect one data unit is the same length on both axes (geometry matters)
     * @param legendMax   most legend entries before "and k more"
     */
    static void render(StringBuilder sb, String id, String ariaLabel, List<Series> series, List<Circle> circles,
                       int[] drawOrder, String xTitle, String yTitle, boolean equalAspect, String legendTitle,
                       int legendMax) {
        boolean legend = legendTitle != null;
        double right = legend ? LEGEND_W : 24;
        double pw = WIDTH - LEFT - right, ph = HEIGHT - TOP - BOTTOM;
        double xmin = Double.POSITIVE_INFINITY, xmax = Double.NEGATIVE_INFINITY;
        double ymin = Double.POSITIVE_INFINITY, ymax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                xmin = Math.min(xmin, s.x()[i]);
                xmax = Math.max(xmax, s.x()[i]);
                ymin = Math.min(ymin, s.y()[i]);
                ymax = Math.max(ymax, s.y()[i]);
            }
        }
        for (Circle c : circles) {
            xmin = Math.min(xmin, c.cx() - c.r());
            xmax = Math.max(xmax, c.cx() + c.r());
            ymin = Math.min(ymin, c.cy() - c.r());
            ymax = Math.max(ymax, c.cy() + c.r());
        }
        if (!(xmax >= xmin)) {
            xmin = -1;
            xmax = 1;
            ymin = -1;
            ymax = 1;
        }
        double[] xr = pad(xmin, xmax), yr = pad(ymin, ymax);
        if (equalAspect) {
            double u = Math.max((xr[1] - xr[0]) / pw, (yr[1] - yr[0]) / ph);
            double cx = (xr[0] + xr[1]) / 2, cy = (yr[0] + yr[1]) / 2;
            xr = new double[] {cx - u * pw / 2, cx + u * pw / 2};
            yr = new double[] {cy - u * ph / 2, cy + u * ph / 2};
        }
        Axes.Scale sx = new Axes.Scale(xr[0], xr[1], LEFT, LEFT + pw);
        Axes.Scale sy = new Axes.Scale(yr[0], yr[1], TOP + ph, TOP);
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"").append(id)
                .append("\" role=\"img\" aria-label=\"").append(Html.esc(ariaLabel))
                .append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT).append("\">\n");
        sb.append("<defs><clipPath id=\"").append(id).append("-clip\"><rect x=\"");
        Fmt.px(sb, LEFT).append("\" y=\"");
        Fmt.px(sb, TOP).append("\" width=\"");
        Fmt.px(sb, pw).append("\" height=\"");
        Fmt.px(sb, ph).append("\"/></clipPath></defs>\n");
        sb.append("<rect x=\"");
        Fmt.px(sb, LEFT).append("\" y=\"");
        Fmt.px(sb, TOP).append("\" width=\"");
        Fmt.px(sb, pw).append("\" height=\"");
        Fmt.px(sb, ph).append("\" fill=\"#fff\" stroke=\"#c4cbd3\"/>\n");
        Axes.bottom(sb, sx, Axes.niceStep(xr[1] - xr[0], 8), TOP + ph, TOP, xTitle);
        Axes.left(sb, sy, Axes.niceStep(yr[1] - yr[0], 6), LEFT, LEFT + pw, yTitle);
        sb.append("<g clip-path=\"url(#").append(id).append("-clip)\">\n");
        for (Circle c : circles) {
            double r = Math.max(1.5, Math.abs(sx.at(c.cx() + c.r()) - sx.at(c.cx())));
            sb.append("<circle class=\"ball-outline\" cx=\"");
            Fmt.px(sb, sx.at(c.cx())).append("\" cy=\"");
            Fmt.px(sb, sy.at(c.cy())).append("\" r=\"");
            Fmt.px(sb, r).append("\" fill=\"none\" stroke=\"").append(c.colour())
                    .append("\" stroke-width=\"1.2\" stroke-opacity=\"0.8\" stroke-dasharray=\"4 3\"/>\n");
        }
        for (int which : drawOrder) {
            Series s = series.get(which);
            if (s.x().length == 0) continue;
            sb.append("<path class=\"").append(s.cssClass()).append("\" data-name=\"").append(Html.esc(s.name()))
                    .append("\" stroke=\"").append(s.colour()).append("\" stroke-opacity=\"")
                    .append(Fmt.fixed(s.opacity(), 2)).append("\" stroke-width=\"");
            Fmt.px(sb, 2 * s.radius()).append("\" stroke-linecap=\"round\" fill=\"none\" d=\"");
            for (int i = 0; i < s.x().length; i++) {
                sb.append('M');
                Fmt.px(sb, sx.at(s.x()[i])).append(' ');
                Fmt.px(sb, sy.at(s.y()[i])).append("h0");
            }
            sb.append("\"/>\n");
        }
        for (Series s : series) {
            if (s.tag() == null || s.x().length == 0) continue;
            double mx = median(s.x()), my = median(s.y());
            sb.append("<text class=\"series-tag\" x=\"");
            Fmt.px(sb, sx.at(mx)).append("\" y=\"");
            Fmt.px(sb, sy.at(my) + 5).append("\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"700\"")
                    .append(" stroke=\"#fff\" stroke-width=\"3.5\" paint-order=\"stroke\" style=\"fill:#111\">")
                    .append(Html.esc(s.tag())).append("</text>\n");
        }
        sb.append("</g>\n");
        if (legend) legend(sb, series, LEFT + pw + 22, TOP + 4, legendTitle, legendMax);
        sb.append("</svg>\n");
    }

    private static void legend(StringBuilder sb, List<Series> series, double x, double y, String title, int max) {
        sb.append("<g class=\"legend\" font-size=\"13\">");
        sb.append("<text x=\"");
        Fmt.px(sb, x).append("\" y=\"");
        Fmt.px(sb, y + 10).append("\" font-weight=\"600\">").append(Html.esc(title)).append("</text>");
        int shown = series.size() <= max ? series.size() : max - 1;
        for (int i = 0; i < shown; i++) {
            Series s = series.get(i);
            double yy = y + 32 + 20 * i;
            sb.append("<circle cx=\"");
            Fmt.px(sb, x + 6).append("\" cy=\"");
            Fmt.px(sb, yy - 4).append("\" r=\"5.5\" fill=\"").append(s.colour()).append("\"/><text x=\"");
            Fmt.px(sb, x + 18).append("\" y=\"");
            Fmt.px(sb, yy).append("\">").append(Html.esc(s.name())).append("</text>");
        }
        if (shown < series.size()) {
            sb.append("<text x=\"");
            Fmt.px(sb, x).append("\" y=\"");
            Fmt.px(sb, y + 32 + 20 * shown).append("\" class=\"note\">\u2026 and ").append(series.size() - shown)
                    .append(" more</text>");
        }
        sb.append("</g>\n");
    }

    private static double[] pad(double lo, double hi) {
        double span = hi - lo;
        if (!(span > 0)) {
            double p = lo == 0 ? 1 : Math.abs(lo) * 0.05;
            return new double[] {lo - p, hi + p};
        }
        return new double[] {lo - 0.03 * span, hi + 0.03 * span};
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }
}
