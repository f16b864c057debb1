package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.metric.KdTree;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.MetricKernel;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The nearest fitted points under another metric: the walk of the fit's k-d tree gives exactly the lists of a
 * scan of every fitted point, in (distance, index) order, for new points and for the fitted points' own lists,
 * on integer grids where many points tie with a list's last entry and only the index decides.
 */
class MetricScanTest {
    private static final Metric[] METRICS = {Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3)};

    private static double[] grid(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(5);
        return x;
    }

    private static double[] gaussian(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextDouble() * r.nextDouble() * 4;
        return x;
    }

    /**
     * Both searches against the k smallest (distance, index) pairs of every fitted point measured in full
     * ({@link PairDistances#toRow}): the reference that skips nothing, as the searches' cutoffs and box bounds do.
     */
    @Test
    void theTreesListsAreTheScansForNewPoints() {
        int n = 900, d = 3, m = 200;
        for (boolean onGrid : new boolean[] {true, false}) {
            double[] x = onGrid ? grid(n, d, 1) : gaussian(n, d, 3);
            double[] q = onGrid ? grid(m, d, 2) : gaussian(m, d, 4);
            for (int i = 0; i < q.length; i += 7) q[i] += 0.5;   // some new points between the grid's
            for (Metric metric : METRICS) {
                PairDistances pairs = metric.pairs(x, n, d);
                MetricScan scan = new MetricScan(pairs, null);
                MetricScan tree = new MetricScan(pairs, KdTree.build(metric, x, n, d, CancellationToken.NEVER));
                double[] prepared = pairs.queries(q, m);
                double[] full = new double[n];
                for (int k : new int[] {1, 6, 40, 100}) {
                    NeighbourSearch.Scratch a = scan.scratch(k), b = tree.scratch(k);
                    for (int i = 0; i < m; i++) {
                        String what = metric.describe() + (onGrid ? ", grid" : ", spread") + ", k " + k + ", point " + i;
                        scan.nearest(prepared, i * d, a);
                        tree.nearest(prepared, i * d, b);
                        for (int j = 0; j < n; j++) full[j] = pairs.toRow(prepared, i * d, j);
                        long[] want = smallest(full, k);
                        assertArrayEquals(want, list(a.dist, a.index, 0, k), "scan, " + what);
                        assertArrayEquals(want, list(b.dist, b.index, 0, k), "tree, " + what);
                    }
                }
            }
        }
    }

    /** The k smallest (distance, index) pairs of {@code dist[0 .. n)}, sorted: what a list must hold. */
    private static long[] smallest(double[] dist, int k) {
        Integer[] order = new Integer[dist.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        java.util.Arrays.sort(order, (a, b) -> dist[a] != dist[b] ? Double.compare(dist[a], dist[b]) : Integer.compare(a, b));
        long[] out = new long[2 * k];
        for (int i = 0; i < k; i++) {
            out[2 * i] = Double.doubleToRawLongBits(dist[order[i]]);
            out[2 * i + 1] = order[i];
        }
        return out;
    }

    private static long[] list(double[] dist, int[] index, int from, int k) {
        long[] out = new long[2 * k];
        for (int i = 0; i < k; i++) {
            out[2 * i] = Double.doubleToRawLongBits(dist[from + i]);
            out[2 * i + 1] = index[from + i];
        }
        return out;
    }

    /**
     * A scan through the metric kernel (cosine, manhattan, chebyshev; 20 dimensions, where no tree runs) keeps
     * exactly the k smallest of the fit's own distances in (distance, index) order: for new points, one of them
     * equal to a fitted row (cosine at 0, as a fitted point and itself), and for the fitted points' lists.
     */
    @Test
    void theKernelsScanKeepsTheSmallestDistances() {
        int n = 1100, d = 20, m = 60;
        double[] x = grid(n, d, 4);
        double[] q = grid(m, d, 5);
        SplittableRandom r = new SplittableRandom(1);
        for (int j = 0; j < d; j++) x[17 * d + j] = r.nextInt(5) + 0.25 * r.nextInt(3);   // 1 - u.u is not 0 for it
        System.arraycopy(x, 17 * d, q, 3 * d, d);   // new point 3 is fitted row 17
        Execution ex = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
        for (Metric metric : new Metric[] {Metric.cosine(), Metric.manhattan(), Metric.chebyshev()}) {
            for (MetricKernel kernel : new MetricKernel[] {KernelProvider.get().scalarMetric(), KernelProvider.get().bestMetric()}) {
                PairDistances pairs = metric.pairs(x, n, d);
                MetricScan scan = new MetricScan(pairs, null, kernel);
                double[] prepared = pairs.queries(q, m);
                double[] all = new double[n];
                for (int k : new int[] {1, 7, 50}) {
                    NeighbourSearch.Scratch s = scan.scratch(k);
                    for (int i = 0; i < m; i++) {
                        scan.nearest(prepared, i * d, s);
                        for (int b = 0; b < n; b++) all[b] = pairs.toRow(prepared, i * d, b);
                        assertArrayEquals(smallest(all, k), list(s.dist, s.index, 0, k),
                                metric.describe() + " " + kernel.name() + " k " + k + " point " + i);
                    }
                    if (metric.equals(Metric.cosine())) {
                        double dot = 0;
                        for (int j = 0; j < d; j++) dot += prepared[3 * d + j] * prepared[3 * d + j];
                        assertTrue(1 - dot != 0, "the arithmetic alone would not give 0 here");
                        scan.nearest(prepared, 3 * d, s);
                        assertEquals(0.0, s.dist[0]);
                        assertEquals(17, s.index[0]);
                    }
                }
                CoreDistances lists = MetricScan.fittedLists(pairs, null, 9, ex, kernel);
                for (int i = 0; i < n; i += 13) {
                    for (int b = 0; b < n; b++) all[b] = pairs.between(i, b);
                    assertArrayEquals(smallest(all, 10), list(lists.neighbourDistances(), lists.neighbours(), i * 10, 10),
                            metric.describe() + " " + kernel.name() + " fitted point " + i);
                }
            }
        }
    }

    /** A model's scan of its fitted points is made once and kept (its blocked rows are a copy of them all). */
    @Test
    void aModelsScanIsMadeOnceAndKept() {
        int n = 300, d = 20;
        double[] x = grid(n, d, 6);
        Execution ex = new Execution(1, ProgressListener.NONE, CancellationToken.NEVER);
        FittedSearch search = new FittedSearch(x, n, d, null, Metric.cosine());
        FittedNeighbours first = search.search(ex, null, 1, 1);
        assertTrue(first == search.search(ex, null, 1, 1), "the same scan");
        assertTrue(!((MetricScan) first).kernelOutdated());
        // a model's k-d tree is the one its lists came from, not built again
        double[] low = grid(n, 3, 7);
        FittedSearch.Prepared prepared = FittedSearch.prepare(low, n, 3, null, 5, Metric.manhattan(), ex);
        assertTrue(prepared.tree() != null);
        MetricScan scan = (MetricScan) new FittedSearch(low, n, 3, prepared, Metric.manhattan()).search(ex, null, 1, 1);
        assertTrue(scan.tree() == prepared.tree(), "the prepared tree");
    }

    @Test
    void listsMoreThanAnArrayHoldsAreRefused() {
        int n = 46_341;   // n (n - 1 + 1) > 2^31
        PairDistances pairs = Metric.manhattan().pairs(new double[n], n, 1);
        org.sylva.data.InvalidInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.sylva.data.InvalidInputException.class, () -> MetricScan.fittedLists(pairs, null, n - 1,
                        new Execution(1, ProgressListener.NONE, CancellationToken.NEVER)));
        assertEquals("min_samples", e.parameter().orElseThrow());
    }

    /** The fitted points' lists, by the scan and by the tree, against every pair measured in full. */
    @Test
    void theTreesFittedListsAreTheScans() {
        int n = 700, d = 2, k = 10;
        Execution ex = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
        for (boolean onGrid : new boolean[] {true, false}) {
            double[] x = onGrid ? grid(n, d, 3) : gaussian(n, d, 5);
            for (Metric metric : METRICS) {
                PairDistances pairs = metric.pairs(x, n, d);
                CoreDistances want = MetricScan.fittedLists(pairs, null, k - 1, ex);
                CoreDistances got = MetricScan.fittedLists(pairs, KdTree.build(metric, x, n, d, CancellationToken.NEVER),
                        k - 1, ex);
                assertEquals(want.k(), got.k());
                assertArrayEquals(want.neighbours(), got.neighbours(), metric.describe());
                assertArrayEquals(want.neighbourDistances(), got.neighbourDistances(), metric.describe());
                assertArrayEquals(want.coreDistances(), got.coreDistances(), metric.describe());
                double[] all = new double[n];
                for (int i = 0; i < n; i++) {
                    for (int b = 0; b < n; b++) all[b] = pairs.between(i, b);
                    assertArrayEquals(smallest(all, k), list(want.neighbourDistances(), want.neighbours(), i * k, k),
                            metric.describe() + (onGrid ? ", grid" : ", spread") + ", point " + i);
                }
            }
        }
    }
}
