package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;

/**
 * What a report says of unusual fits is true: counts in the singular, the λ axis of a tree with one λ level or none,
 * a weighted fit's weights, persistence above 1, a table of many clusters within its cap.
 */
class ReportWordingTest {
    @TempDir
    Path tmp;

    private String report(PointSet points, String... options) throws IOException {
        Path in = TestData.writeNpy(points, tmp.resolve("p" + System.nanoTime() + ".npy"));
        Path out = tmp.resolve("o" + System.nanoTime());
        String[] args = new String[options.length + 6];
        args[0] = "hdbscan";
        args[1] = in.toString();
        args[2] = "--out";
        args[3] = out.toString();
        args[4] = "--report";
        args[5] = out.resolve("r.html").toString();
        System.arraycopy(options, 0, args, 6, options.length);
        Cli.run(args).assertOk();
        return Files.readString(out.resolve("r.html"));
    }

    @Test
    void aTreeOfOneLevelOrNoneSaysSoAndCountsInTheSingular() throws IOException {
        String two = report(PointSet.ofFloat64(2, 2, new double[] {0, 0, 1, 1}), "--min-cluster-size", "2",
                "--allow-single-cluster", "-q");
        assertTrue(two.contains("1 cluster in the tree, 1 shape drawn"), two);
        assertTrue(two.contains("Every finite \u03bb above 0 in the tree is 0.7071"), two);
        assertFalse(two.contains("0.07071"), "no stand-in value named as the tree's");
        String same = report(PointSet.ofFloat64(40, 3, new double[120]), "-q");
        assertTrue(same.contains("The tree has no finite \u03bb above 0"), same);
        assertFalse(same.contains("largest finite \u03bb, 1"), same);
    }

    /** A float64 file beyond float32's range (finite, and fitted) is drawn from its own values, not left out. */
    @Test
    void aFloat64FileBeyondFloat32sRangeIsDrawn() throws IOException {
        PointSet blob = TestData.blob(200, 3, 6);
        double[] x = new double[200 * 3];
        for (int i = 0; i < x.length; i++) x[i] = blob.getDouble(i / 3, i % 3) * 1e40;
        Path in = tmp.resolve("big.npy");
        Npy.writeFloat64(in, x, 200, 3);
        Path out = tmp.resolve("big");
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--report", out.resolve("r.html").toString(), "-q")
                .assertOk();
        String html = Files.readString(out.resolve("r.html"));
        assertFalse(html.contains("infinite values are left out"), "every row is finite and drawn");
        assertTrue(html.contains("All 200 points are drawn."), html);
    }

    @Test
    void aWeightedFitNamesItsWeightsAndItsRowsOfWeightZero() throws IOException {
        PointSet points = TestData.blob(300, 2, 4);
        double[] w = new double[300];
        for (int i = 0; i < 300; i++) w[i] = i % 3;
        Path weights = tmp.resolve("w.npy");
        Npy.writeFloat64(weights, w, 300);
        String html = report(points, "--sample-weight", weights.toString(), "-q");
        assertTrue(html.contains("300 points in all, each row counted as many times as its weight"), html);
        assertTrue(html.contains("100 rows of weight 0 took no part in the fit"), html);
        assertTrue(html.contains("allow_single_cluster</td><td class=\"val\">False"), html);
    }

    @Test
    void theClusterTableListsAtMostItsCap() throws IOException {
        int pairs = 1_100;
        double[] x = new double[pairs * 2 * 2];
        for (int i = 0; i < pairs * 2; i++) x[2 * i] = (i / 2) * 10.0;   // pairs of duplicates, far apart
        String html = report(PointSet.ofFloat64(pairs * 2, 2, x), "--min-cluster-size", "2", "--min-samples", "1",
                "--method", "leaf", "-q");
        assertTrue(html.contains("The table lists the first 1,000 of the 1,100 clusters, by label"), html);
        assertTrue(html.split("<tr class=\"cluster-row\">", -1).length - 1 == 1_000);
    }
}
