package org.sylva.cli.report;

/**
 * Linear axes for the SVG plots: "nice" 1-2-5 tick steps, a data-to-pixel mapping and the drawing of
 * ticks, tick labels, grid lines and axis titles.
 */
final class Axes {
    private Axes() {
    }

    /** A linear map from data {@code [lo, hi]} to pixels {@code [p0, p1]} (p1 may be below p0). */
    record Scale(double lo, double hi, double p0, double p1) {
        double at(double v) {
            return hi == lo ? (p0 + p1) / 2 : p0 + (v - lo) * (p1 - p0) / (hi - lo);
        }
    }

    /** A tick step from {1, 2, 5} x 10^k giving about {@code target} intervals over {@code span}. */
    static double niceStep(double span, int target) {
        if (!(span > 0) || !Double.isFinite(span)) return 1;
        double raw = span / Math.max(1, target);
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double r = raw / mag;
        double f = r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10;
        return f * mag;
    }

    /** {@code [lo, hi]} widened outward to whole tick steps; a zero span is widened by one unit. */
    static double[] niceRange(double lo, double hi, int target) {
        if (!(hi > lo)) {
            double c = Double.isFinite(lo) ? lo : 0;
            double pad = c == 0 ? 1 : Math.abs(c) * 0.1;
            lo = c - pad;
            hi = c + pad;
        }
        double step = niceStep(hi - lo, target);
        return new double[] {Math.floor(lo / step) * step, Math.ceil(hi / step) * step, step};
    }

    /** Bottom (horizontal) axis at pixel row {@code y}: ticks, labels and optional vertical grid to {@code gridTop}. */
    static void bottom(StringBuilder sb, Scale s, double step, double y, double gridTop, String title) {
        sb.append("<g class=\"axis x-axis\" font-size=\"12\" text-anchor=\"middle\">");
        long first = (long) Math.ceil(Math.min(s.lo(), s.hi()) / step - 1e-9);
        long last = (long) Math.floor(Math.max(s.lo(), s.hi()) / step + 1e-9);
        for (long i = first; i <= last && i - first < 200; i++) {
            double v = i * step;
            double x = s.at(v);
            if (!Double.isNaN(gridTop)) {
                sb.append("<line x1=\"");
                Fmt.px(sb, x).append("\" x2=\"");
                Fmt.px(sb, x).append("\" y1=\"");
                Fmt.px(sb, gridTop).append("\" y2=\"");
                Fmt.px(sb, y).append("\" stroke=\"#e3e7ec\"/>");
            }
            sb.append("<line x1=\"");
            Fmt.px(sb, x).append("\" x2=\"");
            Fmt.px(sb, x).append("\" y1=\"");
            Fmt.px(sb, y).append("\" y2=\"");
            Fmt.px(sb, y + 5).append("\" stroke=\"#56606b\"/><text x=\"");
            Fmt.px(sb, x).append("\" y=\"");
            Fmt.px(sb, y + 19).append("\">").append(Fmt.tick(v, step)).append("</text>");
        }
        sb.append("<line x1=\"");
        Fmt.px(sb, Math.min(s.p0(), s.p1())).append("\" x2=\"");
        Fmt.px(sb, Math.max(s.p0(), s.p1())).append("\" y1=\"");
        Fmt.px(sb, y).append("\" y2=\"");
        Fmt.px(sb, y).append("\" stroke=\"#56606b\"/>");
        if (title != null) {
            sb.append("<text class=\"axis-title\" x=\"");
            Fmt.px(sb, (s.p0() + s.p1()) / 2).append("\" y=\"");
            Fmt.px(sb, y + 38).append("\" font-size=\"13\">").append(Html.esc(title)).append("</text>");
        }
        sb.append("</g>\n");
    }

    /** Horizontal grid lines at the ticks of {@code s}, from {@code x0} to {@code x1}, without labels. */
    static void grid(StringBuilder sb, Scale s, double step, double x0, double x1) {
        sb.append("<g class=\"grid\">");
        long first = (long) Math.ceil(Math.min(s.lo(), s.hi()) / step - 1e-9);
        long last = (long) Math.floor(Math.max(s.lo(), s.hi()) / step + 1e-9);
        for (long i = first; i <= last && i - first < 200; i++) {
            double y = s.at(i * step);
            sb.append("<line x1=\"");
            Fmt.px(sb, x0).append("\" x2=\"");
            Fmt.px(sb, x1).append("\" y1=\"");
            Fmt.px(sb, y).append("\" y2=\"");
            Fmt.px(sb, y).append("\" stroke=\"#e3e7ec\"/>");
        }
        sb.append("</g>\n");
    }

    /** Left (vertical) axis at pixel column {@code x}: ticks, labels, optional horizontal grid to {@code gridRight}. */
    static void left(StringBuilder sb, Scale s, double step, double x, double gridRight, String title, double titleX) {
        sb.append("<g class=\"axis y-axis\" font-size=\"12\" text-anchor=\"end\">");
        long first = (long) Math.ceil(Math.min(s.lo(), s.hi()) / step - 1e-9);
        long last = (long) Math.floor(Math.max(s.lo(), s.hi()) / step + 1e-9);
        for (long i = first; i <= last && i - first < 200; i++) {
            double v = i * step;
            double y = s.at(v);
            if (!Double.isNaN(gridRight)) {
                sb.append("<line x1=\"");
                Fmt.px(sb, x).append("\" x2=\"");
                Fmt.px(sb, gridRight).append("\" y1=\"");
                Fmt.px(sb, y).append("\" y2=\"");
                Fmt.px(sb, y).append("\" stroke=\"#e3e7ec\"/>");
            }
            sb.append("<line x1=\"");
            Fmt.px(sb, x - 5).append("\" x2=\"");
            Fmt.px(sb, x).append("\" y1=\"");
            Fmt.px(sb, y).append("\" y2=\"");
            Fmt.px(sb, y).append("\" stroke=\"#56606b\"/><text x=\"");
            Fmt.px(sb, x - 8).append("\" y=\"");
            Fmt.px(sb, y + 4).append("\">").append(Fmt.tick(v, step)).append("</text>");
        }
        sb.append("<line x1=\"");
        Fmt.px(sb, x).append("\" x2=\"");
        Fmt.px(sb, x).append("\" y1=\"");
        Fmt.px(sb, Math.min(s.p0(), s.p1())).append("\" y2=\"");
        Fmt.px(sb, Math.max(s.p0(), s.p1())).append("\" stroke=\"#56606b\"/>");
        if (title != null) {
            double cy = (s.p0() + s.p1()) / 2;
            sb.append("<text class=\"axis-title\" text-anchor=\"middle\" font-size=\"13\" transform=\"translate(");
            Fmt.px(sb, titleX).append(' ');
            Fmt.px(sb, cy).append(") rotate(-90)\">").append(Html.esc(title)).append("</text>");
        }
        sb.append("</g>\n");
    }
}
