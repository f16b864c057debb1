package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The k-d tree engine: bitwise the brute-force engine's core distances and tree for every metric it bounds,
 * on data full of exact ties (integer grids, repeated rows), on spread-out data at very different scales,
 * with {@code alpha}, any {@code min_samples} and any thread count; the brute-force engine above its
 * dimension limit; and a fit cancelled between rounds.
 */
class KdTreeEngineTest {
    private static final Metric[] METRICS = {Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3),
        Metric.minkowski(1.5)};

    private static Execution threads(int t) {
        return new Execution(t, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /** Rows that repeat: {@code distinct} random rows, each copied a few times, in shuffled order. */
    static double[] repeated(int n, int d, int distinct, long seed) {
        Random r = new Random(seed);
        double[] base = new double[distinct * d];
        for (int i = 0; i < base.length; i++) base[i] = r.nextGaussian();
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) System.arraycopy(base, r.nextInt(distinct) * d, x, i * d, d);
        return x;
    }

    /** Gaussian clusters whose scales differ by six orders of magnitude, plus a few far outliers. */
    static double[] scales(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            int c = i % 4;
            double scale = c == 3 ? 1e3 : Math.pow(10, -2 * c);
            for (int j = 0; j < d; j++) x[i * d + j] = c * 5 + scale * r.nextGaussian();
        }
        return x;
    }

    /** The engine on its tree whatever the data (its probe sends no input to brute force). */
    private static KdTreeEngine tree(Metric m) {
        return new KdTreeEngine(m, Double.POSITIVE_INFINITY);
    }

    private static void assertSame(MutualReachabilityMst want, MutualReachabilityMst got, String what) {
        assertArrayEquals(want.coreDistances(), got.coreDistances(), "core distances, " + what);
        assertEquals(want.tree(), got.tree(), "tree, " + what);
    }

    @Test
    void givesBitwiseTheBruteForceEnginesAnswers() {
        int[][] shapes = {{900, 1}, {800, 2}, {700, 3}, {500, 5}, {300, 16}};
        for (Metric m : METRICS) {
            for (int[] s : shapes) {
                int n = m.kind() == Metric.Kind.MINKOWSKI ? s[0] / 3 : s[0], d = s[1];   // pow is slow brute force
                double[][] sets = {BruteForceEngineTest.grid(n, d, 11 + d), BruteForceEngineTest.gaussian(n, d, 12 + d),
                    repeated(n, d, n / 7, 13 + d), scales(n, d, 14 + d)};
                String[] names = {"grid", "gaussian", "repeated", "scales"};
                for (int k = 0; k < sets.length; k++) {
                    FittedPoints p = new FittedPoints(sets[k], n, d);
                    for (int ms : new int[] {1, 4, 12}) {
                        String what = m.describe() + ", " + names[k] + " " + n + " x " + d + ", min_samples " + ms;
                        MutualReachabilityMst want = new BruteForceEngine(m).spanningTree(p, ms, 1.0, threads(1));
                        MutualReachabilityMst got = tree(m).spanningTree(p, ms, 1.0, threads(2));
                        assertTrue(KdTreeEngine.ranOnTree(got.stageSeconds()), what);
                        assertSame(want, got, what);
                    }
                }
            }
        }
    }

    /**
     * Both engines drop minkowski distances that their cutoffs show are above what a search keeps
     * ({@link PairDistances#cutoff}); the matrix of every distance, computed in full and clustered as a precomputed
     * one (which has no cutoff), is the reference that shares none of that.
     */
    @Test
    void minkowskiGivesItsFullDistanceMatrixsAnswers() {
        int n = 260;
        for (double pow : new double[] {3, 1.5, 5}) {
            Metric m = Metric.minkowski(pow);
            for (int d : new int[] {2, 5, 20}) {
                double[][] sets = {BruteForceEngineTest.grid(n, d, 31 + d), scales(n, d, 32 + d), repeated(n, d, 40, 33 + d)};
                for (int k = 0; k < sets.length; k++) {
                    PairDistances dist = m.pairs(sets[k], n, d);
                    double[] matrix = new double[n * n];
                    for (int a = 0; a < n; a++) for (int b = 0; b < n; b++) matrix[a * n + b] = dist.between(a, b);
                    FittedPoints full = new FittedPoints(matrix, n, n);
                    for (int ms : new int[] {1, 5}) {
                        String what = m.describe() + ", set " + k + ", " + n + " x " + d + ", min_samples " + ms;
                        MutualReachabilityMst want = new BruteForceEngine(Metric.precomputed()).spanningTree(full, ms, 1.0,
                                threads(1));
                        FittedPoints p = new FittedPoints(sets[k], n, d);
                        assertSame(want, new BruteForceEngine(m).spanningTree(p, ms, 1.0, threads(2)), "brute force, " + what);
                        if (d <= KdTreeEngine.MAX_DIMENSIONS) {
                            assertSame(want, tree(m).spanningTree(p, ms, 1.0, threads(2)), "k-d tree, " + what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void alphaAndThreadsDoNotChangeTheBytes() {
        int n = 1200, d = 3;
        double[] x = BruteForceEngineTest.grid(n, d, 21);
        for (Metric m : METRICS) {
            FittedPoints p = new FittedPoints(x, n, d);
            for (double alpha : new double[] {0.7, 1.3}) {
                MutualReachabilityMst want = new BruteForceEngine(m).spanningTree(p, 5, alpha, threads(1));
                for (int t : new int[] {1, 2, 3, 5}) {
                    assertSame(want, tree(m).spanningTree(p, 5, alpha, threads(t)),
                            m.describe() + ", alpha " + alpha + ", threads " + t);
                }
            }
        }
    }

    @Test
    void aMinSamplesOfEveryPointAndTwoPoints() {
        double[] x = BruteForceEngineTest.gaussian(40, 2, 22);
        FittedPoints p = new FittedPoints(x, 40, 2);
        MutualReachabilityMst all = tree(Metric.manhattan()).spanningTree(p, 40, 1.0, threads(2));
        assertTrue(KdTreeEngine.ranOnTree(all.stageSeconds()));
        assertSame(new BruteForceEngine(Metric.manhattan()).spanningTree(p, 40, 1.0, threads(1)), all, "min_samples = n");
        FittedPoints two = new FittedPoints(new double[] {0, 0, 3, 4}, 2, 2);
        MutualReachabilityMst m = tree(Metric.chebyshev()).spanningTree(two, 1, 1.0, threads(1));
        assertTrue(KdTreeEngine.ranOnTree(m.stageSeconds()));
        assertEquals(1, m.tree().edges());
        assertEquals(4.0, m.tree().weight(0));
    }

    @Test
    void aboveItsDimensionLimitRunsTheBruteForceEngine() {
        int d = KdTreeEngine.MAX_DIMENSIONS + 1, n = 300;
        double[] x = BruteForceEngineTest.gaussian(n, d, 23);
        FittedPoints p = new FittedPoints(x, n, d);
        MutualReachabilityMst got = new KdTreeEngine(Metric.manhattan()).spanningTree(p, 4, 1.0, threads(2));
        assertSame(new BruteForceEngine(Metric.manhattan()).spanningTree(p, 4, 1.0, threads(1)), got, "d = " + d);
        assertFalse(KdTreeEngine.usesTree(Metric.manhattan(), d));
        assertTrue(KdTreeEngine.usesTree(Metric.manhattan(), d - 1));
        assertFalse(KdTreeEngine.usesTree(Metric.cosine(), 2));
    }

    @Test
    void pointsSpreadEvenlyInManyDimensionsGoToTheBruteForceEngine() {
        int n = 1500;
        for (int d : new int[] {3, 12}) {
            double[] x = new double[n * d];
            Random r = new Random(26);
            for (int i = 0; i < x.length; i++) x[i] = r.nextDouble();
            FittedPoints p = new FittedPoints(x, n, d);
            MutualReachabilityMst got = new KdTreeEngine(Metric.manhattan()).spanningTree(p, 10, 1.0, threads(2));
            boolean few = d == 3;
            assertEquals(few, KdTreeEngine.ranOnTree(got.stageSeconds()), "d = " + d);
            assertEquals(!few, got.stageSeconds().containsKey(KdTreeEngine.PROBE_STAGE), "d = " + d);
            assertSame(new BruteForceEngine(Metric.manhattan()).spanningTree(p, 10, 1.0, threads(1)), got, "d = " + d);
        }
        // 12 coordinates of points on a plane: the data's own dimension is 2, and the tree prunes
        Random r = new Random(27);
        double[] plane = new double[n * 12];
        for (int i = 0; i < n; i++) {
            double a = r.nextDouble(), b = r.nextDouble();
            for (int j = 0; j < 12; j++) plane[i * 12 + j] = a * (j + 1) + b * (12 - j) + 1e-3 * r.nextGaussian();
        }
        MutualReachabilityMst b = new KdTreeEngine(Metric.manhattan()).spanningTree(new FittedPoints(plane, n, 12), 10,
                1.0, threads(2));
        assertTrue(KdTreeEngine.ranOnTree(b.stageSeconds()));
    }

    @Test
    void theEstimatorPicksTheTreeForTheMetricsItBounds() {
        assertTrue(Hdbscan.builder().metric(Metric.chebyshev()).build().engine() instanceof KdTreeEngine);
        assertTrue(Hdbscan.builder().metric(Metric.minkowski(4)).build().engine() instanceof KdTreeEngine);
        assertTrue(Hdbscan.builder().metric(Metric.cosine()).build().engine() instanceof BruteForceEngine);
        assertThrows(IllegalArgumentException.class, () -> new KdTreeEngine(Metric.cosine()));
    }

    @Test
    void fitsAndModelsPastTheBruteForceLimitInFewDimensions() throws java.io.IOException {
        int n = BruteForceEngine.MAX_POINTS + 1;
        java.util.SplittableRandom r = new java.util.SplittableRandom(25);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) x[i] = r.nextInt(3) * 100 + r.nextGaussian();
        org.sylva.data.PointSet pts = org.sylva.data.PointSet.ofFloat64(n, 1, x);
        // past the brute-force engine's limit the tree runs however little its probe finds it prunes (an engine
        // that would send every input to brute force still runs the tree there), below it the probe decides
        KdTreeEngine always = new KdTreeEngine(Metric.manhattan(), -1);
        assertTrue(KdTreeEngine.ranOnTree(always.spanningTree(new FittedPoints(x, n, 1), 5, 1.0, threads(2)).stageSeconds()));
        assertTrue(always.spanningTree(new FittedPoints(java.util.Arrays.copyOf(x, 1000), 1000, 1), 5, 1.0, threads(2))
                .stageSeconds()
                .containsKey(KdTreeEngine.PROBE_STAGE));
        org.sylva.hdbscan.HdbscanResult fit = Hdbscan.builder().minClusterSize(500).minSamples(5).metric(Metric.manhattan()).build()
                .fit(pts);
        assertEquals(3, fit.clusterCount());
        org.sylva.hdbscan.predict.HdbscanModel model = org.sylva.hdbscan.predict.HdbscanModel.of(fit, pts, threads(2));
        org.sylva.hdbscan.predict.HdbscanModel back = org.sylva.hdbscan.predict.HdbscanModel.fromBytes(model.toBytes(), "big");
        org.sylva.data.PointSet fresh = org.sylva.data.PointSet.ofFloat64(4, 1, new double[] {0.5, 100.25, 199.0, 1e4});
        org.sylva.hdbscan.predict.Prediction p = back.approximatePredict(fresh, threads(2));
        assertEquals(model.approximatePredict(fresh, threads(1)), p);
        assertEquals(java.util.List.of(fit.labels()[0] >= 0, true, true, true), java.util.List.of(true, p.labels()[1] >= 0,
                p.labels()[2] >= 0, p.labels()[3] == -1));
        // above the tree's dimensions the brute-force engine's limit stands, and its refusal names the way out
        int d = KdTreeEngine.MAX_DIMENSIONS + 1;
        double[] wide = new double[n * d];
        org.sylva.data.InvalidInputException e = assertThrows(org.sylva.data.InvalidInputException.class,
                () -> Hdbscan.builder().metric(Metric.chebyshev()).build().fit(org.sylva.data.PointSet.ofFloat64(n, d, wide)));
        assertTrue(e.getMessage().contains("chebyshev in more than 16 dimensions runs on the exact brute-force engine"),
                e.getMessage());
        assertTrue(e.getMessage().contains("--pca"), e.getMessage());
    }

    @Test
    void aCancelledFitStops() {
        double[] x = BruteForceEngineTest.gaussian(5000, 2, 24);
        CancellationToken token = new CancellationToken();
        ProgressListener stopAtTree = (stage, done, total) -> {
            if (stage.equals(KdTreeEngine.TREE_STAGE)) token.cancel();
        };
        assertThrows(CancelledException.class, () -> new KdTreeEngine(Metric.manhattan())
                .spanningTree(new FittedPoints(x, 5000, 2), 5, 1.0, new Execution(2, stopAtTree, token)));
    }

    /** The first report comes before the tree is built, which takes a while on many points. */
    @Test
    void theFirstReportSaysTheCoreDistancesStarted() {
        double[] x = BruteForceEngineTest.gaussian(2000, 2, 26);
        java.util.List<String> reports = new java.util.ArrayList<>();
        ProgressListener record = (stage, done, total) -> reports.add(stage + " " + done + "/" + total);
        new KdTreeEngine(Metric.manhattan()).spanningTree(new FittedPoints(x, 2000, 2), 5, 1.0,
                new Execution(1, record, CancellationToken.NEVER));
        assertEquals(org.sylva.hdbscan.core.CoreDistances.STAGE + " 0/1", reports.get(0), reports.toString());
    }

    @Test
    void theSpanningTreeReportsWithinEachRoundNeverBeyondWhatItFinds() {
        int n = 5000;
        double[] x = BruteForceEngineTest.gaussian(n, 2, 25);
        java.util.List<Long> done = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ProgressListener tree = (stage, d, total) -> {
            if (stage.equals(KdTreeEngine.TREE_STAGE)) {
                assertEquals(n - 1, total);
                done.add(d);
            }
        };
        new KdTreeEngine(Metric.manhattan()).spanningTree(new FittedPoints(x, n, 2), 5, 1.0,
                new Execution(1, tree, CancellationToken.NEVER));
        // the first round's own reports reach at most n / 2 (the least a round of n components joins); it then
        // joins more on random points, whose mutual nearest pairs are a minority
        assertTrue(done.get(0) <= n / 2, done.toString());
        assertTrue(done.stream().anyMatch(d -> d > n / 2 && d < n - 1), done.toString());
        for (int i = 1; i < done.size(); i++) assertTrue(done.get(i) >= done.get(i - 1), done.toString());
        assertEquals(n - 1, done.get(done.size() - 1));
    }
}
