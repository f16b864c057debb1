package org.sylva.gpu;

/**
 * The order in which the GPU engine stores the points on the device: recursive halvings at the median of
 * the widest coordinate (ties by index), so that consecutive points, a work-group's own points and a
 * tile's candidates, lie near each other and a tile's bounding ball is small. The order changes which
 * candidates a kernel can skip, never a result: the kernels compare distances and break ties by the
 * points' original indices. Deterministic: it depends on the coordinates alone.
 *
 * <pre>{@code
 * int[] order = SpatialOrder.of(rows, n, d);   // order[position] = original index
 * }</pre>
 */
public final class SpatialOrder {
    /** Groups this small are left in index order. */
    static final int LEAF = 16;

    private SpatialOrder() {
    }

    /** The positions' original indices for {@code n} row-major points of {@code d} coordinates. */
    public static int[] of(double[] rows, int n, int d) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        // an explicit stack of ranges: depth at most about log2(n / LEAF) + 1 per pending range, n ranges at most
        int[] stack = new int[2 * 64 + 2];
        int top = 0;
        stack[top++] = 0;
        stack[top++] = n;
        for (int guard = 0; guard < 2 * n + 2 && top > 0; guard++) {
            int hi = stack[--top];
            int lo = stack[--top];
            if (hi - lo <= LEAF) continue;
            int dim = widest(rows, d, order, lo, hi);
            int mid = (lo + hi) >>> 1;
            select(rows, d, dim, order, lo, hi, mid);
            if (top + 4 > stack.length) stack = java.util.Arrays.copyOf(stack, stack.length * 2);
            stack[top++] = mid;
            stack[top++] = hi;
            stack[top++] = lo;
            stack[top++] = mid;
        }
        return order;
    }

    private static int widest(double[] rows, int d, int[] order, int lo, int hi) {
        int best = 0;
        double bestSpread = -1;
        for (int j = 0; j < d; j++) {
            double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
            for (int i = lo; i < hi; i++) {
                double v = rows[order[i] * d + j];
                if (v < min) min = v;
                if (v > max) max = v;
            }
            if (max - min > bestSpread) {
                bestSpread = max - min;
                best = j;
            }
        }
        return best;
    }

    /** (coordinate dim, index) order: negative when point a comes before point b. */
    private static int compare(double[] rows, int d, int dim, int a, int b) {
        int c = Double.compare(rows[a * d + dim], rows[b * d + dim]);
        return c != 0 ? c : Integer.compare(a, b);
    }

    /** Rearranges order[lo, hi) so that order[k] is in its sorted place, smaller before, larger after. */
    private static void select(double[] rows, int d, int dim, int[] order, int lo, int hi, int k) {
        int l = lo, h = hi - 1;
        for (int guard = 0; guard < hi - lo + 64 && l < h; guard++) {
            int m = (l + h) >>> 1;
            // median of three as the pivot, moved to h
            if (compare(rows, d, dim, order[m], order[l]) < 0) swap(order, m, l);
            if (compare(rows, d, dim, order[h], order[l]) < 0) swap(order, h, l);
            if (compare(rows, d, dim, order[m], order[h]) < 0) swap(order, m, h);
            int pivot = order[h];
            int store = l;
            for (int i = l; i < h; i++) {
                if (compare(rows, d, dim, order[i], pivot) < 0) swap(order, i, store++);
            }
            swap(order, store, h);
            if (store == k) return;
            if (store < k) l = store + 1;
            else h = store - 1;
        }
        if (l < h) {
            // not reached for distinct (coordinate, index) keys; a sort keeps the contract regardless
            Integer[] part = new Integer[h - l + 1];
            for (int i = l; i <= h; i++) part[i - l] = order[i];
            java.util.Arrays.sort(part, (a, b) -> compare(rows, d, dim, a, b));
            for (int i = l; i <= h; i++) order[i] = part[i - l];
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
