package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * Opens both reports in headless Chromium: the DOM must hold the expected elements, the browser log
 * must show no script error, no blocked (network) load and no console message, and a screenshot is
 * saved under {@code target/report-artifacts/} for people to look at. Without Chromium the test is
 * skipped on a workstation but fails when the environment variable {@code CI} is set (CI installs
 * Debian's {@code chromium}).
 */
class ChromiumReportTest {
    static final Path ARTIFACTS = Path.of("target", "report-artifacts");
    private Chromium chromium;

    @BeforeEach // per test, so that a skip shows up as skipped tests with the reason
    void findChromium() throws IOException {
        chromium = Chromium.find();
        if (chromium == null) {
            String ci = System.getenv("CI");
            if (ci != null && !ci.isBlank()) {
                fail("CI is set but no Chromium was found (/usr/bin/chromium or chromium on PATH);"
                        + " install Debian's chromium package");
            }
            Assumptions.abort("Chromium not installed (/usr/bin/chromium): skipping the browser test;"
                    + " install Debian's chromium package to run it");
        }
        Files.createDirectories(ARTIFACTS);
    }

    @Test
    void hdbscanReportRendersInChromiumWithoutErrors() throws Exception {
        HdbscanReportData data = SyntheticData.clips(6_000, 7, 11, 40, true);
        Path html = ARTIFACTS.resolve("hdbscan-report.html");
        HtmlReport.write(data, html);

        Chromium.Result dom = chromium.dumpDom(html);
        assertEquals(0, dom.exitCode(), () -> "chromium --dump-dom failed:\n" + dom.stderr());
        String d = dom.stdout();
        for (String id : List.of("title", "summary", "condensed-tree-plot", "projection-plot", "waveform-plot",
                "cluster-table", "parameters-table", "timings-table", "footer")) {
            assertTrue(d.contains("id=\"" + id + "\""), "DOM lacks #" + id);
        }
        assertEquals(3, count(d, "<svg"), "one svg per plot");
        assertEquals(data.clusterCount(), count(d, "class=\"cluster-row\""));
        assertEquals(data.clusterCount(), count(d, "class=\"node selected\""));
        assertNoBrowserErrors(dom.stderr());

        Path png = ARTIFACTS.resolve("hdbscan-report.png");
        Files.deleteIfExists(png);
        Chromium.Result shot = chromium.screenshot(html, png, 1400, 2400);
        assertEquals(0, shot.exitCode(), () -> "chromium --screenshot failed:\n" + shot.stderr());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1400, img.getWidth());
        assertEquals(2400, img.getHeight());
        // the plots really painted: plenty of pixels in the colours of labels 0 and 1
        assertTrue(pixelsNear(img, Palette.colour(0)) > 2_000, "too few pixels of cluster 0's colour");
        assertTrue(pixelsNear(img, Palette.colour(1)) > 1_000, "too few pixels of cluster 1's colour");
    }

    @Test
    void ballTreeReportRendersInChromiumWithoutErrors() throws Exception {
        int n = 6_000;
        float[] x = SyntheticData.blobs(n, 3, 5, 3);
        BallTreeReportData data = SyntheticData.ballTree(x, 3, new int[] {n}).title("synthetic 3-D cloud")
                .level(3).parameter("partition level", "3").stage("build", 0.0042).build();
        Path html = ARTIFACTS.resolve("balltree-report.html");
        BallTreeReport.write(data, html);

        Chromium.Result dom = chromium.dumpDom(html);
        assertEquals(0, dom.exitCode(), () -> "chromium --dump-dom failed:\n" + dom.stderr());
        String d = dom.stdout();
        for (String id : List.of("ball-plot", "tree-table", "ball-table", "parameters-table", "timings-table")) {
            assertTrue(d.contains("id=\"" + id + "\""), "DOM lacks #" + id);
        }
        assertEquals(1, count(d, "<svg"));
        assertEquals(8, count(d, "class=\"ball-row\""));
        assertEquals(8, count(d, "class=\"ball-outline\""));
        assertNoBrowserErrors(dom.stderr());

        Path png = ARTIFACTS.resolve("balltree-report.png");
        Files.deleteIfExists(png);
        Chromium.Result shot = chromium.screenshot(html, png, 1400, 1600);
        assertEquals(0, shot.exitCode(), () -> "chromium --screenshot failed:\n" + shot.stderr());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1400, img.getWidth());
        assertTrue(pixelsNear(img, Palette.colour(0)) > 500, "too few pixels of ball 0's colour");
    }

    /**
     * Reports whose numbers need scientific labels (amplitudes in volts, 1e-6; coordinates in the tens of
     * millions), 4-channel clips, a rank-scale and a log-scale condensed tree, and the ball tree report:
     * in the browser, no tick label or axis title overlaps another, and none leaves its plot. The check
     * measures the laid-out text (getBoundingClientRect) with a script added to a copy of each report.
     */
    @Test
    void axisLabelsAndTitlesNeverOverlapInTheBrowser() throws Exception {
        HdbscanReportData base = SyntheticData.clips(3_000, 6, 21, 30, false);
        List<String> pages = List.of(
                HtmlReport.render(scaled(base, 1e-6, 4)),
                HtmlReport.render(scaled(base, 3e7, 1)),
                HtmlReport.render(scaled(SyntheticData.clips(2_000, 9, 5, 0, false), 1, 16)),
                BallTreeReport.render(SyntheticData.ballTree(SyntheticData.blobs(2_000, 3, 5, 3), 3,
                        new int[] {2_000}).level(3).build()),
                icicles());
        int checked = 0;
        for (int i = 0; i < pages.size(); i++) {
            Path html = ARTIFACTS.resolve("layout-check-" + i + ".html");
            Files.writeString(html, withLayoutCheck(pages.get(i)));
            Chromium.Result dom = chromium.dumpDom(html, 1400, 1000);
            assertEquals(0, dom.exitCode(), () -> "chromium --dump-dom failed:\n" + dom.stderr());
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("checked=(\\d+);problems=([^<]*)<")
                    .matcher(dom.stdout());
            assertTrue(m.find(), () -> "the layout check did not run:\n" + dom.stderr());
            int page = i;
            assertEquals("", m.group(2), () -> "page " + page + ": overlapping or clipped axis text");
            checked += Integer.parseInt(m.group(1));
        }
        assertTrue(checked > 10_000, "pairs of labels compared: " + checked);
    }

    /** {@code base} with its points and its clips ({@code channels} channels) multiplied by {@code factor}. */
    static HdbscanReportData scaled(HdbscanReportData base, double factor, int channels) {
        float[] coords = base.coords().clone();
        for (int i = 0; i < coords.length; i++) coords[i] *= (float) factor;
        float[] clips = WaveformSectionTest.clips(base, channels, false);
        for (int i = 0; i < clips.length; i++) clips[i] *= (float) factor;
        return HdbscanReportData.builder().title(base.title()).points(base.n(), base.d(), coords).labels(base.labels())
                .probabilities(base.probabilities()).tree(base.tree())
                .selectedClusters(base.selectedClusterIds(), base.persistence())
                .waveforms(Waveforms.channelMajor(base.n(), channels, clips)).parameters(base.parameters())
                .stages(base.stageSeconds()).sylvaVersion("0.1.0-test").build();
    }

    /** One page of icicle plots: high-dimensional trees on the log and the rank scale, and a tiny lambda range. */
    static String icicles() {
        StringBuilder sb = new StringBuilder();
        Html.open(sb, "icicle plots");
        IciclePlot.render(sb, "log", LambdaScaleTest.highDimensional(2_000, 6, false), LambdaScaleTest.clusters(2_000, 6));
        IciclePlot.render(sb, "rank", LambdaScaleTest.highDimensional(2_000, 6, true), LambdaScaleTest.clusters(2_000, 6));
        CondensedTreeData t = IciclePlotTest.twoClusters();
        double[] tiny = t.lambda().clone();
        for (int i = 0; i < tiny.length; i++) tiny[i] = 1.25e-5 + tiny[i] * 1e-9;
        IciclePlot.render(sb, "tiny", new CondensedTreeData(t.n(), t.parent(), t.child(), tiny, t.childSize()),
                new long[] {101, 102});
        Html.close(sb, "test");
        return sb.toString();
    }

    /**
     * A copy of {@code html} without its Content-Security-Policy and with a script that compares the
     * laid-out boxes of every pair of axis texts (tick labels and titles) in each svg, and checks that each
     * lies inside its svg; it writes {@code checked=N;problems=...} into a {@code <pre>} for --dump-dom.
     */
    static String withLayoutCheck(String html) {
        String script = """
                <script>(function () {
                  var problems = [], checked = 0;
                  function box(e) { return e.getBoundingClientRect(); }
                  function hit(a, b) {
                    return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
                  }
                  function name(e) {
                    return e.closest('svg').id + ' ' + (e.getAttribute('class') || 'tick') + ' "' + e.textContent + '"';
                  }
                  document.querySelectorAll('svg').forEach(function (svg) {
                    var s = box(svg);
                    var texts = Array.prototype.slice.call(svg.querySelectorAll('g.axis > text'));
                    var boxes = texts.map(box);
                    for (var i = 0; i < texts.length; i++) {
                      var a = boxes[i];
                      if (a.left < s.left - 0.5 || a.right > s.right + 0.5 || a.top < s.top - 0.5 || a.bottom > s.bottom + 0.5) {
                        problems.push('outside its plot: ' + name(texts[i]));
                      }
                      for (var j = i + 1; j < texts.length; j++) {
                        checked++;
                        if (hit(a, boxes[j])) problems.push(name(texts[i]) + ' overlaps ' + name(texts[j]));
                      }
                    }
                  });
                  var pre = document.createElement('pre');
                  pre.textContent = 'checked=' + checked + ';problems=' + problems.slice(0, 20).join(' | ');
                  document.body.appendChild(pre);
                })();</script>
                """;
        String open = html.replaceFirst("<meta http-equiv=\"Content-Security-Policy\"[^>]*>\n", "");
        assertTrue(open.length() < html.length(), "the report's CSP is where the check expects it");
        return open.replace("</body>", script + "</body>");
    }

    @Test
    void theBrowserCheckCatchesScriptErrorsAndBlockedLoads() throws Exception {
        Path scriptError = ARTIFACTS.resolve("check-script-error.html");
        Files.writeString(scriptError, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
                + "<script>undefinedFunction();</script></body></html>");
        Chromium.Result a = chromium.dumpDom(scriptError);
        assertThrows(AssertionFailedError.class, () -> assertNoBrowserErrors(a.stderr()), "uncaught error missed");
        Path blocked = ARTIFACTS.resolve("check-blocked-load.html");
        Files.writeString(blocked, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv="
                + "\"Content-Security-Policy\" content=\"default-src 'none'\"></head><body>"
                + "<img src=\"https://example.invalid/x.png\"></body></html>");
        Chromium.Result b = chromium.dumpDom(blocked);
        assertThrows(AssertionFailedError.class, () -> assertNoBrowserErrors(b.stderr()), "blocked load missed");
        // the layout check sees an axis title drawn over a tick label
        StringBuilder page = new StringBuilder();
        Html.open(page, "overlap");
        page.append("<svg class=\"plot\" id=\"bad\" width=\"300\" height=\"200\" viewBox=\"0 0 300 200\">")
                .append("<g class=\"axis y-axis\" font-size=\"12\" text-anchor=\"end\"><text x=\"70\" y=\"100\">-0.00015</text>")
                .append("<text class=\"axis-title\" transform=\"translate(40 100) rotate(-90)\">amplitude</text></g></svg>");
        Html.close(page, "test");
        Path overlap = ARTIFACTS.resolve("check-overlap.html");
        Files.writeString(overlap, withLayoutCheck(page.toString()));
        Chromium.Result c = chromium.dumpDom(overlap, 1400, 1000);
        assertTrue(c.stdout().contains("bad tick \"-0.00015\" overlaps bad axis-title \"amplitude\""), c.stdout());
    }

    /** The browser log must hold no script error, CSP refusal, failed load or console output. */
    static void assertNoBrowserErrors(String stderr) {
        List<String> bad = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.contains("Uncaught") || line.contains("Refused to") || line.contains("CONSOLE")
                    || line.contains("net::ERR_") || line.contains("Content Security Policy")) {
                bad.add(line);
            }
        }
        assertTrue(bad.isEmpty(), () -> "browser reported problems:\n" + String.join("\n", bad));
    }

    static int count(String s, String needle) {
        int c = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + needle.length())) c++;
        return c;
    }

    /** Pixels within distance 60 (of 441) of the colour {@code #RRGGBB}: allows for antialiasing and 0.85 opacity. */
    static int pixelsNear(BufferedImage img, String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        int r0 = rgb >> 16 & 0xff, g0 = rgb >> 8 & 0xff, b0 = rgb & 0xff;
        int c = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int p = img.getRGB(x, y);
                int dr = (p >> 16 & 0xff) - r0, dg = (p >> 8 & 0xff) - g0, db = (p & 0xff) - b0;
                if (dr * dr + dg * dg + db * db < 3600) c++;
            }
        }
        return c;
    }
}
