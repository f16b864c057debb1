package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sylva.data.PointSet;

/**
 * Byte-identical output for 1, 2 and 8 threads, for repeated runs, and with and without the vector
 * kernels, on inputs large enough to use every code path (forked top-level splits, the parallel copy,
 * many batches), with and without duplicates.
 */
public class BallTreeDeterminismTest {

    public static PointSet points(int n, int d, boolean duplicates, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) x[i] = duplicates ? (float) r.nextInt(16) : (float) r.nextGaussian();
        return PointSet.of(n, d, x);
    }

    public static int[] batches(int n, int count, long seed) {
        // count batches of random (unequal) sizes, each at least one point
        SplittableRandom r = new SplittableRandom(seed);
        int[] cuts = new int[count + 1];
        cuts[count] = n;
        for (int b = 1; b < count; b++) cuts[b] = cuts[b - 1] + 1 + r.nextInt(Math.max(1, 2 * (n - cuts[b - 1]) / (count - b + 1) - 1));
        int[] ids = new int[n];
        int b = 0;
        for (int i = 0; i < n; i++) {
            while (b + 1 < count && i >= cuts[b + 1]) b++;
            ids[i] = b;
        }
        return ids;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void sameTreeAndPartitionWithAndWithoutTheVectorKernels(int threads) {
        // The tests run with --add-modules jdk.incubator.vector on a 256-bit CPU: the kernels exist.
        assertTrue(BallTreeBuilder.vectorKernelsAvailable());
        for (String kind : new String[] {"one", "batched-dups"}) {
            int n = 40_000 + 17;
            PointSet pts = points(n, 3, kind.contains("dups"), kind.hashCode() + threads);
            int[] ids = kind.startsWith("batched") ? batches(n, 9, 3) : null;
            BallTreeBuilder b = new BallTreeBuilder().threads(threads);
            assertTrue(b.vectorKernels(), "on by default");
            BallTree vector = b.build(pts, ids);
            assertEquals("cpu/vector", b.engine().name());
            // One builder switched to scalar kernels gets a new engine (and working memory), and back.
            BallTree scalar = b.vectorKernels(false).build(pts, ids);
            assertEquals("cpu/scalar", b.engine().name(), "scalar kernels only");
            assertEquals(vector, scalar, kind);
            assertEquals(vector, b.vectorKernels(true).build(pts, ids));
            assertEquals("cpu/vector", b.engine().name());
            assertArrayEquals(new BallTreeBuilder().threads(threads).vectorKernels(false).partition(pts, ids, 5),
                    new BallTreeBuilder().threads(threads).partition(pts, ids, 5), kind);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "dups", "batched", "batched-dups"})
    void sameTreeForEveryThreadCountAndRun(String kind) {
        int n = (1 << 17) + 123;
        PointSet pts = points(n, 3, kind.contains("dups"), kind.hashCode());
        int[] ids = kind.startsWith("batched") ? batches(n, 37, 7) : null;
        BallTree ref = new BallTreeBuilder().threads(1).build(pts, ids);
        assertTrue(TreeRules.check(pts.coordinates(), 3, ref.layout().pointOffsets(), ref.indices(), ref.maskBytes()).isEmpty());
        BallTreeBuilder two = new BallTreeBuilder().threads(2), eight = new BallTreeBuilder().threads(8);
        for (int run = 0; run < 2; run++) {
            assertEquals(ref, two.build(pts, ids), "2 threads, run " + run);
            assertEquals(ref, eight.build(pts, ids), "8 threads, run " + run);
        }
        assertEquals(ref, new BallTreeBuilder().threads(1).build(pts, ids), "repeated run");
        int[] perm = new BallTreeBuilder().threads(1).partition(pts, ids, 7);
        assertArrayEquals(perm, new BallTreeBuilder().threads(2).partition(pts, ids, 7));
        assertArrayEquals(perm, new BallTreeBuilder().threads(8).partition(pts, ids, 7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "dups", "batched", "batched-dups"})
    void sameResultWhenTheCallingThreadWorksToo(String kind) {
        // Below 2^17 points (TreeBuild.HANDOVER_MIN) the calling thread is one of the build's threads.
        int n = (1 << 17) / 2 + 77;
        PointSet pts = points(n, 3, kind.contains("dups"), kind.hashCode() + 1);
        int[] ids = kind.startsWith("batched") ? batches(n, 9, 3) : null;
        BallTree ref = new BallTreeBuilder().threads(1).build(pts, ids);
        int[] perm = new BallTreeBuilder().threads(1).partition(pts, ids, 6);
        for (int threads : new int[] {2, 3, 8}) {
            BallTreeBuilder b = new BallTreeBuilder().threads(threads);
            for (int run = 0; run < 2; run++) {
                assertEquals(ref, b.build(pts, ids), threads + " threads, run " + run);
                assertArrayEquals(perm, b.partition(pts, ids, 6), threads + " threads, partition, run " + run);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 8})
    void matchesTheNaiveModelOnAMediumInput(int threads) {
        int n = 20_000;
        PointSet pts = points(n, 4, false, 99);
        BallTree t = new BallTreeBuilder().threads(threads).build(pts);
        NaiveModel.Tree naive = NaiveModel.tree(pts.coordinates(), 4, new int[] {0, n});
        assertArrayEquals(naive.idx(), t.indices());
        assertArrayEquals(naive.mask(), t.maskBytes());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 8})
    void highDimensionalDuplicatesMatchTheModel(int threads) {
        int n = 3000;
        PointSet pts = points(n, 61, true, 5);
        BallTree t = new BallTreeBuilder().threads(threads).build(pts, batches(n, 3, 1));
        NaiveModel.Tree naive = NaiveModel.tree(pts.coordinates(), 61, t.layout().pointOffsets());
        assertArrayEquals(naive.idx(), t.indices());
    }

    /**
     * A node whose sample brackets the median between two keys up to the upper of which lie exactly {@code k}
     * points: the bracket misses rank {@code k} by one, and the split must fall back to the full selection. The
     * vector kernel samples nodes of 2048 points and more, at positions {@code (2t + 1) m / 256}: here they hold
     * 0 .. 127 (the bracket is [50, 78]), 1969 other points hold -1 and the rest lie far above.
     */
    @org.junit.jupiter.api.Test
    void sampleBracketMissingTheMedianByOneFallsBackToTheFullSelection() {
        int m = 4096, k = m / 2;
        float[] x = new float[m];
        boolean[] sampled = new boolean[m];
        for (int t = 0; t < 128; t++) {
            int p = (2 * t + 1) * m / 256;
            x[p] = t;
            sampled[p] = true;
        }
        int below = k - 50 - 29;   // with the 50 sampled keys below the bracket and its 29: exactly k up to 78
        for (int i = 0; i < m; i++) {
            if (!sampled[i]) x[i] = below-- > 0 ? -1f : 1000f + i;
        }
        PointSet pts = PointSet.of(m, 1, x);
        NaiveModel.Tree naive = NaiveModel.tree(x, 1, new int[] {0, m});
        for (boolean vector : new boolean[] {true, false}) {
            BallTree t = new BallTreeBuilder().threads(1).vectorKernels(vector).build(pts);
            assertArrayEquals(naive.idx(), t.indices(), "vector kernels " + vector);
            assertArrayEquals(naive.mask(), t.maskBytes(), "vector kernels " + vector);
        }
        assertArrayEquals(NaiveModel.partition(x, 1, new int[] {0, m}, 3), new BallTreeBuilder().threads(1).partition(pts, 3));
    }
}
