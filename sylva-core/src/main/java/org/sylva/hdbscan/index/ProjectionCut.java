package org.sylva.hdbscan.index;

import java.util.Arrays;

import org.sylva.numeric.DoubleOrder;

/**
 * The cut of a split: the value of rank {@code k} among a node's projections, in the order
 * {@link Arrays#sort(double[])} gives them ({@link Double#compare}: {@code -0.0} before {@code 0.0}, NaN
 * last), found by selection instead of a sort. The partition only needs that one value, and a sort of the
 * node costs {@code m log m} comparisons where the selection costs a few times {@code m}; on
 * low-dimensional data the sort was most of the index build.
 *
 * <p>Each projection is mapped to a {@code long} whose signed order is {@link Double#compare}'s
 * ({@link DoubleOrder#key}); the selection is a deterministic quickselect (median of three, three-way partition,
 * so that runs of equal projections, common on integer data, end a round at once). Its rounds are
 * bounded: after {@link #MAX_ROUNDS} the rest of the range is sorted, so bad pivots cost at most a sort.
 * The value returned is the sort's value, bit for bit, so the partition does not change.
 *
 * <pre>{@code
 * for (int i = 0; i < m; i++) keys[i] = DoubleOrder.key(proj[i]);
 * double cut = ProjectionCut.select(keys, 0, m, mid - 1);   // == sorted(proj)[mid - 1]
 * }</pre>
 */
final class ProjectionCut {
    /** Quickselect rounds before the rest of the range is sorted. */
    static final int MAX_ROUNDS = 64;
    /** Ranges of at most this many keys are finished by an insertion sort. */
    static final int SMALL = 16;

    private ProjectionCut() { }

    /**
     * The value of rank {@code k} ({@code 0 <= k < to - from}) among the keys {@code a[from, to)}, which it
     * reorders.
     */
    static double select(long[] a, int from, int to, int k) {
        return select(a, from, to, k, MAX_ROUNDS);
    }

    /** As above, sorting what is left after {@code maxRounds} rounds (tests pass a few to reach the sort). */
    static double select(long[] a, int from, int to, int k, int maxRounds) {
        if (k < 0 || k >= to - from) throw new IllegalArgumentException("rank " + k + " of " + (to - from));
        int lo = from, hi = to - 1, target = from + k;
        for (int round = 0; round < maxRounds; round++) {
            if (hi - lo < SMALL) {
                insertionSort(a, lo, hi);
                return DoubleOrder.value(a[target]);
            }
            long p = medianOfThree(a[lo], a[(lo + hi) >>> 1], a[hi]);
            // a[lo, lt) < p, a[lt, i) == p, a(gt, hi] > p; each step moves i up or gt down.
            int lt = lo, i = lo, gt = hi;
            while (i <= gt) {
                long v = a[i];
                if (v < p) {
                    a[i++] = a[lt];
                    a[lt++] = v;
                } else if (v > p) {
                    a[i] = a[gt];
                    a[gt--] = v;
                } else {
                    i++;
                }
            }
            if (target < lt) {
                hi = lt - 1;
            } else if (target > gt) {
                lo = gt + 1;
            } else {
                return DoubleOrder.value(p);
            }
        }
        Arrays.sort(a, lo, hi + 1);
        return DoubleOrder.value(a[target]);
    }

    private static long medianOfThree(long x, long y, long z) {
        return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    }

    private static void insertionSort(long[] a, int lo, int hi) {
        for (int i = lo + 1; i <= hi; i++) {
            long v = a[i];
            int j = i - 1;
            while (j >= lo && a[j] > v) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = v;
        }
    }
}
