package org.sylva.hdbscan.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * The index built on several threads is the sequential build's, field by field and bit for bit: the
 * same partition, node numbering, positions, centres and radii, and coordinate blocks, compared with the
 * sequential build as it was before the build ran in parallel ({@link ReferenceIndexBuild}).
 */
class ParallelIndexBuildTest {
    private static final int[] THREADS = {1, 2, 3, 4, 7};

    /**
     * Builds with every thread count and block widths 1, 4 and 8 and compares each with the reference;
     * small inputs too run on several threads here (no smallest parallel size).
     */
    private static void allIdentical(String name, double[] rows, int n, int d) {
        for (int w : new int[] {1, 4, 8}) {
            ReferenceIndexBuild ref = new ReferenceIndexBuild(rows, n, d, w).build();
            PointIndex first = null;
            for (int t : THREADS) {
                PointIndex idx = new PointIndexBuilder(rows, n, d, w, t, CancellationToken.NEVER, 0).build();
                String what = name + ", W = " + w + ", threads = " + t;
                assertSame(ref, idx, what);
                // A rounded float32 copy (which the reference predates): bitwise the same for every thread count.
                if (first == null) first = idx;
                assertEquals(Double.doubleToRawLongBits(first.float32Rounding()),
                        Double.doubleToRawLongBits(idx.float32Rounding()), what + ": rounding");
                if (first.blocks32() != null) assertFloatBits(first.blocks32(), idx.blocks32(), what + ": float32 blocks");
            }
        }
    }

    private static void assertFloatBits(float[] expected, float[] actual, String what) {
        int[] a = new int[expected.length], b = new int[actual.length];
        for (int i = 0; i < a.length; i++) a[i] = Float.floatToRawIntBits(expected[i]);
        for (int i = 0; i < b.length; i++) b[i] = Float.floatToRawIntBits(actual[i]);
        assertArrayEquals(a, b, what);
    }

    static void assertSame(ReferenceIndexBuild ref, PointIndex idx, String what) {
        assertEquals(ref.n, idx.size(), what);
        assertEquals(ref.d, idx.dimensions(), what);
        assertEquals(ref.w, idx.blockWidth(), what);
        assertEquals(ref.pos, idx.positions(), what + ": positions");
        assertEquals(ref.nodeCount, idx.nodes(), what + ": nodes");
        assertEquals(ref.leafCount, idx.leaves(), what + ": leaves");
        assertEquals(ref.maxDepth, idx.depth(), what + ": depth");
        for (int node = 0; node < ref.nodeCount; node++) {
            String at = what + ", node " + node;
            assertEquals(ref.left[node], idx.left(node), at);
            assertEquals(ref.right[node], idx.right(node), at);
            assertEquals(ref.nodeLeaf[node], idx.leafOf(node), at);
            assertEquals(ref.nodePosStart[node], idx.nodeStart(node), at);
            assertEquals(ref.nodePosEnd[node], idx.nodeEnd(node), at);
            assertEquals(ref.nodeRealCount[node], idx.nodeSize(node), at);
            assertEquals(Double.doubleToRawLongBits(ref.radius[node]), Double.doubleToRawLongBits(idx.radius(node)),
                    at + ": radius");
        }
        assertBits(Arrays.copyOf(ref.centre, ref.nodeCount * ref.d), idx.centres(), what + ": centres");
        for (int leaf = 0; leaf < ref.leafCount; leaf++) {
            assertEquals(ref.leafNode[leaf], idx.leafNode(leaf), what);
            assertEquals(ref.leafStart[leaf], idx.leafStart(leaf), what);
            assertEquals(ref.leafSize[leaf], idx.leafCount(leaf), what);
        }
        for (int p = 0; p < ref.pos; p++) assertEquals(ref.posToOrig[p], idx.original(p), what + ": position " + p);
        for (int i = 0; i < ref.n; i++) assertEquals(ref.origToPos[i], idx.position(i), what + ": point " + i);
        assertBits(ref.data, idx.blocks(), what + ": blocks");
        if (ref.data32 == null) {
            // The reference keeps no copy of values that are not float32 values; the index may keep a rounded one.
            if (idx.blocks32() != null) assertTrue(idx.float32Rounding() > 0, what + ": a rounded float32 copy");
        } else {
            assertNotNull(idx.blocks32(), what + ": float32 blocks");
            assertEquals(0.0, idx.float32Rounding(), what + ": an exact float32 copy");
            assertFloatBits(ref.data32, idx.blocks32(), what + ": float32 blocks");
        }
    }

    private static void assertBits(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
                assertEquals(expected[i], actual[i], what + " [" + i + "]");
                throw new AssertionError(what + " [" + i + "]: " + expected[i] + " and " + actual[i]
                        + " differ in bits");
            }
        }
    }

    private static double[] clipLike(int n) {
        float[] c = ClipLikeData.generate(n, 20240L + n).points().coordinates();
        double[] rows = new double[c.length];
        for (int i = 0; i < c.length; i++) rows[i] = c[i];
        return rows;
    }

    @Test
    void clipLikeData() {
        for (int n : new int[] {3000, 20_000}) allIdentical("clip-like " + n, clipLike(n), n, ClipLikeData.SAMPLES);
    }

    @Test
    void gaussianData() {
        // Not float32-exact: no float32 copy.
        allIdentical("gaussian 5000 x 61", PointIndexTest.randomRows(5000, 61, 3), 5000, 61);
        allIdentical("gaussian 9000 x 3", PointIndexTest.randomRows(9000, 3, 4), 9000, 3);
    }

    @Test
    void oneDimension() {
        allIdentical("gaussian 7000 x 1", PointIndexTest.randomRows(7000, 1, 5), 7000, 1);
    }

    @Test
    void manyDuplicatesTiesAndSignedZeros() {
        int n = 6000, d = 4;
        Random r = new Random(11);
        double[] rows = new double[n * d];
        double[] values = {0.0, -0.0, 1.0, -1.0};
        for (int i = 0; i < rows.length; i++) rows[i] = values[r.nextInt(values.length)];
        allIdentical("four values", rows, n, d);
        double[] same = new double[3000 * 61];
        Arrays.fill(same, 2.5);
        allIdentical("all equal", same, 3000, 61);
        // Half the points on two spots, the rest spread.
        double[] halves = PointIndexTest.randomRows(4000, 5, 6);
        for (int i = 0; i < 2000; i++) {
            for (int j = 0; j < 5; j++) halves[i * 5 + j] = (i & 1) == 0 ? 1.0 : -3.0;
        }
        allIdentical("two heavy spots", halves, 4000, 5);
    }

    @Test
    void tinyInputsAndSizesAroundTheLeafSize() {
        int leaf = PointIndex.LEAF_SIZE;
        for (int n : new int[] {0, 1, 2, 5, leaf - 1, leaf, leaf + 1, leaf + 2, 2 * leaf + 1, 3 * leaf + 7}) {
            for (int d : new int[] {1, 61}) {
                allIdentical("n = " + n + ", d = " + d, PointIndexTest.randomRows(n, d, 100 + n), n, d);
            }
        }
    }

    @Test
    void moreNodesThanTheLargestSubtreeOfOneUnit() {
        // n above SUBTREES_PER_THREAD * MAX_SUBTREE: the level-by-level part stops at the subtree limit.
        int n = PointIndexBuilder.SUBTREES_PER_THREAD * PointIndexBuilder.MAX_SUBTREE + 3001;
        ReferenceIndexBuild ref = new ReferenceIndexBuild(PointIndexTest.randomRows(n, 2, 8), n, 2, 4).build();
        for (int t : new int[] {1, 2, 3}) {
            PointIndex idx = new PointIndexBuilder(PointIndexTest.randomRows(n, 2, 8), n, 2, 4, t,
                    CancellationToken.NEVER, 0).build();
            assertSame(ref, idx, "n = " + n + ", threads = " + t);
        }
    }

    @Test
    void publicBuildWithThreadsIsTheSequentialBuild() {
        DistanceKernel b = KernelProvider.get().bestDistance();
        int n = 5000, d = 61;
        double[] rows = clipLike(n);
        ReferenceIndexBuild ref = new ReferenceIndexBuild(rows, n, d, b.blockWidth()).build();
        assertSame(ref, PointIndex.build(rows, n, d, b), "sequential overload");
        for (int t : THREADS) {
            assertSame(ref, PointIndex.build(rows, n, d, b, t, CancellationToken.NEVER), "threads = " + t);
        }
    }

    @Test
    void refusesBadThreadCountsAndStopsWhenCancelled() {
        DistanceKernel b = KernelProvider.get().scalarDistance();
        double[] rows = PointIndexTest.randomRows(500, 3, 1);
        assertThrows(InvalidInputException.class, () -> PointIndex.build(rows, 500, 3, b, 0, CancellationToken.NEVER));
        CancellationToken token = new CancellationToken();
        token.cancel();
        for (int t : new int[] {1, 2}) {
            assertThrows(CancelledException.class, () -> PointIndex.build(rows, 500, 3, b, t, token));
        }
        // An interrupt stops the cancellable build as the token does; the plain build runs to the end.
        Thread.currentThread().interrupt();
        try {
            assertEquals(500, PointIndex.build(rows, 500, 3, b).size());
            for (int t : new int[] {1, 2}) {
                assertThrows(CancelledException.class,
                        () -> PointIndex.build(rows, 500, 3, b, t, CancellationToken.NEVER));
            }
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aFitIsTheSameOnAnyNumberOfThreads() {
        PointSet pts = ClipLikeData.generate(4000, 24240L).points();
        HdbscanResult one = Hdbscan.builder().minClusterSize(20).minSamples(20).threads(1).build().fit(pts);
        for (int t : new int[] {2, 3, 4}) {
            HdbscanResult r = Hdbscan.builder().minClusterSize(20).minSamples(20).threads(t).build().fit(pts);
            assertArrayEquals(one.labels(), r.labels(), "threads = " + t);
            assertArrayEquals(one.probabilities(), r.probabilities(), "threads = " + t);
            assertArrayEquals(one.coreDistances(), r.coreDistances(), "threads = " + t);
            SpanningTree a = one.spanningTree(), c = r.spanningTree();
            assertArrayEquals(a.fromArray(), c.fromArray(), "threads = " + t);
            assertArrayEquals(a.toArray(), c.toArray(), "threads = " + t);
            for (int e = 0; e < a.edges(); e++) assertEquals(a.weight(e), c.weight(e), "threads = " + t);
        }
    }
}
