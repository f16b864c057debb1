package org.sylva.hdbscan.mst;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;

import org.sylva.numeric.DoubleOrder;

/**
 * A minimum spanning tree of the mutual-reachability graph over {@code n} points: {@code n - 1}
 * edges {@code (from[i], to[i], weight[i])}, listed in the order the hierarchy stage consumes them.
 *
 * <p>Trees built by Sylva are in the unique {@link EdgeOrder}: ascending {@code (weight, lower index,
 * higher index)} with {@code from = lower index}, {@code to = higher index}, so the tree and everything
 * derived from it never depend on thread count, backend or chance. {@link #of} also accepts trees in
 * any other order (for example a reference implementation's, in its stored row order); consumers
 * process the edges in the given order with a stable sort by weight.
 *
 * <pre>{@code
 * SpanningTree t = SpanningTree.of(3, new int[] {0, 1}, new int[] {1, 2}, new double[] {0.5, 0.7});
 * double w = t.weight(1);   // 0.7
 * }</pre>
 */
public final class SpanningTree {
    private final int n;
    private final int[] from;
    private final int[] to;
    private final double[] weight;

    private SpanningTree(int n, int[] from, int[] to, double[] weight) {
        this.n = n;
        this.from = from;
        this.to = to;
        this.weight = weight;
    }

    /** Wraps the given edges (copies the arrays). Lengths must all be {@code max(n - 1, 0)}. */
    public static SpanningTree of(int n, int[] from, int[] to, double[] weight) {
        if (n < 0) throw new IllegalArgumentException("a spanning tree has 0 or more points; got " + n);
        int m = Math.max(n - 1, 0);
        if (from.length != m || to.length != m || weight.length != m) {
            throw new IllegalArgumentException("a spanning tree of " + n + " points has " + m + " edges; got "
                    + from.length + "/" + to.length + "/" + weight.length);
        }
        for (int i = 0; i < m; i++) {
            if (from[i] < 0 || from[i] >= n || to[i] < 0 || to[i] >= n) {
                throw new IllegalArgumentException("edge " + i + " has an endpoint outside [0, " + n + ")");
            }
            if (Double.isNaN(weight[i])) throw new IllegalArgumentException("edge " + i + " has weight NaN");
        }
        return new SpanningTree(n, from.clone(), to.clone(), weight.clone());
    }

    /**
     * This tree, checked to be a spanning tree of distances: no negative weight, and no edge joining two points the
     * edges before it already connect (a loop, a repeated edge, a cycle; with {@code n - 1} edges that means every
     * point is reached). The engines' trees always pass; a tree from elsewhere (a request, a caller's arrays) is
     * checked by the stages that take one ({@link org.sylva.hdbscan.hierarchy.DbscanCut}, {@code
     * RelativeValidity}). O(n) with the union-find of {@link #root}.
     *
     * <pre>{@code
     * SpanningTree.of(3, new int[] {0, 1}, new int[] {1, 0}, new double[] {1, 2}).requireTree();   // edge 1 refused
     * }</pre>
     *
     * @throws InvalidInputException naming the first edge that is not
     */
    public SpanningTree requireTree() {
        int n = points();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int e = 0; e < from.length; e++) {
            if (weight[e] < 0) {
                throw new InvalidInputException("spanning tree edge " + e + " (" + from[e] + ", " + to[e]
                        + ") has negative weight " + weight[e] + "; mutual-reachability distances are >= 0");
            }
            int a = root(parent, from[e]), b = root(parent, to[e]);
            if (a == b) {
                throw new InvalidInputException("spanning tree edge " + e + " (" + from[e] + ", " + to[e] + ") joins points "
                        + "that the edges before it already connect: the edges are not a spanning tree");
            }
            parent[a] = b;
        }
        return this;
    }

    /**
     * The root of {@code x} in the forest of {@code parent} links (a root is its own parent), halving the path on the
     * way: the union-find of every check and cut of a tree. Each step moves {@code x} at least one level up a tree of
     * at most {@code parent.length} nodes, so the loop ends.
     */
    public static int root(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /** Wraps without copying; for the MST builders in this library that hand over fresh arrays. */
    static SpanningTree wrap(int n, int[] from, int[] to, double[] weight) {
        return new SpanningTree(n, from, to, weight);
    }

    /**
     * The same edges in the same order, each written {@code (parent, child)} in the tree rooted at
     * {@code root}: the way Prim's algorithm started at {@code root} lists them (the node already in the
     * tree first). scikit-learn and the {@code hdbscan} package build their single-linkage tree from
     * Prim's tree started at point 0, and the left/right order of each merge, hence the numbering of the
     * condensed tree's clusters and of the labels, follows that orientation; orienting Sylva's tree the
     * same way gives their numbering wherever the trees agree. Edges outside {@code root}'s component
     * (there are none in a spanning tree) keep their orientation. O(n).
     */
    public SpanningTree orientedFrom(int root) {
        int m = from.length;
        if (m == 0) return this;
        if (root < 0 || root >= n) throw new IllegalArgumentException("root " + root + " outside [0, " + n + ")");
        // adjacency in compressed rows: the edges of point p are adj[start[p] .. start[p + 1] - 1]
        int[] start = new int[n + 1];
        for (int e = 0; e < m; e++) {
            start[from[e] + 1]++;
            start[to[e] + 1]++;
        }
        for (int p = 0; p < n; p++) start[p + 1] += start[p];
        int[] fill = Arrays.copyOf(start, n);
        int[] adj = new int[2 * m];
        for (int e = 0; e < m; e++) {
            adj[fill[from[e]]++] = e;
            adj[fill[to[e]]++] = e;
        }
        // breadth-first from the root; each point enters the queue once, so both loops are bounded
        int[] parentOf = new int[n];
        Arrays.fill(parentOf, -1);
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        int head = 0, tail = 0;
        queue[tail++] = root;
        seen[root] = true;
        while (head < tail) {
            int p = queue[head++];
            for (int k = start[p]; k < start[p + 1]; k++) {
                int e = adj[k];
                int q = from[e] == p ? to[e] : from[e];
                if (!seen[q]) {
                    seen[q] = true;
                    parentOf[q] = p;
                    queue[tail++] = q;
                }
            }
        }
        int[] f = from.clone(), t = to.clone();
        for (int e = 0; e < m; e++) {
            if (parentOf[from[e]] == to[e]) {   // written child first: swap
                f[e] = to[e];
                t[e] = from[e];
            }
        }
        return new SpanningTree(n, f, t, weight);
    }

    /** Number of points. */
    public int points() {
        return n;
    }

    /** Number of edges ({@code n - 1}, or 0 for an empty input). */
    public int edges() {
        return from.length;
    }

    public int from(int i) {
        return from[i];
    }

    public int to(int i) {
        return to[i];
    }

    public double weight(int i) {
        return weight[i];
    }

    public int[] fromArray() {
        return from.clone();
    }

    public int[] toArray() {
        return to.clone();
    }

    public double[] weightArray() {
        return weight.clone();
    }

    /**
     * The {@code edges() x 3} matrix {@code [from, to, weight]}, row-major, in this tree's edge order: what
     * {@code sylva hdbscan} writes as {@code mst.npy} and the Python package returns as
     * {@code minimum_spanning_tree_} (one method, so the two are the same bytes).
     */
    public double[] toMatrix() {
        int m = from.length;
        double[] out = new double[3 * m];
        for (int i = 0; i < m; i++) {
            out[3 * i] = from[i];
            out[3 * i + 1] = to[i];
            out[3 * i + 2] = weight[i];
        }
        return out;
    }

    /** Sum of the weights (equal for every minimum spanning tree of the same graph, up to rounding). */
    public double totalWeight() {
        double s = 0;
        for (double w : weight) s += w;
        return s;
    }

    /**
     * The tree's edges re-listed in the unique {@link EdgeOrder} with {@code from < to}. Each edge becomes
     * two numbers whose signed order is the edge order: its weight's {@link DoubleOrder#key} and its
     * {@link EdgeOrder#endpoints}; a merge sort of those pairs (no index permutation to follow, no
     * comparator) orders them, and the edges are read back from the sorted keys. In a tree no two edges
     * share both keys, so the order is unique.
     */
    public SpanningTree inEdgeOrder() {
        int m = from.length;
        long[] wk = new long[m], ep = new long[m];
        for (int e = 0; e < m; e++) {
            wk[e] = DoubleOrder.key(weight[e]);
            ep[e] = EdgeOrder.endpoints(from[e], to[e]);
        }
        sortPairs(wk, ep);
        int[] f = new int[m], t = new int[m];
        double[] w = new double[m];
        for (int e = 0; e < m; e++) {
            f[e] = (int) (ep[e] >>> 32);
            t[e] = (int) ep[e];
            w[e] = DoubleOrder.value(wk[e]);   // the weight's bits: a tree's weights are never NaN
        }
        return new SpanningTree(n, f, t, w);
    }

    /** Runs of this many pairs are sorted by insertion before the merges. */
    private static final int RUN = 32;

    /**
     * Sorts the pairs {@code (a[i], b[i])} in place by {@code a}, then {@code b}: insertion-sorted runs of
     * {@link #RUN}, then bottom-up merges (each pass doubles the run width, so at most 32 passes).
     */
    static void sortPairs(long[] a, long[] b) {
        int m = a.length;
        for (int start = 0; start < m; start += RUN) {
            int end = Math.min(start + RUN, m);
            for (int i = start + 1; i < end; i++) {
                long x = a[i], y = b[i];
                int j = i - 1;
                while (j >= start && (a[j] > x || (a[j] == x && b[j] > y))) {
                    a[j + 1] = a[j];
                    b[j + 1] = b[j];
                    j--;
                }
                a[j + 1] = x;
                b[j + 1] = y;
            }
        }
        if (m <= RUN) return;
        long[] sa = a, sb = b, da = new long[m], db = new long[m];
        for (int width = RUN; width < m; width *= 2) {
            for (int start = 0; start < m; start += 2 * width) {
                int mid = Math.min(start + width, m), end = Math.min(start + 2 * width, m);
                int i = start, j = mid, o = start;
                while (i < mid && j < end) {   // each turn moves one of at most 2 * width pairs
                    if (sa[j] < sa[i] || (sa[j] == sa[i] && sb[j] < sb[i])) {
                        da[o] = sa[j];
                        db[o++] = sb[j++];
                    } else {
                        da[o] = sa[i];
                        db[o++] = sb[i++];
                    }
                }
                int restI = mid - i, restJ = end - j;
                System.arraycopy(sa, i, da, o, restI);
                System.arraycopy(sb, i, db, o, restI);
                o += restI;
                System.arraycopy(sa, j, da, o, restJ);
                System.arraycopy(sb, j, db, o, restJ);
            }
            long[] t = sa;
            sa = da;
            da = t;
            t = sb;
            sb = db;
            db = t;
        }
        if (sa != a) {
            System.arraycopy(sa, 0, a, 0, m);
            System.arraycopy(sb, 0, b, 0, m);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SpanningTree s && s.n == n && Arrays.equals(s.from, from) && Arrays.equals(s.to, to)
                && Arrays.equals(s.weight, weight);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(from) + Arrays.hashCode(to)) + Arrays.hashCode(weight) + n;
    }

    @Override
    public String toString() {
        return "SpanningTree[n=" + n + ", totalWeight=" + totalWeight() + "]";
    }
}
