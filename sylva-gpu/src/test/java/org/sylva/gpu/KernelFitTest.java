package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * The device's nearest lists, read back through {@link KernelFit}, against a brute force on the host:
 * the same squared distances (summed in dimension order) and, where distances tie, the smaller original
 * index first, although the device stores the points in its spatial order and skips whole tiles; and a
 * Borůvka round's cheapest edges against the host's, with the round's tiles split into slices (a few
 * active points) and whole (all active).
 */
class KernelFitTest {
    @Test
    void listsAreInDistanceThenIndexOrderOnATieHeavyGrid() {
        listsAgainstABruteForce(1 << 20);
    }

    @Test
    void copiesInManySmallChunksGiveTheSameLists() {
        // 100 entries a copy: 33 rows of points and 11 rows of lists per chunk, a ragged last chunk of each
        int old = KernelFit.stageEntries;
        KernelFit.stageEntries = 100;
        try {
            listsAgainstABruteForce(100);
        } finally {
            KernelFit.stageEntries = old;
        }
    }

    private static void listsAgainstABruteForce(int stage) {
        assertEquals(stage, KernelFit.stageEntries);
        int n = 700, d = 3, k = 9;
        double[] x = new double[n * d];
        java.util.SplittableRandom r = new java.util.SplittableRandom(5);
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(6);   // 216 grid nodes: equal distances everywhere
        double[] sq = new double[n * k];
        int[] idx = new int[n * k];
        try (DeviceFit f = TestDevice.openCl().open(new FittedPoints(x, n, d), k)) {
            f.coreLists(0, 300);
            f.coreLists(300, n - 300);
            f.readLists(sq, idx);
        }
        for (int p = 0; p < n; p++) {
            Integer[] q = new Integer[n];
            double[] s = new double[n];
            for (int o = 0; o < n; o++) {
                q[o] = o;
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    double t = x[p * d + j] - x[o * d + j];
                    sum += t * t;
                }
                s[o] = sum;
            }
            Arrays.sort(q, Comparator.<Integer>comparingDouble(o -> s[o]).thenComparingInt(o -> o));
            for (int t = 0; t < k; t++) {
                assertEquals(q[t], idx[p * k + t], "point " + p + ", entry " + t);
                assertEquals(s[q[t]], sq[p * k + t], "point " + p + ", entry " + t);
            }
        }
    }

    @Test
    void aRoundsCheapestEdgesInSlicesAndWholeMatchTheHost() {
        int n = 3000, d = 2, k = 5;
        double[] x = new double[n * d];
        java.util.SplittableRandom r = new java.util.SplittableRandom(11);
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(40);   // 1 600 grid nodes: ties everywhere
        double[] core = new double[n];
        for (int p = 0; p < n; p++) core[p] = r.nextInt(4);       // equal weights between many pairs too
        int[][] layouts = new int[2][n];
        for (int p = 0; p < n; p++) {
            layouts[0][p] = p % 7;                                           // scattered components
            layouts[1][p] = (x[p * d] < 20 ? 0 : 2) + (x[p * d + 1] < 13 ? 0 : 1);   // four regions
        }
        int[] few = new int[20];
        for (int i = 0; i < few.length; i++) few[i] = i * 149;
        int[] all = new int[n];
        for (int p = 0; p < n; p++) all[p] = p;
        try (KernelFit f = (KernelFit) TestDevice.openCl().open(new FittedPoints(x, n, d), k)) {
            f.setCore(core);
            for (int[] comp : layouts) {
                for (int[] active : new int[][] {few, all}) {
                    for (double alpha : new double[] {1.0, 0.7}) {
                        f.setRound(comp, active, active.length);
                        if (active == few) assertTrue(f.roundSlices() > 1, "slices " + f.roundSlices());
                        else assertEquals(1, f.roundSlices());
                        f.cheapestEdges(0, active.length, alpha);
                        double[] w = new double[active.length];
                        int[] q = new int[active.length];
                        f.readEdges(active.length, w, q);
                        for (int i = 0; i < active.length; i++) {
                            int p = active[i];
                            double bw = Double.POSITIVE_INFINITY;
                            int bq = -1;
                            for (int o = 0; o < n; o++) {
                                if (comp[o] == comp[p]) continue;
                                double sum = 0;
                                for (int j = 0; j < d; j++) {
                                    double t = x[p * d + j] - x[o * d + j];
                                    sum += t * t;
                                }
                                double dist = alpha == 1.0 ? Math.sqrt(sum) : Math.sqrt(sum) / alpha;
                                double wo = Math.max(Math.max(core[p], core[o]), dist);
                                if (wo < bw || (wo == bw && o < bq)) {
                                    bw = wo;
                                    bq = o;
                                }
                            }
                            String at = "point " + p + " of " + active.length + " active, alpha " + alpha;
                            assertEquals(bq, q[i], at);
                            assertEquals(bw, w[i], at);
                        }
                    }
                }
            }
        }
    }

    @Test
    void slicesFillTheDeviceWithinTheBuffersAndTheTiles() {
        assertEquals(1, KernelFit.slicesFor(0, 1000, 10, 128, 16));
        assertEquals(1, KernelFit.slicesFor(128, 1000, 10, 128, 16));      // a full wave: whole
        assertEquals(2, KernelFit.slicesFor(64, 1000, 10, 128, 16));
        assertEquals(10, KernelFit.slicesFor(5, 1000, 10, 128, 16));       // at most one per tile
        assertEquals(16, KernelFit.slicesFor(5, 100_000, 400, 67_584, 16)); // at most the most
        assertEquals(3, KernelFit.slicesFor(300, 1000, 400, 67_584, 16));   // active * slices <= n
        assertEquals(1, KernelFit.slicesFor(5, 100_000, 400, 67_584, 1));   // slicing off
    }

    /**
     * Squares in the subnormal range round by up to half of 4.9e-324, so the computed distances there
     * break the triangle inequality by far more than the bounds' margin, and a tile bound must not prove
     * anything (the kernels' TINY). Built so that it would: in one dimension, point p at 0 whose second
     * entry is r at computed distance 3.14e-162 (2.5 units of 4.9e-324 squared, rounded to 2), and a tile
     * of 256 points within 0.45e-162 of its centre 3.9e-162 (radius computed as 0, every square rounding
     * to 0), whose nearest point to p lies at 3.45e-162 (computed 3.14e-162: 2 units, rounded down) while
     * its centre lies at computed 3.85e-162 (3 units, rounded up). The bound 3.85e-162 exceeds p's second
     * distance, 3.14e-162, yet the tile holds a point at exactly that distance with a smaller index than
     * r, which the list must take; and, in a Borůvka round, the edge to it.
     */
    @Test
    void noTileIsSkippedOnDistancesNearUnderflow() {
        int fillers = 254, cluster = 256, n = fillers + 2 + cluster, k = 2;
        double[] x = new double[n];
        int at = 0;
        for (int i = 0; i < cluster; i++) x[at++] = 3.45e-162 + 0.9e-162 * i / (cluster - 1);   // indices 0..255
        for (int i = 0; i < fillers; i++) x[at++] = -1e-100 - 1e-110 * i;                    // p's tile, far away
        int p = at;
        x[at++] = 0;
        int r = at;
        x[at++] = 3.2e-162;
        double sq = x[r] * x[r], sqNear = x[0] * x[0], sqCentre = 3.9e-162 * 3.9e-162;
        assertEquals(Double.MIN_VALUE * 2, sq, "r's squared distance rounds to 2 units");
        assertEquals(Double.MIN_VALUE * 2, sqNear, "the tile's nearest point rounds to 2 units");
        assertEquals(Double.MIN_VALUE * 3, sqCentre, "the centre rounds to 3 units");
        double[] lists = new double[n * k];
        int[] idx = new int[n * k];
        try (DeviceFit f = TestDevice.openCl().open(new FittedPoints(x, n, 1), k)) {
            f.coreLists(0, n);
            f.readLists(lists, idx);
        }
        assertEquals(p, idx[p * k]);
        assertEquals(0, idx[p * k + 1], "p's second entry: the tile's point 0 (index 0 < r), not r (" + r + ")");
        assertEquals(sq, lists[p * k + 1]);
        // a round, every point active (one slice): p's cheapest edge out of its component, r and the tile
        // being two others, weighs 3.14e-162 to r and to point 0, which wins the tie by its index
        int[] comp = new int[n];
        for (int i = 0; i < cluster; i++) comp[i] = 2;
        comp[r] = 1;
        int[] all = new int[n];
        for (int i = 0; i < n; i++) all[i] = i;
        double[] w = new double[n];
        int[] q = new int[n];
        try (KernelFit f = (KernelFit) TestDevice.openCl().open(new FittedPoints(x, n, 1), k)) {
            f.setCore(new double[n]);
            f.setRound(comp, all, n);
            assertEquals(1, f.roundSlices());
            f.cheapestEdges(0, n, 1.0);
            f.readEdges(n, w, q);
        }
        assertEquals(0, q[p], "p's cheapest edge: to point 0, not r (" + r + ")");
        assertEquals(Math.sqrt(sq), w[p]);
    }

    /**
     * The rounds' row bounds near underflow: the best weight falls below TINY within a tile, and a later row's
     * own bound must then prove nothing. One dimension: p at 0 with its component's 254 other points just
     * below it and r (another component) at -1e-100 in its own tile, so the best weight is 1e-100 when the
     * next tile starts. That tile (a third component) holds four points at 3.20e-162 to 3.23e-162 (computed
     * distance 3.14e-162: 2 units of 4.9e-324 squared) with large indices, then point 0 at 3.45e-162 (also
     * 2 units: a tie it wins by its index), then 251 points at 5e-162. Its centre (about 4.97e-162 from p)
     * is within 1.52e-162 of point 0, whose distance from it squares to less than half a unit: 0, so point
     * 0's row bound would be 4.97e-162, beyond the best weight 3.14e-162 that the first block left.
     */
    @Test
    void aRoundsRowBoundsProveNothingOnceTheBestWeightIsNearUnderflow() {
        int n = 512;
        double[] x = new double[n];
        int[] comp = new int[n];
        x[0] = 3.45e-162;
        comp[0] = 2;
        for (int i = 1; i <= 251; i++) {
            x[i] = 5e-162 + 1e-172 * i;
            comp[i] = 2;
        }
        for (int i = 252; i <= 255; i++) {
            x[i] = 3.20e-162 + 0.01e-162 * (i - 252);
            comp[i] = 2;
        }
        x[256] = -1e-100;
        comp[256] = 1;
        for (int i = 257; i <= 510; i++) x[i] = -1e-170 * (i - 256);   // p's component
        int p = 511;
        x[p] = 0;
        double centre = 0;
        for (int i = 0; i < 256; i++) centre += x[i];
        centre /= 256;
        assertEquals(Double.MIN_VALUE * 2, x[0] * x[0], "point 0's squared distance rounds to 2 units");
        assertEquals(Double.MIN_VALUE * 2, x[255] * x[255], "the first block's points round to 2 units");
        assertEquals(0.0, (centre - x[0]) * (centre - x[0]), "point 0's distance from the centre squares to 0");
        assertTrue(Math.sqrt(centre * centre) > 3 * Math.sqrt(Double.MIN_VALUE * 2) / 2, "the centre is far enough");
        int[] all = new int[n];
        for (int i = 0; i < n; i++) all[i] = i;
        double[] w = new double[n];
        int[] q = new int[n];
        try (KernelFit f = (KernelFit) TestDevice.openCl().open(new FittedPoints(x, n, 1), 2)) {
            f.setCore(new double[n]);
            f.setRound(comp, all, n);
            assertEquals(1, f.roundSlices());
            f.cheapestEdges(0, n, 1.0);
            f.readEdges(n, w, q);
        }
        assertEquals(0, q[p], "p's cheapest edge: to point 0 (a tie at 3.14e-162 won by its index)");
        assertEquals(Math.sqrt(Double.MIN_VALUE * 2), w[p]);
    }
}
