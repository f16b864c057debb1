package org.sylva.hdbscan.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

class FilteredKnnSearchTest {
    /** Lists from {@link FilteredKnnSearch}, each pass over the leaves in the given order on worker 0. */
    static Object[] filtered(PointIndex idx, DistanceKernel b, int k, boolean reverse) {
        int n = idx.size();
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        FilteredKnnSearch s = new FilteredKnnSearch(idx, b, k, 1, nb, nd);
        int leaves = idx.leaves();
        for (int i = 0; i < leaves; i++) s.firstPass(0, reverse ? leaves - 1 - i : i);
        s.boundsUp();
        for (int i = 0; i < leaves; i++) s.secondPass(0, reverse ? leaves - 1 - i : i);
        for (int i = 0; i < leaves; i++) s.finalPass(0, reverse ? leaves - 1 - i : i);
        return new Object[] {nb, nd};
    }

    static DistanceKernel vector() {
        DistanceKernel b = KernelProvider.get().bestDistance();
        assumeTrue(b.approximates(), "no float32 pre-filter in this JVM (vector kernels unavailable)");
        return b;
    }

    @Test
    void appliesOnlyWithAPreFilterAndFloat32Coordinates() {
        DistanceKernel b = vector();
        assumeTrue(PointIndex.build(new double[] {0.5, 1}, 1, 2, b).hasFloat32());
        assertFalse(FilteredKnnSearch.applies(PointIndex.build(new double[] {0.1, 1}, 1, 2, b), b));
        assertFalse(FilteredKnnSearch.applies(PointIndex.build(new double[] {0.5, 1}, 1, 2,
                KernelProvider.get().scalarDistance()), KernelProvider.get().scalarDistance()));
    }

    @Test
    void equalsTheDirectSearchBitwiseInAnyLeafOrder() {
        DistanceKernel b = vector();
        int n = 2000, d = 61;
        double[] rows = org.sylva.hdbscan.mst.ClipLikeData.toDouble(org.sylva.hdbscan.mst.ClipLikeData.withDuplicates(
                org.sylva.hdbscan.mst.ClipLikeData.generate(n, 4), n, d, 0.1, 5));
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assumeTrue(FilteredKnnSearch.applies(idx, b));
        // 70 and 130: lists kept as heaps while they fill, candidates sorted at the end
        for (int k : new int[] {2, 11, 21, 70, 130}) {
            Object[] ref = DirectKnnSearchTest.direct(idx, b, k, true, false);
            for (boolean reverse : new boolean[] {false, true}) {
                Object[] got = filtered(idx, b, k, reverse);
                assertArrayEquals((int[]) ref[0], (int[]) got[0], "k=" + k + " reverse=" + reverse);
                assertArrayEquals((double[]) ref[1], (double[]) got[1], "k=" + k + " reverse=" + reverse);
            }
        }
    }

    @Test
    void overflowingListsAreRedoneExactly() {
        DistanceKernel b = vector();
        // Groups of exact duplicates larger than k + 12: the approximate lists fill with zeros and overflow
        // (also with heaps: 8 groups of 150 at min_samples 100).
        int n = 1200, d = 3;
        for (int[] groupsAndMinSamples : new int[][] {{25, 20}, {8, 100}}) {
            int groups = groupsAndMinSamples[0], minSamples = groupsAndMinSamples[1], k = minSamples + 1;
            double[] rows = new double[n * d];
            for (int i = 0; i < n; i++) {
                int g = i % groups;
                for (int j = 0; j < d; j++) rows[i * d + j] = g * 0.25 + j + (i % 7 == 0 ? 0.125 : 0);
            }
            PointIndex idx = PointIndex.build(rows, n, d, b);
            assumeTrue(FilteredKnnSearch.applies(idx, b));
            Object[] got = filtered(idx, b, k, false);
            double[] core = new double[n];
            for (int i = 0; i < n; i++) core[i] = ((double[]) got[1])[i * k + minSamples - 1];
            CoreDistancesTest.assertMatchesBruteForce(rows, n, d, minSamples,
                    CoreDistances.of(minSamples, core, k, (int[]) got[0], (double[]) got[1]));
            Object[] ref = DirectKnnSearchTest.direct(idx, b, k, false, false);
            assertArrayEquals((int[]) ref[0], (int[]) got[0]);
            assertArrayEquals((double[]) ref[1], (double[]) got[1]);
        }
    }
}
