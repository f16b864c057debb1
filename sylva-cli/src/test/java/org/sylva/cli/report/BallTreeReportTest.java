package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;

class BallTreeReportTest {
    static int count(String s, String needle) {
        return ChromiumReportTest.count(s, needle);
    }

    /** Number of dots in the series path whose data-name starts with {@code name}. */
    static int dots(String html, String name) {
        Matcher m = Pattern.compile("data-name=\"" + Pattern.quote(name) + "[^\"]*\"[^>]* d=\"([^\"]*)\"").matcher(html);
        assertTrue(m.find(), "no series " + name);
        return count(m.group(1), "h0");
    }

    @Test
    void twoDimensionalCloudColouredByBallAtLevelTwo() {
        int n = 1_000;
        float[] x = SyntheticData.blobs(n, 2, 4, 1);
        BallTreeReportData data = SyntheticData.ballTree(x, 2, new int[] {n}).title("2-D").level(2).build();
        String html = BallTreeReport.render(data);
        HtmlReportTest.assertSelfContained(html);
        assertEquals(1, count(html, "<svg "));
        assertEquals(4, count(html, "class=\"ball-row\""));
        assertEquals(4, count(html, "class=\"ball-outline\""));
        // n = 1000: L = 9, 1024 slots, 4 balls of 256 slots; each ball holds the points of its slots
        int[] idx = data.treeIdx();
        boolean[] mask = data.mask();
        int total = 0;
        for (int b = 0; b < 4; b++) {
            int inBall = 0;
            for (int s = b * 256; s < (b + 1) * 256; s++) if (mask[s]) inBall++;
            assertEquals(inBall, dots(html, "ball " + b + " ("), "dots of ball " + b);
            assertTrue(html.contains("data-name=\"ball " + b + " (" + inBall + ")\""));
            total += inBall;
        }
        assertEquals(n, total);
        assertTrue(html.contains("two-dimensional"));
        assertTrue(html.contains("256 consecutive slots"));
        assertTrue(idx.length == 1024);
    }

    @Test
    void threeDimensionalCloudIsProjectedAndSubsampled() {
        int n = 20_000;
        float[] x = SyntheticData.blobs(n, 3, 6, 2);
        BallTreeReportData data = SyntheticData.ballTree(x, 3, new int[] {n}).level(4).build();
        String html = BallTreeReport.render(data);
        HtmlReportTest.assertSelfContained(html);
        assertTrue(html.contains("PC 1 ("));
        assertTrue(html.contains("first two principal components"));
        int all = count(html, "h0");
        assertTrue(all <= BallTreeReport.MAX_PLOTTED_POINTS + 16 * 5 && all >= BallTreeReport.MAX_PLOTTED_POINTS - 16,
                "dots " + all);
        assertTrue(html.contains("Drawn: " + Fmt.count(all) + " of 20,000 points"));
        assertEquals(16, count(html, "class=\"ball-row\""));
    }

    @Test
    void levelBeyondTheTreeIsClampedAndSaidSo() {
        int n = 16;
        float[] x = SyntheticData.blobs(n, 2, 2, 3);
        BallTreeReportData data = SyntheticData.ballTree(x, 2, new int[] {n}).level(9).build();
        String html = BallTreeReport.render(data);
        assertTrue(html.contains("The colours were to be those of level 9 (--report-level); this batch has only 3 levels"));
        assertEquals(8, count(html, "class=\"ball-row\""), "2^3 leaf balls of 2 slots");
    }

    @Test
    void chosenBatchIsDrawnWithItsOwnSlots() {
        float[] x = SyntheticData.blobs(300, 2, 3, 4);
        BallTreeReportData data = SyntheticData.ballTree(x, 2, new int[] {100, 150, 50}).batch(1).level(1).build();
        String html = BallTreeReport.render(data);
        assertTrue(html.contains("Batch 1 (of 3, numbered from 0) \u00b7 150 points"));
        // batch 0 has 128 slots, so batch 1 starts at slot 128 and its two balls have 128 slots each
        assertTrue(html.contains("128 \u2013 255"));
        assertTrue(html.contains("256 \u2013 383"));
        assertEquals(150, dots(html, "ball 0 (") + dots(html, "ball 1 ("));
    }

    @Test
    void singlePointAndEmptyTrees() {
        BallTreeReportData one = BallTreeReportData.builder().points(1, 2, new float[] {1f, 2f})
                .tree(new int[] {0, 0}, new boolean[] {true, false}, new int[] {0}).build();
        String html = BallTreeReport.render(one);
        HtmlReportTest.assertSelfContained(html);
        assertTrue(html.contains("The one point is drawn."));
        String empty = BallTreeReport.render(BallTreeReportData.builder().points(0, 3, new float[0]).build());
        HtmlReportTest.assertSelfContained(empty);
        assertTrue(empty.contains("The tree is empty"));
    }

    @Test
    void deterministicAndWrittenAtomically(@TempDir Path dir) throws Exception {
        float[] x = SyntheticData.blobs(3_000, 3, 4, 5);
        BallTreeReportData a = SyntheticData.ballTree(x, 3, new int[] {3_000}).level(3).build();
        BallTreeReportData b = SyntheticData.ballTree(x.clone(), 3, new int[] {3_000}).level(3).build();
        assertEquals(BallTreeReport.render(a), BallTreeReport.render(b));
        Path file = dir.resolve("balls.html");
        BallTreeReport.write(a, file);
        assertEquals(BallTreeReport.render(a), Files.readString(file, StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("balls.html.tmp")));
    }

    @Test
    void inconsistentTreesAreRefused() {
        float[] x = SyntheticData.blobs(4, 2, 2, 6);
        var slots = assertThrows(InvalidInputException.class, () -> BallTreeReportData.builder().points(4, 2, x)
                .tree(new int[] {0, 1, 2, 3}, new boolean[] {true, true, true, true}, new int[] {2}).build());
        assertTrue(slots.getMessage().contains("imply 8 slots"), slots.getMessage());
        var twice = assertThrows(InvalidInputException.class, () -> BallTreeReportData.builder().points(4, 2, x)
                .tree(new int[] {0, 1, 1, 3}, new boolean[] {true, true, true, true}, new int[] {1}).build());
        assertTrue(twice.getMessage().contains("point 1 sits in two slots (second: 2)"), twice.getMessage());
        var range = assertThrows(InvalidInputException.class, () -> BallTreeReportData.builder().points(4, 2, x)
                .tree(new int[] {0, 1, 2, 4}, new boolean[] {true, true, true, true}, new int[] {1}).build());
        assertTrue(range.getMessage().contains("treeIdx[3] = 4"), range.getMessage());
        var batch = assertThrows(InvalidInputException.class, () -> BallTreeReportData.builder().points(4, 2, x)
                .tree(new int[] {0, 1, 2, 3}, new boolean[] {true, true, true, true}, new int[] {1}).batch(1).build());
        assertTrue(batch.getMessage().contains("batch 1 does not exist"), batch.getMessage());
    }
}
