package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.cli.HdbscanCommandTest.s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.metric.KdTreeEngine;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.io.Npy;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
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
    void aModelOfAnotherMetricPredictsByIt(@TempDir Path tmp) throws IOException {
        Path model = tmp.resolve("m.model");
        Cli.run("hdbscan", s(npy), "--metric", "minkowski", "--p", "3", "--min-cluster-size", "10", "--out",
                s(tmp.resolve("fit")), "--save-model", s(model), "-q").assertOk();
        HdbscanResult r = library(Metric.minkowski(3));
        org.sylva.hdbscan.predict.HdbscanModel want = org.sylva.hdbscan.predict.HdbscanModel.of(r, points);
        assertArrayEquals(want.toBytes(), Files.readAllBytes(model));
        PointSet fresh = TestData.blob(60, 4, 12);
        Path freshNpy = TestData.writeNpy(fresh, tmp.resolve("fresh.npy"));
        Path out = tmp.resolve("assigned");
        Cli.run("predict", s(model), s(freshNpy), "--out", s(out), "-q").assertOk();
        var p = want.approximatePredict(fresh);
        assertArrayEquals(p.labels(), Npy.read(out.resolve("labels.npy")).toInt32());
        assertArrayEquals(p.probabilities(), Npy.read(out.resolve("probabilities.npy")).toFloat64());
        assertArrayEquals(want.membershipVector(fresh).values(), Npy.read(out.resolve("membership.npy")).toFloat64());
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
            // the engine the library's fit ran on: on 300 points the k-d tree's probe may find a scan cheaper
            HdbscanResult lib = library(metrics[i]);
            String engine = KdTreeEngine.ranOnTree(lib.timings().seconds()) ? "k-d tree" : "brute-force";
            assertTrue(r.err().contains("metric: " + metrics[i].describe() + " (exact " + engine + " engine)"), r.err());
            HdbscanCommandTest.assertSameAsLibrary(out, lib);
        }
        Path many = TestData.writeNpy(TestData.blob(6000, 2, 12), shared.resolve("many.npy"));
        Cli.Result r = Cli.run("hdbscan", s(many), "--metric", "chebyshev", "--out", s(tmp.resolve("many"))).assertOk();
        assertTrue(r.err().contains("metric: chebyshev (exact k-d tree engine)"), r.err());
    }

    /** {@code --json}'s backend names the engine that ran: above 16 dimensions the k-d tree hands to a scan. */
    @Test
    void jsonNamesTheEngineThatRan(@TempDir Path tmp) throws IOException {
        Path wide = TestData.writeNpy(TestData.blob(200, 20, 13), tmp.resolve("wide.npy"));
        Path narrow = TestData.writeNpy(TestData.blob(6000, 2, 12), tmp.resolve("narrow.npy"));
        for (Path in : List.of(wide, narrow)) {
            Cli.Result r = Cli.run("hdbscan", s(in), "--metric", "manhattan", "--out", s(tmp.resolve("o")), "--json",
                    "-q").assertOk();
            Object backend = ((Map<?, ?>) MiniJson.parse(r.out().trim())).get("backend");
            assertEquals(in == wide ? "cpu/brute-force/manhattan" : "cpu/kd-tree/manhattan", backend);
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

    /**
     * Missing distances ({@code inf}) in a dense matrix: the library's fit, with a warning where the tree needs an
     * infinite edge, and none where it does not.
     */
    @Test
    void infinityInAMatrixIsAMissingDistanceAndAnInfiniteEdgeIsWarnedOf(@TempDir Path tmp) throws IOException {
        double[] m = Npy.read(matrix).toFloat64();
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++) if ((i < 150) != (j < 150)) m[i * N + j] = Double.POSITIVE_INFINITY;
        }
        Path split = tmp.resolve("split.npy");
        Npy.writeFloat64(split, m, N, N);
        Path out = tmp.resolve("o");
        Cli.Result r = Cli.run("hdbscan", s(split), "--metric", "precomputed", "--min-cluster-size", "10", "--out",
                s(out), "-q").assertOk();
        assertTrue(r.err().contains("sylva: warning: the spanning tree has 1 edge of infinite weight"), r.err());
        HdbscanResult want = Hdbscan.builder().metric(Metric.precomputed()).minClusterSize(10).build()
                .fit(m, N, N, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(want.labels(), Npy.read(out.resolve("labels.npy")).toInt32());
        assertArrayEquals(want.spanningTree().toMatrix(), Npy.read(out.resolve("mst.npy")).toFloat64());
        double[] one = Npy.read(matrix).toFloat64();
        one[3 * N + 5] = one[5 * N + 3] = Double.POSITIVE_INFINITY;   // a pair the tree does not need
        Npy.writeFloat64(split, one, N, N);
        r = Cli.run("hdbscan", s(split), "--metric", "precomputed", "--min-cluster-size", "10", "--out", s(out), "-q")
                .assertOk();
        assertFalse(r.err().contains("infinite weight"), r.err());
        r = Cli.run("hdbscan", s(split), "--metric", "precomputed", "--alpha", "0.5", "--min-cluster-size", "10",
                "--out", s(out), "-q").assertOk();
        assertFalse(r.err().contains("infinite weight"), r.err());
    }

    /** Distances divided by a tiny alpha overflow: the warning names that cause, not missing distances. */
    @Test
    void anAlphaThatOverflowsTheDistancesIsWarnedOfAsSuch(@TempDir Path tmp) {
        Path out = tmp.resolve("o");
        Cli.Result r = Cli.run("hdbscan", s(npy), "--alpha", "1e-310", "--out", s(out), "-q").assertOk();
        assertTrue(r.err().contains("edges of infinite weight: distances divided by --alpha 1.0E-310 overflow "
                + "float64, so those points join the rest at lambda 0"), r.err());
        assertFalse(r.err().contains("missing"), r.err());
        r = Cli.run("hdbscan", s(matrix), "--metric", "precomputed", "--alpha", "1e-310", "--out", s(out), "-q")
                .assertOk();
        assertTrue(r.err().contains("only through missing distances (inf) or distances divided by --alpha 1.0E-310 "
                + "overflow float64, at lambda 0"), r.err());
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
    void refusesWhatNeedsCoordinatesBeforeReading(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        for (String[] extra : new String[][] {{"--save-model", s(tmp.resolve("m.model"))}, {"--pca", "2"}, {"--centers", "both"},
                {"--report", s(tmp.resolve("r.html"))}}) {
            Cli.run("hdbscan", s(matrix), "--metric", "precomputed", "--out", s(out), extra[0], extra[1])
                    .assertError(extra[0] + " needs coordinates");
        }
        Cli.assertNothingWritten(out);
    }

    /** A {@code scipy.sparse.save_npz} file of the CSR arrays, written as scipy writes it (the format a 0-d {@code |S3}). */
    static Path saveNpz(Path p, int n, int[] indptr, int[] indices, double[] data) throws IOException {
        try (var z = new java.util.zip.ZipOutputStream(Files.newOutputStream(p))) {
            java.util.function.BiConsumer<String, org.sylva.io.NpyArray> put = (name, a) -> {
                try {
                    z.putNextEntry(new java.util.zip.ZipEntry(name));
                    Npy.write(z, a);
                    z.closeEntry();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            };
            put.accept("indices.npy", org.sylva.io.NpyArray.ofInt32(indices, indices.length));
            put.accept("indptr.npy", org.sylva.io.NpyArray.ofInt32(indptr, indptr.length));
            String header = "{'descr': '|S3', 'fortran_order': False, 'shape': (), }";
            StringBuilder h = new StringBuilder(header);
            while ((10 + h.length() + 1) % 64 != 0) h.append(' ');
            h.append('\n');
            z.putNextEntry(new java.util.zip.ZipEntry("format.npy"));
            z.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) h.length(), 0});
            z.write((h + "csr").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            z.closeEntry();
            put.accept("shape.npy", org.sylva.io.NpyArray.ofInt64(new long[] {n, n}, 2));
            put.accept("data.npy", org.sylva.io.NpyArray.ofFloat64(data, data.length));
        }
        return p;
    }

    /** The N x N matrix {@code m} as a sparse matrix file that stores every entry, the diagonal included. */
    static Path saveEveryPair(Path p, double[] m) throws IOException {
        int[] indptr = new int[N + 1], indices = new int[N * N];
        for (int i = 0; i < N; i++) {
            indptr[i + 1] = (i + 1) * N;
            for (int j = 0; j < N; j++) indices[i * N + j] = j;
        }
        return saveNpz(p, N, indptr, indices, m);
    }

    /** A sparse matrix among several inputs: taken as alone, its folder what a separate run writes. */
    @Test
    void aSparseDistanceMatrixIsOneOfSeveralInputs(@TempDir Path tmp) throws IOException {
        double[] m = Npy.read(matrix).toFloat64();
        Path g = saveEveryPair(tmp.resolve("g.npz"), m);
        Path out = tmp.resolve("both");
        Cli.run("hdbscan", s(matrix), s(g), "--metric", "precomputed", "--out", s(out), "-q").assertOk();
        Path single = tmp.resolve("single");
        Cli.run("hdbscan", s(g), "--metric", "precomputed", "--out", s(single), "-q").assertOk();
        for (String f : List.of("labels.npy", "mst.npy", "condensed_tree.npy")) {
            assertArrayEquals(Files.readAllBytes(single.resolve(f)), Files.readAllBytes(out.resolve("g").resolve(f)), f);
        }
        Cli.run("verify", s(out.resolve(InputBatch.folderName(matrix)))).assertOk();
    }

    @Test
    void aSparseDistanceMatrixFileIsFittedAsTheLibraryFitsItsGraph(@TempDir Path tmp) throws IOException {
        // every pair of the dense matrix and its diagonal, stored: the dense matrix's fit, bitwise
        double[] m = Npy.read(matrix).toFloat64();
        Path g = saveEveryPair(tmp.resolve("g.npz"), m);
        Path out = tmp.resolve("graph");
        Cli.Result r = Cli.run("hdbscan", s(g), "--metric", "precomputed", "--min-cluster-size", "10", "--out", s(out))
                .assertOk();
        assertTrue(r.err().contains(N + " points of a sparse distance matrix") && r.err().contains("sparse-graph"),
                r.err());
        HdbscanCommandTest.assertSameAsLibrary(out, Hdbscan.builder().minClusterSize(10).metric(Metric.precomputed())
                .build().fit(m, N, N, org.sylva.progress.ProgressListener.NONE,
                        org.sylva.progress.CancellationToken.NEVER));
        // a row with too few distances, a missing partner, and the options a graph cannot take: refused, nothing written
        Path bad = tmp.resolve("bad");
        Path sparse = saveNpz(tmp.resolve("s.npz"), 3, new int[] {0, 1, 3, 4}, new int[] {1, 0, 2, 1},
                new double[] {1, 1, 2, 2});
        Cli.run("hdbscan", s(sparse), "--metric", "precomputed", "--min-cluster-size", "2", "--min-samples", "2",
                "--out", s(bad)).assertError("s.npz", "point 0 has 1 stored distances", "--min-samples");
        Path half = saveNpz(tmp.resolve("h.npz"), 3, new int[] {0, 1, 2, 2}, new int[] {1, 2}, new double[] {1, 2});
        Cli.run("hdbscan", s(half), "--metric", "precomputed", "--min-cluster-size", "2", "--min-samples", "1",
                "--out", s(bad)).assertError("h.npz", "entry (0, 1) is stored but (1, 0) is not");
        Cli.run("bench", "hdbscan", s(half), "--metric", "precomputed", "--min-cluster-size", "2", "--min-samples", "1",
                "--repeat", "1", "--warmup", "0").assertError("h.npz", "entry (0, 1) is stored but (1, 0) is not");
        Cli.run("hdbscan", s(sparse), "--metric", "precomputed", "--out", s(bad), "--sample-weight", s(npy))
                .assertError("sample weights are supported with the euclidean metric only");
        Cli.assertNothingWritten(bad);
        // without --metric precomputed the same file is its rows as dense points
        Path dense = tmp.resolve("dense");
        Cli.run("hdbscan", s(g), "--min-cluster-size", "10", "--out", s(dense), "-q").assertOk();
        HdbscanCommandTest.assertSameAsLibrary(dense, Hdbscan.builder().minClusterSize(10).build()
                .fit(m, N, N, org.sylva.progress.ProgressListener.NONE, org.sylva.progress.CancellationToken.NEVER));
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
