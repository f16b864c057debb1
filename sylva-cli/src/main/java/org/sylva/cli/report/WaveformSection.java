package org.sylva.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The report's "Waveforms by cluster" section: for every cluster (and the noise) the mean clip and the
 * mean +- one standard deviation of the {@link Waveforms} of its points, channel by channel, drawn by
 * {@link WaveformPlot}. To stay light, at most {@link HtmlReport#MAX_WAVEFORM_PANELS} clusters and at
 * most {@link #MAX_CHANNEL_PANELS} channel panels in all are drawn (the largest clusters, in label
 * order); the caption says when some are left out.
 */
final class WaveformSection {
    /** Most channel panels in the section (clusters shown x channels), so many-channel probes stay light. */
    static final int MAX_CHANNEL_PANELS = 256;
    private static final String NOISE_LINE = "#7F7F7F";

    private WaveformSection() {
    }

    static void render(StringBuilder sb, HdbscanReportData data, long[] count, long noise) {
        Waveforms w = data.waveforms();
        int n = data.n(), k = data.clusterCount(), channels = w.channels(), samples = w.samples();
        int values = channels * samples;
        int[] labels = data.labels();
        // panels: every cluster if they fit (one slot kept for noise), else the largest, in label order
        int panelsMax = Math.max(2, Math.min(HtmlReport.MAX_WAVEFORM_PANELS, MAX_CHANNEL_PANELS / channels));
        int room = panelsMax - (noise > 0 ? 1 : 0);
        Integer[] bySize = new Integer[k];
        for (int g = 0; g < k; g++) bySize[g] = g;
        Arrays.sort(bySize, (a, b) -> count[a] != count[b] ? Long.compare(count[b], count[a]) : Integer.compare(a, b));
        boolean[] chosen = new boolean[k];
        int nChosen = 0;
        for (int i = 0; i < k && nChosen < room; i++) {
            if (count[bySize[i]] > 0) {
                chosen[bySize[i]] = true;
                nChosen++;
            }
        }
        int[] slotOf = new int[k + 1];
        Arrays.fill(slotOf, -1);
        int slots = 0;
        int[] labelOfSlot = new int[k + 1];
        for (int g = 0; g < k; g++) {
            if (chosen[g]) {
                labelOfSlot[slots] = g;
                slotOf[g] = slots++;
            }
        }
        if (noise > 0) {
            labelOfSlot[slots] = -1;
            slotOf[k] = slots++;
        }
        int[] slotOfRow = new int[n];
        long[] used = new long[slots];
        long unusable = 0;
        for (int i = 0; i < n; i++) {
            int l = labels[i];
            int s = l >= 0 ? slotOf[l] : l == -1 ? slotOf[k] : -1;
            if (s >= 0 && !w.finiteRow(i)) {
                s = -1;
                unusable++;
            }
            slotOfRow[i] = s;
            if (s >= 0) used[s]++;
        }
        double[][] mean = new double[slots][values], sd = new double[slots][values];
        accumulate(w, slotOfRow, mean, sd, used);
        List<WaveformPlot.Panel> panels = new ArrayList<>(slots);
        for (int s = 0; s < slots; s++) {
            int l = labelOfSlot[s];
            String title = (l >= 0 ? "cluster " + l : "noise") + " \u00b7 " + Fmt.count(used[s])
                    + (used[s] == 1 ? " clip" : " clips");
            panels.add(new WaveformPlot.Panel(title, l >= 0 ? Palette.colour(l) : NOISE_LINE, mean[s], sd[s]));
        }
        sb.append("<section id=\"waveforms\"><h2>Waveforms by cluster</h2>\n<figure>\n");
        if (panels.isEmpty()) {
            sb.append("<p class=\"note\">No clips to show.</p>\n");
        } else {
            WaveformPlot.render(sb, "waveform-plot", panels, channels, samples);
        }
        caption(sb, channels, samples, k, nChosen, noise, unusable);
    }

    /** Means, then population standard deviations, per slot, channel and sample (two passes: no cancellation). */
    private static void accumulate(Waveforms w, int[] slotOfRow, double[][] mean, double[][] sd, long[] used) {
        int len = w.rowLength();
        float[] v = w.values();
        // at[p]: where the value at position p of a row goes in the channel-major panel arrays
        int[] at = new int[len];
        for (int c = 0; c < w.channels(); c++) {
            for (int t = 0; t < w.samples(); t++) {
                int p = w.layout() == Waveforms.Layout.CHANNEL_MAJOR ? c * w.samples() + t : t * w.channels() + c;
                at[p] = c * w.samples() + t;
            }
        }
        for (int i = 0; i < slotOfRow.length; i++) {
            if (slotOfRow[i] < 0) continue;
            double[] m = mean[slotOfRow[i]];
            int base = i * len;
            for (int p = 0; p < len; p++) m[at[p]] += v[base + p];
        }
        for (int s = 0; s < mean.length; s++) {
            for (int j = 0; j < mean[s].length; j++) mean[s][j] /= Math.max(1, used[s]);
        }
        for (int i = 0; i < slotOfRow.length; i++) {
            if (slotOfRow[i] < 0) continue;
            double[] m = mean[slotOfRow[i]], q = sd[slotOfRow[i]];
            int base = i * len;
            for (int p = 0; p < len; p++) {
                double e = v[base + p] - m[at[p]];
                q[at[p]] += e * e;
            }
        }
        for (int s = 0; s < sd.length; s++) {
            for (int j = 0; j < sd[s].length; j++) sd[s][j] = Math.sqrt(sd[s][j] / Math.max(1, used[s]));
        }
    }

    private static void caption(StringBuilder sb, int channels, int samples, int k, int nChosen, long noise,
                                long unusable) {
        sb.append("<figcaption>For every cluster, the mean clip (line) and the mean \u00b1 one standard deviation")
                .append(" (band; population standard deviation, sample by sample) over all of its clips");
        if (channels > 1) {
            sb.append(", each of the ").append(channels).append(" channels (").append(samples)
                    .append(" samples each) in its own panel, side by side");
        }
        sb.append(", on one vertical scale shared by every panel.");
        if (nChosen < k) {
            sb.append(" Only the ").append(nChosen).append(" largest of the ").append(k)
                    .append(" clusters are shown, in label order.");
        }
        if (noise > 0) sb.append(" The last panel (grey) is the noise.");
        if (unusable > 0) {
            sb.append(' ').append(Fmt.count(unusable)).append(" clips with NaN or infinite values are left out.");
        }
        sb.append("</figcaption>\n</figure>\n</section>\n");
    }
}
