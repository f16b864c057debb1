package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;

class HtmlReportTest {
    static final String SVG_NS = "xmlns=\"http://www.w3.org/2000/svg\"";

    static int count(String s, String needle) {
        return ChromiumReportTest.count(s, needle);
    }

    /** Structural checks every report must pass: doctype, balanced containers, nothing external. */
    static void assertSelfContained(String html) {
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
        assertTrue(html.endsWith("</html>\n"));
        assertEquals(1, count(html, "<style>"));
        for (String tag : List.of("section", "figure", "svg", "table", "tbody", "thead", "g", "text", "p", "tr")) {
            assertEquals(count(html, "<" + tag + ">") + count(html, "<" + tag + " "), count(html, "</" + tag + ">"),
                    "unbalanced <" + tag + ">");
        }
        String withoutNs = html.replace(SVG_NS, "");
        assertFalse(withoutNs.contains("http://"), "external http reference");
        assertFalse(withoutNs.contains("https://"), "external https reference");
        assertFalse(withoutNs.contains("//"), "protocol-relative reference");
        assertFalse(html.toLowerCase().contains("<script"), "no script at all");
        assertFalse(html.contains("<link"), "no linked resources");
        assertFalse(html.contains("@import"), "no imported CSS");
        assertFalse(html.contains("url(") && html.replaceAll("url\\(#[a-z-]+\\)", "").contains("url("),
                "only local url(#id) references");
        assertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    }

    /**
     * A float64 input is drawn from its own values: points 1e9 apart from the origin but 0.25 from one another
     * (one float32 value), and finite values beyond float32's range, are drawn where they are, not merged or left
     * out as infinities.
     */
    @Test
    void aFloat64InputIsDrawnFromItsExactValues() {
        int n = 60, d = 3;
        for (double[] shift : new double[][] {{1e9, 0.25}, {0, 1e100}, {0, 1e-150}}) {
            double[] exact = new double[n * d];
            float[] rounded = new float[n * d];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < d; k++) {
                    exact[i * d + k] = shift[0] + shift[1] * (((i * 7 + k * 13) % 17) + (i % 2) * 40);
                    rounded[i * d + k] = (float) exact[i * d + k];
                }
            }
            HdbscanReportData.Builder b = HdbscanReportData.builder().points(n, d, rounded);
            String asFloat32 = HtmlReport.render(b.build());
            String html = HtmlReport.render(b.exactPoints(exact).build());
            assertSelfContained(html);
            assertFalse(html.contains("infinite values are left out"), "every row is finite");
            Matcher explained = Pattern.compile("explain ([0-9.]+) % of the variance").matcher(html);
            assertTrue(explained.find() && Double.parseDouble(explained.group(1)) > 90, "the plane holds the points");
            assertTrue(asFloat32.contains("explain 0.0 % of the variance")
                    || asFloat32.contains(n + " rows with NaN or infinite values are left out"), "the float32 copy "
                    + "would have lost the points");
        }
    }

    @Test
    void waveformReportHasEveryPartOnce() {
        HdbscanReportData data = SyntheticData.clips(3_000, 5, 1, 0, true);
        String html = HtmlReport.render(data);
        assertSelfContained(html);
        int k = data.clusterCount();
        assertEquals(5, k);
        assertEquals(3, count(html, "<svg "), "icicle, projection, waveforms");
        for (String id : List.of("condensed-tree", "condensed-tree-plot", "projection", "projection-plot", "waveforms",
                "waveform-plot", "clusters", "cluster-table", "parameters-table", "timings-table", "version", "footer",
                "summary", "noise-summary")) {
            assertEquals(1, count(html, "id=\"" + id + "\""), "#" + id);
        }
        assertEquals(k, count(html, "<tr class=\"cluster-row\">"));
        assertEquals(k, count(html, "class=\"node selected\""), "every selected cluster outlined");
        for (int l = 0; l < k; l++) {
            assertEquals(1, count(html, "data-label=\"" + l + "\""));
            assertTrue(html.contains("data-name=\"cluster " + l + " ("), "series of cluster " + l);
        }
        assertEquals(1, count(html, "class=\"noise\""));
        assertEquals(k + 1, count(html, "class=\"waveform-panel\""), "one panel per cluster plus noise");
        assertEquals(k + 1, count(html, "class=\"sd-band\""));
        assertEquals(4 + 5 + 1, count(html, "<tr><td class=\"key\">"), "4 parameters, 5 stages, the total");
        assertTrue(html.contains("Sylva version 0.1.0-test"));
        assertTrue(html.contains("All 3,000 points are drawn."));
        assertFalse(html.contains("\u03bb = \u221e"), "no infinite-lambda note without infinite rows");
    }

    @Test
    void withoutWaveformsThereAreTwoPlots() {
        HdbscanReportData data = SyntheticData.clips(1_000, 3, 2, 0, false);
        String html = HtmlReport.render(data);
        assertSelfContained(html);
        assertEquals(2, count(html, "<svg "));
        assertFalse(html.contains("id=\"waveforms\""));
    }

    @Test
    void clusterTableReportsSizesPersistenceAndMeanProbability() {
        HdbscanReportData data = SyntheticData.clips(2_000, 4, 3, 0, false);
        String html = HtmlReport.render(data);
        int[] labels = data.labels();
        for (int l = 0; l < data.clusterCount(); l++) {
            int size = 0;
            double sum = 0;
            for (int i = 0; i < labels.length; i++) {
                if (labels[i] == l) {
                    size++;
                    sum += data.probabilities()[i];
                }
            }
            String row = "</span>" + l + "</td><td>" + Fmt.count(size) + "</td><td>" + Fmt.percent(size, labels.length)
                    + "</td><td>" + Fmt.sig(data.persistence()[l]) + "</td><td>" + Fmt.fixed(sum / size, 3) + "</td><td>"
                    + data.selectedClusterIds()[l] + "</td></tr>";
            assertTrue(html.contains(row), "row of cluster " + l + ": " + row);
        }
    }

    @Test
    void everyStringIsEscaped() {
        String evil = "<script>alert('x')</script> & \"quoted\" \u0007";
        HdbscanReportData base = SyntheticData.clips(500, 2, 4, 0, false);
        HdbscanReportData data = HdbscanReportData.builder().title(evil).points(base.n(), base.d(), base.coords())
                .labels(base.labels()).probabilities(base.probabilities()).tree(base.tree())
                .selectedClusters(base.selectedClusterIds(), base.persistence())
                .parameter("<b>key</b>", "a < b && c > d").stage("stage \"one\"", 0.5).sylvaVersion("1.0<beta>").build();
        String html = HtmlReport.render(data);
        assertSelfContained(html);
        assertFalse(html.contains("<script>"));
        assertFalse(html.contains("<b>key"));
        assertFalse(html.contains("1.0<beta>"));
        assertTrue(html.contains("<title>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; \uFFFD</title>"));
        assertTrue(html.contains("&lt;b&gt;key&lt;/b&gt;"));
        assertTrue(html.contains("a &lt; b &amp;&amp; c &gt; d"));
        assertTrue(html.contains("stage &quot;one&quot;"));
        assertTrue(html.contains("Sylva 1.0&lt;beta&gt;"));
    }

    @Test
    void withThousandsOfClustersThePlotUsesItsWholeSampleAndSaysWhichAreNotDrawn() {
        HdbscanReportData data = SyntheticData.clips(30_000, 3_000, 5, 0, false);
        String html = HtmlReport.render(data);
        assertTrue(html.contains("Drawn: " + Fmt.count(HtmlReport.MAX_PLOTTED_POINTS) + " of "), "the whole sample");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" ([0-9,]+) of the " + Fmt.count(data.clusterCount()) + " clusters are too small for a "
                + "point of this sample and are not drawn\\.").matcher(html);
        assertTrue(m.find(), () -> "the clusters left out are counted: " + html.substring(html.indexOf("Drawn:"), html.indexOf("Drawn:") + 600));
        int undrawn = Integer.parseInt(m.group(1).replace(",", ""));
        assertTrue(undrawn > 0 && undrawn < data.clusterCount(), m.group());
    }

    @Test
    void identicalInputGivesIdenticalBytes() {
        String a = HtmlReport.render(SyntheticData.clips(4_000, 6, 5, 10, true));
        String b = HtmlReport.render(SyntheticData.clips(4_000, 6, 5, 10, true));
        assertEquals(a, b);
        HdbscanReportData same = SyntheticData.clips(800, 3, 6, 0, true);
        assertEquals(HtmlReport.render(same), HtmlReport.render(same));
        assertFalse(a.equals(HtmlReport.render(SyntheticData.clips(4_000, 6, 7, 10, true))), "seed matters");
    }

    @Test
    void infiniteLambdaIsClippedAndSaidSo() {
        HdbscanReportData data = SyntheticData.clips(2_000, 4, 8, 25, false);
        String html = HtmlReport.render(data);
        assertTrue(html.contains("25 rows have \u03bb = \u221e"));
        // persistence is then 1 by rule, and the cluster table says so
        assertTrue(html.contains("Here every persistence is 1 by hdbscan's rule, not a measure"), "persistence note");
        assertFalse(HtmlReport.render(SyntheticData.clips(2_000, 4, 8, 0, false)).contains("Here every persistence is 1"));
        assertEquals(1, count(html, "class=\"infinite-lambda\""));
        assertEquals(1, count(html, "class=\"infinite-band\""));
        // the clipped rows end at the bottom of the plot, inside the band below the finite axis; nothing goes lower
        double bottom = IciclePlot.HEIGHT - 74, bandTop = bottom - 36;
        double maxY = 0;
        for (double y : pathYs(section(html, "condensed-tree-plot-nodes"))) maxY = Math.max(maxY, y);
        assertEquals(bottom, maxY, 0.01, "the cluster holding the duplicates reaches into the band");
        assertTrue(html.contains("d=\"M") && html.contains("y2=\"" + Fmt.px(bandTop) + "\""), "dashed line at the band");
    }

    @Test
    void allNoiseRendersAnEmptyTreeAndAnEmptyTable() {
        int n = 300;
        float[] x = SyntheticData.blobs(n, 2, 3, 9);
        int[] labels = new int[n];
        java.util.Arrays.fill(labels, -1);
        HdbscanReportData data = HdbscanReportData.builder().points(n, 2, x).labels(labels)
                .probabilities(new double[n]).sylvaVersion("t").build();
        String html = HtmlReport.render(data);
        assertSelfContained(html);
        assertTrue(html.contains("The condensed tree is empty"));
        assertEquals(0, count(html, "cluster-row"));
        assertTrue(html.contains("No cluster was found."));
        assertTrue(html.contains("two-dimensional"), "raw coordinates for 2-D data");
    }

    @Test
    void largeInputStaysLightAndFast() {
        int n = 500_000;
        HdbscanReportData data = SyntheticData.clips(n, 12, 42, 100, true);
        // The render runs on this thread alone: its CPU time, not the wall time, which on a 2-core machine busy
        // with other builds was 4-7 s for 1.1 s of CPU (the thread had a quarter of the cores)
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean byCpu = cpu.isCurrentThreadCpuTimeSupported() && cpu.isThreadCpuTimeEnabled();
        long t0 = byCpu ? cpu.getCurrentThreadCpuTime() : System.nanoTime();
        String html = HtmlReport.render(data);
        double seconds = ((byCpu ? cpu.getCurrentThreadCpuTime() : System.nanoTime()) - t0) / 1e9;
        System.out.printf("report for %d x %d: %.2f s%s, %d bytes%n", n, data.d(), seconds, byCpu ? " of CPU" : "",
                html.length());
        assertSelfContained(html);
        assertTrue(seconds < 10, "render took " + seconds + " s" + (byCpu ? " of CPU" : ""));
        assertTrue(html.getBytes(StandardCharsets.UTF_8).length < 5_000_000, "size " + html.length());
        int dots = count(section(html, "projection-plot"), "h0");
        assertTrue(dots <= HtmlReport.MAX_PLOTTED_POINTS + 13 * 25, "dots " + dots);
        assertTrue(dots >= HtmlReport.MAX_PLOTTED_POINTS - 13, "dots " + dots);
        assertTrue(html.contains("Drawn: " + Fmt.count(dots) + " of 500,000 points"));
        int elements = count(html, "<path") + count(html, "<circle") + count(html, "<line") + count(html, "<text")
                + count(html, "<rect");
        assertTrue(elements < 4_000, "svg elements " + elements);
    }

    @Test
    void writeGoesThroughATemporaryAndReplaces(@TempDir Path dir) throws Exception {
        HdbscanReportData data = SyntheticData.clips(600, 3, 10, 0, true);
        Path file = dir.resolve("report.html");
        Files.writeString(file, "old content");
        HtmlReport.write(data, file);
        assertEquals(HtmlReport.render(data), Files.readString(file, StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("report.html.tmp")));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count());
        }
    }

    @Test
    void writeIntoAMissingDirectoryFailsWithoutLeftovers(@TempDir Path dir) {
        HdbscanReportData data = SyntheticData.clips(300, 2, 10, 0, false);
        Path file = dir.resolve("missing").resolve("report.html");
        var e = assertThrows(InvalidInputException.class, () -> HtmlReport.write(data, file));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(dir.resolve("missing")));
    }

    @Test
    void badInputIsRefusedWithAPreciseMessage() {
        HdbscanReportData ok = SyntheticData.clips(300, 2, 12, 0, false);
        var e1 = assertThrows(InvalidInputException.class, () -> HdbscanReportData.builder()
                .points(ok.n(), ok.d(), ok.coords()).labels(new int[ok.n() - 1]).build());
        assertTrue(e1.getMessage().contains("labels has 299 values, expected n = 300"), e1.getMessage());
        int[] labels = ok.labels().clone();
        labels[17] = 5;
        var e2 = assertThrows(InvalidInputException.class, () -> HdbscanReportData.builder()
                .points(ok.n(), ok.d(), ok.coords()).labels(labels).probabilities(ok.probabilities()).tree(ok.tree())
                .selectedClusters(ok.selectedClusterIds(), ok.persistence()).build());
        assertTrue(e2.getMessage().contains("labels[17] = 5"), e2.getMessage());
        var e3 = assertThrows(InvalidInputException.class, () -> HdbscanReportData.builder()
                .points(ok.n(), ok.d(), ok.coords()).labels(ok.labels()).probabilities(ok.probabilities())
                .tree(ok.tree()).selectedClusters(new long[] {ok.n() + 1, 10_000_000}, ok.persistence()).build());
        assertTrue(e3.getMessage().contains("selectedClusterIds[1] = 10000000"), e3.getMessage());
        var e4 = assertThrows(InvalidInputException.class, () -> HdbscanReportData.builder()
                .points(10, 3, new float[29]).build());
        assertTrue(e4.getMessage().contains("expected n * d = 30"), e4.getMessage());
    }

    /** The text of the element whose id is {@code id} up to the next closing tag of the same depth (rough). */
    static String section(String html, String id) {
        int start = html.indexOf("id=\"" + id + "\"");
        assertTrue(start >= 0, "no #" + id);
        int end = html.indexOf("</svg>", start);
        int g = html.indexOf("</g>", start);
        if (id.endsWith("-nodes") && g >= 0) end = g;
        return html.substring(start, end);
    }

    static List<Double> pathYs(String svg) {
        List<Double> ys = new java.util.ArrayList<>();
        Matcher m = Pattern.compile("[MV]([-0-9.]+)(?: ([-0-9.]+))?").matcher(svg);
        while (m.find()) ys.add(Double.parseDouble(m.group(2) != null ? m.group(2) : m.group(1)));
        return ys;
    }
}
