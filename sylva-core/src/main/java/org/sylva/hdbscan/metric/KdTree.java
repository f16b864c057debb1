package org.sylva.hdbscan.metric;

import org.sylva.progress.CancellationToken;

/**
 * A k-d tree over {@code n} points for the coordinate metrics that a box bounds (manhattan, chebyshev,
 * minkowski): each node holds a contiguous range of the points in tree order and the tight axis-aligned box
 * around them, and {@link #lowerBound} gives a query's distance to a box that is never above the distance
 * {@link PairDistances} computes to any point inside it, bitwise. The reason is monotone rounding: for a
 * coordinate {@code x_j >= lo_j > q_j}, {@code fl(q_j - x_j) <= fl(q_j - lo_j) < 0}, and a float64 sum or
 * maximum of larger terms, taken in the same order, is never smaller; for minkowski, whose distance takes
 * {@link StrictMath#pow}s, the bound takes the faster {@link Math#pow}s (each within 1 ulp of the exact power, as
 * each of the distance's is, but not always the same value) and is lowered by a relative {@code 2^-40} (far above
 * the few ulps between the two powers, in the sums of at most 16 terms and the roots) and by a few subnormal ulps
 * (where a relative margin lowers nothing). So a search that skips a box whose bound exceeds what it has found skips no
 * point it would have kept, and its answers are those of a scan of every point.
 *
 * <p>Built once, deterministically: a node of more than {@link #LEAF_SIZE} points splits at its median along
 * its widest box side, points ordered by (coordinate, row index), so equal coordinates never make the tree
 * depend on anything but the input. Nodes are numbered in preorder (a node's left child is the next node;
 * {@link #right} names the right one). Immutable after construction; its arrays are filled after the
 * constructor, so share it through a safe publication (a volatile field, a task handed to a pool).
 *
 * <pre>{@code
 * KdTree t = KdTree.build(Metric.manhattan(), rows, n, d, CancellationToken.NEVER);
 * double lb = t.lowerBound(query, 0, KdTree.ROOT);   // 0 when the query lies in the root's box
 * }</pre>
 */
public final class KdTree {
    /** Most points of a leaf. */
    public static final int LEAF_SIZE = 16;
    /** The root node. */
    public static final int ROOT = 0;
    /** The minkowski bound's relative margin below the computed sum, for the powers' last bits. */
    private static final double POW_MARGIN = 1 - 0x1p-40;
    /** Partition passes of one median search before it falls back to a heap sort of what is left. */
    private static final int MAX_PASSES_FACTOR = 4;

    private final Metric.Kind kind;
    private final double p;
    private final double invP;
    private final int n;
    private final int d;
    /** Tree position to input row. */
    private final int[] order;
    /** The rows in tree order (row {@code order[i]} at position {@code i}). */
    private final double[] sorted;
    private final int[] start;
    private final int[] end;
    private final int[] right;
    /** Partition passes per level of a median search before its heap sort ({@link #MAX_PASSES_FACTOR}). */
    private final int passFactor;
    private final double[] lo;
    private final double[] hi;
    /** Smallest input row index below each node (the tie order's side of a bound). */
    private final int[] minRow;
    private final int nodes;

    private KdTree(Metric metric, int n, int d, int[] order, double[] sorted, int nodes, int passFactor) {
        this.passFactor = passFactor;
        this.kind = metric.kind();
        this.p = metric.p();
        this.invP = 1.0 / p;
        this.n = n;
        this.d = d;
        this.order = order;
        this.sorted = sorted;
        this.nodes = nodes;
        this.start = new int[nodes];
        this.end = new int[nodes];
        this.right = new int[nodes];
        this.lo = new double[nodes * d];
        this.hi = new double[nodes * d];
        this.minRow = new int[nodes];
    }

    /** True for the metrics this tree bounds: manhattan, chebyshev and minkowski. */
    public static boolean bounds(Metric metric) {
        return switch (metric.kind()) {
            case MANHATTAN, CHEBYSHEV, MINKOWSKI -> true;
            default -> false;
        };
    }

    /**
     * The tree of the {@code n} rows of {@code rows} ({@code n x d}, row-major, finite), looking at
     * {@code cancel} between nodes.
     *
     * @throws IllegalArgumentException for a metric the tree does not bound, or a shape that does not fit
     */
    public static KdTree build(Metric metric, double[] rows, int n, int d, CancellationToken cancel) {
        return build(metric, rows, n, d, cancel, MAX_PASSES_FACTOR);
    }

    /**
     * As {@link #build(Metric, double[], int, int, CancellationToken)}, each median search allowed
     * {@code passFactor * log2(m)} partition passes before its heap sort (tests: 0, every search past its
     * first passes heap-sorted, which must make the same nodes).
     */
    static KdTree build(Metric metric, double[] rows, int n, int d, CancellationToken cancel, int passFactor) {
        if (!bounds(metric)) throw new IllegalArgumentException("a k-d tree does not bound the metric " + metric.describe());
        if (n < 1 || d < 1 || (long) n * d != rows.length) {
            throw new IllegalArgumentException(rows.length + " values for n = " + n + ", d = " + d);
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        int count = countNodes(n);
        double[] sorted = new double[n * d];
        KdTree t = new KdTree(metric, n, d, order, sorted, count, passFactor);
        int made = t.split(rows, 0, n, 0, 0, cancel);
        if (made != count) throw new IllegalStateException(made + " nodes made, " + count + " counted");
        for (int i = 0; i < n; i++) System.arraycopy(rows, order[i] * d, sorted, i * d, d);
        t.fillBoxes();
        return t;
    }

    /** Nodes of a tree of {@code m} points (a function of {@code m} alone: splits halve). */
    private static int countNodes(int m) {
        return m <= LEAF_SIZE ? 1 : 1 + countNodes(m / 2) + countNodes(m - m / 2);
    }

    /**
     * Makes node {@code node} over positions {@code [from, to)} and, below it, its subtree; returns the next
     * free node number. Depth is at most log2(n) + 1 (splits halve).
     */
    private int split(double[] rows, int from, int to, int node, int depth, CancellationToken cancel) {
        if ((node & 1023) == 0) cancel.throwIfCancelled();
        start[node] = from;
        end[node] = to;
        right[node] = -1;
        if (to - from <= LEAF_SIZE) return node + 1;
        int axis = widestAxis(rows, from, to);
        int mid = from + (to - from) / 2;
        select(rows, axis, from, to, mid);
        int next = split(rows, from, mid, node + 1, depth + 1, cancel);
        right[node] = next;
        return split(rows, mid, to, next, depth + 1, cancel);
    }

    /** The axis along which the points at {@code [from, to)} spread widest (the lowest such axis on a tie). */
    private int widestAxis(double[] rows, int from, int to) {
        int best = 0;
        double bestSpread = -1;
        for (int j = 0; j < d; j++) {
            double mn = Double.POSITIVE_INFINITY, mx = Double.NEGATIVE_INFINITY;
            for (int i = from; i < to; i++) {
                double v = rows[order[i] * d + j];
                mn = Math.min(mn, v);
                mx = Math.max(mx, v);
            }
            if (mx - mn > bestSpread) {
                bestSpread = mx - mn;
                best = j;
            }
        }
        return best;
    }

    /** True when row {@code a} comes before row {@code b} along {@code axis}: (coordinate, row index). */
    private static boolean before(double[] rows, int d, int axis, int a, int b) {
        double va = rows[a * d + axis], vb = rows[b * d + axis];
        return va < vb || (va == vb && a < b);
    }

    /**
     * Reorders {@code order[from .. to)} so that position {@code k} holds the row it would hold sorted by
     * (coordinate, row index), smaller rows before it and larger after: a median-of-three quickselect, whose
     * passes are bounded; past the bound the rest is heap-sorted (so the worst case stays O(m log m)).
     */
    private void select(double[] rows, int axis, int from, int to, int k) {
        int lo0 = from, hi0 = to - 1;
        int maxPasses = passFactor * (32 - Integer.numberOfLeadingZeros(to - from));
        for (int pass = 0; pass < maxPasses && lo0 < hi0; pass++) {
            int m = lo0 + (hi0 - lo0) / 2;
            // median of three to lo0 .. m .. hi0, then the pivot (the median) moved to hi0
            if (before(rows, d, axis, order[m], order[lo0])) swap(m, lo0);
            if (before(rows, d, axis, order[hi0], order[lo0])) swap(hi0, lo0);
            if (before(rows, d, axis, order[m], order[hi0])) swap(m, hi0);
            int pivot = order[hi0];
            int store = lo0;
            for (int i = lo0; i < hi0; i++) {
                if (before(rows, d, axis, order[i], pivot)) swap(i, store++);
            }
            swap(store, hi0);
            if (store == k) return;
            if (k < store) hi0 = store - 1;
            else lo0 = store + 1;
        }
        if (lo0 < hi0) heapSort(rows, axis, lo0, hi0 + 1);
    }

    private void heapSort(double[] rows, int axis, int from, int to) {
        int m = to - from;
        for (int i = m / 2 - 1; i >= 0; i--) siftDown(rows, axis, from, i, m);
        for (int last = m - 1; last > 0; last--) {
            swap(from, from + last);
            siftDown(rows, axis, from, 0, last);
        }
    }

    private void siftDown(double[] rows, int axis, int base, int i, int size) {
        int c = i;
        while (2 * c + 1 < size) {   // c at least doubles each step
            int l = 2 * c + 1, r = l + 1;
            int big = r < size && before(rows, d, axis, order[base + l], order[base + r]) ? r : l;
            if (!before(rows, d, axis, order[base + c], order[base + big])) return;
            swap(base + c, base + big);
            c = big;
        }
    }

    private void swap(int a, int b) {
        int t = order[a];
        order[a] = order[b];
        order[b] = t;
    }

    /** Boxes and smallest rows, children before parents (preorder numbers run parents first). */
    private void fillBoxes() {
        for (int node = nodes - 1; node >= 0; node--) {
            int b = node * d;
            if (right[node] < 0) {
                int smallest = Integer.MAX_VALUE;
                for (int j = 0; j < d; j++) {
                    lo[b + j] = Double.POSITIVE_INFINITY;
                    hi[b + j] = Double.NEGATIVE_INFINITY;
                }
                for (int i = start[node]; i < end[node]; i++) {
                    smallest = Math.min(smallest, order[i]);
                    for (int j = 0; j < d; j++) {
                        double v = sorted[i * d + j];
                        lo[b + j] = Math.min(lo[b + j], v);
                        hi[b + j] = Math.max(hi[b + j], v);
                    }
                }
                minRow[node] = smallest;
            } else {
                int l = (node + 1) * d, r = right[node] * d;
                for (int j = 0; j < d; j++) {
                    lo[b + j] = Math.min(lo[l + j], lo[r + j]);
                    hi[b + j] = Math.max(hi[l + j], hi[r + j]);
                }
                minRow[node] = Math.min(minRow[node + 1], minRow[right[node]]);
            }
        }
    }

    /** Number of points. */
    public int size() {
        return n;
    }

    public int dimensions() {
        return d;
    }

    /** Number of nodes. */
    public int nodes() {
        return nodes;
    }

    /** The input row at tree position {@code position}. */
    public int row(int position) {
        return order[position];
    }

    /** The rows in tree order: position {@code i} at {@code [i * d, (i + 1) * d)}; shared, not copied. */
    public double[] sortedRows() {
        return sorted;
    }

    /** First position of {@code node}. */
    public int start(int node) {
        return start[node];
    }

    /** One past the last position of {@code node}. */
    public int end(int node) {
        return end[node];
    }

    /** True when {@code node} is a leaf. */
    public boolean isLeaf(int node) {
        return right[node] < 0;
    }

    /** The left child of an inner node. */
    public int left(int node) {
        return node + 1;
    }

    /** The right child of an inner node. */
    public int right(int node) {
        return right[node];
    }

    /** The smallest input row index below {@code node}. */
    public int minRow(int node) {
        return minRow[node];
    }

    /**
     * A lower bound of the metric's distance from the point {@code q[off .. off + d)} to every point in
     * {@code node}'s box, never above the value {@link PairDistances} computes (class comment); 0 inside
     * the box.
     */
    public double lowerBound(double[] q, int off, int node) {
        int b = node * d;
        double s = 0;
        switch (kind) {
            case MANHATTAN -> {
                for (int j = 0; j < d; j++) s += gap(q[off + j], lo[b + j], hi[b + j]);
            }
            case CHEBYSHEV -> {
                for (int j = 0; j < d; j++) s = Math.max(s, gap(q[off + j], lo[b + j], hi[b + j]));
            }
            case MINKOWSKI -> {
                for (int j = 0; j < d; j++) {
                    double g = gap(q[off + j], lo[b + j], hi[b + j]);
                    if (g > 0) s += Math.pow(g, p);
                }
                // absolute slack too, for sums and roots in the subnormal range, where the relative margin
                // does not lower a value and one ulp of pow is a large relative error
                s -= 2 * d * Double.MIN_VALUE;
                s = s > 0 ? Math.max(Math.pow(s, invP) * POW_MARGIN - 2 * Double.MIN_VALUE, 0.0) : 0;
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return s;
    }

    /**
     * A depth-first walk of the tree from one query: the pending nodes with their box bounds, the nearer child
     * on top, so a search visits the nodes most likely to hold what it looks for first. Depth is at most
     * log2(n) + 2 levels and each level leaves one child pending, so the stack holds a few dozen nodes. One
     * per thread; reused from query to query without allocation.
     *
     * <pre>{@code
     * KdTree.Walk w = tree.walk();
     * for (w.start(); w.pending(); ) {
     *     int node = w.pop();
     *     if (w.bound() > limit) continue;
     *     if (!tree.isLeaf(node)) w.pushChildren(q, off, node); else ...;
     * }
     * }</pre>
     */
    public final class Walk {
        private final int[] node;
        private final double[] bound;
        private int top;
        private double popped;

        private Walk() {
            node = new int[stackSize()];
            bound = new double[stackSize()];
        }

        /** Starts a walk at the root (bound 0). */
        public void start() {
            node[0] = ROOT;
            bound[0] = 0;
            top = 1;
        }

        /** True while nodes are pending. */
        public boolean pending() {
            return top > 0;
        }

        /** The next pending node; {@link #bound()} is then its box bound. */
        public int pop() {
            top--;
            popped = bound[top];
            return node[top];
        }

        /** The box bound of the node {@link #pop()} returned last. */
        public double bound() {
            return popped;
        }

        /** Pushes an inner node's two children with their box bounds from {@code q[off ..]}, the nearer on top. */
        public void pushChildren(double[] q, int off, int parent) {
            top = KdTree.this.pushChildren(q, off, parent, node, bound, top);
        }
    }

    /** A new walk of this tree (for one thread). */
    public Walk walk() {
        return new Walk();
    }

    /** Entries a depth-first walk's stack needs: two per level at most, levels at most log2(n) + 2. */
    public int stackSize() {
        return 2 * (34 - Integer.numberOfLeadingZeros(Math.max(n, 1))) + 4;
    }

    /**
     * Pushes inner node {@code parent}'s two children onto the stack {@code nodes}, {@code bounds} at {@code top}
     * with their box bounds from {@code q[off ..]}, the nearer on top; returns the new top.
     */
    public int pushChildren(double[] q, int off, int parent, int[] nodes, double[] bounds, int top) {
        int l = parent + 1, r = right[parent];
        double bl = lowerBound(q, off, l), br = lowerBound(q, off, r);
        boolean leftNearer = bl <= br;
        nodes[top] = leftNearer ? r : l;
        bounds[top] = leftNearer ? br : bl;
        nodes[top + 1] = leftNearer ? l : r;
        bounds[top + 1] = leftNearer ? bl : br;
        return top + 2;
    }

    /**
     * {@code |fl(v - edge)|} to the box side nearer {@code v}, 0 inside: the bound of {@code |fl(v - x)|}.
     * Without branches: {@code fl(low - v)} is {@code -fl(v - low)} exactly, and inside the box both
     * differences are {@code <= 0}.
     */
    private static double gap(double v, double low, double high) {
        return Math.max(Math.max(low - v, v - high), 0.0);
    }
}
