package org.sylva.balltree.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sylva.balltree.BallTreeBuilder;
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
import org.sylva.progress.ProgressListener;

/**
 * The vector partition kernel against its definition, and trees built with it against trees built with
 * the scalar partition only: byte-identical, for several dimensions, duplicates and batch shapes. The
 * build runs with {@code --add-modules jdk.incubator.vector} (the pom's test argLine), so the kernel is
 * loaded here; that it is, is itself checked.
 */
class VectorPartitionTest {
    private static final PartitionKernel K = KernelProvider.get().partition(true);

    @Test
    void theVectorKernelIsLoadedUnderTheTestJvmFlags() {
        assertEquals("vector", K.name(), "VectorPartitionKernel should load with --add-modules jdk.incubator.vector on a 256-bit CPU");
    }

    @ParameterizedTest
    @CsvSource({"256, 3, 1000000", "257, 1, 5", "1000, 3, 3", "1031, 5, 1000000", "4099, 3, 40", "300, 2, 1"})
    void partitionMovesExactlyThePointsBeforeThePivot(int n, int d, int keyRange) {
        SplittableRandom r = new SplittableRandom(n * 31L + d);
        for (int trial = 0; trial < 20; trial++) {
            int s = r.nextInt(5), e = s + n;
            int[][] cols = new int[d][e + 3];
            int[] idx = new int[e + 3];
            for (int i = 0; i < e + 3; i++) {
                for (int j = 0; j < d; j++) cols[j][i] = r.nextInt(keyRange) - keyRange / 2;
                idx[i] = 1000 + (i * 7919) % (e + 3) ;
            }
            int dim = r.nextInt(d);
            int probe = s + r.nextInt(n);
            int pc = cols[dim][probe], pi = idx[probe];
            boolean ties = trial % 2 == 0;
            int[][] before = new int[d][];
            for (int j = 0; j < d; j++) before[j] = cols[j].clone();
            int[] idxBefore = idx.clone();
            int expected = 0;
            for (int i = s; i < e; i++) {
                int v = cols[dim][i];
                if (v < pc || (ties && v == pc && idx[i] < pi)) expected++;
            }
            int b = K.partition(cols, idx, s, s + expected, e, cols[dim], pc, pi, ties, new int[K.bufferInts(d + 1)]);
            assertEquals(s + expected, b, "boundary");
            for (int i = s; i < e; i++) {
                int v = cols[dim][i];
                boolean isBefore = v < pc || (ties && v == pc && idx[i] < pi);
                assertEquals(i < b, isBefore, "side of position " + i);
            }
            // Outside [s, e) nothing moved; inside, every point kept all its columns.
            for (int i = 0; i < idx.length; i++) {
                if (i >= s && i < e) continue;
                assertEquals(idxBefore[i], idx[i]);
                for (int j = 0; j < d; j++) assertEquals(before[j][i], cols[j][i]);
            }
            assertArrayEquals(rows(before, idxBefore, s, e), rows(cols, idx, s, e));
        }
    }

    /** The points of [s, e) as sorted strings "idx:c0,c1,...": a multiset of whole points. */
    private static String[] rows(int[][] cols, int[] idx, int s, int e) {
        String[] out = new String[e - s];
        for (int i = s; i < e; i++) {
            StringBuilder b = new StringBuilder().append(idx[i]).append(':');
            for (int[] c : cols) b.append(c[i]).append(',');
            out[i - s] = b.toString();
        }
        Arrays.sort(out);
        return out;
    }

    @Test
    void countAndGatherMatchesItsDefinition() {
        SplittableRandom r = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + r.nextInt(600), s = r.nextInt(9), e = s + n;
            int[] x = new int[e];
            for (int i = 0; i < e; i++) x[i] = r.nextInt(100);
            int a = r.nextInt(100), b = a + r.nextInt(30);
            int[] cand = new int[e];
            long got = K.countAndGather(x, s, e, a, b, cand);
            int below = 0, c = 0;
            int[] want = new int[n];
            for (int i = s; i < e; i++) {
                if (x[i] < a) below++;
                if (x[i] >= a && x[i] <= b) want[c++] = i;
            }
            assertEquals(below, (int) (got >>> 32));
            assertEquals(c, (int) got);
            assertArrayEquals(Arrays.copyOf(want, c), Arrays.copyOfRange(cand, s, s + c));
        }
    }

    @Test
    void minMaxMatchesItsDefinition() {
        SplittableRandom r = new SplittableRandom(5);
        for (int trial = 0; trial < 400; trial++) {
            int n = 1 + r.nextInt(trial < 200 ? 40 : 3000), s = r.nextInt(9), e = s + n;
            int[] x = new int[e + 4];
            // Values outside [s, e) are extreme, so reading past the node would show.
            Arrays.fill(x, Integer.MIN_VALUE);
            for (int i = s; i < e; i++) x[i] = r.nextInt() >> r.nextInt(32);
            x[e + 1] = Integer.MAX_VALUE;
            int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE;
            for (int i = s; i < e; i++) {
                mn = Math.min(mn, x[i]);
                mx = Math.max(mx, x[i]);
            }
            long got = K.minMax(x, s, e);
            assertEquals(mn, (int) got, "minimum of " + n + " keys from " + s);
            assertEquals(mx, (int) (got >>> 32), "maximum of " + n + " keys from " + s);
        }
    }

    @Test
    void theVectorCopyOfThreeDimensionalRowsEqualsTheScalarCopy() {
        SplittableRandom r = new SplittableRandom(6);
        float[] special = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE,
                -Float.MAX_VALUE, 1f, -1f};
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + r.nextInt(trial < 100 ? 40 : 2000);
            float[] c = new float[3 * n];
            for (int i = 0; i < c.length; i++) {
                c[i] = r.nextInt(4) == 0 ? special[r.nextInt(special.length)] : (float) (r.nextGaussian() * Math.exp(r.nextInt(40) - 20));
            }
            int from = r.nextInt(Math.min(n, 9)), to = n - r.nextInt(Math.min(n - from, 9) + 1);
            if (r.nextInt(3) == 0) {
                // One NaN or infinity anywhere in the copied rows must set the sign bit of the result.
                int row = from + r.nextInt(Math.max(1, to - from));
                float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.intBitsToFloat(0xffc00001)};
                if (row < to) c[3 * row + r.nextInt(3)] = bad[r.nextInt(bad.length)];
            }
            SplitWorkspace vector = new SplitWorkspace(n, 3, KernelProvider.get().partition(true), true), scalar = new SplitWorkspace(n, 3, KernelProvider.get().partition(false), false);
            int fv = vector.copyRows(c, from, to), fs = scalar.copyRows(c, from, to);
            assertEquals(fs < 0, fv < 0, "NaN or infinity flag, rows " + from + " to " + to);
            boolean nonFinite = false;
            for (int i = 3 * from; i < 3 * to; i++) nonFinite |= !Float.isFinite(c[i]);
            assertEquals(nonFinite, fv < 0, "flag against the input");
            if (nonFinite) continue;
            for (int j = 0; j < 3; j++) {
                assertArrayEquals(Arrays.copyOfRange(scalar.cols[j], from, to), Arrays.copyOfRange(vector.cols[j], from, to), "column " + j);
                for (int i = from; i < to; i++) assertEquals(OrderedBits.key(c[3 * i + j]), vector.cols[j][i]);
            }
            assertArrayEquals(Arrays.copyOfRange(scalar.idx, from, to), Arrays.copyOfRange(vector.idx, from, to), "idx");
        }
    }

    /**
     * The radix selection's buckets are {@code [lo + b 2^shift, lo + (b + 1) 2^shift - 1]}: keys at the
     * very top of a bucket ({@code lo + t 2^q - 1} with {@code q >= shift}), many of them shared, must be
     * among the candidates whichever code gathers them. Trees with and without the kernel must agree.
     */
    @Test
    void keysAtTheTopOfARadixBucketAreCandidates() {
        SplittableRandom r = new SplittableRandom(12);
        for (int m : new int[] {40, 100, 300, 700, 1500, 5000}) {
            for (int q = 0; q <= 20; q += 2) {
                int groups = Math.max(2, m / (4 + r.nextInt(12)));
                int lo = OrderedBits.key(1.5f) - r.nextInt(1000);
                float[] c = new float[m * 3];
                for (int i = 0; i < m; i++) {
                    int key = i == 0 ? lo : lo + (1 + r.nextInt(groups)) * (1 << q) - 1;
                    c[3 * i] = OrderedBits.value(key);
                    c[3 * i + 1] = OrderedBits.value(lo + r.nextInt(2));   // a smaller spread at the root
                    c[3 * i + 2] = 0f;
                }
                PointSet pts = PointSet.of(m, 3, c);
                BatchLayout layout = BatchLayout.single(m);
                TreeEngine.TreeArrays vector = CpuTreeEngine.buildTree(pts, layout, new Execution(1, ProgressListener.NONE, CancellationToken.NEVER), new SplitWorkspace(m, 3, KernelProvider.get().partition(true), true));
                TreeEngine.TreeArrays scalar = CpuTreeEngine.buildTree(pts, layout, new Execution(1, ProgressListener.NONE, CancellationToken.NEVER), new SplitWorkspace(m, 3, KernelProvider.get().partition(false), false));
                assertArrayEquals(scalar.treeIdx(), vector.treeIdx(), "m = " + m + ", q = " + q);
            }
        }
    }

    @Test
    void aSampleThatMissesTheMedianFallsBackToTheFullSelection() {
        // At the root the sample reads rows (2t + 1) * n / (2 * SAMPLE): give exactly those rows the
        // smallest x, so the sample brackets rank 0..SAMPLE, far from the median, and the split must
        // take the radix path.
        int n = 8192, d = 3;
        float[] c = new float[n * d];
        SplittableRandom r = new SplittableRandom(8);
        java.util.Set<Integer> sampled = new java.util.HashSet<>();
        for (int t = 0; t < SplitWorkspace.SAMPLE; t++) sampled.add((int) ((long) (2 * t + 1) * n / (2 * SplitWorkspace.SAMPLE)));
        for (int i = 0; i < n; i++) {
            c[i * d] = sampled.contains(i) ? -1f - r.nextInt(3) : 1000f + r.nextInt(4000);
            c[i * d + 1] = r.nextFloat();
            c[i * d + 2] = r.nextFloat();
        }
        PointSet pts = PointSet.of(n, d, c);
        BatchLayout layout = BatchLayout.single(n);
        TreeEngine.TreeArrays vector = CpuTreeEngine.buildTree(pts, layout, new Execution(1, ProgressListener.NONE, CancellationToken.NEVER),
                new SplitWorkspace(n, d, KernelProvider.get().partition(true), true));
        NaiveModel.Tree naive = NaiveModel.tree(c, d, new int[] {0, n});
        assertArrayEquals(naive.idx(), vector.treeIdx());
        assertArrayEquals(naive.mask(), vector.mask());
    }

    @ParameterizedTest
    @CsvSource({"70000, 3, 1, false", "70000, 3, 1, true", "50000, 2, 7, false", "30000, 7, 3, true",
            "9000, 1, 1, false", "100000, 3, 40, false"})
    void treesAreByteIdenticalWithAndWithoutTheVectorKernel(int n, int d, int batches, boolean duplicates) {
        PointSet pts = BallTreeDeterminismTest.points(n, d, duplicates, n + d);
        int[] ids = batches == 1 ? null : BallTreeDeterminismTest.batches(n, batches, 11);
        BatchLayout layout = BatchLayout.of(n, ids);
        for (int threads : new int[] {1, 2}) {
            TreeEngine.TreeArrays vector = CpuTreeEngine.buildTree(pts, layout, new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER), new SplitWorkspace(n, d, KernelProvider.get().partition(true), true));
            TreeEngine.TreeArrays scalar = CpuTreeEngine.buildTree(pts, layout, new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER), new SplitWorkspace(n, d, KernelProvider.get().partition(false), false));
            assertArrayEquals(scalar.treeIdx(), vector.treeIdx(), "tree_idx, threads " + threads);
            assertArrayEquals(scalar.mask(), vector.mask(), "mask, threads " + threads);
            int[] pv = CpuTreeEngine.partition(pts, layout, 9, new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER),
                    new SplitWorkspace(n, d, KernelProvider.get().partition(true), true));
            int[] ps = CpuTreeEngine.partition(pts, layout, 9, new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER),
                    new SplitWorkspace(n, d, KernelProvider.get().partition(false), false));
            assertArrayEquals(ps, pv, "partition, threads " + threads);
        }
        assertTrue(TreeRules.check(pts.coordinates(), d, layout.pointOffsets(),
                new BallTreeBuilder().threads(1).build(pts, layout).indices(),
                new BallTreeBuilder().threads(1).build(pts, layout).maskBytes()).isEmpty());
    }
}
