package org.sylva.hdbscan.core;

import java.util.Arrays;

import org.sylva.hdbscan.index.PointIndex;

/**
 * The exact nearest lists of a set of queries from one leaf, {@code k} entries each, ordered by
 * (distance, original index) ascending. That order is total, so a list's final content does not depend
 * on the order in which candidates arrive; this is what makes both searches independent of threads.
 * Empty slots hold distance {@code +inf} and index {@link Integer#MAX_VALUE}, so they sort after every
 * real entry. Both search modes keep their per-worker lists here and share the one insertion rule; the
 * arrays are package fields because the searches read the last entry of a list in their inner loops.
 *
 * <pre>{@code
 * NearestLists qs = new NearestLists(PointIndex.LEAF_SIZE, k);
 * qs.reset(2, leaf);                        // two queries, both lists empty
 * qs.insert(0, 1.5, 42);                    // true: entered the list of query 0
 * double kth = qs.dist[0 * k + k - 1];      // still +inf until k entries arrived
 * }</pre>
 */
final class NearestLists {
    /** Positions of the queries, {@code m} of them. */
    final int[] pos;
    /** Distances, {@code k} per query, ascending. */
    final double[] dist;
    /** Original indices matching {@link #dist}. */
    final int[] orig;
    private final int k;
    /** Number of queries in use. */
    int m;
    /** The leaf the queries belong to. */
    int leaf;

    NearestLists(int capacity, int k) {
        this.k = k;
        pos = new int[capacity];
        dist = new double[capacity * k];
        orig = new int[capacity * k];
    }

    /** Uses the first {@code m} query slots for points of {@code leaf} and empties their lists. */
    void reset(int m, int leaf) {
        this.m = m;
        this.leaf = leaf;
        clear();
    }

    /** Empties the lists of the {@code m} queries in use (positions are kept). */
    void clear() {
        Arrays.fill(dist, 0, m * k, Double.POSITIVE_INFINITY);
        Arrays.fill(orig, 0, m * k, Integer.MAX_VALUE);
    }

    /**
     * Inserts {@code (d, o)} into query {@code q}'s list if it precedes the last entry in (distance, index)
     * order, dropping that last entry; returns whether it entered. The searches offer each point at most
     * once per list, so no index appears twice.
     */
    boolean insert(int q, double d, int o) {
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
        int base = q * k;
        int kept = Math.min(k, count);
        System.arraycopy(d, 0, dist, base, kept);
        System.arraycopy(o, 0, orig, base, kept);
        Arrays.fill(dist, base + kept, base + k, Double.POSITIVE_INFINITY);
        Arrays.fill(orig, base + kept, base + k, Integer.MAX_VALUE);
    }

    /** Heap sort of the first {@code count} pairs by (distance, index), in place. */
    private static void sortPairs(double[] d, int[] o, int count) {
        for (int i = count / 2 - 1; i >= 0; i--) siftDown(d, o, i, count, d[i], o[i]);
        for (int end = count - 1; end > 0; end--) {
            double v = d[end];
            int c = o[end];
            d[end] = d[0];
            o[end] = o[0];
            siftDown(d, o, 0, end, v, c);
        }
    }

    private static void siftDown(double[] d, int[] o, int i, int size, double v, int c) {
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) break;
            if (child + 1 < size && (d[child] < d[child + 1] || (d[child] == d[child + 1] && o[child] < o[child + 1]))) {
                child++;
            }
            if (!(v < d[child] || (v == d[child] && c < o[child]))) break;
            d[i] = d[child];
            o[i] = o[child];
            i = child;
        }
        d[i] = v;
        o[i] = c;
    }

    /** The largest {@code k}-th distance over the queries in use ({@code 0} when none). */
    double maxKth() {
        double mx = 0.0;
        for (int i = 0; i < m; i++) mx = Math.max(mx, dist[i * k + k - 1]);
        return mx;
    }

    /** Copies every query's list into row {@code original(pos)} of the output arrays ({@code k} per point). */
    void copyOut(PointIndex idx, int[] outIdx, double[] outDist) {
        for (int i = 0; i < m; i++) {
            int o = idx.original(pos[i]);
            System.arraycopy(dist, i * k, outDist, o * k, k);
            System.arraycopy(orig, i * k, outIdx, o * k, k);
        }
    }

    /** Copies every query's list into row {@code pos - base} of the output arrays (a slice of positions). */
    void copyOutAt(int base, int[] outIdx, double[] outDist) {
        for (int i = 0; i < m; i++) {
            int row = pos[i] - base;
            System.arraycopy(dist, i * k, outDist, row * k, k);
            System.arraycopy(orig, i * k, outIdx, row * k, k);
        }
    }

    /** Replaces query {@code i}'s list by query {@code j}'s list of {@code from}. */
    void copyList(int i, NearestLists from, int j) {
        System.arraycopy(from.dist, j * k, dist, i * k, k);
        System.arraycopy(from.orig, j * k, orig, i * k, k);
    }
}
