package org.sylva.balltree.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sylva.balltree.BallTreeDeterminismTest;
import org.sylva.balltree.NaiveModel;
import org.sylva.balltree.TreeRules;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.LaneSubtrees;
import org.sylva.kernels.OrderedBits;
import org.sylva.kernels.PartitionKernel;
import org.sylva.kernels.SmallSubtree;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * {@link LaneSubtrees} (eight small subtrees side by side in vector lanes) against {@link SmallSubtree}
 * (one at a time), node by node, for every node size it accepts, dimensions 1 to 4, and inputs built to
 * reach its corner cases: equal coordinates (the row rule), {@code -0.0} next to {@code 0.0}, spreads
 * that tie in float32 but not in float64 (its float64 fallback), spreads that overflow float32, and rows
 * in no particular order, up to the packing limit. Then whole trees with and without it: one batch, and
 * batches of a few hundred points (each reaches eight nodes of one size; batches of a few dozen would
 * not).
 */
class LaneSubtreesTest {
    private static final LaneSubtrees LANES = KernelProvider.get().newLanes(true);
    private static final int W = LaneSubtrees.LANES;

    @Test
    void theLaneKernelIsLoadedUnderTheTestJvmFlags() {
        assertEquals("vector", LANES.name(), "VectorLaneSubtrees should load with --add-modules jdk.incubator.vector on a 256-bit CPU");
        assertTrue(LANES.accepts(1 << 26, 3));
        assertFalse(LANES.accepts((1 << 26) + 1, 3), "rows must fit in 26 bits");
        assertFalse(LANES.accepts(100, 5), "at most four dimensions");
    }

    @ParameterizedTest
    @ValueSource(strings = {"wide", "few", "zeros", "float32-ties", "huge"})
    void everyNodeSizeMatchesTheOneByOneRoutine(String kind) {
        for (int d = 1; d <= 4; d++) {
            for (int m = LaneSubtrees.MIN; m <= LaneSubtrees.MAX; m++) {
                // A node owns the next power of two of slots, or twice as many when its size is one.
                int fit = Math.max(4, 1 << TreeBuild.ceilLog2(m));
                for (int span = fit; span <= Math.min(2 * m, LaneSubtrees.MAX); span *= 2) {
                    for (int trial = 0; trial < 4; trial++) {
                        compareOnce(kind, d, m, span, new SplittableRandom(kind.hashCode() * 1_000_003L + d * 1009L + m * 31L + span * 7L + trial));
                    }
                }
            }
        }
    }

    /** Eight nodes of m points at scattered working positions, rows a random permutation, both routines. */
    private static void compareOnce(String kind, int d, int m, int span, SplittableRandom r) {
        int gap = r.nextInt(3);
        int n = W * (m + gap) + 5;
        SplitWorkspace ws = new SplitWorkspace(n, d, KernelProvider.get().partition(true), true);
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) rows[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int k = r.nextInt(i + 1), t = rows[i];
            rows[i] = rows[k];
            rows[k] = t;
        }
        // Rows up to the packing limit (2^26 - 1) half of the time.
        int base = r.nextBoolean() ? (1 << 26) - n : 0;
        for (int p = 0; p < n; p++) {
            ws.idx[p] = base + rows[p];
            for (int j = 0; j < d; j++) ws.cols[j][p] = OrderedBits.key(value(kind, j, r));
        }
        int[] starts = new int[W], slots = new int[W];
        for (int l = 0; l < W; l++) {
            starts[l] = 3 + l * (m + gap);
            slots[l] = (W - 1 - l) * span;
        }
        int[] treeIdx = new int[W * span];
        byte[] mask = new byte[W * span];
        LANES.finish(ws.cols, ws.idx, starts, m, span, slots, treeIdx, mask);
        SmallSubtree small = new SmallSubtree();
        for (int l = 0; l < W; l++) {
            int leaves = small.run(ws.cols, ws.idx, starts[l], m, Integer.numberOfTrailingZeros(span) - 1);
            assertEquals(span / 2, leaves);
            for (int t = 0; t < leaves; t++) {
                int a = small.bound(t), size = small.bound(t + 1) - a, o = slots[l] + 2 * t;
                int p = small.row(a), q = size == 2 ? small.row(a + 1) : p;
                String where = kind + ", d " + d + ", m " + m + ", span " + span + ", lane " + l + ", leaf " + t;
                assertEquals(Math.min(p, q), treeIdx[o], where);
                assertEquals(Math.max(p, q), treeIdx[o + 1], where);
                assertEquals(1, mask[o], where);
                assertEquals(size == 2 ? 1 : 0, mask[o + 1], where);
            }
        }
    }

    private static float value(String kind, int j, SplittableRandom r) {
        switch (kind) {
            case "wide":
                return (float) (r.nextGaussian() * Math.pow(10, r.nextInt(7) - 3));
            case "few":
                return r.nextInt(3) - 1;
            case "zeros":
                return r.nextBoolean() ? -0.0f : r.nextInt(4) == 0 ? Float.MIN_VALUE : 0.0f;
            case "float32-ties": {
                // Dimension 0 spans [0, 1]; the others [-tiny, 1], whose float64 spread is larger but whose
                // float32 spread rounds to the same 1.0f.
                int pick = r.nextInt(4);
                if (pick == 0) return j == 0 ? 0f : -0x1p-30f * (1 + r.nextInt(3));
                if (pick == 1) return 1f;
                return r.nextFloat();
            }
            case "huge":
                return (r.nextBoolean() ? 1 : -1) * Float.MAX_VALUE * (0.5f + r.nextInt(3) * 0.25f);
            default:
                throw new IllegalArgumentException(kind);
        }
    }

    @ParameterizedTest
    @CsvSource({"16384, 3, 1", "10000, 3, 1", "20001, 2, 1", "5000, 4, 1", "3000, 1, 1", "24000, 3, 60", "30000, 4, 100",
            "9000, 3, 37", "6000, 3, 300", "4000, 3, 1000", "20000, 2, 500", "12000, 4, 200"})
    void treesAreByteIdenticalWithAndWithoutTheLanes(int n, int d, int batches) {
        for (boolean duplicates : new boolean[] {false, true}) {
            PointSet pts = BallTreeDeterminismTest.points(n, d, duplicates, n * 7 + d);
            int[] ids = batches == 1 ? null : BallTreeDeterminismTest.batches(n, batches, 5);
            BatchLayout layout = BatchLayout.of(n, ids);
            for (int threads : new int[] {1, 2}) sameWithAndWithoutTheKernels(pts, layout, threads);
        }
    }

    /**
     * Small batches share one lane queue (a batch of at most 32 points is a single node; a few dozen
     * points leave fewer than eight nodes of one shape), so their nodes fill the lanes together.
     */
    @ParameterizedTest
    @CsvSource({"3, 3", "16, 3", "17, 3", "32, 3", "33, 2", "40, 4", "64, 3", "100, 1", "128, 3", "250, 3"})
    void equalSmallBatchesShareTheLanes(int size, int d) {
        for (boolean duplicates : new boolean[] {false, true}) {
            int count = Math.max(9, 9000 / size);
            int n = size * count + 5; // and a last batch of five points
            int[] ids = new int[n];
            for (int i = 0; i < n; i++) ids[i] = Math.min(i / size, count);
            PointSet pts = BallTreeDeterminismTest.points(n, d, duplicates, size * 31L + d);
            BatchLayout layout = BatchLayout.of(n, ids);
            for (int threads : new int[] {1, 2}) {
                TreeEngine.TreeArrays vector = sameWithAndWithoutTheKernels(pts, layout, threads);
                assertTrue(TreeRules.check(pts.coordinates(), d, layout.pointOffsets(), vector.treeIdx(),
                        vector.mask()).isEmpty());
            }
        }
    }

    @Test
    void aCancelledBuildLeavesNothingQueuedForTheNextOne() {
        // Three 20-point batches wait in the shared lane queue while the large batch's subtrees run; the
        // first subtree's progress report cancels the build, and the second one's level loop throws.
        int big = 2 * TreeBuild.CUTOFF + 100;
        int n = 60 + big;
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) ids[i] = i < 60 ? i / 20 : 3;
        PointSet pts = BallTreeDeterminismTest.points(n, 3, false, 99);
        CancellationToken token = new CancellationToken();
        ProgressListener cancelAtFirstReport = (stage, done, total) -> token.cancel();
        assertThrows(CancelledException.class, () -> CpuTreeEngine.buildTree(pts, BatchLayout.of(n, ids), new Execution(1, cancelAtFirstReport, token), new SplitWorkspace(n, 3, KernelProvider.get().partition(true), true)));
        // The same thread builds again: only this build's nodes may be written.
        int m = 7000;
        int[] small = new int[m];
        for (int i = 0; i < m; i++) small[i] = i / 25;
        PointSet other = BallTreeDeterminismTest.points(m, 3, true, 98);
        sameWithAndWithoutTheKernels(other, BatchLayout.of(m, small), 1);
    }

    /**
     * Builds with the vector kernels (lanes included) and with a workspace without them, which runs the
     * scalar code only; asserts identical trees and returns the vector build.
     */
    private static TreeEngine.TreeArrays sameWithAndWithoutTheKernels(PointSet pts, BatchLayout layout, int threads) {
        int n = pts.size(), d = pts.dimensions();
        TreeEngine.TreeArrays vector = CpuTreeEngine.buildTree(pts, layout, new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER), new SplitWorkspace(n, d, KernelProvider.get().partition(true), true));
        TreeEngine.TreeArrays scalar = CpuTreeEngine.buildTree(pts, layout, new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER), new SplitWorkspace(n, d, KernelProvider.get().partition(false), false));
        assertArrayEquals(scalar.treeIdx(), vector.treeIdx(), "tree_idx, threads " + threads);
        assertArrayEquals(scalar.mask(), vector.mask(), "mask, threads " + threads);
        return vector;
    }
}
