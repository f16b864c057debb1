package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.cli.HdbscanCommandTest.s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.io.Npy;
import org.sylva.testsupport.MiniJson;

/**
 * {@code sylva hdbscan --metric NAME [--p P]}: every metric's outputs are the library's, the metric shows in
 * the summary and the JSON parameters, a precomputed matrix gives the Euclidean fit's bytes, and bad
 * metrics, exponents and matrices, and the options that need Euclidean coordinates, are refused with exit 2
 * and one line.
 */
class HdbscanMetricCommandTest {
    static final int N = 300;

    @TempDir
    static Path shared;
    static PointSet points;
    static Path npy;
    static Path matrix;

    @BeforeAll
    static void data() throws IOException {
        points = TestData.blob(N, 4, 11);
        npy = TestData.writeNpy(points, shared.resolve("points.npy"));
        double[] x = points.coordinates64();
        PairDistances e = Metric.euclidean().pairs(x, N, 4);
        double[] m = new double[N * N];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) m[i * N + j] = e.between(i, j);
        }
        matrix = shared.resolve("distances.npy");
        Npy.writeFloat64(matrix, m, N, N);
    }

    private static HdbscanResult library(Metric m) {
        return Hdbscan.builder().minClusterSize(10).metric(m).build().fit(points);
    }

    @Test
    void everyMetricWritesTheLibrarysOutputs(@TempDir Path tmp) throws IOException {
        String[][] runs = {{"manhattan"}, {"chebyshev"}, {"minkowski", "--p", "3"}, {"cosine"}};
        Metric[] metrics = {Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3), Metric.cosine()};
        for (int i = 0; i < runs.length; i++) {
            Path out = tmp.resolve(runs[i][0]);
            String[] base = {"hdbscan", s(npy), "--min-cluster-size", "10", "--out", s(out), "--metric"};
            String[] args = new String[base.length + runs[i].length];
            System.arraycopy(base, 0, args, 0, base.length);
            System.arraycopy(runs[i], 0, args, base.length, runs[i].length);
            Cli.Result r = Cli.run(args).assertOk();
            assertTrue(r.err().contains("metric: " + metrics[i].describe() + " (exact brute-force engine)"), r.err());
            HdbscanCommandTest.assertSameAsLibrary(out, library(metrics[i]));
        }
    }

    @Test
    void jsonNamesTheMetricAndItsParams(@TempDir Path tmp) {
        Cli.Result r = Cli.run("hdbscan", s(npy), "--min-cluster-size", "10", "--metric", "minkowski", "--p", "3",
                "--out", s(tmp.resolve("o")), "--json", "-q").assertOk();
        Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) MiniJson.parse(r.out().trim())).get("parameters");
        assertEquals("minkowski", params.get("metric"));
        assertEquals(Map.of("p", 3.0), params.get("metric_params"));
        Cli.Result e = Cli.run("hdbscan", s(npy), "--min-cluster-size", "10", "--out", s(tmp.resolve("e")), "--json",
                "-q").assertOk();
        Map<?, ?> ep = (Map<?, ?>) ((Map<?, ?>) MiniJson.parse(e.out().trim())).get("parameters");
        assertEquals("euclidean", ep.get("metric"));
        assertTrue(ep.containsKey("metric_params") && ep.get("metric_params") == null);
    }

    @Test
    void precomputedEuclideanMatrixGivesTheEuclideanBytes(@TempDir Path tmp) throws IOException {
        Path a = tmp.resolve("a"), b = tmp.resolve("b");
        Cli.run("hdbscan", s(npy), "--min-cluster-size", "10", "--out", s(a), "-q").assertOk();
        Cli.run("hdbscan", s(matrix), "--min-cluster-size", "10", "--metric", "precomputed", "--out", s(b), "-q")
                .assertOk();
        for (String f : HdbscanCommandTest.OUTPUTS) {
            assertArrayEquals(Files.readAllBytes(a.resolve(f + ".npy")), Files.readAllBytes(b.resolve(f + ".npy")), f);
        }
    }

    @Test
    void refusesBadMetricsExponentsAndMatrices(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Cli.run("hdbscan", s(npy), "--metric", "hamming", "--out", s(out)).assertError("unknown metric 'hamming'",
                "--metric");
        Cli.run("hdbscan", s(npy), "--metric", "minkowski", "--p", "0.5", "--out", s(out)).assertError("p >= 1", "--p");
        Cli.run("hdbscan", s(npy), "--metric", "cosine", "--p", "3", "--out", s(out)).assertError("minkowski", "--p");
        Cli.run("hdbscan", s(npy), "--metric", "precomputed", "--out", s(out)).assertError("points.npy", "square",
                "300 x 4");
        double[] m = Npy.read(matrix).toFloat64();
        m[3 * N + 5] = Double.NaN;
        Path nan = tmp.resolve("nan.npy");
        Npy.writeFloat64(nan, m, N, N);
        Cli.run("hdbscan", s(nan), "--metric", "precomputed", "--out", s(out)).assertError("nan.npy", "(3, 5)", "NaN");
        m[3 * N + 5] = -1;
        Npy.writeFloat64(nan, m, N, N);
        Cli.run("hdbscan", s(nan), "--metric", "precomputed", "--out", s(out)).assertError("(3, 5)", ">= 0");
        m[3 * N + 5] = m[5 * N + 3] + 1;
        Npy.writeFloat64(nan, m, N, N);
        Cli.run("hdbscan", s(nan), "--metric", "precomputed", "--out", s(out)).assertError("not symmetric", "(3, 5)");
        Cli.assertNothingWritten(out);
    }

    @Test
    void refusesWhatNeedsEuclideanCoordinatesBeforeReading(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Cli.run("hdbscan", s(npy), "--metric", "manhattan", "--out", s(out), "--save-model", s(tmp.resolve("m.model")))
                .assertError("--save-model needs the euclidean metric");
        for (String[] extra : new String[][] {{"--pca", "2"}, {"--centers", "both"},
                {"--report", s(tmp.resolve("r.html"))}}) {
            Cli.run("hdbscan", s(matrix), "--metric", "precomputed", "--out", s(out), extra[0], extra[1])
                    .assertError(extra[0] + " needs coordinates");
        }
        Cli.assertNothingWritten(out);
    }

    @Test
    void centresFollowTheMetric(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Cli.run("hdbscan", s(npy), "--min-cluster-size", "10", "--metric", "chebyshev", "--centers", "medoid", "--out",
                s(out), "-q").assertOk();
        HdbscanResult r = library(Metric.chebyshev());
        assertArrayEquals(r.centers(points, org.sylva.hdbscan.quality.CenterKind.MEDOID).medoids(),
                Npy.read(out.resolve("medoids.npy")).toFloat64());
    }
}
