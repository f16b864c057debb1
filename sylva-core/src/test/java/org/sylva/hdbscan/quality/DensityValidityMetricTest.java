package org.sylva.hdbscan.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.io.Npy;

/**
 * DBCV under other metrics than Euclidean against the {@code hdbscan} package's
 * {@code validity_index(X, labels, metric=...)} (0.8.43), to 1e-12 as {@link ValidityOracleTest}: reference
 * values written by {@code scripts/validity-metric-oracle.py} into the test resources. A fit's
 * {@link HdbscanResult#validityIndex} takes the fit's metric; a precomputed fit is refused.
 */
class DensityValidityMetricTest {
    private static final double TOL = 1e-12;
    private static final String DIR = "/org/sylva/hdbscan/validity-metrics/";

    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of("manhattan", Metric.manhattan()), Arguments.of("chebyshev", Metric.chebyshev()),
                Arguments.of("minkowski3", Metric.minkowski(3)), Arguments.of("cosine", Metric.cosine()));
    }

    private static double[] f64(Path tmp, String name) throws IOException {
        return Npy.read(resource(tmp, name)).toFloat64();
    }

    private static Path resource(Path tmp, String name) throws IOException {
        Path f = tmp.resolve(name);
        try (InputStream in = DensityValidityMetricTest.class.getResourceAsStream(DIR + name)) {
            Files.copy(in, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return f;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isThePackagesValidityIndexUnderTheMetric(String name, Metric metric, @TempDir Path tmp) throws IOException {
        double[] x = f64(tmp, "X.npy");
        int[] labels = Npy.read(resource(tmp, "labels.npy")).toInt32();
        double[] want = f64(tmp, name + ".npy");   // the index, then each cluster's value
        PointSet points = PointSet.ofFloat64(labels.length, 3, x);
        Validity v = DensityValidity.of(points, labels, metric);
        assertEquals(want[0], v.index(), TOL, name + " validity_index");
        assertEquals(want.length - 1, v.perCluster().length);
        for (int c = 0; c < v.perCluster().length; c++) {
            assertEquals(want[c + 1], v.perCluster()[c], TOL, name + " cluster " + c);
        }
        double euclidean = DensityValidity.of(points, labels).index();
        assertTrue(Math.abs(euclidean - v.index()) > 1e-5, "the metric changes the index: " + euclidean);
    }

    @Test
    void aFitsValidityIndexTakesItsMetric(@TempDir Path tmp) throws IOException {
        double[] x = f64(tmp, "X.npy");
        PointSet points = PointSet.ofFloat64(x.length / 3, 3, x);
        HdbscanResult r = Hdbscan.builder().minClusterSize(10).metric(Metric.manhattan()).build().fit(points);
        assertEquals(DensityValidity.of(points, r.labels(), Metric.manhattan()).index(), r.validityIndex(points).index());
        int n = points.size();
        double[] matrix = new double[n * n];
        var pd = Metric.euclidean().pairs(x, n, 3);
        for (int a = 0; a < n; a++) for (int b = 0; b < n; b++) matrix[a * n + b] = pd.between(a, b);
        PointSet mp = PointSet.ofFloat64(n, n, matrix);
        HdbscanResult pre = Hdbscan.builder().minClusterSize(10).metric(Metric.precomputed()).build().fit(mp);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> pre.validityIndex(mp));
        assertEquals("metric", e.parameter().orElseThrow());
    }

    /**
     * On a precomputed matrix, the package's {@code validity_index(D, labels, metric="precomputed", d=...)}: the
     * matrix of a metric's distances with {@code d} its features gives bitwise that metric's index; no {@code d},
     * a matrix that is not square or not a distance matrix is refused.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void onADistanceMatrixIsTheMetricsIndex(String name, Metric metric, @TempDir Path tmp) throws IOException {
        double[] x = f64(tmp, "X.npy");
        int[] labels = Npy.read(resource(tmp, "labels.npy")).toInt32();
        int n = labels.length;
        PointSet points = PointSet.ofFloat64(n, 3, x);
        var pd = metric.pairs(points.coordinates64(), n, 3);
        double[] matrix = new double[n * n];
        for (int a = 0; a < n; a++) for (int b = 0; b < n; b++) matrix[a * n + b] = pd.between(a, b);
        Validity want = DensityValidity.of(points, labels, metric);
        Validity got = DensityValidity.ofDistances(matrix, n, labels, 3, org.sylva.progress.CancellationToken.NEVER);
        assertEquals(want.index(), got.index(), 0.0, name);
        org.junit.jupiter.api.Assertions.assertArrayEquals(want.perCluster(), got.perCluster(), 0.0, name);
        double other = DensityValidity.ofDistances(matrix, n, labels, 5, org.sylva.progress.CancellationToken.NEVER)
                .index();
        assertTrue(Math.abs(other - want.index()) > 1e-9, "d is the core distances' exponent: " + other);
        InvalidInputException zero = assertThrows(InvalidInputException.class, () -> DensityValidity.ofDistances(matrix,
                n, labels, 0, org.sylva.progress.CancellationToken.NEVER));
        assertEquals("d", zero.parameter().orElseThrow());
        double[] negative = matrix.clone();
        negative[1] = negative[n] = -1;
        assertThrows(InvalidInputException.class, () -> DensityValidity.ofDistances(negative, n, labels, 3,
                org.sylva.progress.CancellationToken.NEVER));
        assertThrows(InvalidInputException.class, () -> DensityValidity.ofDistances(x, n, labels, 3,
                org.sylva.progress.CancellationToken.NEVER));
    }

    /** A token stops the computation within a member's pass (a single cluster of 22 000 took 13 s unstoppable). */
    @Test
    void aTokenStopsIt(@TempDir Path tmp) throws IOException {
        double[] x = f64(tmp, "X.npy");
        PointSet points = PointSet.ofFloat64(x.length / 3, 3, x);
        int[] labels = Hdbscan.builder().minClusterSize(10).build().fit(points).labels();
        Validity whole = DensityValidity.of(points, labels, Metric.euclidean());
        java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
        org.sylva.progress.CancellationToken counting = org.sylva.progress.CancellationToken.polling(() -> {
            looks.incrementAndGet();
            return false;
        });
        assertEquals(whole.index(), DensityValidity.of(points, labels, Metric.euclidean(), counting).index());
        int total = looks.get();
        // once per member in each of a cluster's three passes (core distances, Prim's steps, the re-attachment),
        // and once per internal node of the first cluster of each pair: every O(m^2) loop looks
        int[][] members = Members.of(labels, points.size());
        RowDistance dist = RowDistance.of(points, Metric.euclidean());
        int expected = 0;
        int[] internal = new int[members.length];
        for (int c = 0; c < members.length; c++) {
            int m = members[c].length;
            expected += m + (m - 1) + Math.max(0, m - 2);
            internal[c] = InternalTree.of(dist, 3, members[c], org.sylva.progress.CancellationToken.NEVER).internal().length;
        }
        for (int a = 0; a < members.length; a++) expected += (members.length - 1 - a) * internal[a];
        assertTrue(members.length >= 3, "clusters: " + members.length);
        assertEquals(expected, total, "looks at the token");
        for (int at : new int[] {1, total / 2, total}) {
            java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
            org.sylva.progress.CancellationToken later = org.sylva.progress.CancellationToken.polling(
                    () -> seen.incrementAndGet() >= at);
            assertThrows(org.sylva.progress.CancelledException.class,
                    () -> DensityValidity.of(points, labels, Metric.euclidean(), later), "cancelled at look " + at);
        }
    }
}
