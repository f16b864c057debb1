package org.sylva.hdbscan.core;

import java.util.Arrays;

import org.sylva.hdbscan.index.PointIndex;

/**
 * The exact nearest lists of a set of queries from one leaf, {@code k} entries each, ordered by
 * (distance, original index) ascending. That order is total, so a list's final content does not depend
 * on the order in which candidates arrive; this is what makes both searches independent of threads.
 * Empty slots hold distance {@code +inf} and index {@link Integer#MAX_VALUE}, so they sort after every
 * real entry. Both search modes keep their per-worker lists here and share the one insertion rule; the
 * arrays are package fields because the searches read them in their inner loops.
 *
 * <p>For {@code k} above {@link #BUFFER_ABOVE} (a large {@code min_samples}) a list fills as an unsorted
 * buffer of {@link #stride} slots: an offer within the list's current bound ({@link #kth}) is appended, and
 * a full buffer keeps its {@code k} first entries by one selection, which lowers the bound to the
 * {@code k}-th. An offer then costs O(1) amortised instead of a sorted insertion's O(k), which made a search
 * with lists of thousands O(n^2 k). {@link #finish} sorts the {@code k} first entries into place; the list
 * is the one sorted insertions give.
 *
 * <pre>{@code
 * NearestLists qs = new NearestLists(PointIndex.LEAF_SIZE, k);
 * qs.reset(2, leaf);                        // two queries, both lists empty
 * qs.insert(0, 1.5, 42);                    // offered to the list of query 0
 * double kth = qs.kth(0);                   // still +inf until k entries arrived
 * qs.finish(0);                             // the list, sorted, at qs.dist[0 * qs.stride ..]
 * qs.copyList(0, dist, index);              // or copied out: k distances and original indices
 * }</pre>
 *
 * <p>Public for the prediction's search of new points ({@code hdbscan.predict}), which keeps one list per
 * thread here; the arrays stay package fields for the searches of this package.
 */
public final class NearestLists {
    /** Lists longer than this fill as buffers (see the class comment). */
    static final int BUFFER_ABOVE = 64;

    /** Positions of the queries, {@code m} of them. */
    final int[] pos;
    /** Distances, {@link #stride} slots per query: the list, ascending, in the first {@code k}. */
    final double[] dist;
    /** Original indices matching {@link #dist}. */
    final int[] orig;
    /** Slots per query: {@code k}, or a buffer's size for lists longer than {@link #BUFFER_ABOVE}. */
    final int stride;
    private final int k;
    private final boolean buffered;
    /** Buffered lists: entries held, and the bound an entry must not exceed ({@code +inf} until k held). */
    private final int[] count;
    private final double[] bound;
    /** Partitions a selection may run before it sorts what is left; negative: the default (tests lower it). */
    int partitionBudget = -1;
    /** Number of queries in use. */
    int m;
    /** The leaf the queries belong to. */
    int leaf;

    /** Lists for up to {@code capacity} queries, {@code k} entries each. */
    public NearestLists(int capacity, int k) {
        this.k = k;
        this.buffered = k > BUFFER_ABOVE;
        this.stride = buffered ? k + Math.max(64, k / 4) : k;
        pos = new int[capacity];
        dist = new double[Math.multiplyExact(capacity, stride)];
        orig = new int[capacity * stride];
        count = new int[buffered ? capacity : 0];
        bound = new double[buffered ? capacity : 0];
    }

    /** Uses the first {@code m} query slots for points of {@code leaf} and empties their lists. */
    public void reset(int m, int leaf) {
        this.m = m;
        this.leaf = leaf;
        clear();
    }

    /** Empties the lists of the {@code m} queries in use (positions are kept). */
    void clear() {
        if (buffered) {
            Arrays.fill(count, 0, m, 0);
            Arrays.fill(bound, 0, m, Double.POSITIVE_INFINITY);
            return;
        }
        Arrays.fill(dist, 0, m * k, Double.POSITIVE_INFINITY);
        Arrays.fill(orig, 0, m * k, Integer.MAX_VALUE);
    }

    /**
     * Query {@code q}'s current {@code k}-th distance: no entry of its final list lies beyond it, and it
     * only falls ({@code +inf} until {@code k} entries arrived).
     */
    public double kth(int q) {
        return buffered ? bound[q] : dist[q * k + k - 1];
    }

    /**
     * Offers {@code (d, o)} to query {@code q}'s list. A sorted list takes it if it precedes the last entry
     * in (distance, index) order, dropping that last entry; a buffer appends it if {@code d} is within
     * {@link #kth}. Returns whether {@link #kth} may have fallen. The searches offer each point at most
     * once per list, so no index appears twice.
     */
    public boolean insert(int q, double d, int o) {
        if (buffered) return append(q, d, o);
        double[] ld = dist;
        int[] li = orig;
        int base = q * k;
        int lastPos = base + k - 1;
        if (d > ld[lastPos] || (d == ld[lastPos] && o >= li[lastPos])) return false;
        int j = k - 1;
        for (; j > 0; j--) {
            double pd = ld[base + j - 1];
            int pi = li[base + j - 1];
            if (pd < d || (pd == d && pi < o)) break;
            ld[base + j] = pd;
            li[base + j] = pi;
        }
        ld[base + j] = d;
        li[base + j] = o;
        return true;
    }

    /** The buffered form of {@link #insert}: append, and keep the {@code k} first when the buffer is full. */
    private boolean append(int q, double d, int o) {
        if (d > bound[q]) return false;
        int base = q * stride;
        int n = count[q];
        dist[base + n] = d;
        orig[base + n] = o;
        n++;
        boolean lowered = false;
        if (n == stride) {
            select(dist, orig, base, n, k - 1, partitionBudget);
            n = k;
            bound[q] = dist[base + k - 1];
            lowered = true;
        } else if (n == k && bound[q] == Double.POSITIVE_INFINITY) {
            // the first finite bound: the k-th of the k held, found without moving them
            bound[q] = dist[base + select(dist, orig, base, n, k - 1, partitionBudget)];
            lowered = true;
        }
        count[q] = n;
        return lowered;
    }

    /**
     * Sorts query {@code q}'s list into place: its {@code k} first entries ascending at {@code q * stride},
     * padded with empty slots. A no-op for sorted lists; a buffer takes no more offers until cleared.
     */
    public void finish(int q) {
        if (!buffered) return;
        int base = q * stride;
        int n = count[q];
        if (n > k) select(dist, orig, base, n, k - 1, partitionBudget);
        int kept = Math.min(n, k);
        sortRange(dist, orig, base, kept);
        Arrays.fill(dist, base + kept, base + k, Double.POSITIVE_INFINITY);
        Arrays.fill(orig, base + kept, base + k, Integer.MAX_VALUE);
        count[q] = kept;
    }

    /** Copies query {@code q}'s list, after {@link #finish}, into {@code dist} and {@code index} ({@code k} each). */
    public void copyList(int q, double[] dist, int[] index) {
        System.arraycopy(this.dist, q * stride, dist, 0, k);
        System.arraycopy(orig, q * stride, index, 0, k);
    }

    /** {@link #finish} for every query in use. */
    void finishAll() {
        for (int i = 0; i < m; i++) finish(i);
    }

    /**
     * Makes query {@code q}'s list the {@code k} first of the {@code count} entries {@code (d[e], o[e])}
     * (distinct indices) in (distance, index) order: the list that inserting them one by one into an
     * empty list gives, in O(count log count) instead of O(count k). Reorders {@code d} and {@code o}.
     */
    void fill(int q, double[] d, int[] o, int count) {
        sortPairs(d, o, count);
        takeSorted(q, d, o, count);
    }

    /**
     * As {@link #fill}, for entries that arrive nearly in order (a sorted run of approximations, whose
     * exact values swap only where approximations nearly tie): an insertion sort, O(count) moves when the
     * entries are in order, instead of the O(count k) of inserting each one into a list padded with
     * {@code +inf}. The list is the same.
     */
    void fillNearlySorted(int q, double[] d, int[] o, int count) {
        for (int i = 1; i < count; i++) {
            double v = d[i];
            int c = o[i];
            int j = i;
            for (int steps = 0; steps < i; steps++, j--) {
                double pd = d[j - 1];
                if (pd < v || (pd == v && o[j - 1] < c)) break;
                d[j] = pd;
                o[j] = o[j - 1];
            }
            d[j] = v;
            o[j] = c;
        }
        takeSorted(q, d, o, count);
    }

    /** Query {@code q}'s list: the first {@code k} of {@code count} sorted pairs, empty slots after them. */
    private void takeSorted(int q, double[] d, int[] o, int count) {
        int base = q * stride;
        int kept = Math.min(k, count);
        System.arraycopy(d, 0, dist, base, kept);
        System.arraycopy(o, 0, orig, base, kept);
        Arrays.fill(dist, base + kept, base + k, Double.POSITIVE_INFINITY);
        Arrays.fill(orig, base + kept, base + k, Integer.MAX_VALUE);
    }

    /** Heap sort of the first {@code count} pairs by (distance, index), in place. */
    private static void sortPairs(double[] d, int[] o, int count) {
        sortRange(d, o, 0, count);
    }

    /** Heap sort of the {@code size} pairs from {@code base} by (distance, index), in place. */
    private static void sortRange(double[] d, int[] o, int base, int size) {
        for (int i = size / 2 - 1; i >= 0; i--) siftDown(d, o, base, i, size, d[base + i], o[base + i]);
        for (int end = size - 1; end > 0; end--) {
            double v = d[base + end];
            int c = o[base + end];
            d[base + end] = d[base];
            o[base + end] = o[base];
            siftDown(d, o, base, 0, end, v, c);
        }
    }

    private static void siftDown(double[] d, int[] o, int base, int i, int size, double v, int c) {
        for (int level = 0; level < 32; level++) {
            int child = 2 * i + 1;
            if (child >= size) break;
            int a = base + child;
            if (child + 1 < size && before(d[a], o[a], d[a + 1], o[a + 1])) {
                child++;
                a++;
            }
            if (!before(v, c, d[a], o[a])) break;
            d[base + i] = d[a];
            o[base + i] = o[a];
            i = child;
        }
        d[base + i] = v;
        o[base + i] = c;
    }

    /** {@code (d1, o1)} strictly precedes {@code (d2, o2)} in (distance, index) order. */
    private static boolean before(double d1, int o1, double d2, int o2) {
        return d1 < d2 || (d1 == d2 && o1 < o2);
    }

    /**
     * Rearranges the {@code n} pairs from {@code base} so that the one of rank {@code r} (0-based, in
     * (distance, index) order) is at offset {@code r}, those before it precede it and those after follow it;
     * returns {@code r}. Quickselect with a median-of-three pivot; after {@code 2 log2 n + 8} partitions
     * ({@code budget} when not negative) it sorts what is left, so it stays O(n log n) at worst. Every loop is
     * bounded by a count.
     */
    static int select(double[] d, int[] o, int base, int n, int r, int budget) {
        int lo = 0, hi = n - 1;
        int rounds = budget >= 0 ? budget : 2 * (32 - Integer.numberOfLeadingZeros(n)) + 8;
        for (int round = 0; round < rounds && hi - lo >= 16; round++) {
            int mid = (lo + hi) >>> 1;
            // median of three to slot mid, then Hoare partition around its pair (indices are distinct)
            if (before(d[base + mid], o[base + mid], d[base + lo], o[base + lo])) swap(d, o, base + mid, base + lo);
            if (before(d[base + hi], o[base + hi], d[base + lo], o[base + lo])) swap(d, o, base + hi, base + lo);
            if (before(d[base + hi], o[base + hi], d[base + mid], o[base + mid])) swap(d, o, base + hi, base + mid);
            double pv = d[base + mid];
            int pc = o[base + mid];
            int i = lo, j = hi;
            for (int step = 0; step <= n && i <= j; step++) {
                for (int s = 0; s < n && before(d[base + i], o[base + i], pv, pc); s++) i++;
                for (int s = 0; s < n && before(pv, pc, d[base + j], o[base + j]); s++) j--;
                if (i <= j) {
                    swap(d, o, base + i, base + j);
                    i++;
                    j--;
                }
            }
            if (r <= j) {
                hi = j;
            } else if (r >= i) {
                lo = i;
            } else {
                return r;   // between the two parts: the pivot itself
            }
        }
        sortRange(d, o, base + lo, hi - lo + 1);
        return r;
    }

    private static void swap(double[] d, int[] o, int a, int b) {
        double t = d[a];
        d[a] = d[b];
        d[b] = t;
        int u = o[a];
        o[a] = o[b];
        o[b] = u;
    }

    /** The largest {@code k}-th distance over the queries in use ({@code 0} when none). */
    double maxKth() {
        double mx = 0.0;
        for (int i = 0; i < m; i++) mx = Math.max(mx, kth(i));
        return mx;
    }

    /** Copies every query's list into row {@code original(pos)} of the output arrays ({@code k} per point). */
    void copyOut(PointIndex idx, int[] outIdx, double[] outDist) {
        for (int i = 0; i < m; i++) {
            int o = idx.original(pos[i]);
            System.arraycopy(dist, i * stride, outDist, o * k, k);
            System.arraycopy(orig, i * stride, outIdx, o * k, k);
        }
    }

    /** Copies every query's list into row {@code pos - base} of the output arrays (a slice of positions). */
    void copyOutAt(int base, int[] outIdx, double[] outDist) {
        for (int i = 0; i < m; i++) {
            int row = pos[i] - base;
            System.arraycopy(dist, i * stride, outDist, row * k, k);
            System.arraycopy(orig, i * stride, outIdx, row * k, k);
        }
    }

    /** Replaces query {@code i}'s list by query {@code j}'s list of {@code from}. */
    void copyList(int i, NearestLists from, int j) {
        System.arraycopy(from.dist, j * from.stride, dist, i * stride, k);
        System.arraycopy(from.orig, j * from.stride, orig, i * stride, k);
    }
}
