package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.hdbscan.mst.MstTestSupport.assertSpanningTreeInEdgeOrder;
import static org.sylva.hdbscan.mst.MstTestSupport.assertWeightsRecomputed;
import static org.sylva.hdbscan.mst.MstTestSupport.fit;
import static org.sylva.hdbscan.mst.MstTestSupport.sortedWeights;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.DistanceKernel;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.MstTestSupport.Fit;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

class BoruvkaMstTest {
    static double[] gaussian(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian() + (i / d % 4) * 3;
        return x;
    }

    static double[] grid(int n, int d, int side, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(side);
        return x;
    }

    static double[] clips(int n, double dupFraction, long seed) {
        return ClipLikeData.toDouble(ClipLikeData.withDuplicates(ClipLikeData.generate(n, seed), n, 61, dupFraction,
                seed + 1));
    }

    /** Prim under the full EdgeOrder builds the unique tree: Borůvka's must be identical, edge for edge. */
    @Test
    void equalsPrimUnderTheEdgeOrder() {
        for (double alpha : new double[] {1.0, 0.7, 1.3}) {
            check(gaussian(500, 3, 1), 500, 3, 5, alpha);
            check(grid(400, 2, 15, 2), 400, 2, 4, alpha);       // heavy ties and duplicates
            check(clips(400, 0.05, 3), 400, 61, 20, alpha);
        }
        check(gaussian(60, 2, 4), 60, 2, 1, 1.0);                 // minSamples 1: core distances all 0
    }

    /**
     * Coordinates so small that squared distances fall below the normal range: the index's bounds keep an
     * absolute margin there ({@link org.sylva.hdbscan.index.PointIndex#lowerBound}), so the core distances and
     * the tree are still Prim's.
     */
    @Test
    void equalsPrimBelowTheNormalRange() {
        for (double scale : new double[] {1e-161, 1e-160}) {
            for (int d : new int[] {2, 8}) {
                int n = 1500;
                check(org.sylva.testsupport.TinyRows.uniform(n, d, scale, 7), n, d, 10, 1.0);
            }
        }
    }

    private static void check(double[] rows, int n, int d, int ms, double alpha) {
        check(rows, n, d, ms, BoruvkaMst.builder().alpha(alpha), alpha);
    }

    private static void checkWithAxes(double[] rows, int n, int d, int ms, double alpha) {
        check(rows, n, d, ms, BoruvkaMst.builder().alpha(alpha).axisBounds(true), alpha);
    }

    private static void check(double[] rows, int n, int d, int ms, BoruvkaMst.Builder mst, double alpha) {
        Fit f = fit(rows, n, d, ms, KernelProvider.get().bestDistance(), 2, mst);
        double[] core = f.cd().coreDistances();
        assertArrayEquals(PrimReference.coreDistances(rows, n, d, ms), core);
        SpanningTree prim = PrimReference.prim(rows, n, d, core, alpha, true);
        assertSpanningTreeInEdgeOrder(f.tree(), n);
        assertEquals(prim, f.tree(), "alpha " + alpha + " ms " + ms);
        assertWeightsRecomputed(f.tree(), rows, d, core, alpha);
        // Textbook Prim (weights only, first found wins): another minimum tree, same sorted weights.
        SpanningTree plain = PrimReference.prim(rows, n, d, core, alpha, false);
        assertArrayEquals(sortedWeights(plain), sortedWeights(f.tree()));
        assertEquals(plain.totalWeight(), f.tree().totalWeight(), 1e-12 * Math.abs(plain.totalWeight()));
    }

    /**
     * In hundreds of dimensions, with the principal-axis bounds, the scan's float32 tiles stop early
     * ({@link CheapestEdgeScan#STOPPING_DIMENSIONS}): image-like integer pixels in four groups (ties, many
     * zeros) and Gaussian clusters, with and without alpha, give Prim's tree under the edge order, and the
     * same tree without the axes and with bound pruning off (every tile read in full).
     */
    @Test
    void equalsPrimInHundredsOfDimensions() {
        int n = 500, d = CheapestEdgeScan.STOPPING_DIMENSIONS + 44;
        java.util.Random r = new java.util.Random(41);
        double[] pixels = new double[n * d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                boolean ink = (j * 7 + (i % 4) * 75) % d < 120 && r.nextInt(4) > 0;
                pixels[i * d + j] = ink ? r.nextInt(256) : 0;
            }
        }
        checkWithAxes(pixels, n, d, 5, 1.0);
        checkWithAxes(pixels, n, d, 3, 1.3);
        double[] clusters = gaussian(n, d, 43);
        checkWithAxes(clusters, n, d, 10, 1.0);
        assertEquals(fit(pixels, n, d, 5, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder().pruning(false)).tree(),
                fit(pixels, n, d, 5, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder().axisBounds(true)).tree());
    }

    /** On continuous random data with minSamples 1 (all cores 0, distinct distances) no tie decides: even textbook Prim agrees edge for edge. */
    @Test
    void equalsTextbookPrimWhereNoTieDecides() {
        double[] rows = gaussian(300, 4, 9);
        Fit f = fit(rows, 300, 4, 1, KernelProvider.get().bestDistance(), 1, BoruvkaMst.builder());
        SpanningTree plain = PrimReference.prim(rows, 300, 4, f.cd().coreDistances(), 1.0, false);
        assertEquals(plain, f.tree());
    }

    @Test
    void pruningIsExact() {
        int n = 3000;
        double[] rows = clips(n, 0.1, 17);
        for (int ms : new int[] {20, 5}) {
            SpanningTree pruned = fit(rows, n, 61, ms, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder().pruning(true)).tree();
            SpanningTree none = fit(rows, n, 61, ms, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder().pruning(false)).tree();
            SpanningTree shortcutsOnly = fit(rows, n, 61, ms, KernelProvider.get().bestDistance(), 2,
                    BoruvkaMst.builder().shortcuts(true).boundPruning(false)).tree();
            SpanningTree boundsOnly = fit(rows, n, 61, ms, KernelProvider.get().bestDistance(), 2,
                    BoruvkaMst.builder().shortcuts(false).boundPruning(true)).tree();
            assertSpanningTreeInEdgeOrder(pruned, n);
            assertEquals(none, pruned, "ms " + ms);
            assertEquals(none, shortcutsOnly);
            assertEquals(none, boundsOnly);
        }
        double[] g = grid(2000, 2, 30, 5);
        assertEquals(fit(g, 2000, 2, 6, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder().pruning(false)).tree(),
                fit(g, 2000, 2, 6, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder().pruning(true)).tree());
    }

    /**
     * Each round leaves the component with the most points to scan out: it adds no edge of its own, and
     * the others' edges join it. On clusters with duplicates, on integer ties and with {@code alpha}, the tree
     * is still the one that scans every point, on any threads, and the rule did spare scans, so the
     * comparison covers it.
     */
    @Test
    void leavingTheLargestScanOutKeepsTheTree() {
        record Case(double[] rows, int n, int d, int minSamples, double alpha) {
        }
        List<Case> cases = List.of(new Case(clips(3000, 0.1, 23), 3000, 61, 10, 1.0),
                new Case(clips(3000, 0.1, 23), 3000, 61, 10, 1.4),
                new Case(grid(3000, 16, 2, 29), 3000, 16, 5, 1.0),
                new Case(gaussian(4000, 3, 31), 4000, 3, 20, 1.0));
        for (Case c : cases) {
            DistanceKernel k = KernelProvider.get().bestDistance();
            org.sylva.hdbscan.index.PointIndex idx = org.sylva.hdbscan.index.PointIndex.build(c.rows(), c.n(), c.d(), k);
            CoreDistances cd = CoreDistances.compute(idx, c.minSamples(), k, 2, ProgressListener.NONE, CancellationToken.NEVER);
            SpanningTree everyPoint = new BoruvkaRun(idx, cd, k, c.alpha(), false, false, new org.sylva.parallel.ParallelWork(2))
                    .run(ProgressListener.NONE, CancellationToken.NEVER);
            for (int t : new int[] {1, 2, 5}) {
                BoruvkaRun run = new BoruvkaRun(idx, cd, k, c.alpha(), true, true, new org.sylva.parallel.ParallelWork(t));
                assertEquals(everyPoint, run.run(ProgressListener.NONE, CancellationToken.NEVER),
                        "d = " + c.d() + ", alpha " + c.alpha() + ", " + t + " threads");
                assertTrue(run.components.scansLeftOut() > 0, "no scan was left out: the rule went untested");
            }
        }
    }

    /** The most threads Java's pools take, on a small input: the tree of one thread (scratch made per worker run). */
    @Test
    void theMostThreadsGiveTheTreeOfOne() {
        double[] rows = gaussian(500, 4, 37);
        for (DistanceKernel k : List.of(KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance())) {
            PointIndex idx = PointIndex.build(rows, 500, 4, k);
            CoreDistances cd = CoreDistances.compute(idx, 5, k, 1, ProgressListener.NONE, CancellationToken.NEVER);
            SpanningTree one = new BoruvkaRun(idx, cd, k, 1.0, true, true, new org.sylva.parallel.ParallelWork(1))
                    .run(ProgressListener.NONE, CancellationToken.NEVER);
            SpanningTree many = new BoruvkaRun(idx, cd, k, 1.0, true, true,
                    new org.sylva.parallel.ParallelWork(org.sylva.parallel.Pools.MAX_WORKERS))
                    .run(ProgressListener.NONE, CancellationToken.NEVER);
            assertEquals(one, many, k.name());
        }
    }

    /**
     * Distinct binary vectors: distances are square roots of small integers, so weights take a handful of
     * values and the tie order decides almost every edge; the scans prune tied candidates by their
     * endpoints. The tree must still be Prim's under the edge order, with pruning on or off, on any threads.
     */
    @Test
    void massiveTiesOnDistinctPointsArePrunedExactly() {
        double[] small = grid(600, 16, 2, 41);
        for (int ms : new int[] {1, 5, 20}) check(small, 600, 16, ms, 1.0);
        check(small, 600, 16, 5, 0.8);
        int n = 4000, d = 32;
        double[] rows = grid(n, d, 2, 43);
        SpanningTree none = fit(rows, n, d, 10, KernelProvider.get().bestDistance(), 2,
                BoruvkaMst.builder().pruning(false)).tree();
        for (int t : new int[] {1, 2, 8}) {
            assertEquals(none, fit(rows, n, d, 10, KernelProvider.get().bestDistance(), t, BoruvkaMst.builder()).tree(),
                    "threads " + t);
        }
        assertEquals(none, fit(rows, n, d, 10, KernelProvider.get().bestDistance(), 2,
                BoruvkaMst.builder().shortcuts(false).boundPruning(true)).tree());
    }

    @Test
    void scalarAndSimdGiveIdenticalTrees() {
        DistanceKernel simd = KernelProvider.get().distance("simd");
        double[] decimals = clips(3000, 0.02, 6);   // four decimals far from the origin: a rounded float32 copy
        for (int i = 0; i < decimals.length; i++) decimals[i] = Math.round((decimals[i] - 700) * 1e4) / 1e4;
        assertTrue(PointIndex.build(decimals, 3000, 61, simd).float32Rounding() > 0);
        assertTrue(PointIndex.build(gaussian(2000, 5, 3), 2000, 5, simd).float32Rounding() > 0);
        List<double[]> sets = List.of(gaussian(2000, 5, 3), clips(3000, 0.0, 4), clips(2000, 0.3, 5), decimals);
        int[] dims = {5, 61, 61, 61};
        for (int s = 0; s < sets.size(); s++) {
            double[] rows = sets.get(s);
            int n = rows.length / dims[s];
            Fit a = fit(rows, n, dims[s], 10, KernelProvider.get().scalarDistance(), 2, BoruvkaMst.builder());
            Fit b = fit(rows, n, dims[s], 10, simd, 2, BoruvkaMst.builder());
            assertArrayEquals(a.cd().coreDistances(), b.cd().coreDistances());
            assertArrayEquals(a.cd().neighbours(), b.cd().neighbours());
            assertEquals(a.tree(), b.tree(), "set " + s);
        }
    }

    @Test
    void byteIdenticalForAnyThreadCountAndRun() {
        int n = 5000;
        double[] rows = clips(n, 0.05, 31);
        SpanningTree one = fit(rows, n, 61, 20, KernelProvider.get().bestDistance(), 1, BoruvkaMst.builder()).tree();
        for (int t : new int[] {2, 8, 2, 1}) {
            SpanningTree other = fit(rows, n, 61, 20, KernelProvider.get().bestDistance(), t, BoruvkaMst.builder()).tree();
            assertEquals(one, other, "threads " + t);
            assertArrayEquals(one.fromArray(), other.fromArray());
            assertArrayEquals(one.toArray(), other.toArray());
        }
    }

    @Test
    void tinyInputs() {
        for (int n = 0; n <= 3; n++) {
            double[] rows = gaussian(n, 2, n);
            Fit f = fit(rows, n, 2, 2, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder());
            assertSpanningTreeInEdgeOrder(f.tree(), n);
            assertEquals(PrimReference.prim(rows, n, 2, f.cd().coreDistances(), 1.0, true), f.tree());
        }
        double[] same = new double[100 * 3];   // all points identical: every weight 0, ties by index
        Fit f = fit(same, 100, 3, 5, KernelProvider.get().bestDistance(), 2, BoruvkaMst.builder());
        assertEquals(PrimReference.prim(same, 100, 3, f.cd().coreDistances(), 1.0, true), f.tree());
        for (int e = 0; e < 99; e++) assertEquals(0.0, f.tree().weight(e));
    }

    @Test
    void pointSetEntryAndProgressAndCancellation() {
        int n = 3000;
        float[] f = ClipLikeData.generate(n, 77);
        PointSet pts = PointSet.of(n, 61, f);
        DistanceKernel b = KernelProvider.get().bestDistance();
        CoreDistances cd = CoreDistances.compute(pts, 20, b, 2, ProgressListener.NONE, CancellationToken.NEVER);
        List<String> stages = Collections.synchronizedList(new ArrayList<>());
        SpanningTree t = BoruvkaMst.builder().threads(2).backend(b).build().compute(pts, cd,
                (stage, done, total) -> stages.add(stage), CancellationToken.NEVER);
        assertSpanningTreeInEdgeOrder(t, n);
        assertTrue(stages.contains("spanning tree round 1"), stages.toString());
        int rounds = (int) stages.stream().distinct().count();
        assertTrue(rounds <= 33 - Integer.numberOfLeadingZeros(n - 1), "rounds " + rounds);
        assertEquals(fit(ClipLikeData.toDouble(f), n, 61, 20, b, 1, BoruvkaMst.builder()).tree(), t);

        CancellationToken token = new CancellationToken();
        token.cancel();
        assertThrows(CancelledException.class, () -> BoruvkaMst.builder().build().compute(pts, cd,
                ProgressListener.NONE, token));
        // Cancelled from inside: the listener cancels at round 2; no tree comes back.
        CancellationToken mid = new CancellationToken();
        assertThrows(CancelledException.class, () -> BoruvkaMst.builder().build().compute(pts, cd,
                (stage, done, total) -> {
                    if (stage.endsWith(" 2")) mid.cancel();
                }, mid));
    }

    @Test
    void badParameters() {
        assertThrows(InvalidInputException.class, () -> BoruvkaMst.builder().alpha(0));
        assertThrows(InvalidInputException.class, () -> BoruvkaMst.builder().alpha(-1));
        assertThrows(InvalidInputException.class, () -> BoruvkaMst.builder().alpha(Double.NaN));
        assertThrows(InvalidInputException.class, () -> BoruvkaMst.builder().threads(0));
        assertThrows(InvalidInputException.class, () -> BoruvkaMst.builder().backend(null));
        PointSet p = PointSet.of(3, 1, new float[] {0, 1, 2});
        CoreDistances cd = CoreDistances.compute(PointSet.of(2, 1, new float[] {0, 1}), 1, KernelProvider.get().bestDistance(), 1,
                ProgressListener.NONE, CancellationToken.NEVER);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> BoruvkaMst.builder().build()
                .compute(p, cd, ProgressListener.NONE, CancellationToken.NEVER));
        assertTrue(e.getMessage().contains("2 points"), e.getMessage());
    }
}
