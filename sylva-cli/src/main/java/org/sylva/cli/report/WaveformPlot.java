package org.sylva.cli.report;

import java.util.List;

/**
 * Small multiples of waveform clips: for each cluster, the mean across its rows (a line) and the band
 * mean +- one standard deviation, sample by sample, on a vertical scale shared by all panels so that
 * amplitudes compare at a glance (what a spike sorter looks at first).
 */
final class WaveformPlot {
    static final int WIDTH = 1140;
    private static final int COLUMNS = 4;
    private static final double LEFT = 66, RIGHT = 14, TOP = 24, GAP_X = 16, GAP_Y = 44, PANEL_H = 150;
    private static final double PANEL_W = (WIDTH - LEFT - RIGHT - (COLUMNS - 1) * GAP_X) / COLUMNS;

    /**
     * One panel's data.
     *
     * @param title  panel heading
     * @param colour band and line colour
     * @param mean   mean per sample
     * @param sd     standard deviation per sample
     */
    record Panel(String title, String colour, double[] mean, double[] sd) {
    }

    private WaveformPlot() {
    }

    static void render(StringBuilder sb, String id, List<Panel> panels, int d) {
        int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
        int height = (int) Math.ceil(TOP + rows * (PANEL_H + GAP_Y) + 16);
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (Panel p : panels) {
            for (int j = 0; j < d; j++) {
                lo = Math.min(lo, p.mean()[j] - p.sd()[j]);
                hi = Math.max(hi, p.mean()[j] + p.sd()[j]);
            }
        }
        double[] yr = Axes.niceRange(lo, hi, 4);
        double ystep = yr[2];
        double xstep = Axes.niceStep(Math.max(1, d - 1), 4);
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"").append(id)
                .append("\" role=\"img\" aria-label=\"mean and standard deviation of each cluster's waveforms\" width=\"")
                .append(WIDTH).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\">\n");
        for (int i = 0; i < panels.size(); i++) {
            Panel p = panels.get(i);
            int col = i % COLUMNS, row = i / COLUMNS;
            double px0 = LEFT + col * (PANEL_W + GAP_X), py0 = TOP + row * (PANEL_H + GAP_Y);
            Axes.Scale sx = new Axes.Scale(0, Math.max(1, d - 1), px0, px0 + PANEL_W);
            Axes.Scale sy = new Axes.Scale(yr[0], yr[1], py0 + PANEL_H, py0);
            sb.append("<g class=\"waveform-panel\">\n<text x=\"");
            Fmt.px(sb, px0).append("\" y=\"");
            Fmt.px(sb, py0 - 7).append("\" font-size=\"13\" font-weight=\"600\">").append(Html.esc(p.title()))
                    .append("</text>\n<rect x=\"");
            Fmt.px(sb, px0).append("\" y=\"");
            Fmt.px(sb, py0).append("\" width=\"");
            Fmt.px(sb, PANEL_W).append("\" height=\"");
            Fmt.px(sb, PANEL_H).append("\" fill=\"#fff\" stroke=\"#c4cbd3\"/>\n");
            Axes.bottom(sb, sx, xstep, py0 + PANEL_H, py0, i + COLUMNS >= panels.size() ? "sample" : null);
            if (col == 0) {
                Axes.left(sb, sy, ystep, px0, px0 + PANEL_W, "amplitude", px0 - 50);
            } else { // shared scale: grid lines only, the labels are on the first panel of the row
                Axes.grid(sb, sy, ystep, px0, px0 + PANEL_W);
            }
            if (yr[0] < 0 && yr[1] > 0) {
                sb.append("<line x1=\"");
                Fmt.px(sb, px0).append("\" x2=\"");
                Fmt.px(sb, px0 + PANEL_W).append("\" y1=\"");
                Fmt.px(sb, sy.at(0)).append("\" y2=\"");
                Fmt.px(sb, sy.at(0)).append("\" stroke=\"#8c98a6\" stroke-dasharray=\"3 3\"/>\n");
            }
            sb.append("<path class=\"sd-band\" fill=\"").append(p.colour()).append("\" fill-opacity=\"0.28\" d=\"M");
            for (int j = 0; j < d; j++) {
                if (j > 0) sb.append('L');
                Fmt.px(sb, sx.at(j)).append(' ');
                Fmt.px(sb, sy.at(p.mean()[j] + p.sd()[j]));
            }
            for (int j = d - 1; j >= 0; j--) {
                sb.append('L');
                Fmt.px(sb, sx.at(j)).append(' ');
                Fmt.px(sb, sy.at(p.mean()[j] - p.sd()[j]));
            }
            sb.append("Z\"/>\n<path class=\"mean-line\" fill=\"none\" stroke=\"").append(p.colour())
                    .append("\" stroke-width=\"2\" stroke-linejoin=\"round\" d=\"M");
            for (int j = 0; j < d; j++) {
                if (j > 0) sb.append('L');
                Fmt.px(sb, sx.at(j)).append(' ');
                Fmt.px(sb, sy.at(p.mean()[j]));
            }
            sb.append("\"/>\n</g>\n");
        }
        sb.append("</svg>\n");
    }
}
