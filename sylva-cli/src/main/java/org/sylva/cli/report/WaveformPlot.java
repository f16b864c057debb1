package org.sylva.cli.report;

import java.util.List;

/**
 * Small multiples of waveform clips: for each cluster, the mean across its clips (a line) and the band
 * mean +- one standard deviation, sample by sample. A single-channel clip is one panel, four to a row;
 * a multi-channel clip is a group of small panels side by side, one per channel, up to
 * {@link #MAX_PER_LINE} to a line (more channels wrap onto further, equally long lines), with several
 * groups to a row when they fit. Every panel, every channel and every cluster, shares one vertical
 * scale so that amplitudes compare at a glance (what a spike sorter looks at first). The caller may
 * draw only some channels and samples of very wide clips ({@link WaveformSection} picks them); the x
 * axis still spans every sample.
 */
final class WaveformPlot {
    static final int WIDTH = 1140;
    /** Most channel panels on one line of a cluster's group. */
    static final int MAX_PER_LINE = 12;
    private static final double LEFT = 78, RIGHT = 14, TOP = 24, GAP_X = 16, GAP_Y = 44, PANEL_H = 150;
    /** Between the channel panels of a group: room for the last tick label of one and the first of the next. */
    private static final double CHANNEL_GAP = 20;
    /** Between the lines of one group: room for the tick labels. */
    private static final double LINE_GAP = 28;
    private static final double PLOT_W = WIDTH - LEFT - RIGHT;
    /** Channel panels that fit side by side at a readable width (about 120 pixels). */
    private static final int SLOTS_PER_ROW = 8;

    /**
     * One cluster's data, channel-major: value {@code c * samples + s} is channel {@code c} at sample {@code s}.
     *
     * @param title  panel heading
     * @param colour band and line colour
     * @param mean   mean per channel and sample
     * @param sd     standard deviation per channel and sample
     */
    record Panel(String title, String colour, double[] mean, double[] sd) {
    }

    /** Where the panels go: groups per row, channel panels per line, lines per group, and their sizes. */
    private record Grid(int groupsPerRow, int perLine, int lines, double groupW, double panelW) {
        static Grid of(int channels) {
            if (channels == 1) return new Grid(4, 1, 1, (PLOT_W - 3 * GAP_X) / 4, (PLOT_W - 3 * GAP_X) / 4);
            int groups = Math.max(1, SLOTS_PER_ROW / channels);
            int lines = (channels + MAX_PER_LINE - 1) / MAX_PER_LINE;
            int perLine = (channels + lines - 1) / lines; // balanced: 16 channels are two lines of 8
            double groupW = (PLOT_W - (groups - 1) * GAP_X) / groups;
            return new Grid(groups, perLine, lines, groupW,
                    (groupW - (perLine - 1) * CHANNEL_GAP) / perLine);
        }

        double groupH() {
            return lines * PANEL_H + (lines - 1) * LINE_GAP;
        }
    }

    private WaveformPlot() {
    }

    /**
     * Writes the panels of clips of {@code samples} samples per channel, drawing the channels
     * {@code channelIds} (a panel each, named by its id) at the samples {@code sampleIds} (increasing; the
     * x axis still runs over all {@code samples}). Panels hold one value per drawn channel and sample,
     * channel-major.
     */
    static void render(StringBuilder sb, String id, List<Panel> panels, int[] channelIds, int[] sampleIds, int samples) {
        int channels = channelIds.length;
        Grid g = Grid.of(channels);
        int rows = (panels.size() + g.groupsPerRow() - 1) / g.groupsPerRow();
        int height = (int) Math.ceil(TOP + rows * (g.groupH() + GAP_Y) + 16);
        int values = channels * sampleIds.length;
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (Panel p : panels) {
            for (int j = 0; j < values; j++) {
                lo = Math.min(lo, p.mean()[j] - p.sd()[j]);
                hi = Math.max(hi, p.mean()[j] + p.sd()[j]);
            }
        }
        double[] yr = Axes.niceRange(lo, hi, 4);
        // about one x tick per 55 pixels, so that neighbouring labels never touch
        double xstep = Axes.niceStep(Math.max(1, samples - 1), Math.max(1, Math.min(4, (int) (g.panelW() / 55))));
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"").append(id)
                .append("\" role=\"img\" aria-label=\"mean and standard deviation of each cluster's waveforms\" width=\"")
                .append(WIDTH).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(height).append("\">\n");
        for (int i = 0; i < panels.size(); i++) {
            Panel p = panels.get(i);
            int col = i % g.groupsPerRow(), row = i / g.groupsPerRow();
            double gx = LEFT + col * (g.groupW() + GAP_X), gy = TOP + row * (g.groupH() + GAP_Y);
            boolean lastRow = i + g.groupsPerRow() >= panels.size();
            sb.append("<g class=\"waveform-panel\">\n<text x=\"");
            Fmt.px(sb, gx).append("\" y=\"");
            Fmt.px(sb, gy - 7).append("\" font-size=\"13\" font-weight=\"600\">").append(Html.esc(p.title()))
                    .append("</text>\n");
            for (int c = 0; c < channels; c++) {
                int line = c / g.perLine(), at = c % g.perLine();
                double px0 = gx + at * (g.panelW() + CHANNEL_GAP), py0 = gy + line * (PANEL_H + LINE_GAP);
                boolean labelled = col == 0 && at == 0;
                String xTitle = lastRow && at == 0 && line == g.lines() - 1 ? "sample" : null;
                channel(sb, p, c, channelIds[c], sampleIds, samples, channels > 1, px0, py0, g.panelW(), yr, xstep,
                        labelled, xTitle);
            }
            sb.append("</g>\n");
        }
        sb.append("</svg>\n");
    }

    /** One channel's panel (drawn channel {@code c}, channel {@code channelId}): frame, axes, zero line, band, mean. */
    private static void channel(StringBuilder sb, Panel p, int c, int channelId, int[] sampleIds, int samples,
                                boolean named, double px0, double py0, double w, double[] yr, double xstep,
                                boolean yLabels, String xTitle) {
        Axes.Scale sx = new Axes.Scale(0, Math.max(1, samples - 1), px0, px0 + w);
        Axes.Scale sy = new Axes.Scale(yr[0], yr[1], py0 + PANEL_H, py0);
        sb.append("<rect class=\"channel-panel\" x=\"");
        Fmt.px(sb, px0).append("\" y=\"");
        Fmt.px(sb, py0).append("\" width=\"");
        Fmt.px(sb, w).append("\" height=\"");
        Fmt.px(sb, PANEL_H).append("\" fill=\"#fff\" stroke=\"#c4cbd3\"/>\n");
        Axes.bottom(sb, sx, xstep, py0 + PANEL_H, py0, xTitle);
        if (yLabels) {
            Axes.left(sb, sy, yr[2], px0, px0 + w, "amplitude");
        } else { // shared scale: grid lines only, the labels are on the first panel of the row
            Axes.grid(sb, sy, yr[2], px0, px0 + w);
        }
        if (yr[0] < 0 && yr[1] > 0) {
            sb.append("<line x1=\"");
            Fmt.px(sb, px0).append("\" x2=\"");
            Fmt.px(sb, px0 + w).append("\" y1=\"");
            Fmt.px(sb, sy.at(0)).append("\" y2=\"");
            Fmt.px(sb, sy.at(0)).append("\" stroke=\"#8c98a6\" stroke-dasharray=\"3 3\"/>\n");
        }
        int drawn = sampleIds.length;
        int off = c * drawn;
        sb.append("<path class=\"sd-band\" fill=\"").append(p.colour()).append("\" fill-opacity=\"0.28\" d=\"M");
        for (int j = 0; j < drawn; j++) {
            if (j > 0) sb.append('L');
            Fmt.px(sb, sx.at(sampleIds[j])).append(' ');
            Fmt.px(sb, sy.at(p.mean()[off + j] + p.sd()[off + j]));
        }
        for (int j = drawn - 1; j >= 0; j--) {
            sb.append('L');
            Fmt.px(sb, sx.at(sampleIds[j])).append(' ');
            Fmt.px(sb, sy.at(p.mean()[off + j] - p.sd()[off + j]));
        }
        sb.append("Z\"/>\n<path class=\"mean-line\" fill=\"none\" stroke=\"").append(p.colour())
                .append("\" stroke-width=\"2\" stroke-linejoin=\"round\" d=\"M");
        for (int j = 0; j < drawn; j++) {
            if (j > 0) sb.append('L');
            Fmt.px(sb, sx.at(sampleIds[j])).append(' ');
            Fmt.px(sb, sy.at(p.mean()[off + j]));
        }
        sb.append("\"/>\n");
        if (named) { // drawn last, over the band, in the panel's top right corner
            sb.append("<text class=\"channel-label\" x=\"");
            Fmt.px(sb, px0 + w - 5).append("\" y=\"");
            Fmt.px(sb, py0 + 13).append("\" font-size=\"11\" text-anchor=\"end\" style=\"fill:#5b6673\">ch ")
                    .append(channelId).append("</text>\n");
        }
    }
}
