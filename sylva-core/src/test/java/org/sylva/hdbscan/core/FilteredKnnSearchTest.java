package org.sylva.hdbscan.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.index.ProjectedIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

class FilteredKnnSearchTest {
    /** Lists from {@link FilteredKnnSearch}, each pass over the leaves in the given order on worker 0. */
    static Object[] filtered(PointIndex idx, DistanceKernel b, int k, boolean reverse) {
        return filtered(idx, b, k, reverse, false);
    }

    /** As {@link #filtered(PointIndex, DistanceKernel, int, boolean)}, pass 2's early stop on or off. */
    static Object[] filtered(PointIndex idx, DistanceKernel b, int k, boolean reverse, boolean earlyStop) {
        return filtered(idx, b, k, reverse, earlyStop, null);
    }

    /** As above, pass 2 also bounded along the principal axes of {@code axes} (null: not). */
    static Object[] filtered(PointIndex idx, DistanceKernel b, int k, boolean reverse, boolean earlyStop,
                             ProjectedIndex axes) {
        int n = idx.size();
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        FilteredKnnSearch s = new FilteredKnnSearch(idx, b, k, 1, nb, nd);
        s.earlyStop = earlyStop;
        s.useAxes(axes);
        int leaves = idx.leaves();
        for (int i = 0; i < leaves; i++) s.firstPass(0, reverse ? leaves - 1 - i : i);
        s.boundsUp();
        for (int i = 0; i < leaves; i++) s.secondPass(0, reverse ? leaves - 1 - i : i);
        for (int i = 0; i < leaves; i++) s.finalPass(0, reverse ? leaves - 1 - i : i);
        return new Object[] {nb, nd};
    }

    /** A search for many threads makes a worker's scratch only when that worker runs (issue: --threads 32767). */
    @Test
    void scratchIsMadeOnlyForTheWorkersThatRun() {
        DistanceKernel b = vector();
        int n = 600, d = 6, k = 5;
        double[] rows = CoreDistancesTest.gaussian(n, d, 3);
        for (int i = 0; i < rows.length; i++) rows[i] = (float) rows[i];   // float32 values: the pre-filter's copy
        PointIndex idx = PointIndex.build(rows, n, d, b);
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        FilteredKnnSearch s = new FilteredKnnSearch(idx, b, k, org.sylva.parallel.Pools.MAX_WORKERS, nb, nd);
        org.junit.jupiter.api.Assertions.assertEquals(0, s.scratchesMade(), "none before a pass");
        int leaves = idx.leaves();
        for (int i = 0; i < leaves; i++) s.firstPass(i % 3, i);
        s.boundsUp();
        for (int i = 0; i < leaves; i++) s.secondPass(i % 3, i);
        for (int i = 0; i < leaves; i++) s.finalPass(i % 3, i);
        org.junit.jupiter.api.Assertions.assertEquals(3, s.scratchesMade(), "workers 0, 1 and 2 ran");
        Object[] one = filtered(idx, b, k, false, false);
        assertArrayEquals((int[]) one[0], nb);
        assertArrayEquals((double[]) one[1], nd);
    }

    static DistanceKernel vector() {
        DistanceKernel b = KernelProvider.get().bestDistance();
        assumeTrue(b.approximates(), "no float32 pre-filter in this JVM (vector kernels unavailable)");
        return b;
    }

    @Test
    void appliesOnlyWithAPreFilterAndAFloat32Copy() {
        DistanceKernel b = vector();
        assumeTrue(PointIndex.build(new double[] {0.5, 1}, 1, 2, b).hasFloat32());
        // a few float64 points that are not float32 values: searched directly (a rounded copy from 1 000 points)
        assertFalse(FilteredKnnSearch.applies(PointIndex.build(new double[] {0.1, 1, 0.3, 2}, 2, 2, b), b));
        assertFalse(FilteredKnnSearch.applies(PointIndex.build(new double[] {1e16, 0}, 2, 1, b), b));
        assertFalse(FilteredKnnSearch.applies(PointIndex.build(new double[] {0.5, 1}, 1, 2,
                KernelProvider.get().scalarDistance()), KernelProvider.get().scalarDistance()));
    }

    /**
     * Float64 clips that are not float32 values (four decimals, far from the origin) are searched through
     * their rounded float32 copy, bitwise as the direct search.
     */
    @Test
    void equalsTheDirectSearchBitwiseOnARoundedCopy() {
        DistanceKernel b = vector();
        int n = 2000, d = 61;
        double[] rows = clipsWithDuplicates(n, 6, 0.05);
        for (int i = 0; i < rows.length; i++) rows[i] = Math.round((rows[i] + 5000) * 1e4) / 1e4;
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assertTrue(idx.float32Rounding() > 0);
        assertTrue(FilteredKnnSearch.applies(idx, b));
        // a caller may ask for the rounded copy only from more points (a fresh JVM's one-shot run)
        assertFalse(PointIndex.build(rows, n, d, b, 1, CancellationToken.NEVER, n + 1).hasFloat32());
        assertTrue(PointIndex.build(rows, n, d, b, 1, CancellationToken.NEVER, 0).hasFloat32());
        assertEqualsTheDirectSearch(idx, b, 2, 11, 21, 70);
    }

    /**
     * Pass 2 looks at the token within a leaf, not only between leaves (its first leaves are its largest
     * units): with the token cancelled after pass 1, the first leaf's pass 2 stops by CancelledException, in
     * the whole-index pass and in a slice's.
     */
    @Test
    void passTwoStopsWithinALeafOnceCancelled() {
        DistanceKernel b = vector();
        int n = 2000, d = 61;
        double[] rows = org.sylva.hdbscan.mst.ClipLikeData.toDouble(org.sylva.hdbscan.mst.ClipLikeData.generate(n, 4));
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assumeTrue(FilteredKnnSearch.applies(idx, b));
        int leaves = idx.leaves();
        for (boolean slice : new boolean[] {false, true}) {
            int posTo = idx.positions();
            FilteredKnnSearch s = slice
                    ? FilteredKnnSearch.forSlice(idx, b, 11, 1, new int[posTo * 11], new double[posTo * 11], 0, posTo)
                    : new FilteredKnnSearch(idx, b, 11, 1, new int[n * 11], new double[n * 11]);
            CancellationToken token = new CancellationToken();
            s.cancelledBy(token);
            for (int q = 0; q < leaves; q++) s.firstPass(0, q);
            s.boundsUp();
            token.cancel();
            if (slice) {
                assertThrows(CancelledException.class, () -> s.secondPassSlice(0, 0, 0, leaves), "slice");
            } else {
                assertThrows(CancelledException.class, () -> s.secondPass(0, 0), "whole index");
            }
        }
    }

    /** Between clusters the principal axes skip leaf pairs the balls keep, and the lists stay those of the direct search. */
    @Test
    void theAxesSkipLeafPairsBetweenClustersExactly() {
        DistanceKernel b = vector();
        int n = 6000, d = 61;
        double[] rows = org.sylva.hdbscan.mst.ClipLikeData.toDouble(org.sylva.hdbscan.mst.ClipLikeData.generate(n, 8));
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assumeTrue(FilteredKnnSearch.applies(idx, b));
        ProjectedIndex axes = ProjectedIndex.of(idx, null, CancellationToken.NEVER);
        int k = 21;
        long[] tiles = new long[2];
        long skipped = 0;
        for (int with = 0; with < 2; with++) {
            FilteredKnnSearch s = new FilteredKnnSearch(idx, b, k, 1, new int[n * k], new double[n * k]);
            s.useAxes(with == 1 ? axes : null);
            for (int i = 0; i < idx.leaves(); i++) s.firstPass(0, i);
            s.boundsUp();
            for (int i = 0; i < idx.leaves(); i++) tiles[with] += s.secondPassTiles(0, i);
            for (int i = 0; i < idx.leaves(); i++) s.secondPass(0, i);
            skipped += s.skippedVisits();
        }
        assertTrue(tiles[1] < tiles[0], "the axes ruled out no leaf pair (" + tiles[1] + " of " + tiles[0]
                + " tiles, " + skipped + " visits skipped): their path went untested");
        assertEqualsTheDirectSearch(idx, b, k);
    }

    @Test
    void equalsTheDirectSearchBitwiseInAnyLeafOrder() {
        DistanceKernel b = vector();
        int n = 2000, d = 61;
        double[] rows = clipsWithDuplicates(n, 4, 0.1);
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assumeTrue(FilteredKnnSearch.applies(idx, b));
        // 70 and 130: lists kept as buffers while they fill, candidates sorted at the end
        assertEqualsTheDirectSearch(idx, b, 2, 11, 21, 70, 130);
    }

    /**
     * Hundreds of dimensions (image-like: integer pixels 0..255, many zero, in four groups), where the stopping
     * kernel stops blocks at its later checks: bitwise the direct search, with the early stop on and off.
     */
    @Test
    void equalsTheDirectSearchBitwiseInHundredsOfDimensions() {
        DistanceKernel b = vector();
        int n = 1200, d = 300;
        java.util.Random r = new java.util.Random(23);
        double[] rows = new double[n * d];
        for (int i = 0; i < n; i++) {
            int group = i % 4;
            for (int j = 0; j < d; j++) {
                boolean ink = (j * 7 + group * 75) % d < 120 && r.nextInt(4) > 0;
                rows[i * d + j] = ink ? r.nextInt(256) : 0;
            }
        }
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assumeTrue(FilteredKnnSearch.applies(idx, b));
        assertEqualsTheDirectSearch(idx, b, 2, 6, 21);
    }

    /** {@code n} clip-like points of 61 samples (seed {@code seed}), a fraction of them duplicates, as float64. */
    private static double[] clipsWithDuplicates(int n, long seed, double duplicates) {
        return org.sylva.hdbscan.mst.ClipLikeData.toDouble(org.sylva.hdbscan.mst.ClipLikeData.withDuplicates(
                org.sylva.hdbscan.mst.ClipLikeData.generate(n, seed), n, 61, duplicates, seed + 1));
    }

    /**
     * The filtered lists of every {@code k}, each pass in leaf order and reversed, with pass 2's early stop
     * on and off, equal the direct search's bitwise.
     */
    static void assertEqualsTheDirectSearch(PointIndex idx, DistanceKernel b, int... ks) {
        ProjectedIndex axes = ProjectedIndex.of(idx, null, CancellationToken.NEVER);
        for (int k : ks) {
            Object[] ref = DirectKnnSearchTest.direct(idx, b, k, true, false);
            for (boolean reverse : new boolean[] {false, true}) {
                for (boolean stop : new boolean[] {false, true}) {
                    for (ProjectedIndex a : axes == null ? new ProjectedIndex[] {null} : new ProjectedIndex[] {null, axes}) {
                        Object[] got = filtered(idx, b, k, reverse, stop, a);
                        String what = "k=" + k + " reverse=" + reverse + " early stop=" + stop + " axes=" + (a != null);
                        assertArrayEquals((int[]) ref[0], (int[]) got[0], what);
                        assertArrayEquals((double[]) ref[1], (double[]) got[1], what);
                    }
                }
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

    /**
     * Binary vectors: distances are square roots of small integers, so the k-th distance of most points is
     * shared by dozens of others. The approximations are exact there, so the lists keep k entries in the
     * exact tie order and equal the direct search's, sorted runs and buffers alike.
     */
    @Test
    void exactListsOnMassiveTiesEqualTheDirectSearch() {
        DistanceKernel b = vector();
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        int n = 1500, d = 24;
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = r.nextInt(2);
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assumeTrue(FilteredKnnSearch.applies(idx, b));
        org.junit.jupiter.api.Assertions.assertTrue(new FilteredKnnSearch(idx, b, 3, 1, new int[3 * n],
                new double[3 * n]).exactLists());
        // 200: a buffer that fills and is cut back several times, ties ordered by original index
        assertEqualsTheDirectSearch(idx, b, 2, 21, 70, 200);
    }

    /**
     * The search's progress is counted in tiles (pass 2's counted before it runs): the fraction reported
     * never goes back, ends at exactly 1, and pass 2's share follows its work, so that on uniform 20-d data
     * (where pass 2 is most of the stage) most of the progress comes from it.
     */
    @Test
    void progressNeverGoesBackAndEndsComplete() {
        DistanceKernel b = vector();
        java.util.SplittableRandom r = new java.util.SplittableRandom(4);
        int n = 6000, d = 20;
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) x[i] = (float) r.nextDouble();
        PointIndex idx = PointIndex.build(org.sylva.data.PointSet.of(n, d, x), b);
        java.util.List<double[]> seen = new java.util.ArrayList<>();
        CoreDistances.compute(idx, 10, b, 2, (stage, done, total) -> {
            synchronized (seen) {
                seen.add(new double[] {done, total});
            }
        }, org.sylva.progress.CancellationToken.NEVER);
        double last = 0;
        for (double[] p : seen) {
            double f = p[0] / p[1];
            // two workers may report a moment out of order (reports are throttled, not serialised): a
            // little slack; the rescaling between passes 1 and 2 would show as a large step back
            org.junit.jupiter.api.Assertions.assertTrue(f >= last - 0.02 && f <= 1.0, "fraction " + f + " after " + last);
            last = Math.max(last, f);
        }
        double[] end = seen.get(seen.size() - 1);
        org.junit.jupiter.api.Assertions.assertEquals(end[1], end[0]);
    }
}
