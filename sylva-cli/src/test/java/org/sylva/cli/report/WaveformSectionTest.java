package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

/** The waveform section: clips given apart from the clustered points, one panel per channel, one shared scale. */
class WaveformSectionTest {
    static final int SAMPLES = 30;

    /**
     * Clips of {@code channels} channels for the points of {@code base}: channel {@code c} of a point
     * with label {@code l} is template {@code l} times {@code c + 1}, plus a little noise; channel-major
     * unless {@code sampleMajor}.
     */
    static float[] clips(HdbscanReportData base, int channels, boolean sampleMajor) {
        Random rnd = new Random(5);
        int n = base.n();
        float[] v = new float[n * channels * SAMPLES];
        for (int i = 0; i < n; i++) {
            double[] t = SyntheticData.template(Math.max(0, base.labels()[i]), SAMPLES);
            for (int c = 0; c < channels; c++) {
                for (int s = 0; s < SAMPLES; s++) {
                    int at = sampleMajor ? i * channels * SAMPLES + s * channels + c
                            : i * channels * SAMPLES + c * SAMPLES + s;
                    v[at] = (float) ((c + 1) * t[s] + rnd.nextGaussian());
                }
            }
        }
        return v;
    }

    /** {@code base}'s run, its points replaced by 2-D features, with {@code w} as the waveforms. */
    static HdbscanReportData withWaveforms(HdbscanReportData base, Waveforms w) {
        float[] features = new float[base.n() * 2];
        for (int i = 0; i < base.n(); i++) {
            features[2 * i] = base.labels()[i];
            features[2 * i + 1] = i % 7;
        }
        return HdbscanReportData.builder().title(base.title()).points(base.n(), 2, features).labels(base.labels())
                .probabilities(base.probabilities()).tree(base.tree())
                .selectedClusters(base.selectedClusterIds(), base.persistence()).waveforms(w).build();
    }

    @Test
    void multiChannelClipsGetOnePanelPerChannelFromTheirOwnArray() {
        HdbscanReportData base = SyntheticData.clips(1_200, 4, 3, 0, false);
        HdbscanReportData data = withWaveforms(base, Waveforms.channelMajor(base.n(), 4, clips(base, 4, false)));
        String html = HtmlReport.render(data);
        HtmlReportTest.assertSelfContained(html);
        int k = data.clusterCount();
        assertEquals(2, data.d(), "the clustered points are 2-D features; the clips come from their own array");
        assertEquals(k + 1, ChromiumReportTest.count(html, "class=\"waveform-panel\""), "a group per cluster + noise");
        assertEquals(4 * (k + 1), ChromiumReportTest.count(html, "class=\"channel-panel\""), "one panel per channel");
        assertEquals(4 * (k + 1), ChromiumReportTest.count(html, "class=\"mean-line\""));
        assertEquals(k + 1, ChromiumReportTest.count(html, ">ch 3</text>"));
        assertTrue(html.contains("each of the 4 channels (30 samples each) in its own panel"));
    }

    @Test
    void theChannelsOfAClusterShareOneVerticalScale() {
        HdbscanReportData base = SyntheticData.clips(1_200, 4, 3, 0, false);
        String html = HtmlReport.render(withWaveforms(base, Waveforms.channelMajor(base.n(), 4, clips(base, 4, false))));
        // cluster 0's group: channel c is (c + 1) times channel 0, so its mean line spans (c + 1) times the pixels
        String group = html.substring(html.indexOf("class=\"waveform-panel\""));
        List<Double> spans = new ArrayList<>();
        Matcher m = Pattern.compile("class=\"mean-line\"[^>]* d=\"([^\"]+)\"").matcher(group);
        for (int c = 0; c < 4 && m.find(); c++) spans.add(span(m.group(1)));
        assertEquals(4, spans.size());
        for (int c = 1; c < 4; c++) {
            assertEquals(c + 1, spans.get(c) / spans.get(0), 0.15, "channel " + c + " vs channel 0: " + spans);
        }
    }

    @Test
    void sampleMajorClipsDrawTheSameAsChannelMajorOnes() {
        HdbscanReportData base = SyntheticData.clips(600, 3, 4, 0, false);
        String a = HtmlReport.render(withWaveforms(base, Waveforms.channelMajor(base.n(), 3, clips(base, 3, false))));
        String b = HtmlReport.render(withWaveforms(base, new Waveforms(base.n(), 3, SAMPLES, clips(base, 3, true),
                Waveforms.Layout.SAMPLE_MAJOR)));
        assertEquals(a, b);
    }

    @Test
    void manyChannelsCapThePanels() {
        HdbscanReportData base = SyntheticData.clips(800, 9, 6, 0, false);
        HdbscanReportData data = withWaveforms(base, Waveforms.channelMajor(base.n(), 64, clips(base, 64, false)));
        String html = HtmlReport.render(data);
        int panels = ChromiumReportTest.count(html, "class=\"channel-panel\"");
        assertTrue(panels <= WaveformSection.MAX_CHANNEL_PANELS, panels + " channel panels");
        assertEquals(0, panels % 64);
        assertTrue(html.contains("Only the 3 largest of the " + data.clusterCount() + " clusters are shown"), html);
    }

    @Test
    void singleChannelKeepsFourPanelsARowAndNoChannelLabels() {
        HdbscanReportData data = SyntheticData.clips(600, 3, 4, 0, true);
        String html = HtmlReport.render(data);
        assertEquals(data.clusterCount() + 1, ChromiumReportTest.count(html, "class=\"channel-panel\""));
        assertFalse(html.contains("class=\"channel-label\""));
        assertFalse(html.contains("channels ("));
    }

    @Test
    void waveformsOfTheWrongShapeAreRefusedNamingTheCounts() {
        HdbscanReportData base = SyntheticData.clips(300, 2, 12, 0, false);
        var e1 = assertThrows(InvalidInputException.class,
                () -> withWaveforms(base, Waveforms.channelMajor(299, 1, new float[299 * 5])));
        assertTrue(e1.getMessage().contains("waveforms has 299 clips, expected one per point, n = 300"), e1.getMessage());
        var e2 = assertThrows(InvalidInputException.class, () -> Waveforms.channelMajor(10, 4, new float[10 * 61]));
        assertTrue(e2.getMessage().contains("do not split into 10 rows of 4 equal channels"), e2.getMessage());
        var e3 = assertThrows(InvalidInputException.class,
                () -> new Waveforms(10, 2, 5, new float[99], Waveforms.Layout.CHANNEL_MAJOR));
        assertTrue(e3.getMessage().contains("expected n * channels * samples = 100"), e3.getMessage());
    }

    /** Largest minus smallest y of a path's points. */
    static double span(String d) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        Matcher m = Pattern.compile("[ML][-0-9.]+ ([-0-9.]+)").matcher(d);
        while (m.find()) {
            double y = Double.parseDouble(m.group(1));
            lo = Math.min(lo, y);
            hi = Math.max(hi, y);
        }
        return hi - lo;
    }

    /** Very wide clips: the panels draw evenly spaced channels and samples, and the page stays small. */
    @Test
    void wideClipsAreDrawnFromEvenlySpacedSamplesAndChannels() {
        HdbscanReportData base = SyntheticData.clips(300, 4, 3, 0, false);
        int n = base.n(), samples = 20_000;
        float[] v = new float[n * samples];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < samples; t++) v[i * samples + t] = (float) Math.sin(t * 1e-3 * (1 + Math.max(0, base.labels()[i])));
        }
        String html = HtmlReport.render(withWaveforms(base, Waveforms.channelMajor(n, 1, v)));
        String band = html.substring(html.indexOf("class=\"mean-line\""));
        band = band.substring(band.indexOf(" d=\"M"), band.indexOf("\"/>"));
        assertEquals(WaveformSection.MAX_DRAWN_SAMPLES - 1, band.chars().filter(ch -> ch == 'L').count(),
                "a line joins the drawn samples only");
        assertTrue(html.contains("Each line joins 256 of the 20,000 samples, evenly spaced"), "the caption says so");
        assertTrue(html.length() < 400_000, "the page does not grow with the clip: " + html.length());

        int channels = 300;
        float[] many = new float[n * channels * 2];
        for (int i = 0; i < many.length; i++) many[i] = (i % 17) * 0.1f;
        String h2 = HtmlReport.render(withWaveforms(base, Waveforms.channelMajor(n, channels, many)));
        int groups = ChromiumReportTest.count(h2, "class=\"waveform-panel\"");
        assertEquals(WaveformSection.MAX_DRAWN_CHANNELS * groups, ChromiumReportTest.count(h2, "class=\"channel-panel\""));
        assertTrue(h2.contains(">ch 0</text>") && h2.contains(">ch 299</text>") && !h2.contains(">ch 1</text>"),
                "evenly spaced channels, named by their own number");
        assertTrue(h2.contains("Only 128 of the 300 channels are drawn, evenly spaced"));
    }
}
