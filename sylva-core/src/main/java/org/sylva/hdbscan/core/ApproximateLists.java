package org.sylva.hdbscan.core;

import org.sylva.kernels.DistanceKernel;

/**
 * Per position, the smallest float32 approximate squared distances offered to it (at most
 * {@code capacity}, a few more than {@code k}), ordered by (value, candidate position) ascending, and the
 * limit {@code L} that every true list member's approximation provably stays within. With {@code A} the
 * {@code k}-th kept value and {@code eps} the kernels' proven relative error, the exact k-th squared
 * distance is at most {@code A (1 + eps) + abs}, so every true member has an approximation at most
 * {@code L = A (1 + eps)^2 (1 + 1e-12) + 3 abs}; {@code L} only falls as values arrive. The order is
 * total, so offer order changes only entries above the final limit. The arrays are package fields
 * because {@link FilteredKnnSearch} reads limits and entries in its inner loops.
 *
 * <pre>{@code
 * ApproximateLists ap = new ApproximateLists(idx.positions(), k, k + 12, DistanceKernel.approximationError(d));
 * ap.reset(p);                             // empty list, limit +inf
 * double lim = ap.insert(p, 2.5f, q);      // still +inf until k values are kept
 * }</pre>
 */
final class ApproximateLists {
    /** Kept values, {@code capacity} per position, ascending. */
    final float[] value;
    /** Candidate positions matching {@link #value}. */
    final int[] cand;
    /** Number of kept values per position. */
    final int[] count;
    /** The limit {@code L} per position ({@code +inf} until {@code k} values are kept). */
    final double[] limit;
    private final int k;
    private final int capacity;
    private final double limitFactor;
    private final double limitAbs;

    /**
     * Lists for {@code positions} positions, of {@code capacity >= k} entries each, for approximations
     * within relative error {@code eps} (and {@link DistanceKernel#APPROXIMATION_ABSOLUTE}).
     */
    ApproximateLists(int positions, int k, int capacity, double eps) {
        this.k = k;
        this.capacity = capacity;
        this.limitFactor = (1 + eps) * (1 + eps) * (1 + 1e-12);
        this.limitAbs = 3 * DistanceKernel.APPROXIMATION_ABSOLUTE;
        value = new float[positions * capacity];
        cand = new int[positions * capacity];
        count = new int[positions];
        limit = new double[positions];
    }

    /** Entries per position. */
    int capacity() {
        return capacity;
    }

    /** Empties the list of position {@code p} and lifts its limit to {@code +inf}. */
    void reset(int p) {
        count[p] = 0;
        limit[p] = Double.POSITIVE_INFINITY;
    }

    /** True when positions {@code start .. start + m - 1} all keep at least {@code k} values. */
    boolean allFull(int start, int m) {
        for (int p = start; p < start + m; p++) if (count[p] < k) return false;
        return true;
    }

    /**
     * Inserts {@code (a, c)} ({@code a} a float32 value) into the list of position {@code p}, dropping the
     * last entry of a full list if {@code (a, c)} precedes it, and returns the position's limit afterwards.
     */
    double insert(int p, double a, int c) {
        int base = p * capacity;
        int n = count[p];
        if (n == capacity) {
            int last = base + capacity - 1;
            if (a > value[last] || (a == value[last] && c > cand[last])) return limit[p];
            n--;
        }
        int j = n;
        for (; j > 0; j--) {
            double pa = value[base + j - 1];
            int pp = cand[base + j - 1];
            if (pa < a || (pa == a && pp < c)) break;
            value[base + j] = (float) pa;
            cand[base + j] = pp;
        }
        value[base + j] = (float) a;
        cand[base + j] = c;
        count[p] = n + 1;
        if (n + 1 >= k) {
            double lim = value[base + k - 1] * limitFactor + limitAbs;
            if (lim < limit[p]) limit[p] = lim;
        }
        return limit[p];
    }
}
