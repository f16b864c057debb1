package org.sylva.hdbscan.hierarchy;

/**
 * Stable ascending sort of edge positions by weight, on primitive arrays (no boxing, no comparator
 * objects): a bottom-up merge sort, O(m log m) time and O(m) extra memory. Equal weights keep their
 * given order, which is what lets a reference tree be fed "in its stored row order" and reproduce the
 * reference's single-linkage tree exactly. Weights are compared with {@code <} as NumPy compares them,
 * so {@code -0.0} and {@code 0.0} count as equal; NaN never reaches this class ({@code SpanningTree}
 * refuses it).
 *
 * <pre>{@code
 * int[] order = StableWeightSort.order(new double[] {0.7, 0.5, 0.5});   // {1, 2, 0}
 * }</pre>
 */
final class StableWeightSort {
    private StableWeightSort() {
    }

    /** Positions {@code 0..w.length-1} ordered by ascending weight, ties in position order. */
    static int[] order(double[] w) {
        int m = w.length;
        int[] a = new int[m];
        for (int i = 0; i < m; i++) a[i] = i;
        if (isSorted(w)) return a; // Sylva's own trees arrive in EdgeOrder: no work then
        int[] b = new int[m];
        // Bottom-up: runs of width 1, 2, 4, ... merged from a into b, then the roles swap.
        for (int width = 1; width < m; width <<= 1) {
            for (int lo = 0; lo < m; lo += width << 1) {
                int mid = Math.min(lo + width, m);
                int hi = Math.min(lo + (width << 1), m);
                merge(w, a, b, lo, mid, hi);
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    private static boolean isSorted(double[] w) {
        for (int i = 1; i < w.length; i++) {
            if (w[i] < w[i - 1]) return false;
        }
        return true;
    }

    private static void merge(double[] w, int[] src, int[] dst, int lo, int mid, int hi) {
        int i = lo, j = mid;
        for (int k = lo; k < hi; k++) {
            // Take from the right run only when strictly lighter: this keeps the sort stable.
            if (i < mid && (j >= hi || !(w[src[j]] < w[src[i]]))) {
                dst[k] = src[i++];
            } else {
                dst[k] = src[j++];
            }
        }
    }
}
