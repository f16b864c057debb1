package org.sylva.hdbscan.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

class DirectKnnSearchTest {
    /** Lists from {@link DirectKnnSearch}, leaves run in the given order on worker 0: {@code {indices, distances}}. */
    static Object[] direct(PointIndex idx, DistanceKernel b, int k, boolean prune, boolean reverse) {
        int n = idx.size();
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        DirectKnnSearch s = new DirectKnnSearch(idx, b, k, prune, 1, nb, nd);
        int leaves = idx.leaves();
        for (int i = 0; i < leaves; i++) s.unit(0, reverse ? leaves - 1 - i : i);
        return new Object[] {nb, nd};
    }

    /** Points in tight groups with exact duplicates, so many lists end in ties. */
    static double[] groups(int n, int d, int groups, long seed) {
        java.util.Random r = new java.util.Random(seed);
        double[] centres = new double[groups * d];
        for (int i = 0; i < centres.length; i++) centres[i] = r.nextInt(50);
        double[] rows = new double[n * d];
        for (int i = 0; i < n; i++) {
            int g = r.nextInt(groups);
            boolean dup = r.nextInt(3) == 0;
            for (int j = 0; j < d; j++) rows[i * d + j] = centres[g * d + j] + (dup ? 0 : r.nextInt(3) * 0.5f);
        }
        return rows;
    }

    @Test
    void matchesBruteForcePrunedOrNotInAnyLeafOrder() {
        matchesBruteForce(9);
    }

    /** Lists of hundreds (a large {@code min_samples}) fill as buffers: the same lists. */
    @Test
    void longListsMatchBruteForce() {
        matchesBruteForce(NearestLists.BUFFER_ABOVE + 1);
        matchesBruteForce(299);
    }

    private static void matchesBruteForce(int minSamples) {
        int n = 1500, d = 4, k = minSamples + 1;
        double[] rows = groups(n, d, 12, 3);
        for (DistanceKernel b : new DistanceKernel[] {KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance()}) {
            PointIndex idx = PointIndex.build(rows, n, d, b);
            Object[] ref = direct(idx, b, k, false, false);
            double[] core = new double[n];
            for (int i = 0; i < n; i++) core[i] = ((double[]) ref[1])[i * k + minSamples - 1];
            CoreDistancesTest.assertMatchesBruteForce(rows, n, d, minSamples,
                    CoreDistances.of(minSamples, core, k, (int[]) ref[0], (double[]) ref[1]));
            for (boolean prune : new boolean[] {true, false}) {
                for (boolean reverse : new boolean[] {false, true}) {
                    Object[] got = direct(idx, b, k, prune, reverse);
                    assertArrayEquals((int[]) ref[0], (int[]) got[0], b.name() + " prune=" + prune + " reverse=" + reverse);
                    assertArrayEquals((double[]) ref[1], (double[]) got[1], b.name() + " prune=" + prune + " reverse=" + reverse);
                }
            }
        }
    }

    @Test
    void redoRecomputesOneListInPlace() {
        int n = 600, d = 3, k = 7;
        double[] rows = groups(n, d, 5, 8);
        DistanceKernel b = KernelProvider.get().bestDistance();
        PointIndex idx = PointIndex.build(rows, n, d, b);
        Object[] ref = direct(idx, b, k, true, false);
        DirectKnnSearch s = new DirectKnnSearch(idx, b, k, true, 1, new int[n * k], new double[n * k]);
        NearestLists qs = new NearestLists(PointIndex.LEAF_SIZE, k);
        int leaf = idx.leaves() / 2, start = idx.leafStart(leaf);
        for (int i = 0; i < idx.leafCount(leaf); i++) qs.pos[i] = start + i;
        qs.reset(idx.leafCount(leaf), leaf);
        for (int i = 0; i < qs.m; i++) {
            s.redo(0, qs, i);
            int o = idx.original(qs.pos[i]);
            assertArrayEquals(Arrays.copyOfRange((int[]) ref[0], o * k, o * k + k), Arrays.copyOfRange(qs.orig, i * k, i * k + k));
            assertArrayEquals(Arrays.copyOfRange((double[]) ref[1], o * k, o * k + k), Arrays.copyOfRange(qs.dist, i * k, i * k + k));
        }
    }
}
