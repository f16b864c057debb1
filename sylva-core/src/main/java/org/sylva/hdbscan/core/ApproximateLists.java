package org.sylva.hdbscan.core;

import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.IntegerGrid;

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
 * <p>For {@code k} above {@link #HEAP_ABOVE} (a large {@code min_samples}) a list is kept as two max-heaps
 * instead of one sorted run, so that an insertion costs O(log k) instead of O(k): the {@code k} smallest
 * entries in the first {@code k} slots (the root is the {@code k}-th value the limit comes from) and the
 * next ones in the remaining slots. They hold the same entries as the sorted run; {@link #sortList} puts
 * them in ascending order when the list is complete.
 *
 * <p>Where the approximations are exact ({@link IntegerGrid}: integer coordinates of small range) the
 * lists made by {@link #exact} order equal values by the candidates' original indices, the order of the
 * exact {@link NearestLists}, and keep exactly {@code k} entries under the limit {@code L = A}: the
 * approximate list is then the exact list, and ties, however many, cannot overflow it.
 *
 * <pre>{@code
 * ApproximateLists ap = new ApproximateLists(idx.positions(), k, k + 12, DistanceKernel.approximationError(d));
 * ap.reset(p);                             // empty list, limit +inf
 * double lim = ap.insert(p, 2.5f, q);      // still +inf until k values are kept
 * }</pre>
 */
final class ApproximateLists {
    /** Lists longer than this keep their entries as heaps while they fill (see the class comment). */
    static final int HEAP_ABOVE = 64;

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
    private final boolean heaps;
    /** Non-null for exact approximations: equal values are ordered by these original indices. */
    private final PointIndex exactTies;

    /**
     * Lists for {@code positions} positions, of {@code capacity >= k} entries each, for approximations
     * within relative error {@code eps} (and {@link DistanceKernel#APPROXIMATION_ABSOLUTE}).
     */
    ApproximateLists(int positions, int k, int capacity, double eps) {
        this(positions, k, capacity, (1 + eps) * (1 + eps) * (1 + 1e-12), 3 * DistanceKernel.APPROXIMATION_ABSOLUTE,
                null);
    }

    /**
     * Lists for {@code positions} positions of {@code k} entries each, for approximations that equal the
     * exact values ({@link IntegerGrid#exactApproximations}): the limit is the {@code k}-th value itself,
     * and equal values are ordered by {@code idx}'s original indices of the candidates.
     */
    static ApproximateLists exact(int positions, int k, PointIndex idx) {
        return new ApproximateLists(positions, k, k, 1.0, 0.0, idx);
    }

    private ApproximateLists(int positions, int k, int capacity, double limitFactor, double limitAbs,
                             PointIndex exactTies) {
        this.k = k;
        this.capacity = capacity;
        this.limitFactor = limitFactor;
        this.limitAbs = limitAbs;
        this.exactTies = exactTies;
        this.heaps = k > HEAP_ABOVE;
        value = new float[positions * capacity];
        cand = new int[positions * capacity];
        count = new int[positions];
        limit = new double[positions];
    }

    /** True for the lists of exact approximations ({@link #exact}): they never overflow. */
    boolean exact() {
        return exactTies != null;
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
        if (heaps) return insertHeap(p, (float) a, c);
        int base = p * capacity;
        int n = count[p];
        if (n == capacity) {
            int last = base + capacity - 1;
            if (a > value[last] || (a == value[last] && !tieBefore(c, cand[last]))) return limit[p];
            n--;
        }
        int j = n;
        for (; j > 0; j--) {
            double pa = value[base + j - 1];
            int pp = cand[base + j - 1];
            if (pa < a || (pa == a && tieBefore(pp, c))) break;
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

    /**
     * Puts the entries of position {@code p} in ascending order (a no-op for sorted runs); after it, the
     * list takes no more insertions until {@link #reset}.
     */
    void sortList(int p) {
        if (!heaps) return;
        int base = p * capacity;
        int inA = Math.min(count[p], k);
        heapSort(base, inA);
        heapSort(base + k, count[p] - inA);   // every entry of the second heap follows every entry of the first
    }

    /** The heap form of {@link #insert}: first heap {@code A} (the k smallest), then heap {@code B} (the next). */
    private double insertHeap(int p, float a, int c) {
        int base = p * capacity;
        int n = count[p];
        if (n < k) {
            siftUp(base, n, a, c);
            count[p] = n + 1;
            if (n + 1 == k) lowerLimit(p, base);
            return limit[p];
        }
        float outV = a;
        int outC = c;
        if (before(a, c, value[base], cand[base])) {   // enters A; A's largest moves on to B
            outV = value[base];
            outC = cand[base];
            siftDown(base, k, a, c);
            lowerLimit(p, base);
        }
        int bBase = base + k, inB = n - k, bCap = capacity - k;
        if (inB < bCap) {
            siftUp(bBase, inB, outV, outC);
            count[p] = n + 1;
        } else if (bCap > 0 && before(outV, outC, value[bBase], cand[bBase])) {
            siftDown(bBase, bCap, outV, outC);
        }
        return limit[p];
    }

    private void lowerLimit(int p, int base) {
        double lim = value[base] * limitFactor + limitAbs;
        if (lim < limit[p]) limit[p] = lim;
    }

    /** {@code (v1, c1)} strictly precedes {@code (v2, c2)} in (value, candidate) order. */
    private boolean before(float v1, int c1, float v2, int c2) {
        return v1 < v2 || (v1 == v2 && tieBefore(c1, c2));
    }

    /** Candidate {@code c1} precedes {@code c2} among equal values: by position, or by original index for exact lists. */
    private boolean tieBefore(int c1, int c2) {
        return exactTies == null ? c1 < c2 : exactTies.original(c1) < exactTies.original(c2);
    }

    /** Adds {@code (v, c)} to the max-heap of {@code size} entries at {@code base}. */
    private void siftUp(int base, int size, float v, int c) {
        int i = size;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(value[base + parent], cand[base + parent], v, c)) break;
            value[base + i] = value[base + parent];
            cand[base + i] = cand[base + parent];
            i = parent;
        }
        value[base + i] = v;
        cand[base + i] = c;
    }

    /** Replaces the root of the max-heap of {@code size} entries at {@code base} by {@code (v, c)}. */
    private void siftDown(int base, int size, float v, int c) {
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) break;
            if (child + 1 < size && before(value[base + child], cand[base + child],
                    value[base + child + 1], cand[base + child + 1])) {
                child++;
            }
            if (!before(v, c, value[base + child], cand[base + child])) break;
            value[base + i] = value[base + child];
            cand[base + i] = cand[base + child];
            i = child;
        }
        value[base + i] = v;
        cand[base + i] = c;
    }

    /** Sorts the max-heap of {@code size} entries at {@code base} into ascending order, in place. */
    private void heapSort(int base, int size) {
        for (int end = size - 1; end > 0; end--) {
            float v = value[base + end];
            int c = cand[base + end];
            value[base + end] = value[base];
            cand[base + end] = cand[base];
            siftDown(base, end, v, c);
        }
    }
}
