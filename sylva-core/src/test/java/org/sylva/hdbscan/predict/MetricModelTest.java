package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Models of fits with another metric than Euclidean measure new points by that metric: each new point's
 * neighbours and connecting point are those of a brute-force scan written out here (the metric's arithmetic in
 * its documented order); the fitted points given as new points get their labels back; the exemplars' nearest
 * distance is the one-by-one scan's; the model is saved as format version 5 with its metric and reads back to
 * the same bytes and answers, from which the fit's result is rebuilt bitwise; answers do not depend on threads.
 */
class MetricModelTest {
    private static Execution threads(int t) {
        return new Execution(t, ProgressListener.NONE, CancellationToken.NEVER);
    }

    static Stream<Metric> metrics() {
        return Stream.of(Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3), Metric.cosine());
    }

    /** The metric's distance between {@code a} and {@code b} as {@link Metric} documents it (cosine: of unit rows). */
    private static double distance(Metric m, double[] a, double[] b) {
        double s = 0;
        switch (m.kind()) {
            case MANHATTAN -> { for (int j = 0; j < a.length; j++) s += Math.abs(a[j] - b[j]); }
            case CHEBYSHEV -> { for (int j = 0; j < a.length; j++) s = Math.max(s, Math.abs(a[j] - b[j])); }
            case MINKOWSKI -> {
                for (int j = 0; j < a.length; j++) s += StrictMath.pow(Math.abs(a[j] - b[j]), m.p());
                s = StrictMath.pow(s, 1.0 / m.p());
            }
            case COSINE -> {
                double[] u = unit(a), v = unit(b);
                for (int j = 0; j < a.length; j++) s += u[j] * v[j];
                s = Math.min(Math.max(1 - s, 0.0), 2.0);
            }
            default -> throw new IllegalArgumentException(m.name());
        }
        return s;
    }

    private static double[] unit(double[] x) {
        double s = 0;
        for (double v : x) s += v * v;
        double norm = Math.sqrt(s);
        if (norm < 10 * Math.ulp(1.0)) norm = 1;
        double[] u = new double[x.length];
        for (int j = 0; j < x.length; j++) u[j] = x[j] / norm;
        return u;
    }

    private static double[] blobs(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(3);
            for (int j = 0; j < d; j++) x[i * d + j] = 8 * ((c + j) % 3) + 1 + r.nextGaussian();
        }
        return x;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("metrics")
    void newPointsAreMeasuredByTheFitsMetric(Metric metric) throws IOException {
        int n = 300, d = 3, ms = 6;
        double[] x = blobs(n, d, 41);
        PointSet pts = PointSet.ofFloat64(n, d, x);
        Hdbscan h = Hdbscan.builder().minClusterSize(10).minSamples(ms).metric(metric).threads(2).build();
        HdbscanResult fit = h.fit(pts);
        HdbscanModel model = HdbscanModel.of(fit, pts, threads(2));
        assertTrue(model.clusterCount() >= 2, "clusters: " + model.clusterCount());

        // the fitted points given as new points: their own labels, and (each coinciding with itself, at distance 0)
        // their own outlier scores (the rows are all distinct)
        Prediction self = model.approximatePredict(pts, threads(2));
        assertArrayEquals(model.labels(), self.labels());
        assertArrayEquals(model.outlierScores(), self.outlierScores());

        int m = 200;
        double[] q = blobs(m, d, 42);
        for (int i = 0; i < m; i += 10) q[i * d] += 20;   // some far from every cluster
        PointSet fresh = PointSet.ofFloat64(m, d, q);
        Prediction p = model.approximatePredict(fresh, threads(3));
        double[] core = model.predictionCoreDistances();
        int s = ms - 1, k = Math.max(2 * s, s + 1);
        for (int i = 0; i < m; i++) {
            double[] qi = Arrays.copyOfRange(q, i * d, i * d + d);
            Integer[] order = new Integer[n];
            double[] dist = new double[n];
            for (int b = 0; b < n; b++) {
                order[b] = b;
                dist[b] = distance(metric, qi, Arrays.copyOfRange(x, b * d, b * d + d));
            }
            Arrays.sort(order, (a, b) -> dist[a] != dist[b] ? Double.compare(dist[a], dist[b]) : Integer.compare(a, b));
            double own = dist[order[s]];
            int best = -1;
            double bestMr = Double.POSITIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                double mr = Math.max(Math.max(core[order[j]], own), dist[order[j]]);
                if (mr < bestMr) {
                    bestMr = mr;
                    best = order[j];
                }
            }
            assertEquals(best, p.connectingPoints()[i], metric.name() + ": connecting point of new point " + i);
        }

        // threads, and the model file: version 5 with the metric, the same bytes and answers again
        assertEquals(p, model.approximatePredict(fresh, threads(1)));
        Membership soft = model.membershipVector(fresh, threads(2));
        assertEquals(soft, model.membershipVector(fresh, threads(1)));
        byte[] bytes = model.toBytes();
        assertEquals(ModelFile.VERSION_5, ByteBuffer.wrap(bytes, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        HdbscanModel back = HdbscanModel.fromBytes(bytes, "metric.model");
        assertEquals(metric, back.parameters().metric());
        assertArrayEquals(bytes, back.toBytes());
        assertEquals(p, back.approximatePredict(fresh, threads(2)));
        assertEquals(soft, back.membershipVector(fresh, threads(2)));
        assertEquals(model.allPointsMembershipVectors(threads(1)), back.allPointsMembershipVectors(threads(2)));
        HdbscanModel.Answers both = back.predictWithMembership(fresh, threads(2));
        assertEquals(p, both.prediction());
        assertEquals(soft, both.membership());
        // reselected: the metric kept, through the file too
        HdbscanModel leaf = back.reselect(back.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF)
                .build().parameters());
        assertEquals(metric, leaf.parameters().metric());
        HdbscanModel leafBack = HdbscanModel.fromBytes(leaf.toBytes(), "leaf.model");
        assertEquals(leaf.approximatePredict(fresh, threads(2)), leafBack.approximatePredict(fresh, threads(1)));
        assertArrayEquals(fit.reselect(leaf.parameters()).labels(), leafBack.labels());

        org.sylva.testsupport.SameResult.assertSameResult(fit, HdbscanResult.of(back, threads(2)), metric.name());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("metrics")
    void theNearestExemplarIsTheOneByOneScans(Metric metric) {
        int n = 400, d = 3;
        double[] x = blobs(n, d, 43);
        HdbscanResult r = Hdbscan.builder().minClusterSize(5).minSamples(3).metric(metric).build()
                .fit(PointSet.ofFloat64(n, d, x));
        HdbscanResult leaf = r.reselect(r.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build());
        ClusterTree ct = new ClusterTree(leaf.condensedTree(), leaf.selectedClusters());
        PairDistances pd = metric.pairs(x, n, d);
        var kernel = KernelProvider.get().bestDistance();
        Exemplars e = Exemplars.of(leaf.condensedTree(), ct, x, d, kernel.blockWidth(), null, pd);
        assertTrue(e.clusters() >= 3, "clusters: " + e.clusters());
        double[] q = blobs(30, d, 44);
        double[] prepared = pd.queries(q, 30);
        double[] tile = new double[e.tileLength()];
        for (int i = 0; i < 30; i++) {
            double[] qi = Arrays.copyOfRange(q, i * d, i * d + d);
            for (int l = 0; l < e.clusters(); l++) {
                double want = Double.MAX_VALUE;
                for (int pt : e.points(l)) want = Math.min(want, distance(metric, qi, Arrays.copyOfRange(x, pt * d, pt * d + d)));
                assertEquals(want, e.minDistance(l, prepared, i * d, tile, kernel), metric.name() + " cluster " + l);
            }
        }
    }

    @Test
    void aFileWithABadMetricAndAnOverflowingNewPointAreRefused() {
        int n = 200, d = 2;
        double[] x = blobs(n, d, 45);
        PointSet pts = PointSet.ofFloat64(n, d, x);
        HdbscanModel model = HdbscanModel.of(Hdbscan.builder().minClusterSize(8).metric(Metric.minkowski(3)).build()
                .fit(pts), pts, threads(1));
        byte[] good = model.toBytes();
        int metricAt = ModelFile.HEADER + 42;
        byte[] kind = good.clone();
        kind[metricAt] = 9;
        assertRefused(kind, "bad metric byte (9)");
        byte[] p = good.clone();
        ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).putDouble(metricAt + 1, 0.5);
        assertRefused(p, "bad p (0.5) for the metric minkowski");
        byte[] manhattanP = good.clone();
        manhattanP[metricAt] = 1;   // manhattan, with minkowski's p of 3
        assertRefused(manhattanP, "bad p (3.0) for the metric manhattan");
        // a version 5 file that no fit writes: a weighted model of another metric, an unweighted euclidean model
        byte[] weightedFlag = good.clone();
        weightedFlag[metricAt + 9] = 1;
        assertRefused(weightedFlag, "a weighted model of the minkowski metric");
        byte[] euclidean = good.clone();
        euclidean[metricAt] = 0;
        ByteBuffer.wrap(euclidean).order(ByteOrder.LITTLE_ENDIAN).putDouble(metricAt + 1, Double.NaN);
        assertRefused(euclidean, "unweighted euclidean model");
        // a new point so far out that minkowski's powers would overflow, where the fit's could not
        PointSet far = PointSet.ofFloat64(1, d, new double[] {1e120, 0});
        InvalidInputException o = assertThrows(InvalidInputException.class, () -> model.approximatePredict(far, threads(1)));
        assertTrue(o.getMessage().contains("would overflow"), o.getMessage());
        // a precomputed fit has no coordinates to measure new points against
        double[] matrix = new double[n * n];
        PairDistances pd = Metric.euclidean().pairs(x, n, d);
        for (int a = 0; a < n; a++) for (int b = 0; b < n; b++) matrix[a * n + b] = pd.between(a, b);
        PointSet mp = PointSet.ofFloat64(n, n, matrix);
        HdbscanResult pre = Hdbscan.builder().minClusterSize(8).metric(Metric.precomputed()).build().fit(mp);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> HdbscanModel.of(pre, mp, threads(1)));
        assertTrue(e.getMessage().contains("precomputed"), e.getMessage());
    }

    private static void assertRefused(byte[] file, String part) {
        byte[] b = ModelFileTest.resealed(file);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> HdbscanModel.fromBytes(b, "bad.model"));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
