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
