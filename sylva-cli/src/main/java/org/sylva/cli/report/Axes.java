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

    /**
     * The ticks of a linear axis: the multiples of {@code step} within the scale, their labels, and the
     * axis title. Labels longer than {@link #MAX_LABEL_CHARS} characters (e.g. {@code -0.00015} or
     * {@code 1250000}) would crowd the axis title, so then a common power of ten is taken out of them
     * and named in the title ({@code "amplitude (×10⁻⁴)"}); an axis without a title gets compact
     * scientific labels instead ({@code "1.5e-4"}).
     *
     * @param values tick values, ascending
     * @param labels one label per tick
     * @param title  the axis title with the power of ten when one was taken out; null when none was given
     */
    record Ticks(double[] values, String[] labels, String title) {
        static Ticks linear(Scale s, double step, String title) {
            long first = (long) Math.ceil(Math.min(s.lo(), s.hi()) / step - 1e-9);
            long last = (long) Math.floor(Math.max(s.lo(), s.hi()) / step + 1e-9);
            int count = (int) Math.max(0, Math.min(200, last - first + 1));
            double[] v = new double[count];
            String[] l = new String[count];
            double maxAbs = 0;
            boolean tooLong = false;
            for (int i = 0; i < count; i++) {
                v[i] = (first + i) * step;
                l[i] = Fmt.tick(v[i], step);
                maxAbs = Math.max(maxAbs, Math.abs(v[i]));
                tooLong |= l[i].length() > MAX_LABEL_CHARS;
            }
            if (!tooLong || maxAbs == 0) return new Ticks(v, l, title);
            int e = (int) Math.floor(Math.log10(maxAbs) + 1e-9);
            double unit = Math.pow(10, e);
            for (int i = 0; i < count; i++) {
                l[i] = title != null ? Fmt.tick(v[i] / unit, step / unit) : Fmt.compact(v[i], 2);
            }
            if (title != null && count > 1 && (repeats(l) || longest(l) > MAX_LABEL_CHARS)) {
                Ticks shifted = withOffset(v, step, title);
                if (shifted != null) return shifted;
            }
            return new Ticks(v, l, title == null ? null : title + " (×10" + Fmt.superscript(e) + ")");
        }

        /** The length of the longest label. */
        private static int longest(String[] labels) {
            int m = 0;
            for (String s : labels) m = Math.max(m, s.length());
            return m;
        }

        /** True when two neighbouring labels read the same. */
        private static boolean repeats(String[] labels) {
            for (int i = 1; i < labels.length; i++) if (labels[i].equals(labels[i - 1])) return true;
            return false;
        }

        /**
         * Ticks a small span far from zero (longitudes, northings, clips around 10 000) apart: the labels would
         * need more digits than fit, and with a power of ten taken out they all read alike. So a round value
         * below the first tick, a multiple of the power of ten above the span, is taken out and named in the
         * title ({@code "x₀ (coordinate 0) − 4.1e6"}); the labels are the values less it. Null when that value
         * would be 0 (a span at zero needs no offset).
         */
        private static Ticks withOffset(double[] v, double step, String title) {
            double span = Math.max(v[v.length - 1] - v[0], step);
            int k = (int) Math.ceil(Math.log10(span) - 1e-9);
            double p = Math.pow(10, k);
            double offset = Math.floor(v[0] / p) * p;
            if (offset == 0) return null;
            int digits = Math.max(1, Math.min(17, (int) Math.floor(Math.log10(Math.abs(offset)) + 1e-9) - k + 1));
            // each label a whole number of steps from the offset, so that no rounding residue shows
            double first = Math.round((v[0] - offset) / step) * step;
            double[] rel = new double[v.length];
            double maxAbs = 0;
            for (int i = 0; i < v.length; i++) {
                rel[i] = first + i * step;
                maxAbs = Math.max(maxAbs, Math.abs(rel[i]));
            }
            String[] l = new String[v.length];
            boolean tooLong = false;
            for (int i = 0; i < v.length; i++) {
                l[i] = Fmt.tick(rel[i], step);
                tooLong |= l[i].length() > MAX_LABEL_CHARS;
            }
            String named = offset < 0 ? " + " + Fmt.compact(-offset, digits) : " \u2212 " + Fmt.compact(offset, digits);
            if (!tooLong || maxAbs == 0) return new Ticks(v, l, title + named);
            // still long (0.00125): a power of ten out of the differences too, (x - offset) in its units
            int e = (int) Math.floor(Math.log10(maxAbs) + 1e-9);
            double unit = Math.pow(10, e);
            for (int i = 0; i < v.length; i++) l[i] = Fmt.tick(rel[i] / unit, step / unit);
            return new Ticks(v, l, title + named + " (\u00d710" + Fmt.superscript(e) + ")");
        }
    }

    /** Longest tick label (characters) that fits between a plot's 78-pixel left margin's edge and its axis title. */
    static final int MAX_LABEL_CHARS = 6;
    /** Estimated width of one character of a 12-pixel tick label: DejaVu Sans digits are 0.64 em, the widest. */
    static final double CHAR_PX = 7.7;

    /** Estimated width in pixels of a 12-pixel tick label (generous, so that estimates never undercut). */
    static double labelWidth(String label) {
        return CHAR_PX * label.length();
    }

    /** Bottom (horizontal) axis at pixel row {@code y}: ticks, labels and optional vertical grid to {@code gridTop}. */
    static void bottom(StringBuilder sb, Scale s, double step, double y, double gridTop, String title) {
        Ticks t = Ticks.linear(s, step, title);
        sb.append("<g class=\"axis x-axis\" font-size=\"12\" text-anchor=\"middle\">");
        for (int i = 0; i < t.values().length; i++) {
            double x = s.at(t.values()[i]);
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
            Fmt.px(sb, y + 19).append("\">").append(Html.esc(t.labels()[i])).append("</text>");
        }
        sb.append("<line x1=\"");
        Fmt.px(sb, Math.min(s.p0(), s.p1())).append("\" x2=\"");
        Fmt.px(sb, Math.max(s.p0(), s.p1())).append("\" y1=\"");
        Fmt.px(sb, y).append("\" y2=\"");
        Fmt.px(sb, y).append("\" stroke=\"#56606b\"/>");
        // tick labels end about 22 px below the axis, the title's glyphs start about 27 px below it
        if (t.title() != null) {
            sb.append("<text class=\"axis-title\" x=\"");
            Fmt.px(sb, (s.p0() + s.p1()) / 2).append("\" y=\"");
            Fmt.px(sb, y + 38).append("\" font-size=\"13\">").append(Html.esc(t.title())).append("</text>");
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

    /**
     * Left (vertical) linear axis at pixel column {@code x}: ticks, labels, optional horizontal grid to
     * {@code gridRight}, and the title, placed clear of the widest label (see {@link #leftTicks}).
     */
    static void left(StringBuilder sb, Scale s, double step, double x, double gridRight, String title) {
        Ticks t = Ticks.linear(s, step, title);
        double[] ys = new double[t.values().length];
        for (int i = 0; i < ys.length; i++) ys[i] = s.at(t.values()[i]);
        leftTicks(sb, ys, t.labels(), x, Math.min(s.p0(), s.p1()), Math.max(s.p0(), s.p1()), gridRight, t.title());
    }

    /**
     * A left axis with ticks at the pixel rows {@code ys} labelled {@code labels}, the axis line from
     * {@code yTop} to {@code yBottom}, and the title rotated to run upwards. The title's baseline is
     * placed left of the widest label's estimated extent with a gap, so that the two never overlap (a
     * 13-pixel title's glyphs reach about 12 pixels left of its baseline and 3 to the right of it); it
     * never goes closer than 13 pixels to the left edge, so callers keep labels within
     * {@link #MAX_LABEL_CHARS} for a 78-pixel margin or widen the margin (see {@link #marginFor}).
     */
    static void leftTicks(StringBuilder sb, double[] ys, String[] labels, double x, double yTop, double yBottom,
                          double gridRight, String title) {
        sb.append("<g class=\"axis y-axis\" font-size=\"12\" text-anchor=\"end\">");
        double widest = 0;
        for (int i = 0; i < ys.length; i++) {
            double y = ys[i];
            widest = Math.max(widest, labelWidth(labels[i]));
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
            Fmt.px(sb, y + 4).append("\">").append(Html.esc(labels[i])).append("</text>");
        }
        sb.append("<line x1=\"");
        Fmt.px(sb, x).append("\" x2=\"");
        Fmt.px(sb, x).append("\" y1=\"");
        Fmt.px(sb, yTop).append("\" y2=\"");
        Fmt.px(sb, yBottom).append("\" stroke=\"#56606b\"/>");
        if (title != null) {
            double titleX = Math.max(TITLE_MIN_X, x - 8 - widest - TITLE_GAP - 3);
            sb.append("<text class=\"axis-title\" text-anchor=\"middle\" font-size=\"13\" transform=\"translate(");
            Fmt.px(sb, titleX).append(' ');
            Fmt.px(sb, (yTop + yBottom) / 2).append(") rotate(-90)\">").append(Html.esc(title)).append("</text>");
        }
        sb.append("</g>\n");
    }

    /** Pixels between the widest tick label and the left axis title. */
    private static final double TITLE_GAP = 5;
    /** Smallest x of the left axis title's baseline: its glyphs reach about 12 pixels to the left of it. */
    private static final double TITLE_MIN_X = 13;

    /** The left margin a left axis with these labels and a title needs (at least 78 pixels). */
    static double marginFor(String[] labels) {
        double widest = 0;
        for (String l : labels) widest = Math.max(widest, labelWidth(l));
        return Math.max(78, Math.ceil(TITLE_MIN_X + 3 + TITLE_GAP + widest + 8));
    }
}
