package org.sylva.hdbscan.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.DistanceKernel;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.mst.ClipLikeData;
import org.sylva.hdbscan.mst.PrimReference;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

class CoreDistancesTest {
    static CoreDistances run(double[] rows, int n, int d, int minSamples, DistanceKernel b, int threads, boolean prune) {
        PointIndex idx = PointIndex.build(rows, n, d, b);
        return CoreDistances.compute(idx, minSamples, b, threads, ProgressListener.NONE, CancellationToken.NEVER, prune);
    }

    /** Brute-force lists ordered by (distance, index), self included. */
    static void assertMatchesBruteForce(double[] rows, int n, int d, int minSamples, CoreDistances cd) {
        int k = Math.min(n, minSamples + 1);
        assertEquals(k, cd.k());
        Integer[] order = new Integer[n];
        double[] dist = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                dist[j] = PrimReference.distance(rows, d, i, j);
                order[j] = j;
            }
            Arrays.sort(order, (a, b) -> {
                int c = Double.compare(dist[a], dist[b]);
                return c != 0 ? c : Integer.compare(a, b);
            });
            for (int r = 0; r < k; r++) {
                assertEquals(order[r], cd.neighbour(i, r), "point " + i + " rank " + r);
                assertEquals(dist[order[r]], cd.neighbourDistance(i, r));
            }
            assertEquals(dist[order[Math.min(minSamples, n) - 1]], cd.core(i), "core of " + i);
        }
    }

    static double[] gaussian(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian();
        return x;
    }

    /** The most threads Java's pools take, on a small input: the same lists as one thread (scratch made per worker run). */
    @Test
    void theMostThreadsGiveTheListsOfOne() {
        double[] rows = gaussian(400, 5, 8);
        for (DistanceKernel b : List.of(KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance())) {
            for (boolean prune : new boolean[] {true, false}) {
                CoreDistances many = run(rows, 400, 5, 7, b, org.sylva.parallel.Pools.MAX_WORKERS, prune);
                CoreDistances one = run(rows, 400, 5, 7, b, 1, prune);
                assertArrayEquals(one.coreDistances(), many.coreDistances(), b.name() + " prune " + prune);
                assertMatchesBruteForce(rows, 400, 5, 7, many);
            }
        }
    }

    /** A float64 point set is measured in its own values, not rounded to float32 (as a fit measures it). */
    @Test
    void aFloat64PointSetIsMeasuredExactly() {
        double[] rows = gaussian(300, 4, 12);
        for (int i = 0; i < rows.length; i++) rows[i] += 1e-9 * i;   // values float32 cannot hold
        CoreDistances cd = CoreDistances.compute(PointSet.ofFloat64(300, 4, rows), 20, KernelProvider.get().bestDistance(),
                2, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(PrimReference.coreDistances(rows, 300, 4, 20), cd.coreDistances());
    }

    /**
     * Coordinates so small that squared distances fall below the normal range (1e-161: their products round by
     * half a subnormal step, an absolute error): the index's bounds keep an absolute margin, so no list loses a
     * point, at distance 0 or above; both kernels, with and without pruning.
     */
    @Test
    void matchesBruteForceBelowTheNormalRange() {
        for (double scale : new double[] {1e-161, 1e-160}) {
            for (int d : new int[] {2, 8}) {
                int n = 1500;
                double[] rows = org.sylva.testsupport.TinyRows.uniform(n, d, scale, 7);
                for (DistanceKernel b : List.of(KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance())) {
                    for (boolean prune : new boolean[] {true, false}) {
                        assertMatchesBruteForce(rows, n, d, 10, run(rows, n, d, 10, b, 2, prune));
                    }
                }
            }
        }
    }

    @Test
    void matchesBruteForceOnRandomData() {
        double[] rows = gaussian(800, 3, 11);
        for (int ms : new int[] {1, 2, 5, 20}) {
            assertMatchesBruteForce(rows, 800, 3, ms, run(rows, 800, 3, ms, KernelProvider.get().bestDistance(), 2, true));
        }
    }

    @Test
    void matchesBruteForceWithDuplicatesAndTies() {
        // Integer grid with many exact duplicates and equal distances: ties decided by index.
        Random r = new Random(4);
        int n = 900, d = 2;
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = r.nextInt(12);
        for (int ms : new int[] {1, 4, 11}) {
            CoreDistances cd = run(rows, n, d, ms, KernelProvider.get().bestDistance(), 2, true);
            assertMatchesBruteForce(rows, n, d, ms, cd);
        }
    }

    @Test
    void matchesBruteForceOnClipLikeData() {
        int n = 700;
        double[] rows = ClipLikeData.toDouble(ClipLikeData.withDuplicates(ClipLikeData.generate(n, 5), n, 61, 0.05, 6));
        assertMatchesBruteForce(rows, n, 61, 20, run(rows, n, 61, 20, KernelProvider.get().bestDistance(), 2, true));
    }

    @Test
    void prunedEqualsUnprunedAndScalarEqualsSimd() {
        int n = 2500;
        double[] rows = ClipLikeData.toDouble(ClipLikeData.withDuplicates(ClipLikeData.generate(n, 8), n, 61, 0.1, 9));
        CoreDistances ref = run(rows, n, 61, 20, KernelProvider.get().scalarDistance(), 1, false);
        for (DistanceKernel b : new DistanceKernel[] {KernelProvider.get().scalarDistance(), KernelProvider.get().distance("simd")}) {
            for (boolean prune : new boolean[] {true, false}) {
                CoreDistances cd = run(rows, n, 61, 20, b, 2, prune);
                assertArrayEquals(ref.coreDistances(), cd.coreDistances(), b.name() + " prune=" + prune);
                assertArrayEquals(ref.neighbours(), cd.neighbours());
                assertArrayEquals(ref.neighbourDistances(), cd.neighbourDistances());
            }
        }
    }

    /**
     * The vector kernels search few dimensions directly, integer data (exact lists) and more dimensions
     * through the pre-filter; the lists are the same either way.
     */
    @Test
    void fewDimensionsAreSearchedDirectlyUnlessTheDataAreIntegers() {
        DistanceKernel b = FilteredKnnSearchTest.vector();
        Random r = new Random(3);
        int n = 3000;
        for (int d : new int[] {2, CoreDistances.DIRECT_MAX_DIMENSIONS, CoreDistances.DIRECT_MAX_DIMENSIONS + 1}) {
            double[] decimals = new double[n * d], integers = new double[n * d];
            for (int i = 0; i < decimals.length; i++) {
                decimals[i] = (float) (r.nextGaussian() * 3 + (i / d % 5) * 10);   // float32 values: a float32 copy
                integers[i] = r.nextInt(8) + (i / d % 5) * 10;
            }
            PointIndex dec = PointIndex.build(decimals, n, d, b), ints = PointIndex.build(integers, n, d, b);
            org.junit.jupiter.api.Assumptions.assumeTrue(FilteredKnnSearch.applies(dec, b));
            assertEquals(d > CoreDistances.DIRECT_MAX_DIMENSIONS, CoreDistances.filtered(dec, b), "decimals, d=" + d);
            assertTrue(CoreDistances.filtered(ints, b), "integers, d=" + d);
            for (double[] rows : new double[][] {decimals, integers}) {
                CoreDistances ref = run(rows, n, d, 7, KernelProvider.get().scalarDistance(), 1, true);
                CoreDistances cd = run(rows, n, d, 7, b, 2, true);
                assertArrayEquals(ref.neighbours(), cd.neighbours(), "d=" + d);
                assertArrayEquals(ref.neighbourDistances(), cd.neighbourDistances(), "d=" + d);
            }
        }
        DistanceKernel scalar = KernelProvider.get().scalarDistance();
        assertFalse(CoreDistances.filtered(PointIndex.build(new double[] {0.5, 1, 2, 3}, 2, 2, scalar), scalar));
    }

    @Test
    void identicalForAnyThreadCount() {
        int n = 3000;
        double[] rows = ClipLikeData.toDouble(ClipLikeData.generate(n, 21));
        CoreDistances one = run(rows, n, 61, 10, KernelProvider.get().bestDistance(), 1, true);
        for (int t : new int[] {2, 8, 1}) {
            CoreDistances cd = run(rows, n, 61, 10, KernelProvider.get().bestDistance(), t, true);
            assertArrayEquals(one.neighbours(), cd.neighbours());
            assertArrayEquals(one.neighbourDistances(), cd.neighbourDistances());
        }
    }

    @Test
    void fewerPointsThanTheListLength() {
        double[] rows = gaussian(5, 2, 3);
        CoreDistances cd = run(rows, 5, 2, 5, KernelProvider.get().bestDistance(), 1, true);
        assertEquals(5, cd.k());
        assertMatchesBruteForce(rows, 5, 2, 5, cd);
        CoreDistances big = run(rows, 5, 2, 9, KernelProvider.get().bestDistance(), 1, true);   // minSamples > n: farthest point
        assertEquals(5, big.k());
        for (int i = 0; i < 5; i++) assertEquals(big.neighbourDistance(i, 4), big.core(i));
        CoreDistances one = run(new double[] {1, 1}, 1, 2, 3, KernelProvider.get().bestDistance(), 1, true);
        assertEquals(0.0, one.core(0));
        assertEquals(0, run(new double[0], 0, 2, 3, KernelProvider.get().bestDistance(), 1, true).size());
    }

    @Test
    void pointSetEntryConvertsFloat32Exactly() {
        float[] f = ClipLikeData.generate(400, 2);
        CoreDistances a = CoreDistances.compute(PointSet.of(400, 61, f), 7, KernelProvider.get().bestDistance(), 2, ProgressListener.NONE,
                CancellationToken.NEVER);
        double[] rows = ClipLikeData.toDouble(f);
        assertMatchesBruteForce(rows, 400, 61, 7, a);
    }

    /**
     * With the principal-axis bounds (what the engine asks for in a long-lived JVM, from 10 000 points) the
     * search also runs pass 2's stopping kernel and reads only the blocks it summed in full: the lists stay
     * bitwise those without, and those of brute force.
     */
    @Test
    void axisBoundsAndTheStoppingKernelKeepTheLists() {
        int n = 2500, d = 61;
        double[] rows = ClipLikeData.toDouble(ClipLikeData.generate(n, 5));
        DistanceKernel best = KernelProvider.get().bestDistance();
        for (int threads : new int[] {1, 2}) {
            PointIndex idx = PointIndex.build(rows, n, d, best);
            CoreDistances plain = CoreDistances.compute(idx, 9, best, threads, false, ProgressListener.NONE,
                    CancellationToken.NEVER);
            CoreDistances axes = CoreDistances.compute(idx, 9, best, threads, true, ProgressListener.NONE,
                    CancellationToken.NEVER);
            assertArrayEquals(plain.neighbours(), axes.neighbours());
            assertArrayEquals(plain.neighbourDistances(), axes.neighbourDistances());
            assertArrayEquals(plain.coreDistances(), axes.coreDistances());
            assertMatchesBruteForce(rows, n, d, 9, axes);
        }
    }

    @Test
    void badParameters() {
        PointSet p = PointSet.of(3, 1, new float[] {0, 1, 2});
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> CoreDistances.compute(p, 0,
                KernelProvider.get().bestDistance(), 1, ProgressListener.NONE, CancellationToken.NEVER));
        assertTrue(e.getMessage().contains("min_samples"));
        assertThrows(InvalidInputException.class, () -> CoreDistances.compute(p, 2, KernelProvider.get().bestDistance(), 0,
                ProgressListener.NONE, CancellationToken.NEVER));
    }

    @Test
    void reportsProgressAndHonoursCancellation() {
        int n = 4000;
        PointSet p = PointSet.of(n, 61, ClipLikeData.generate(n, 3));
        List<String> stages = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger lastDone = new AtomicInteger();
        CoreDistances.compute(p, 5, KernelProvider.get().bestDistance(), 2, (stage, done, total) -> {
            stages.add(stage);
            assertTrue(done <= total);
            lastDone.set((int) done);
        }, CancellationToken.NEVER);
        assertTrue(stages.contains(CoreDistances.STAGE));
        CancellationToken token = new CancellationToken();
        AtomicInteger calls = new AtomicInteger();
        assertThrows(CancelledException.class, () -> CoreDistances.compute(p, 5, KernelProvider.get().bestDistance(), 2,
                (stage, done, total) -> calls.incrementAndGet(), cancelled(token)));
    }

    @Test
    void theFilteredSearchsFractionNeverGoesBackAndEndsWhole() {
        int n = 6000;
        PointSet p = PointSet.of(n, 61, ClipLikeData.generate(n, 5));
        PointIndex idx = PointIndex.build(p, KernelProvider.get().bestDistance());
        assertTrue(CoreDistances.filtered(idx, KernelProvider.get().bestDistance()), "the test needs the filtered search");
        List<double[]> reports = new ArrayList<>();
        // one thread: the reports arrive in order, so each fraction must be at least the one before it (pass 2's
        // count rescales pass 1's share, which must not make the fraction fall)
        CoreDistances.compute(idx, 5, KernelProvider.get().bestDistance(), 1, (stage, done, total) -> {
            assertEquals(CoreDistances.STAGE, stage);
            reports.add(new double[] {done, total});
        }, CancellationToken.NEVER);
        assertTrue(reports.size() > 3, reports.size() + " reports");
        double last = 0;
        for (double[] r : reports) {
            assertTrue(r[0] <= r[1], r[0] + " of " + r[1]);
            double f = r[0] / r[1];
            assertTrue(f >= last, "fraction " + f + " after " + last);
            last = f;
        }
        double[] end = reports.get(reports.size() - 1);
        assertEquals(end[1], end[0]);
        // the guess for pass 2 grows with the leaves, and the passes before it take a share of it on large inputs
        assertEquals(16, CoreDistances.passTwoGuess(40));
        assertEquals(1024, CoreDistances.passTwoGuess(4096));
        assertEquals(CoreDistances.FIRST_PASS_UNITS, CoreDistances.firstPassUnits(512));
        assertTrue(CoreDistances.firstPassUnits(4096) > CoreDistances.FIRST_PASS_UNITS);
        assertEquals(CoreDistances.firstPassUnits(4096) / 2, CoreDistances.countUnits(4096));
    }

    /**
     * Pass 2's progress starts where the passes before it left the fraction, never below it, exactly, up to the
     * largest inputs (2^26 leaves of 2^26 tiles each, whose products pass a long).
     */
    @Test
    void pass2StartsWherePass1LeftTheFraction() {
        java.math.BigInteger b;
        for (int leaves : new int[] {1, 7, 512, 4096, 1 << 20, 1 << 26}) {
            long perLeaf = CoreDistances.firstPassUnits(leaves) + CoreDistances.countUnits(leaves);
            long first = perLeaf * leaves;
            long guess = first + (CoreDistances.passTwoGuess(leaves) + CoreDistances.FINAL_PASS_UNITS) * leaves;
            for (long tilesPerLeaf : new long[] {0, 1, 3, 16, 747, leaves}) {
                long rest = (tilesPerLeaf + CoreDistances.FINAL_PASS_UNITS) * leaves;
                long done = CoreDistances.rescaledStart(rest, first, guess);
                // done / (done + rest) >= first / guess, and done - 1 would fall below it (unless done is 1)
                java.math.BigInteger lhs = java.math.BigInteger.valueOf(done).multiply(java.math.BigInteger.valueOf(guess - first));
                java.math.BigInteger rhs = java.math.BigInteger.valueOf(rest).multiply(java.math.BigInteger.valueOf(first));
                String what = leaves + " leaves, " + tilesPerLeaf + " tiles per leaf: " + done;
                assertTrue(lhs.compareTo(rhs) >= 0, what);
                b = java.math.BigInteger.valueOf(done - 1).multiply(java.math.BigInteger.valueOf(guess - first));
                assertTrue(done == 1 || b.compareTo(rhs) < 0, what);
                assertTrue(done + rest > 0, what);   // no overflow in the stage's total
            }
        }
    }

    /** A token already cancelled: the computation must stop before producing a result. */
    private static CancellationToken cancelled(CancellationToken t) {
        t.cancel();
        return t;
    }

    /** Lists given from elsewhere must be in (distance, index) order: the spanning tree decides ties by it. */
    @org.junit.jupiter.api.Test
    void wrappedListsOutOfOrderAreRefused() {
        double[] core = {1, 1};
        CoreDistances ok = CoreDistances.of(1, core, 2, new int[] {0, 1, 1, 0}, new double[] {0, 1, 0, 1});
        org.junit.jupiter.api.Assertions.assertEquals(2, ok.k());
        org.sylva.data.InvalidInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.sylva.data.InvalidInputException.class,
                () -> CoreDistances.of(1, core, 2, new int[] {0, 1, 1, 0}, new double[] {0, 1, 1, 0}));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("neighbour list 1 is not in (distance, index) order"),
                e.getMessage());
        // equal distances: the lower index first
        org.junit.jupiter.api.Assertions.assertThrows(org.sylva.data.InvalidInputException.class,
                () -> CoreDistances.of(1, core, 2, new int[] {1, 0, 1, 0}, new double[] {0, 0, 0, 1}));
    }

    /**
     * With multiplicities, a point's own copies count towards min_samples: a point held twice, at min_samples 2, has
     * core distance 0 (its copy), not its next neighbour's distance.
     */
    @Test
    void aPointsOwnCopiesReachMinSamplesAtDistanceZero() {
        int k = 3;
        int[] neighbours = {0, 1, 2, 1, 0, 2, 2, 1, 0};
        double[] distances = {0, 1, 2, 0, 1, 1.5, 0, 1.5, 2};
        double[] cores = CoreDistances.coresWithMultiplicities(2, k, neighbours, distances, new int[] {2, 1, 1});
        assertArrayEquals(new double[] {0, 1, 1.5}, cores, 0);
    }
}
