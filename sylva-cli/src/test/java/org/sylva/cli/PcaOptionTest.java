package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.cli.report.HdbscanReportData;
import org.sylva.cli.report.Waveforms;
import org.sylva.data.PointSet;
import org.sylva.features.PrincipalComponents;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.io.Npy;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.MiniJson;

/**
 * {@code sylva hdbscan --pca K}: the fit is the library's HDBSCAN on the library's principal-component
 * scores, the outputs stay per input point, the summaries say that PCA ran, the report gets the input,
 * and a bad K is refused naming {@code --pca}.
 */
class PcaOptionTest {
    static final int N = 400;
    static final int K = 4;

    @TempDir
    static Path shared;
    static PointSet clips;
    static Path clipsNpy;

    @BeforeAll
    static void data() throws IOException {
        clips = TestData.clips(N);
        clipsNpy = TestData.writeNpy(clips, shared.resolve("clips.npy"));
    }

    /** HDBSCAN (min-cluster-size 10) on the scores of {@code k} components, computed by the library directly. */
    static HdbscanResult library(float[] x32, double[] x64, int n, int d, int k) {
        PrincipalComponents pc = x64 != null ? PrincipalComponents.fit(x64, n, d, k) : PrincipalComponents.fit(x32, n, d, k);
        double[] scores = x64 != null ? pc.project(x64, n) : pc.project(x32, n);
        return Hdbscan.builder().minClusterSize(10).build()
                .fit(scores, n, k, ProgressListener.NONE, CancellationToken.NEVER);
    }

    @Test
    void fitsTheLibrarysScoresAndWritesEveryOutputPerInputPoint(@TempDir Path tmp) throws IOException {
        HdbscanResult want = library(clips.coordinates(), null, N, clips.dimensions(), K);
        assertTrue(want.clusterCount() >= 2, "the test data should have clusters on its components");
        for (String threads : List.of("1", "2")) {
            Path out = tmp.resolve("t" + threads);
            Cli.Result r = Cli.run("hdbscan", clipsNpy.toString(), "--pca", Integer.toString(K), "--min-cluster-size",
                    "10", "--threads", threads, "--out", out.toString()).assertOk();
            HdbscanCommandTest.assertAllOutputs(out, ".npy");
            HdbscanCommandTest.assertSameAsLibrary(out, want);
            assertTrue(r.err().contains("pca: clustered on 4 principal components of the " + clips.dimensions()
                    + " coordinates ("), r.err());
            assertTrue(r.err().contains(", pca "), () -> "the time line has the PCA's seconds:\n" + r.err());
        }
    }

    @Test
    void float64InputIsProjectedFromItsFloat64Values(@TempDir Path tmp) throws IOException {
        int d = clips.dimensions();
        double[] x = new double[N * d];
        for (int i = 0; i < x.length; i++) x[i] = clips.coordinates()[i] + 1e-9 * (i % 7); // not float32 values
        Path in = tmp.resolve("x64.npy");
        Npy.writeFloat64(in, x, N, d);
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", in.toString(), "--pca", "3", "--min-cluster-size", "10", "--out", out.toString(), "-q")
                .assertOk();
        HdbscanCommandTest.assertSameAsLibrary(out, library(null, x, N, d, 3));
    }

    @Test
    void theJsonSummarySaysThatPcaRan(@TempDir Path tmp) {
        Cli.Result r = Cli.run("hdbscan", clipsNpy.toString(), "--pca", "2", "--min-cluster-size", "10", "--out",
                tmp.resolve("a").toString(), "--json", "-q").assertOk();
        Map<?, ?> m = (Map<?, ?>) MiniJson.parse(r.out().strip());
        assertEquals((double) clips.dimensions(), m.get("n_dims"), "n_dims stays the input's");
        Map<?, ?> pca = (Map<?, ?>) m.get("pca");
        assertEquals(2.0, pca.get("n_components"));
        List<?> ratio = (List<?>) pca.get("explained_variance_ratio");
        assertEquals(2, ratio.size());
        double sum = (Double) ratio.get(0) + (Double) ratio.get(1);
        assertEquals(sum, (Double) pca.get("explained_variance_ratio_sum"), 1e-12);
        assertTrue(sum > 0 && sum <= 1, "ratio " + sum);
        assertTrue(((Map<?, ?>) m.get("seconds")).containsKey("pca"));

        Cli.Result plain = Cli.run("hdbscan", clipsNpy.toString(), "--min-cluster-size", "10", "--out",
                tmp.resolve("b").toString(), "--json", "-q").assertOk();
        Map<?, ?> p = (Map<?, ?>) MiniJson.parse(plain.out().strip());
        assertTrue(p.containsKey("pca") && p.get("pca") == null, "\"pca\": null without --pca");
        assertFalse(((Map<?, ?>) p.get("seconds")).containsKey("pca"));
    }

    @Test
    void theReportGetsTheInputPointsAndNotesThePca() {
        HdbscanResult r = library(clips.coordinates(), null, N, clips.dimensions(), K);
        PcaFeatures f = PcaFeatures.of(new InputOptions.Loaded(clips, null, "float32"), K, Execution.sequential());
        Waveforms w = Waveforms.channelMajor(N, 1, clips.coordinates());
        HdbscanReportData data = HdbscanOutputs.reportData(Hdbscan.builder().minClusterSize(10).build(), r, clips, f,
                w, "clips.npy");
        assertSame(clips.coordinates(), data.coords(), "the waveforms and the scatter plot are the input's");
        assertEquals(clips.dimensions(), data.d());
        assertSame(w, data.waveforms(), "the clips drawn are the input's");
        assertTrue(data.parameters().get("principal components").startsWith("4 components ("),
                () -> "parameters: " + data.parameters());
        assertNull(HdbscanOutputs.reportData(Hdbscan.builder().build(), r, clips, null, null, "x").parameters()
                .get("principal components"));
    }

    @Test
    void aComponentCountOutsideOneToTheDimensionsIsRefusedNamingPca(@TempDir Path tmp) throws IOException {
        int d = clips.dimensions();
        for (String k : List.of("0", Integer.toString(d + 1), "-2")) {
            Path out = tmp.resolve("k" + k);
            String line = Cli.run("hdbscan", clipsNpy.toString(), "--pca", k, "--out", out.toString())
                    .assertError("n_components must be between 1 and the number of dimensions, " + d + "; got " + k,
                            "(option --pca)");
            assertTrue(line.contains(clipsNpy.toString()), line);
            assertEquals(List.of(), Cli.list(out), "no output on error");
        }
    }

    @Test
    void nonFiniteRowsAreRefusedEvenWithNonFiniteSklearn(@TempDir Path tmp) throws IOException {
        int d = clips.dimensions();
        float[] x = clips.coordinates().clone();
        x[7 * d + 3] = Float.NaN;
        Path in = tmp.resolve("nan.npy");
        Npy.writeFloat32(in, x, N, d);
        Cli.run("hdbscan", in.toString(), "--pca", "3", "--non-finite", "sklearn", "--out", tmp.resolve("o").toString())
                .assertError("row 7, column 3", "NaN", "--pca needs finite coordinates");
        assertFalse(Files.exists(tmp.resolve("o").resolve("labels.npy")));
    }
}
