package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every ball-tree vector kernel against its scalar twin, operation by operation, on random keys with
 * many ties: the partition (same boundary, same set of points on each side, rows moving with their
 * columns), the count-and-gather pass, the extremes, the three-column copy (NaN and infinity flagged),
 * and eight lane subtrees at a time (identical slots and mask). The distance kernels have their own
 * comparison in {@link DistanceKernelsTest}.
 */
class KernelTwinsTest {
    private static final PartitionKernel VECTOR = KernelProvider.get().partition(true);
    private static final PartitionKernel SCALAR = new ScalarPartitionKernel();

    @ParameterizedTest
    @ValueSource(ints = {266, 300, 513, 1000, 4099})
    void partitionCountExtremesAndCopyMatchTheScalarTwin(int n) {
        assertEquals("vector", VECTOR.name(), "the tests run with the Vector API module");
        SplittableRandom r = new SplittableRandom(n);
        for (int trial = 0; trial < 20; trial++) {
            int d = 1 + r.nextInt(4);
            int[][] cols = new int[d][n];
            int[] idx = new int[n];
            for (int i = 0; i < n; i++) {
                idx[i] = n - 1 - i;
                for (int j = 0; j < d; j++) cols[j][i] = r.nextInt(trial % 2 == 0 ? 7 : 1 << 20) - 3;
            }
            int s = r.nextInt(5), e = n - r.nextInt(5);
            int[] x = cols[r.nextInt(d)];
            int pc = x[s + r.nextInt(e - s)], pi = r.nextInt(n);
            boolean ties = r.nextBoolean();
            int mid = s;
            for (int i = s; i < e; i++) mid += x[i] < pc || (ties && x[i] == pc && idx[i] < pi) ? 1 : 0;
            int[][] cv = copy(cols), cs = copy(cols);
            int[] iv = idx.clone(), is = idx.clone();
            int xi = indexOf(cols, x);
            int bv = VECTOR.partition(cv, iv, s, mid, e, cv[xi], pc, pi, ties, new int[VECTOR.bufferInts(d + 1)]);
            int bs = SCALAR.partition(cs, is, s, mid, e, cs[xi], pc, pi, ties, new int[SCALAR.bufferInts(d + 1)]);
            assertEquals(mid, bv);
            assertEquals(mid, bs);
            assertEquals(sides(cv, iv, s, mid, e), sides(cs, is, s, mid, e), "same points on each side");

            int a = pc - 1, b = pc + 1;
            int[] gv = new int[n], gs = new int[n];
            long kv = VECTOR.countAndGather(x, s, e, a, b, gv), ks = SCALAR.countAndGather(x, s, e, a, b, gs);
            assertEquals(ks, kv, "below << 32 | gathered");
            int c = (int) ks;
            assertArrayEquals(Arrays.copyOfRange(gs, s, s + c), Arrays.copyOfRange(gv, s, s + c));
            assertEquals(SCALAR.minMax(x, s, e), VECTOR.minMax(x, s, e));
        }
        float[] rows = new float[3 * n];
        for (int i = 0; i < rows.length; i++) rows[i] = (float) (r.nextGaussian() * 1e3);
        for (boolean bad : new boolean[] {false, true}) {
            if (bad) rows[3 * (n / 2) + 1] = r.nextBoolean() ? Float.NaN : Float.NEGATIVE_INFINITY;
            int[][] v = new int[4][n], sc = new int[4][n];
            int fv = VECTOR.copyRows3(rows, 1, n, v[0], v[1], v[2], v[3]);
            int fs = SCALAR.copyRows3(rows, 1, n, sc[0], sc[1], sc[2], sc[3]);
            assertEquals(fs < 0, fv < 0, "non-finite flag");
            assertEquals(bad, fs < 0);
            if (!bad) for (int j = 0; j < 4; j++) assertArrayEquals(sc[j], v[j]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 16, 17, 24, 32})
    void laneSubtreesMatchTheScalarTwin(int m) {
        LaneSubtrees vector = KernelProvider.get().newLanes(true);
        LaneSubtrees scalar = new ScalarLaneSubtrees();
        assertEquals("vector", vector.name());
        SplittableRandom r = new SplittableRandom(m * 31L);
        int span = Math.max(4, Integer.highestOneBit(m - 1) << 1);
        for (int d = 1; d <= 4; d++) {
            for (int trial = 0; trial < 10; trial++) {
                int n = LaneSubtrees.LANES * m;
                int[][] cols = new int[d][n];
                int[] idx = new int[n];
                for (int i = 0; i < n; i++) {
                    idx[i] = (i * 7919) % n;
                    for (int j = 0; j < d; j++) cols[j][i] = OrderedBits.key((float) (r.nextInt(5) - 2));
                }
                int[] starts = new int[LaneSubtrees.LANES], slots = new int[LaneSubtrees.LANES];
                for (int l = 0; l < LaneSubtrees.LANES; l++) {
                    starts[l] = l * m;
                    slots[l] = (LaneSubtrees.LANES - 1 - l) * span;
                }
                int[] tv = new int[LaneSubtrees.LANES * span], ts = new int[tv.length];
                byte[] mv = new byte[tv.length], ms = new byte[tv.length];
                vector.finish(cols, idx, starts, m, span, slots, tv, mv);
                scalar.finish(cols, idx, starts, m, span, slots, ts, ms);
                assertArrayEquals(ts, tv, "d " + d + ", trial " + trial);
                assertArrayEquals(ms, mv, "d " + d + ", trial " + trial);
            }
        }
    }

    private static int[][] copy(int[][] c) {
        int[][] o = new int[c.length][];
        for (int j = 0; j < c.length; j++) o[j] = c[j].clone();
        return o;
    }

    private static int indexOf(int[][] cols, int[] x) {
        for (int j = 0; j < cols.length; j++) if (cols[j] == x) return j;
        throw new IllegalArgumentException();
    }

    /** Each side's points as sorted (row, columns...) strings: the sets, whatever order inside a side. */
    private static String sides(int[][] cols, int[] idx, int s, int mid, int e) {
        String[] left = new String[mid - s], right = new String[e - mid];
        for (int i = s; i < e; i++) {
            StringBuilder b = new StringBuilder().append(idx[i]);
            for (int[] c : cols) b.append(',').append(c[i]);
            if (i < mid) left[i - s] = b.toString(); else right[i - mid] = b.toString();
        }
        Arrays.sort(left);
        Arrays.sort(right);
        return Arrays.toString(left) + " | " + Arrays.toString(right);
    }
}
