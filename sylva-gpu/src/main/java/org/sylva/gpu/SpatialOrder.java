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
    /** Groups this small are left as they are. */
    static final int LEAF = 16;
    /** Points read to choose a group's widest coordinate. */
    static final int SAMPLE = 256;

    private SpatialOrder() {
    }

    /** The positions' original indices for {@code n} row-major points of {@code d} coordinates. */
    public static int[] of(double[] rows, int n, int d) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        // an explicit stack of ranges: depth at most about log2(n / LEAF) + 1 per pending range, n ranges at most
        int[] stack = new int[2 * 64 + 2];
        double[] min = new double[d], max = new double[d], key = new double[n];
        int top = 0;
        stack[top++] = 0;
        stack[top++] = n;
        for (int guard = 0; guard < 2 * n + 2 && top > 0; guard++) {
            int hi = stack[--top];
            int lo = stack[--top];
            if (hi - lo <= LEAF) continue;
            int dim = widest(rows, d, order, lo, hi, min, max);
            int mid = (lo + hi) >>> 1;
            select(rows, d, dim, order, key, lo, hi, mid);
            if (top + 4 > stack.length) stack = java.util.Arrays.copyOf(stack, stack.length * 2);
            stack[top++] = mid;
            stack[top++] = hi;
            stack[top++] = lo;
            stack[top++] = mid;
        }
        return order;
    }

    /**
     * The coordinate of largest spread over order[lo, hi) (the first such), estimated from at most
     * {@link #SAMPLE} entries evenly spaced in the range: the choice only decides how compact the tiles
     * are, and a full pass per node would cost n x d reads per level.
     */
    private static int widest(double[] rows, int d, int[] order, int lo, int hi, double[] min, double[] max) {
        java.util.Arrays.fill(min, 0, d, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(max, 0, d, Double.NEGATIVE_INFINITY);
        int m = hi - lo, take = Math.min(m, SAMPLE);
        for (int t = 0; t < take; t++) {
            int at = order[lo + (int) ((long) t * m / take)] * d;
            for (int j = 0; j < d; j++) {
                double v = rows[at + j];
                if (v < min[j]) min[j] = v;
                if (v > max[j]) max[j] = v;
            }
        }
        int best = 0;
        double bestSpread = -1;
        for (int j = 0; j < d; j++) {
            if (max[j] - min[j] > bestSpread) {
                bestSpread = max[j] - min[j];
                best = j;
            }
        }
        return best;
    }

    /**
     * Rearranges order[lo, hi) so that order[k] is in its place in (coordinate dim, index) order, smaller
     * before, larger after. The coordinates are copied into {@code key} first (key[i] for order[i]), so the
     * selection reads two arrays in turn rather than rows at random.
     */
    private static void select(double[] rows, int d, int dim, int[] order, double[] key, int lo, int hi, int k) {
        for (int i = lo; i < hi; i++) key[i] = rows[order[i] * d + dim];
        int l = lo, h = hi - 1;
        for (int guard = 0; guard < hi - lo + 64 && l < h; guard++) {
            int m = (l + h) >>> 1;
            // median of three as the pivot, moved to h
            if (before(key, order, m, l)) swap(key, order, m, l);
            if (before(key, order, h, l)) swap(key, order, h, l);
            if (before(key, order, m, h)) swap(key, order, m, h);
            int store = l;
            for (int i = l; i < h; i++) {
                if (before(key, order, i, h)) swap(key, order, i, store++);
            }
            swap(key, order, store, h);
            if (store == k) return;
            if (store < k) l = store + 1;
            else h = store - 1;
        }
        if (l < h) {
            // not reached: each step places a pivot and shrinks the range; a sort keeps the contract regardless
            Integer[] part = new Integer[h - l + 1];
            for (int i = l; i <= h; i++) part[i - l] = order[i];
            java.util.Arrays.sort(part, (x, y) -> {
                int c = Double.compare(rows[x * d + dim], rows[y * d + dim]);
                return c != 0 ? c : Integer.compare(x, y);
            });
            for (int i = l; i <= h; i++) {
                order[i] = part[i - l];
                key[i] = rows[order[i] * d + dim];
            }
        }
    }

    /** Whether entry i comes before entry j: by key (Double.compare: -0.0 before 0.0), then by index. */
    private static boolean before(double[] key, int[] order, int i, int j) {
        int c = Double.compare(key[i], key[j]);
        return c != 0 ? c < 0 : order[i] < order[j];
    }

    private static void swap(double[] key, int[] order, int i, int j) {
        double t = key[i];
        key[i] = key[j];
        key[j] = t;
        swap(order, i, j);
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
