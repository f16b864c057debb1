package org.sylva.kernels;

/**
 * The scalar twin of the ball tree's {@link PartitionKernel}: plain Java loops, always available, and the
 * yardstick the vector kernel is tested against. The partition is a branch-free block partition with a
 * known boundary (see {@link #blockPartition}), which the tree engine calls directly (see
 * {@link #minPoints()}), also for nodes below the vector kernel's {@link PartitionKernel#minPoints()}.
 *
 * <pre>{@code
 * PartitionKernel k = new ScalarPartitionKernel();   // or KernelProvider.get().partition(false)
 * }</pre>
 */
public final class ScalarPartitionKernel implements PartitionKernel {
    /** Positions gathered per block of the branch-free partition. */
    public static final int BLOCK = 128;

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public int partition(int[][] cols, int[] idx, int s, int mid, int e, int[] x, int pc, int pi, boolean ties,
                         int[] buffer) {
        blockPartition(cols, idx, s, mid, e, x, pc, pi, ties, buffer);
        return mid;
    }

    @Override
    public long countAndGather(int[] x, int s, int e, int a, int b, int[] cand) {
        int below = 0, c = 0;
        for (int i = s; i < e; i++) {
            int v = x[i];
            below += v < a ? 1 : 0;
            cand[s + c] = i;
            c += v >= a && v <= b ? 1 : 0;
        }
        return ((long) below << 32) | c;
    }

    @Override
    public boolean gathersFast() {
        return false;
    }

    @Override
    public long minMax(int[] x, int s, int e) {
        int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE;
        for (int i = s; i < e; i++) {
            int v = x[i];
            mn = Math.min(mn, v);
            mx = Math.max(mx, v);
        }
        return ((long) mx << 32) | (mn & 0xffffffffL);
    }

    @Override
    public int copyRows3(float[] coords, int from, int to, int[] c0, int[] c1, int[] c2, int[] idx) {
        // Raw bits first (a strided copy), then the key conversion and the finiteness check as a
        // separate pure-int loop per column, which the JIT vectorises.
        for (int i = from; i < to; i++) {
            c0[i] = Float.floatToRawIntBits(coords[3 * i]);
            c1[i] = Float.floatToRawIntBits(coords[3 * i + 1]);
            c2[i] = Float.floatToRawIntBits(coords[3 * i + 2]);
        }
        int bad = OrderedBits.toKeys(c0, from, to) | OrderedBits.toKeys(c1, from, to) | OrderedBits.toKeys(c2, from, to);
        for (int i = from; i < to; i++) idx[i] = i;
        return bad;
    }

    /** {@link Integer#MAX_VALUE}: the engine calls {@link #blockPartition} itself (see {@link PartitionKernel#minPoints()}). */
    @Override
    public int minPoints() {
        return Integer.MAX_VALUE;
    }

    @Override
    public int bufferInts(int columns) {
        return 2 * BLOCK;
    }

    /**
     * Block partition with a known boundary: exactly {@code mid - s} points of {@code [s, e)} are before
     * the pivot (as in {@link PartitionKernel#partition}). Positions of misplaced points are collected
     * branch-free, a block at a time from each side, into {@code buffer} (at least {@code 2 * BLOCK}
     * ints), and swapped in pairs; the two sides hold equally many misplaced points.
     */
    public static void blockPartition(int[][] cols, int[] idx, int s, int mid, int e, int[] x, int pc, int pi,
                                      boolean ties, int[] buffer) {
        int[] off = buffer;
        final int offR0 = BLOCK;
        int i = s, j = mid;
        int nL = 0, pL = 0, nR = 0, pR = 0;
        int rounds = 2 * ((e - s) / BLOCK + 2);
        for (int round = 0; ; round++) {
            if (round > rounds) throw new IllegalStateException("partition did not converge");
            if (pL == nL) {
                if (i >= mid) break;
                int len = Math.min(BLOCK, mid - i);
                nL = 0;
                pL = 0;
                if (ties) {
                    for (int t = 0; t < len; t++) {
                        int q = i + t, v = x[q];
                        off[nL] = q;
                        nL += (v > pc) | (v == pc & idx[q] >= pi) ? 1 : 0;
                    }
                } else {
                    for (int t = 0; t < len; t++) {
                        off[nL] = i + t;
                        nL += x[i + t] >= pc ? 1 : 0;
                    }
                }
                i += len;
            }
            if (pR == nR) {
                if (j >= e) {
                    if (pL == nL) continue;
                    throw new IllegalStateException("partition: unmatched misplaced points");
                }
                int len = Math.min(BLOCK, e - j);
                nR = 0;
                pR = 0;
                if (ties) {
                    for (int t = 0; t < len; t++) {
                        int q = j + t, v = x[q];
                        off[offR0 + nR] = q;
                        nR += (v < pc) | (v == pc & idx[q] < pi) ? 1 : 0;
                    }
                } else {
                    for (int t = 0; t < len; t++) {
                        off[offR0 + nR] = j + t;
                        nR += x[j + t] < pc ? 1 : 0;
                    }
                }
                j += len;
            }
            int cnt = Math.min(nL - pL, nR - pR);
            if (cnt > 0) {
                for (int[] c : cols) swapColumn(c, off, pL, offR0 + pR, cnt);
                swapColumn(idx, off, pL, offR0 + pR, cnt);
                pL += cnt;
                pR += cnt;
            }
        }
    }

    private static void swapColumn(int[] c, int[] off, int pL, int pR, int cnt) {
        for (int t = 0; t < cnt; t++) {
            int a = off[pL + t], b = off[pR + t];
            int v = c[a];
            c[a] = c[b];
            c[b] = v;
        }
    }
}
