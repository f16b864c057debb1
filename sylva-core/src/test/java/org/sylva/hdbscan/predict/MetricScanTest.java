package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.metric.KdTree;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;
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

    @Test
    void theTreesListsAreTheScansForNewPoints() {
        int n = 900, d = 3, m = 200;
        double[] x = grid(n, d, 1);
        double[] q = grid(m, d, 2);
        for (int i = 0; i < q.length; i += 7) q[i] += 0.5;   // some new points between the grid's
        for (Metric metric : METRICS) {
            PairDistances pairs = metric.pairs(x, n, d);
            MetricScan scan = new MetricScan(pairs, null);
            MetricScan tree = new MetricScan(pairs, KdTree.build(metric, x, n, d, CancellationToken.NEVER));
            double[] prepared = pairs.queries(q, m);
            for (int k : new int[] {1, 6, 40, 100}) {
                NeighbourSearch.Scratch a = scan.scratch(k), b = tree.scratch(k);
                for (int i = 0; i < m; i++) {
                    scan.nearest(prepared, i * d, a);
                    tree.nearest(prepared, i * d, b);
                    assertArrayEquals(a.index, b.index, metric.describe() + ", k " + k + ", point " + i);
                    assertArrayEquals(a.dist, b.dist, metric.describe() + ", k " + k + ", point " + i);
                }
            }
        }
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

    @Test
    void theTreesFittedListsAreTheScans() {
        int n = 700, d = 2;
        double[] x = grid(n, d, 3);
        Execution ex = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
        for (Metric metric : METRICS) {
            PairDistances pairs = metric.pairs(x, n, d);
            CoreDistances want = MetricScan.fittedLists(pairs, null, 9, ex);
            CoreDistances got = MetricScan.fittedLists(pairs, KdTree.build(metric, x, n, d, CancellationToken.NEVER), 9, ex);
            assertEquals(want.k(), got.k());
            assertArrayEquals(want.neighbours(), got.neighbours(), metric.describe());
            assertArrayEquals(want.neighbourDistances(), got.neighbourDistances(), metric.describe());
            assertArrayEquals(want.coreDistances(), got.coreDistances(), metric.describe());
        }
    }
}
