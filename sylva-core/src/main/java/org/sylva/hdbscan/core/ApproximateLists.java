package org.sylva.hdbscan.core;

import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.ApproximationBound;
import org.sylva.kernels.IntegerGrid;

/**
 * Per position, the smallest float32 approximate squared distances offered to it (at most
 * {@code capacity}, a few more than {@code k}), ordered by (value, candidate position) ascending, and the
 * limit {@code L} that every true list member's approximation provably stays within. With {@code A} the
 * {@code k}-th kept value and {@code (F, B)} the pre-filter's proven {@link ApproximationBound}, the exact
 * k-th squared distance is at most {@code A F + B}, so every true member has an approximation at most
 * {@code L = (A F^2 + B (1 + F)) (1 + 1e-12)}; {@code L} only falls as values arrive. The order is
 * total, so offer order changes only entries above the final limit. A sorted run drops the entries that
 * fall above its limit as it goes, so an insertion's walk from the end does not shift them again; an
 * entry within the final limit is never dropped that way, so the overflow decision is unchanged. The
 * arrays are package fields because {@link FilteredKnnSearch} reads limits and entries in its inner loops.
 *
 * <p>For {@code k} above {@link #BUFFER_ABOVE} (a large {@code min_samples}) a list is an unsorted buffer
 * of {@link #stride} slots, more than {@code capacity}: an offer is appended, and when the buffer is full a
 * selection keeps the {@code capacity} smallest entries and lowers the limit from the {@code k}-th, so an
 * offer costs O(1) amortised instead of the O(k) of a sorted insertion (or the O(log k) of heaps, whose
 * scattered sift steps cost about seven times more here). The limit is lowered at each selection instead of
 * at every entry, which lets a few more offers in; once {@link #settle}d or {@link #finish}ed, the limit
 * and the entries within it are those of the sorted run (not in its order: the exact pass orders them
 * itself), and so is the overflow decision; entries above the limit may differ, and nothing reads them.
 *
 * <p>Where the approximations are exact ({@link IntegerGrid}: integer coordinates of small range) the
 * lists made by {@link #exact} order equal values by the candidates' original indices, the order of the
 * exact {@link NearestLists}, and keep exactly {@code k} entries under the limit {@code L = A}: the
 * approximate list is then the exact list, and ties, however many, cannot overflow it.
 *
 * <pre>{@code
 * ApproximateLists ap = new ApproximateLists(idx.positions(), k, k + 12, ApproximationBound.of(d, 0.0));
 * ap.reset(p);                             // empty list, limit +inf
 * double lim = ap.insert(p, 2.5f, q);      // still +inf until k values are kept
 * }</pre>
 */
final class ApproximateLists {
    /** Lists longer than this are kept as buffers while they fill (see the class comment). */
    static final int BUFFER_ABOVE = 64;

    /** Entries, {@link #stride} slots per position: ascending for sorted runs, unordered in buffers. */
    final float[] value;
    /** Candidate positions matching {@link #value}. */
    final int[] cand;
    /** Number of entries per position. */
    final int[] count;
    /** The limit {@code L} per position ({@code +inf} until {@code k} values are kept). */
    final double[] limit;
    /**
     * {@link #limit} rounded up to float32 (the smallest float not below it), kept with it: what a
     * vector compare of float32 approximations against a column of limits reads, so that nothing within a
     * limit is missed.
     */
    final float[] limitUp;
    private final int k;
    private final int capacity;
    private final int stride;
    private final double limitFactor;
    private final double limitAbs;
    private final boolean buffered;
    /** Non-null for exact approximations: equal values are ordered by these original indices. */
    private final PointIndex exactTies;
    /** Partitions a selection may run before it sorts what is left; negative: the default (tests lower it). */
    int partitionBudget = -1;

    /**
     * Lists for {@code positions} positions, of {@code capacity >= k} entries each, for approximations
     * within {@code bound} of the exact values.
     */
    ApproximateLists(int positions, int k, int capacity, ApproximationBound bound) {
        this(positions, k, capacity, bound.factor() * bound.factor() * (1 + 1e-12),
                bound.absolute() * (1 + bound.factor()) * (1 + 1e-12), null);
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
        this.stride = slots(k, capacity);
        this.limitFactor = limitFactor;
        this.limitAbs = limitAbs;
        this.exactTies = exactTies;
        this.buffered = k > BUFFER_ABOVE;
        int total = Math.multiplyExact(positions, stride);
        value = new float[total];
        cand = new int[total];
        count = new int[positions];
        limit = new double[positions];
        limitUp = new float[positions];
    }

    /** Slots per position for lists of {@code k} entries keeping {@code capacity}: the buffer's size for large {@code k}. */
    static int slots(int k, int capacity) {
        return k > BUFFER_ABOVE ? capacity + Math.max(64, capacity / 4) : capacity;
    }

    /** True for the lists of exact approximations ({@link #exact}): they never overflow. */
    boolean exact() {
        return exactTies != null;
    }

    /** Entries a complete list keeps. */
    int capacity() {
        return capacity;
    }

    /** Slots per position: position {@code p}'s entries start at {@code p * stride()}. */
    int stride() {
        return stride;
    }

    /** Empties the list of position {@code p} and lifts its limit to {@code +inf}. */
    void reset(int p) {
        count[p] = 0;
        limit[p] = Double.POSITIVE_INFINITY;
        limitUp[p] = Float.POSITIVE_INFINITY;
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
        if (buffered) return append(p, (float) a, c);
        if (exactTies != null) return insertByOriginal(p, a, c);
        // the hot path of the pre-filter: kept free of the exact lists' tie rule (a separate method)
        float af = (float) a;   // exact: the values offered are float32 approximations
        int base = p * stride;
        int n = count[p];
        if (n == capacity) {
            int last = base + capacity - 1;
            if (af > value[last] || (af == value[last] && c > cand[last])) return limit[p];
            n--;
        }
        int j = base + n;
        for (int steps = 0; steps < n; steps++, j--) {
            float pa = value[j - 1];
            int pp = cand[j - 1];
            if (pa < af || (pa == af && pp < c)) break;
            value[j] = pa;
            cand[j] = pp;
        }
        value[j] = af;
        cand[j] = c;
        n++;
        if (n >= k) {
            double lim = value[base + k - 1] * limitFactor + limitAbs;
            if (lim < limit[p]) setLimit(p, lim);
            // Entries above the limit can never come back within it (it only falls) and nothing reads them:
            // dropped now, so that the next insertion's walk from the end does not shift them again.
            lim = limit[p];
            for (int steps = n - k; steps > 0 && value[base + n - 1] > lim; steps--) n--;
        }
        count[p] = n;
        return limit[p];
    }

    /**
     * {@link #insert} into a sorted run of an exact list: equal values ordered by original index. Integer
     * data ties massively, so the walk from the end meets many equal values: the new candidate's original
     * index is read once, and each step compares floats (the values are float32) before any index.
     */
    private double insertByOriginal(int p, double a64, int c) {
        float a = (float) a64;   // exact: the values offered are float32 approximations
        int oc = exactTies.original(c);
        int base = p * stride;
        int n = count[p];
        if (n == capacity) {
            int last = base + capacity - 1;
            float lv = value[last];
            if (a > lv || (a == lv && oc >= exactTies.original(cand[last]))) return limit[p];
            n--;
        }
        int j = base + n;
        for (int steps = 0; steps < n; steps++, j--) {
            float pv = value[j - 1];
            if (pv < a) break;
            int pc = cand[j - 1];
            if (pv == a && exactTies.original(pc) < oc) break;
            value[j] = pv;
            cand[j] = pc;
        }
        value[j] = a;
        cand[j] = c;
        count[p] = n + 1;
        if (n + 1 >= k) lowerLimit(p, value[base + k - 1]);
        return limit[p];
    }

    /**
     * Brings the limit of position {@code p} to its value for the entries offered so far (a buffered
     * list lowers it only when its buffer fills); a no-op for sorted runs.
     */
    void settle(int p) {
        if (!buffered || count[p] < k) return;
        int base = p * stride;
        count[p] = keepSmallest(base, count[p]);
        lowerLimit(p, value[base + k - 1]);
    }

    /**
     * Readies the list of position {@code p} for the exact pass: its final limit, and the entries within
     * it before the others. Sorted runs are ascending already; a buffer keeps its {@code capacity} smallest
     * entries (in no particular order within the limit: the exact pass orders them itself). After it, the
     * list takes no more insertions until {@link #reset}.
     */
    void finish(int p) {
        if (!buffered) return;
        settle(p);
        int base = p * stride;
        double lim = limit[p];
        int n = count[p];
        int front = 0;
        for (int i = 0; i < n; i++) {
            if (value[base + i] <= lim) swap(base, i, front++);
        }
    }

    /** The buffered form of {@link #insert}: append, and select when the buffer is full. */
    private double append(int p, float a, int c) {
        int base = p * stride;
        int n = count[p];
        value[base + n] = a;
        cand[base + n] = c;
        n++;
        if (n == stride) {
            n = keepSmallest(base, n);
            lowerLimit(p, value[base + k - 1]);
        } else if (n == k && limit[p] == Double.POSITIVE_INFINITY) {
            lowerLimit(p, value[base + select(base, n, k - 1)]);   // the first finite limit
        }
        count[p] = n;
        return limit[p];
    }

    /**
     * Keeps the {@code capacity} smallest of the {@code n >= k} entries at {@code base} in its first slots,
     * the {@code k}-th smallest at offset {@code k - 1}; returns the count kept. One selection of the
     * {@code k}-th over all, then one of the few next over the rest.
     */
    private int keepSmallest(int base, int n) {
        select(base, n, k - 1);
        if (n <= capacity) return n;
        if (capacity > k) select(base + k, n - k, capacity - k - 1);
        return capacity;
    }

    private void lowerLimit(int p, float kth) {
        double lim = kth * limitFactor + limitAbs;
        if (lim < limit[p]) setLimit(p, lim);
    }

    private void setLimit(int p, double lim) {
        limit[p] = lim;
        limitUp[p] = ApproximationBound.roundUp(lim);
    }


    /** {@code (v1, c1)} strictly precedes {@code (v2, c2)} in (value, candidate) order. */
    private boolean before(float v1, int c1, float v2, int c2) {
        return v1 < v2 || (v1 == v2 && tieBefore(c1, c2));
    }

    /** Candidate {@code c1} precedes {@code c2} among equal values: by position, or by original index for exact lists. */
    private boolean tieBefore(int c1, int c2) {
        return exactTies == null ? c1 < c2 : exactTies.original(c1) < exactTies.original(c2);
    }

    /**
     * Rearranges the {@code n} entries at {@code base} so that the one of rank {@code r} (0-based, in
     * (value, candidate) order) is at offset {@code r}, every entry before it precedes or equals it and
     * every one after follows or equals it; returns {@code r}. Quickselect with a median-of-three pivot;
     * after {@code 2 log2 n + 8} partitions it sorts what is left (heap sort), so it stays O(n log n) at
     * worst. Every loop is bounded by a count.
     */
    private int select(int base, int n, int r) {
        int lo = 0, hi = n - 1;
        int budget = partitionBudget >= 0 ? partitionBudget : 2 * (32 - Integer.numberOfLeadingZeros(n)) + 8;
        for (int round = 0; round < budget && hi - lo >= 16; round++) {
            int mid = (lo + hi) >>> 1;
            // median of three to slot mid, then Hoare partition around its entry
            if (before(value[base + mid], cand[base + mid], value[base + lo], cand[base + lo])) swap(base, mid, lo);
            if (before(value[base + hi], cand[base + hi], value[base + lo], cand[base + lo])) swap(base, hi, lo);
            if (before(value[base + hi], cand[base + hi], value[base + mid], cand[base + mid])) swap(base, hi, mid);
            float pv = value[base + mid];
            int pc = cand[base + mid];
            int i = lo, j = hi;
            for (int step = 0; step <= n && i <= j; step++) {
                for (int s = 0; s < n && before(value[base + i], cand[base + i], pv, pc); s++) i++;
                for (int s = 0; s < n && before(pv, pc, value[base + j], cand[base + j]); s++) j--;
                if (i <= j) {
                    swap(base, i, j);
                    i++;
                    j--;
                }
            }
            if (r <= j) {
                hi = j;
            } else if (r >= i) {
                lo = i;
            } else {
                return r;   // between the two parts: entries equal to the pivot
            }
        }
        sortRange(base + lo, hi - lo + 1);
        return r;
    }

    private void swap(int base, int a, int b) {
        float v = value[base + a];
        int c = cand[base + a];
        value[base + a] = value[base + b];
        cand[base + a] = cand[base + b];
        value[base + b] = v;
        cand[base + b] = c;
    }

    /** Sorts the {@code size} entries at {@code base} ascending, in place (heap sort: O(size log size), no recursion). */
    private void sortRange(int base, int size) {
        for (int i = size / 2 - 1; i >= 0; i--) siftDown(base, size, i, value[base + i], cand[base + i]);
        for (int end = size - 1; end > 0; end--) {
            float v = value[base + end];
            int c = cand[base + end];
            value[base + end] = value[base];
            cand[base + end] = cand[base];
            siftDown(base, end, 0, v, c);
        }
    }

    /** Places {@code (v, c)} at slot {@code i} of the max-heap of {@code size} entries at {@code base}, sifting down. */
    private void siftDown(int base, int size, int i, float v, int c) {
        for (int level = 0; level < 32; level++) {
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
}
