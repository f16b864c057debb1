package org.sylva.hdbscan.mst;

/**
 * The one tie order of Sylva's spanning trees: edges compare by weight, then by the lower endpoint
 * index, then by the higher endpoint index. Every weight is distinct under this order, so the minimum
 * spanning tree is unique and Borůvka's cheapest-edge choices never depend on scan order or threads.
 *
 * <pre>{@code
 * boolean lighter = EdgeOrder.less(0.5, 3, 7, 0.5, 4, 5);   // true: same weight, lower index 3 < 4
 * }</pre>
 */
public final class EdgeOrder {
    private EdgeOrder() {
    }

    /** Compares edges given with {@code lo < hi} (or equal endpoints ordered the same way). */
    public static int compare(double w1, int lo1, int hi1, double w2, int lo2, int hi2) {
        int c = Double.compare(w1, w2);
        if (c != 0) return c;
        c = Integer.compare(lo1, lo2);
        if (c != 0) return c;
        return Integer.compare(hi1, hi2);
    }

    /**
     * The endpoints of edge {@code (a, b)} (in any order, both non-negative) as one number whose order is
     * the order of edges of equal weight: {@code (lo << 32) | hi}.
     */
    public static long endpoints(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    /** No edge: after the {@link #endpoints} of every edge. */
    public static final long NO_ENDPOINTS = Long.MAX_VALUE;

    /**
     * True when every edge of weight at least {@code w} and {@link #endpoints} at least {@code e} comes
     * strictly after the edge of weight {@code refW} and endpoints {@code refE}: the pruning rule of the
     * scans, which skip such candidates, ties included, yet never skip the reference edge itself.
     */
    public static boolean allAfter(double w, long e, double refW, long refE) {
        return w > refW || (w == refW && e > refE);
    }

    /** True when edge {@code (w1, a1, b1)} comes strictly before {@code (w2, a2, b2)}; endpoints in any order. */
    public static boolean less(double w1, int a1, int b1, double w2, int a2, int b2) {
        if (w1 != w2) return w1 < w2;
        int lo1 = Math.min(a1, b1), lo2 = Math.min(a2, b2);
        if (lo1 != lo2) return lo1 < lo2;
        return Math.max(a1, b1) < Math.max(a2, b2);
    }
}
