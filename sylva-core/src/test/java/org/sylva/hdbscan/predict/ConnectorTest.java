package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

/**
 * {@link Connector} against the package's rule on the whole {@code 2 s} list, computed by brute force: the same
 * connecting point, lambda (bitwise) and coincidence for every new point, one point at a time and in groups, over
 * the index's search and over a scan, with each row one point and after a weighted fit. The core distances are
 * drawn at random as well as taken from the points, so that many new points are denser than all of their
 * {@code s + 1} nearest fitted points and must be searched again: the test checks that both paths ran.
 */
class ConnectorTest {
    @Test
    void answersAreThoseOfTheWholeList() {
        SplittableRandom rng = new SplittableRandom(2026);
        long again = 0, points = 0;
        for (int trial = 0; trial < 60; trial++) {
            // a few trials with fewer fitted points than the s + 1 first searched (rows, or a weighted fit's points)
            int n = trial % 10 == 9 ? 2 + rng.nextInt(12) : 20 + rng.nextInt(600), d = 1 + rng.nextInt(trial % 4 == 0 ? 30 : 4);
            boolean grid = trial % 3 == 0;
            double[] x = new double[n * d];
            for (int i = 0; i < x.length; i++) x[i] = grid ? rng.nextInt(5) : rng.nextDouble(-3, 3);
            int[] weights = null;
            if (trial % 5 == 4) {
                weights = new int[n];
                for (int i = 0; i < n; i++) weights[i] = 1 + rng.nextInt(3);
            }
            PointCopies copies = weights == null ? null : PointCopies.of(weights);
            int s = trial % 10 == 9 ? 19 : new int[] {0, 1, 2, 3, 5, 9, 19}[trial % 7];
            double[] core = new double[n];
            for (int i = 0; i < n; i++) {
                // random cores (many new points then need the whole list), or cores of the points' own spread
                core[i] = trial % 2 == 0 ? rng.nextDouble(0, grid ? 3 : 2) : Math.sqrt(d) * rng.nextDouble(0.1, 0.6);
                if (grid && rng.nextInt(4) == 0) core[i] = Math.floor(core[i]);   // ties with the raw distances
            }
            int m = 120;
            double[] q = new double[m * d];
            for (int i = 0; i < m; i++) {
                if (i % 5 == 0) System.arraycopy(x, rng.nextInt(n) * d, q, i * d, d);
                else for (int j = 0; j < d; j++) q[i * d + j] = grid ? rng.nextInt(6) - 0.5 * (i % 2) : rng.nextDouble(-4, 4);
            }
            DistanceKernel kernel = trial % 2 == 1 ? KernelProvider.get().scalarDistance() : KernelProvider.get().bestDistance();
            FittedNeighbours[] searches = {new NeighbourSearch(PointIndex.build(x, n, d, kernel)),
                    new MetricScan(Metric.euclidean().pairs(x, n, d), null)};
            for (FittedNeighbours search : searches) {
                Connector conn = new Connector(search, core, s, copies);
                Connector.Scratch one = conn.scratch();
                Connector.Group group = conn.group(NeighbourSearch.GROUP);
                for (int at = 0; at < m; at += NeighbourSearch.GROUP) {
                    int g = Math.min(NeighbourSearch.GROUP, m - at);
                    for (int j = 0; j < g; j++) group.offs[j] = (at + j) * d;
                    conn.connect(q, g, group);
                    for (int j = 0; j < g; j++) {
                        int i = at + j;
                        String what = "trial " + trial + " (n " + n + ", d " + d + ", s " + s + ", grid " + grid
                                + ", weighted " + (copies != null) + ", " + search.getClass().getSimpleName() + "), point " + i;
                        double[] want = wholeList(x, n, d, q, i * d, core, s, copies);
                        assertAnswer(want, group.member[j], what + " in a group");
                        conn.connect(q, i * d, one);
                        assertAnswer(want, one, what + " alone");
                    }
                }
                again += conn.searchedAgain();
                points += 2L * m;
            }
        }
        assertTrue(again > 0, "no point needed the whole list: the second search was not tested");
        assertTrue(again < points / 2, again + " of " + points + " points searched again");
    }

    private static void assertAnswer(double[] want, Connector.Scratch got, String what) {
        assertEquals((int) want[0], got.neighbour, what + ": connecting point");
        assertEquals(Double.doubleToLongBits(want[1]), Double.doubleToLongBits(got.lambda), what + ": lambda");
        assertEquals(want[2] != 0, got.coincides, what + ": coincides");
    }

    /**
     * The package's rule on the whole list, by brute force: every fitted point (a weighted row's copies each) in
     * (distance, point) order, the first {@code min(points, max(2 s, s + 1))} of them, the new point's core
     * distance the {@code s}-th (at most the last), and the first smallest {@code max(core, own, distance)}.
     * Returns {connecting point, lambda, coincides}.
     */
    private static double[] wholeList(double[] x, int n, int d, double[] q, int off, double[] core, int s,
            PointCopies copies) {
        int pts = copies == null ? n : copies.points();
        double[] dist = new double[pts];
        int[] rowOf = new int[pts];
        Integer[] order = new Integer[pts];
        for (int p = 0; p < pts; p++) {
            int r = copies == null ? p : copies.rowOf(p);
            double sq = 0;
            for (int j = 0; j < d; j++) {
                double t = q[off + j] - x[r * d + j];
                sq += t * t;
            }
            dist[p] = Math.sqrt(sq);
            rowOf[p] = r;
            order[p] = p;
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(p -> dist[p]).thenComparingInt(p -> p));
        int k = Math.min(pts, Math.max(2 * s, s + 1));
        double own = dist[order[Math.min(s, k - 1)]];
        int best = -1;
        double bestMr = Double.POSITIVE_INFINITY;
        for (int j = 0; j < k; j++) {
            int p = order[j];
            double mr = Math.max(Math.max(core[rowOf[p]], own), dist[p]);
            if (mr < bestMr) {
                bestMr = mr;
                best = p;
            }
        }
        return new double[] {best, bestMr > 0 ? 1.0 / bestMr : Double.MAX_VALUE, dist[order[0]] == 0 ? 1 : 0};
    }
}
