package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

class MemoryBudgetTest {
    @Test
    void estimateGrowsWithPointsDimensionsAndNeighbours() {
        long base = MemoryBudget.estimateBytes(100_000, 61, 20);
        assertTrue(MemoryBudget.estimateBytes(200_000, 61, 20) > base);
        assertTrue(MemoryBudget.estimateBytes(100_000, 122, 20) > base);
        // at small min_samples the index build is the peak; above it the neighbour lists are
        assertTrue(MemoryBudget.estimateBytes(100_000, 61, 200) > base);
        assertTrue(MemoryBudget.estimateBytes(100_000, 61, 400) > MemoryBudget.estimateBytes(100_000, 61, 200));
        // the spike sorter's 500 000 clips fit in the 2 GB the benchmark allows beyond the input
        assertTrue(MemoryBudget.estimateBytes(500_000, 61, 20) < 2L << 30);
    }

    /** The estimate holds at least the arrays a fit surely allocates, counted from a real index. */
    @Test
    void estimateCoversTheStructuresOfEveryPhase() {
        DistanceKernel b = KernelProvider.get().bestDistance();
        int n = 5000, d = 61;
        double[] rows = new double[n * d];
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        for (int i = 0; i < rows.length; i++) rows[i] = (float) rnd.nextGaussian();
        PointIndex idx = PointIndex.build(rows, n, d, b);
        long coords = (long) idx.positions() * d * (8 + 4);   // float64 and float32 blocks
        for (int minSamples : new int[] {1, 5, 20, 100, 1000, 4999}) {
            long k = Math.min(n, minSamples + 1);
            long exactLists = 12L * n * k;
            // k + 12 entries, and a quarter more above 64 entries: the buffer the lists fill
            long approximateLists = 8L * idx.positions() * (k > 64 ? k + 12 + Math.max(64, (k + 12) / 4) : k + 12);
            long rowsCopy = 8L * n * d;
            long indexBuild = 2 * rowsCopy + coords;            // the builder's two working copies and the blocks
            long reorder = 2 * coords + exactLists;               // the index and its copy with leaves by core distance
            long floor = rowsCopy + Math.max(Math.max(indexBuild, reorder), coords + exactLists + approximateLists);
            long estimate = MemoryBudget.estimateBytes(n, d, minSamples);
            assertTrue(estimate >= floor, "min_samples " + minSamples + ": " + estimate + " < " + floor);
            // and not far above it: the rest is per-point bookkeeping and the leaves' padding
            assertTrue(estimate <= 1.15 * floor + 600L * n, "min_samples " + minSamples + ": " + estimate + " vs " + floor
                    + " (" + idx.positions() + " positions)");
        }
        // a float64 input read in place needs no copy of its rows
        assertEquals(8L * n * d, MemoryBudget.estimateBytes(n, d, 20, true) - MemoryBudget.estimateBytes(n, d, 20, false));
    }

    @Test
    void aLargeMinSamplesIsRefusedThroughTheFacadeNamingIt() {
        int n = 200_000;
        float[] c = new float[n];
        for (int i = 0; i < n; i++) c[i] = i;
        // 200 000 lists of 100 001 entries: about 370 GiB, refused before any of it is allocated
        InvalidInputException e = assertThrows(org.sylva.data.InsufficientMemoryException.class, () ->
                Hdbscan.builder().minClusterSize(5).minSamples(100_000).build().fit(PointSet.of(n, 1, c)));
        // a front end that names the input keeps the kind: the engine protocol answers it as MemoryError
        assertTrue(e.withContext("clips.npy") instanceof org.sylva.data.InsufficientMemoryException);
        assertEquals("clips.npy: " + e.getMessage(), e.withContext("clips.npy").getMessage());
        assertTrue(e.getMessage().startsWith("a fit of 200000 points x 1 dimensions at min_samples 100000 needs about "),
                e.getMessage());
        assertTrue(e.getMessage().contains("GiB of heap beyond the input, but only "), e.getMessage());
    }

    @Test
    void aKdTreeFitTheHeapCannotHoldIsRefusedUpFront() {
        long n = Runtime.getRuntime().maxMemory() / 64;   // a few hundred bytes a point: far more than the heap
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> MemoryBudget.checkKdTree(n, 16));
        assertTrue(e.getMessage().startsWith("a fit of " + n + " points x 16 dimensions needs about "), e.getMessage());
        assertDoesNotThrow(() -> MemoryBudget.checkKdTree(100_000, 16));
    }

    /** The brute-force engine's kernel copies the rows in blocks: counted where a kernel runs, not for minkowski. */
    @Test
    void theKernelsCopyOfTheRowsIsCounted() {
        long n = 50_000;
        int d = (int) Math.min(Integer.MAX_VALUE, Runtime.getRuntime().maxMemory() / (4 * n));   // the copy: twice the heap
        assertDoesNotThrow(() -> MemoryBudget.checkBruteForce(n, d, false, false));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> MemoryBudget.checkBruteForce(n, d, false, true));
        assertTrue(e.getMessage().startsWith("a fit of " + n + " points x " + d + " dimensions needs about "), e.getMessage());
    }

    @Test
    void aFitTheHeapCannotHoldIsRefusedUpFrontWithTheFigures() {
        long n = Runtime.getRuntime().maxMemory() / 8;   // needs far more than the whole heap
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> MemoryBudget.check(n, 61, 20));
        assertTrue(e.getMessage().contains("GiB of heap") && e.getMessage().contains("-Xmx"), e.getMessage());
        assertDoesNotThrow(() -> MemoryBudget.check(10_000, 61, 20));
    }

    @Test
    void figuresBelowAGibibyteAreInMebibytesAndANeedNeverPrintsAsTheAvailable() {
        long mib = 1L << 20, gib = 1L << 30;
        assertEquals("106 MiB", MemoryBudget.size(105 * mib + 1, true));
        assertEquals("105 MiB", MemoryBudget.size(106 * mib - 1, false));
        // one byte apart, on either side of a unit: still two different figures
        assertEquals("101 MiB", MemoryBudget.size(100 * mib + 1, true));
        assertEquals("100 MiB", MemoryBudget.size(100 * mib, false));
        assertEquals("2.2 GiB", MemoryBudget.size(2 * gib + gib / 10 + 1, true));
        assertEquals("2.1 GiB", MemoryBudget.size(2 * gib + gib / 10 + 1, false));
        assertEquals("1.0 GiB", MemoryBudget.size(gib, false));
        assertEquals("1024 MiB", MemoryBudget.size(gib - 1, true));
    }
}
