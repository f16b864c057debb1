package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Backend;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.engine.CpuHdbscanEngine;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The brute-force engine: on the Euclidean metric it must return bitwise the partition-tree engine's core
 * distances and tree (also on data full of exact ties, where only the tie order decides), every metric the
 * same bytes for any thread count, the tree a minimum spanning tree in {@link EdgeOrder}, and a fit
 * cancelled within a round.
 */
class BruteForceEngineTest {
    private static Execution threads(int t) {
        return new Execution(t, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /** Integer grid points: many exactly equal distances and core distances. */
    static double[] grid(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(6);
        return x;
    }

    /** Three Gaussian clusters, 4 apart on every axis. */
    static double[] gaussian(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian() + (i / d % 3) * 4;
        return x;
    }

    @Test
    void euclideanIsBitwiseThePartitionTreeEngines() {
        for (int set = 0; set < 2; set++) {
            int n = set == 0 ? 1500 : 1200, d = set == 0 ? 3 : 5;
            double[] x = set == 0 ? grid(n, d, 1) : gaussian(n, d, 2);
            for (int ms : new int[] {1, 5, 12}) {
                FittedPoints p = new FittedPoints(x, n, d);
                MutualReachabilityMst want = new CpuHdbscanEngine(Backend.SCALAR).spanningTree(p, ms, 1.0, threads(2));
                MutualReachabilityMst got = new BruteForceEngine(Metric.euclidean()).spanningTree(p, ms, 1.0, threads(2));
                assertArrayEquals(want.coreDistances(), got.coreDistances(), "core distances, min_samples " + ms);
                assertEquals(want.tree(), got.tree(), "tree, min_samples " + ms);
            }
        }
    }

    @Test
    void alphaScalesDistancesAsThePartitionTreeEngineDoes() {
        double[] x = gaussian(600, 4, 3);
        FittedPoints p = new FittedPoints(x, 600, 4);
        MutualReachabilityMst want = new CpuHdbscanEngine(Backend.SCALAR).spanningTree(p, 4, 0.7, threads(1));
        MutualReachabilityMst got = new BruteForceEngine(Metric.euclidean()).spanningTree(p, 4, 0.7, threads(2));
        assertEquals(want.tree(), got.tree());
    }

    /**
     * Cosine and a precomputed matrix, as scikit-learn's brute path: alpha divides the whole mutual reachability,
     * so the tree at alpha is alpha 1's with each weight divided, bitwise (no two weights of these sets become equal
     * when divided). The other metrics divide the distance only, as scikit-learn's k-d tree path: not that tree.
     * The core distances are the metric's either way.
     */
    @Test
    void alphaDividesTheWholeReachabilityForCosineAndAPrecomputedMatrixOnly() {
        int n = 400, d = 5;
        double[] x = gaussian(n, d, 12);
        PairDistances manhattan = Metric.manhattan().pairs(x, n, d);
        double[] matrix = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) matrix[i * n + j] = manhattan.between(i, j);
        }
        for (Metric m : new Metric[] {Metric.cosine(), Metric.precomputed(), Metric.euclidean(), Metric.manhattan()}) {
            FittedPoints p = m.isPrecomputed() ? new FittedPoints(matrix, n, n) : new FittedPoints(x, n, d);
            for (double alpha : new double[] {0.7, 2.5}) {
                MutualReachabilityMst one = new BruteForceEngine(m).spanningTree(p, 4, 1.0, threads(2));
                MutualReachabilityMst scaled = new BruteForceEngine(m).spanningTree(p, 4, alpha, threads(2));
                assertArrayEquals(one.coreDistances(), scaled.coreDistances(), m.name());
                double[] divided = one.tree().weightArray();
                for (int i = 0; i < divided.length; i++) divided[i] /= alpha;
                SpanningTree want = SpanningTree.of(n, one.tree().fromArray(), one.tree().toArray(), divided);
                assertEquals(m.alphaDividesCoreDistances(), want.equals(scaled.tree()), m.name() + ", alpha " + alpha);
            }
        }
        assertEquals(List.of(true, true, false, false, false, false), java.util.stream.Stream.of(Metric.cosine(),
                Metric.precomputed(), Metric.euclidean(), Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3))
                .map(Metric::alphaDividesCoreDistances).toList());
    }

    @Test
    void everyMetricGivesTheSameBytesOnOneThreadOrMany() {
        double[] x = grid(2500, 4, 4);
        for (Metric m : new Metric[] {Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3), Metric.cosine()}) {
            FittedPoints p = new FittedPoints(x, 2500, 4);
            MutualReachabilityMst one = new BruteForceEngine(m).spanningTree(p, 5, 1.0, threads(1));
            MutualReachabilityMst many = new BruteForceEngine(m).spanningTree(p, 5, 1.0, threads(3));
            assertArrayEquals(one.coreDistances(), many.coreDistances(), m.name());
            assertEquals(one.tree(), many.tree(), m.name());
        }
    }

    /**
     * Each metric the kernels compute gives, on the scalar and the vector kernel and on one thread or two,
     * bitwise what the one-pair-at-a-time path gives on the matrix of the same distances (a precomputed fit):
     * grids full of ties and repeated rows, enough points for parallel Prim rounds, alpha 1 (and 0.7 for cosine,
     * which divides the core distances by alpha as the matrix does; the others' alpha: {@link KdTreeEngineTest}).
     */
    @Test
    void theKernelsGiveThePairPathsCoreDistancesAndTree() {
        for (int set = 0; set < 2; set++) {
            int n = set == 0 ? 1300 : 500, d = set == 0 ? 5 : 17;
            double[] x = set == 0 ? grid(n, d, 8) : gaussian(n, d, 9);
            for (Metric m : new Metric[] {Metric.euclidean(), Metric.manhattan(), Metric.chebyshev(), Metric.cosine()}) {
                PairDistances dist = m.pairs(x, n, d);
                double[] matrix = new double[n * n];
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) matrix[i * n + j] = dist.between(i, j);
                }
                for (int ms : new int[] {1, 7}) {
                    // the precomputed reference divides the core distances by alpha as cosine does, the others not
                    double alpha = ms == 7 && m.alphaDividesCoreDistances() ? 0.7 : 1.0;
                    MutualReachabilityMst want = new BruteForceEngine(Metric.precomputed())
                            .spanningTree(new FittedPoints(matrix, n, n), ms, alpha, threads(1));
                    for (org.sylva.kernels.MetricKernel k : new org.sylva.kernels.MetricKernel[] {
                            org.sylva.kernels.KernelProvider.get().scalarMetric(), org.sylva.kernels.KernelProvider.get().bestMetric()}) {
                        for (int t : new int[] {1, 2}) {
                            MutualReachabilityMst got = new BruteForceEngine(m, k).spanningTree(new FittedPoints(x, n, d), ms,
                                    alpha, threads(t));
                            String what = m.name() + " " + k.name() + " threads " + t + " min_samples " + ms + " set " + set;
                            assertArrayEquals(want.coreDistances(), got.coreDistances(), what);
                            assertEquals(want.tree(), got.tree(), what);
                        }
                    }
                }
            }
        }
    }

    /**
     * On unclustered points at {@code min_samples} 2 the next point to join is seldom among the lightest offers,
     * so rows made ahead mostly go unread: 32 a pass made about 13 rows per round there (Prim several times
     * slower than one row a round). The count follows what the rows served, so the rows made stay within two
     * per round; counts, not times. The tree is the pair-by-pair path's.
     */
    @Test
    void rowsMadeAheadFollowWhatTheyServe() {
        int n = 2000, d = 64;
        double[] x = gaussian(n, d, 11);
        PairDistances dist = Metric.cosine().pairs(x, n, d);
        org.sylva.parallel.ParallelWork work = new org.sylva.parallel.ParallelWork(2);
        double[] core = BruteForceEngine.coreDistances(dist, 2, work, threads(2));
        int[] counts = new int[2];
        SpanningTree t = BruteForceEngine.prim(dist, core, 1.0, work, threads(2),
                org.sylva.kernels.KernelProvider.get().bestMetric(), counts);
        assertTrue(counts[0] > (n - 1) / 4,
                counts[0] + " passes for " + (n - 1) + " rounds: not the data this test needs");
        assertTrue(counts[1] <= 2 * (n - 1),
                counts[1] + " rows made in " + counts[0] + " passes for " + (n - 1) + " rounds");
        double[] matrix = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) matrix[i * n + j] = dist.between(i, j);
        }
        assertEquals(BruteForceEngine.prim(Metric.precomputed().pairs(matrix, n, n), core, 1.0, work, threads(2),
                org.sylva.kernels.KernelProvider.get().bestMetric()), t);
    }

    /**
     * Prim's speculative rows serve most rounds: on clustered points one pass over the rows makes the rows of
     * many of the points that join next (a count, not a time: it does not depend on the machine), and the tree
     * is the one the pair-by-pair path finds.
     */
    @Test
    void mostPrimRoundsReadARowMadeAhead() {
        int n = 2000, d = 16;
        double[] x = gaussian(n, d, 10);
        for (Metric m : new Metric[] {Metric.cosine(), Metric.manhattan()}) {
            PairDistances dist = m.pairs(x, n, d);
            org.sylva.parallel.ParallelWork work = new org.sylva.parallel.ParallelWork(2);
            double[] core = BruteForceEngine.coreDistances(dist, 10, work, threads(2));
            int[] passes = new int[1];
            SpanningTree t = BruteForceEngine.prim(dist, core, 1.0, work, threads(2),
                    org.sylva.kernels.KernelProvider.get().bestMetric(), passes);
            assertTrue(passes[0] > 0 && passes[0] < (n - 1) / 4, m.name() + ": " + passes[0] + " passes for " + (n - 1)
                    + " rounds");
            double[] matrix = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) matrix[i * n + j] = dist.between(i, j);
            }
            assertEquals(BruteForceEngine.prim(Metric.precomputed().pairs(matrix, n, n), core, 1.0, work, threads(2),
                    org.sylva.kernels.KernelProvider.get().bestMetric()), t, m.name());
        }
    }

    @Test
    void theTreeIsInEdgeOrderAndMinimal() {
        int n = 300;
        double[] x = grid(n, 2, 5);
        PairDistances dist = Metric.manhattan().pairs(x, n, 2);
        MutualReachabilityMst m = new BruteForceEngine(Metric.manhattan()).spanningTree(new FittedPoints(x, n, 2), 4,
                1.0, threads(2));
        SpanningTree t = m.tree();
        double[] core = m.coreDistances();
        for (int e = 1; e < t.edges(); e++) {
            assertTrue(EdgeOrder.compare(t.weight(e - 1), t.from(e - 1), t.to(e - 1), t.weight(e), t.from(e), t.to(e)) < 0);
        }
        // cut property: every non-tree edge is at least as heavy as the heaviest tree edge on its cycle;
        // checked here through Kruskal on all pairs under the same order, which must give the same edges
        long[] order = new long[n * (n - 1) / 2];
        double[] w = new double[order.length];
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                w[k] = Math.max(Math.max(core[i], core[j]), dist.between(i, j));
                order[k] = ((long) i << 32) | j;
                k++;
            }
        }
        Integer[] idx = new Integer[order.length];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> EdgeOrder.compare(w[a], (int) (order[a] >>> 32), (int) order[a],
                w[b], (int) (order[b] >>> 32), (int) order[b]));
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        int taken = 0;
        for (int e : idx) {
            int a = find(parent, (int) (order[e] >>> 32)), b = find(parent, (int) order[e]);
            if (a == b) continue;
            parent[a] = b;
            assertEquals((int) (order[e] >>> 32), t.from(taken));
            assertEquals((int) order[e], t.to(taken));
            assertEquals(w[e], t.weight(taken));
            taken++;
        }
        assertEquals(n - 1, taken);
    }

    private static int find(int[] p, int x) {
        while (p[x] != x) x = p[x] = p[p[x]];
        return x;
    }

    @Test
    void coreDistanceIsTheKthSmallestCountingThePointItself() {
        // points on a line at 0, 1, 3, 6: from 3 the distances are 3, 2, 0, 3, so its third smallest is 3
        double[] x = {0, 1, 3, 6};
        MutualReachabilityMst m = new BruteForceEngine(Metric.manhattan()).spanningTree(new FittedPoints(x, 4, 1), 3,
                1.0, threads(1));
        assertArrayEquals(new double[] {3, 2, 3, 5}, m.coreDistances());
    }

    @Test
    void aCancelledFitStops() {
        double[] x = gaussian(3000, 3, 6);
        CancellationToken token = new CancellationToken();
        // cancelled when the core distances end: the first Prim round sees it
        ProgressListener stopAtTree = (stage, done, total) -> {
            if (done == total) token.cancel();
        };
        assertThrows(CancelledException.class, () -> new BruteForceEngine(Metric.chebyshev())
                .spanningTree(new FittedPoints(x, 3000, 3), 5, 1.0, new Execution(2, stopAtTree, token)));
    }

    /**
     * The pair-at-a-time core distances (minkowski above 16 dimensions: a pow per coordinate) run in units of
     * at most {@link BruteForceEngine#PAIR_UNIT_TERMS} coordinate terms, so the token is looked at, and progress
     * reported, that often: 87 rows a unit here, 1 at 20 000 points of 61 coordinates, never more than 256.
     */
    @Test
    void pairAtATimeCoreDistancesRunInShortUnits() {
        assertEquals(256, BruteForceEngine.pairRowsPerUnit(1000, 3));
        assertEquals(87, BruteForceEngine.pairRowsPerUnit(600, 20));
        assertEquals(1, BruteForceEngine.pairRowsPerUnit(20_000, 61));
        assertEquals(1, BruteForceEngine.pairRowsPerUnit(100_000, 100_000));
        int n = 600, d = 20;
        double[] x = gaussian(n, d, 8);
        long[] coreTotal = new long[1];
        ProgressListener record = (stage, done, total) -> {
            if (stage.equals(org.sylva.hdbscan.core.CoreDistances.STAGE)) coreTotal[0] = total;
        };
        new BruteForceEngine(Metric.minkowski(3)).spanningTree(new FittedPoints(x, n, d), 4, 1.0,
                new Execution(1, record, CancellationToken.NEVER));
        assertEquals(7, coreTotal[0], "units of the core distances");
    }

    /** A fit's first report says the core distances have started (a fresh JVM's first unit runs for a while). */
    @Test
    void theFirstReportSaysTheCoreDistancesStarted() {
        double[] x = gaussian(300, 5, 9);
        for (Metric m : new Metric[] {Metric.cosine(), Metric.minkowski(3)}) {   // the kernel's path, pair at a time
            java.util.List<String> reports = new java.util.ArrayList<>();
            ProgressListener record = (stage, done, total) -> reports.add(stage + " " + done + "/" + total);
            new BruteForceEngine(m).spanningTree(new FittedPoints(x, 300, 5), 4, 1.0,
                    new Execution(1, record, CancellationToken.NEVER));
            assertEquals(org.sylva.hdbscan.core.CoreDistances.STAGE + " 0/1", reports.get(0), m + ": " + reports);
        }
    }

    @Test
    void refusesMoreThanItsLimitBeforeAnyWork() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> BruteForceEngine.checkSize(Metric.cosine(), BruteForceEngine.MAX_POINTS + 1L));
        assertTrue(e.getMessage().contains("100000 points"), e.getMessage());
        assertTrue(!e.getMessage().contains("sparse"), e.getMessage());
        InvalidInputException p = assertThrows(InvalidInputException.class,
                () -> BruteForceEngine.checkSize(Metric.precomputed(), BruteForceEngine.MAX_POINTS + 1L));
        assertTrue(p.getMessage().contains("give a sparse distance matrix"), p.getMessage());   // the way past the limit
    }

    @Test
    void precomputedEuclideanMatrixGivesTheEuclideanFit() {
        int n = 400, d = 3;
        double[] x = gaussian(n, d, 7);
        HdbscanResult euclidean = Hdbscan.builder().minClusterSize(8).minSamples(4).build()
                .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanResult pre = Hdbscan.builder().minClusterSize(8).minSamples(4).metric(Metric.precomputed()).build()
                .fit(MetricOracleTest.euclideanMatrix(x, n, d), n, n, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(euclidean.coreDistances(), pre.coreDistances());
        assertEquals(euclidean.spanningTree(), pre.spanningTree());
        assertArrayEquals(euclidean.labels(), pre.labels());
        assertArrayEquals(euclidean.probabilities(), pre.probabilities());
    }
}
