package org.sylva.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The report's "Waveforms by cluster" section: for every cluster (and the noise) the mean clip and the
 * mean +- one standard deviation of the {@link Waveforms} of its points, channel by channel, drawn by
 * {@link WaveformPlot}. To stay light, at most {@link HtmlReport#MAX_WAVEFORM_PANELS} clusters and at
 * most {@link #MAX_CHANNEL_PANELS} channel panels in all are drawn (the largest clusters, in label
 * order), and very wide clips are sampled: at most {@link #MAX_DRAWN_CHANNELS} channels and
 * {@link #MAX_DRAWN_SAMPLES} samples per channel, evenly spaced, are averaged and drawn, so the work and
 * the page do not grow with the clip's length; the caption says when some are left out.
 */
final class WaveformSection {
    /** Most channel panels in the section (clusters shown x channels), so many-channel probes stay light. */
    static final int MAX_CHANNEL_PANELS = 256;
    /** Most channels drawn per cluster (evenly spaced): two clusters' panels still fit the budget above. */
    static final int MAX_DRAWN_CHANNELS = MAX_CHANNEL_PANELS / 2;
    /** Most samples drawn per channel (evenly spaced, first and last included). */
    static final int MAX_DRAWN_SAMPLES = 256;
    private static final String NOISE_LINE = "#7F7F7F";

    private WaveformSection() {
    }

    static void render(StringBuilder sb, HdbscanReportData data, long[] count, long noise) {
        Waveforms w = data.waveforms();
        int n = data.n(), k = data.clusterCount();
        int[] channelIds = Sampling.evenlySpaced(w.channels(), MAX_DRAWN_CHANNELS);
        int[] sampleIds = Sampling.evenlySpaced(w.samples(), MAX_DRAWN_SAMPLES);
        int[] at = positions(w, channelIds, sampleIds);
        int[] labels = data.labels();
        // panels: every cluster if they fit (one slot kept for noise), else the largest, in label order
        int panelsMax = Math.max(2, Math.min(HtmlReport.MAX_WAVEFORM_PANELS, MAX_CHANNEL_PANELS / channelIds.length));
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
            if (s >= 0 && !finite(w, at, i)) {
                s = -1;
                unusable++;
            }
            slotOfRow[i] = s;
            if (s >= 0) used[s]++;
        }
        double[][] mean = new double[slots][at.length], sd = new double[slots][at.length];
        accumulate(w, at, slotOfRow, mean, sd, used);
        List<WaveformPlot.Panel> panels = new ArrayList<>(slots);
        for (int s = 0; s < slots; s++) {
            int l = labelOfSlot[s];
            String title = (l >= 0 ? "cluster " + l : "noise") + " \u00b7 " + Fmt.count(used[s], "clip", "clips")
                    + (used[s] == 0 ? " (each has NaN or infinite values)" : "");
            panels.add(new WaveformPlot.Panel(title, l >= 0 ? Palette.colour(l) : NOISE_LINE, mean[s], sd[s]));
        }
        sb.append("<section id=\"waveforms\"><h2>Waveforms by cluster</h2>\n<figure>\n");
        if (panels.isEmpty()) {
            sb.append("<p class=\"note\">No clips to show.</p>\n");
        } else {
            WaveformPlot.render(sb, "waveform-plot", panels, channelIds, sampleIds, w.samples());
        }
        caption(sb, w.channels(), w.samples(), channelIds.length, sampleIds.length, k, nChosen, noise, unusable);
    }

    /**
     * {@code at[c' * sampleIds.length + j']}: where, within a row, the value of drawn channel c' at drawn
     * sample j' lies (the panel arrays are channel-major over the drawn values).
     */
    private static int[] positions(Waveforms w, int[] channelIds, int[] sampleIds) {
        int[] at = new int[channelIds.length * sampleIds.length];
        for (int c = 0; c < channelIds.length; c++) {
            for (int j = 0; j < sampleIds.length; j++) {
                int ch = channelIds[c], t = sampleIds[j];
                at[c * sampleIds.length + j] = w.layout() == Waveforms.Layout.CHANNEL_MAJOR
                        ? ch * w.samples() + t : t * w.channels() + ch;
            }
        }
        return at;
    }

    /** True when the drawn values of clip {@code row} are finite (a clip with NaN or inf there is left out). */
    private static boolean finite(Waveforms w, int[] at, int row) {
        float[] v = w.values();
        int base = row * w.rowLength();
        for (int p : at) {
            if (!Float.isFinite(v[base + p])) return false;
        }
        return true;
    }

    /** Means, then population standard deviations, per slot and drawn value (two passes: no cancellation). */
    private static void accumulate(Waveforms w, int[] at, int[] slotOfRow, double[][] mean, double[][] sd,
                                   long[] used) {
        int len = w.rowLength();
        float[] v = w.values();
        for (int i = 0; i < slotOfRow.length; i++) {
            if (slotOfRow[i] < 0) continue;
            double[] m = mean[slotOfRow[i]];
            int base = i * len;
            for (int j = 0; j < at.length; j++) m[j] += v[base + at[j]];
        }
        for (int s = 0; s < mean.length; s++) {
            for (int j = 0; j < mean[s].length; j++) mean[s][j] /= Math.max(1, used[s]);
        }
        for (int i = 0; i < slotOfRow.length; i++) {
            if (slotOfRow[i] < 0) continue;
            double[] m = mean[slotOfRow[i]], q = sd[slotOfRow[i]];
            int base = i * len;
            for (int j = 0; j < at.length; j++) {
                double e = v[base + at[j]] - m[j];
                q[j] += e * e;
            }
        }
        for (int s = 0; s < sd.length; s++) {
            for (int j = 0; j < sd[s].length; j++) sd[s][j] = Math.sqrt(sd[s][j] / Math.max(1, used[s]));
        }
    }

    private static void caption(StringBuilder sb, int channels, int samples, int drawnChannels, int drawnSamples, int k,
                                int nChosen, long noise, long unusable) {
        sb.append("<figcaption>For every cluster, the mean clip (line) and the mean \u00b1 one standard deviation")
                .append(" (band; population standard deviation, sample by sample) over all of its clips");
        if (channels > 1) {
            sb.append(", each of the ").append(channels).append(" channels (").append(samples)
                    .append(" samples each) in its own panel, side by side");
        }
        sb.append(", on one vertical scale shared by every panel.");
        if (drawnChannels < channels) {
            sb.append(" Only ").append(drawnChannels).append(" of the ").append(channels)
                    .append(" channels are drawn, evenly spaced (the panels name them).");
        }
        if (drawnSamples < samples) {
            sb.append(" Each line joins ").append(drawnSamples).append(" of the ").append(Fmt.count(samples))
                    .append(" samples, evenly spaced, the first and the last among them, so that the report stays")
                    .append(" light; the samples in between are not drawn.");
        }
        if (nChosen < k) {
            sb.append(" Only the ").append(nChosen).append(" largest of the ").append(k)
                    .append(" clusters are shown, in label order.");
        }
        if (noise > 0) sb.append(" The last panel (grey) is the noise.");
        if (unusable > 0) {
            sb.append(' ').append(Fmt.count(unusable, "clip", "clips")).append(" with NaN or infinite values ")
                    .append(unusable == 1 ? "is" : "are").append(" left out.");
        }
        sb.append("</figcaption>\n</figure>\n</section>\n");
    }
}
