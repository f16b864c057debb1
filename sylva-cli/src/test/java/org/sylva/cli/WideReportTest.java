package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.cli.report.HtmlReport;
import org.sylva.cli.report.Waveforms;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;

/**
 * The report of very wide data renders in seconds and stays small: 50 rows of 50 000 values (and of
 * 46 341, the first d whose d * d overflows an int, which used to end in a NegativeArraySizeException
 * after the fit), drawn as a scatter plot of the principal components of 256 evenly spaced columns and
 * as waveforms of 256 evenly spaced samples.
 */
class WideReportTest {
    /** Three groups of smooth clips of {@code d} samples, with a little noise. */
    static PointSet wide(int n, int d) {
        float[] x = new float[n * d];
        java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
        for (int i = 0; i < n; i++) {
            int g = i % 3;
            for (int j = 0; j < d; j++) x[i * d + j] = (float) (5 * Math.sin(j * 1e-3 * (g + 1)) + 0.3 * rng.nextDouble());
        }
        return PointSet.of(n, d, x);
    }

    @Test
    void theReportOf50RowsOf50000ValuesRendersInSecondsAndStaysSmall(@TempDir Path tmp) throws IOException {
        PointSet p = wide(50, 50_000);
        Path in = TestData.writeNpy(p, tmp.resolve("wide.npy"));
        Path out = tmp.resolve("out");
        long t0 = System.nanoTime();
        Cli.run("hdbscan", in.toString(), "--min-cluster-size", "5", "--out", out.toString(), "--report",
                out.resolve("report.html").toString(), "--waveforms", "-q").assertOk();
        double runSeconds = (System.nanoTime() - t0) / 1e9;
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.length() < 1_000_000, "the page does not grow with d: " + html.length());
        assertTrue(html.contains("256 of the 50,000 coordinates, evenly spaced"), "the projection says what it used");
        assertTrue(html.contains("Each line joins 256 of the 50,000 samples"), "so do the waveforms");
        // the rendering alone, as the command does it
        Hdbscan h = Hdbscan.builder().minClusterSize(5).build();
        HdbscanResult r = h.fit(p);
        long t1 = System.nanoTime();
        HtmlReport.render(HdbscanOutputs.reportData(h, r, p, null, Waveforms.channelMajor(50, 1, p.coordinates()),
                "wide.npy"));
        double renderSeconds = (System.nanoTime() - t1) / 1e9;
        assertTrue(renderSeconds < 5, "render took " + renderSeconds + " s");
        assertTrue(runSeconds < 60, "the whole run took " + runSeconds + " s");
        System.out.printf("WideReportTest: 50 x 50000: run %.2f s, report render %.3f s, %d bytes%n", runSeconds,
                renderSeconds, html.length());
    }

    @Test
    void dimensionsWhoseSquareOverflowsAnIntGiveAReportForHdbscanAndTheBallTree(@TempDir Path tmp) throws IOException {
        Path in = TestData.writeNpy(wide(50, 46_341), tmp.resolve("w.npy"));
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", in.toString(), "--min-cluster-size", "5", "--out", out.toString(), "--report",
                out.resolve("report.html").toString(), "-q").assertOk();
        assertTrue(Files.size(out.resolve("report.html")) > 1000);
        Path tree = tmp.resolve("tree");
        Cli.run("balltree", in.toString(), "--out", tree.toString(), "--report", tree.resolve("balls.html").toString(),
                "--report-level", "2", "-q").assertOk();
        assertTrue(Files.readString(tree.resolve("balls.html")).contains("ball-table"), "the radii in all dimensions");
    }
}
