package org.sylva.hdbscan.hierarchy;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * The single-linkage dendrogram of a spanning tree, in SciPy's linkage layout: {@code n - 1} merges,
 * merge {@code i} joining nodes {@code left(i)} and {@code right(i)} at {@code distance(i)} into node
 * {@code n + i} of {@code size(i)} points (nodes {@code 0..n-1} are the points).
 *
 * <p>Built exactly as the {@code hdbscan} package's {@code label()} builds it: the edges are sorted by
 * weight with a <em>stable</em> sort (equal weights keep the spanning tree's order), then merged in that
 * order with a union-find; {@code left} is the current root of the edge's {@code from} end and
 * {@code right} the root of its {@code to} end. For a Sylva tree (already in the unique
 * {@link org.sylva.hdbscan.mst.EdgeOrder}) the sort is the identity; a reference tree fed in its stored
 * row order gives the reference's dendrogram bit for bit. O(n log n) for the sort (O(n) when already
 * sorted), then O(n α(n)).
 *
 * <pre>{@code
 * SpanningTree mst = SpanningTree.of(3, new int[] {0, 1}, new int[] {1, 2}, new double[] {0.5, 0.7});
 * SingleLinkageTree slt = SingleLinkageTree.of(mst);
 * double[] m = slt.toMatrix();   // {0, 1, 0.5, 2,   3, 2, 0.7, 3}
 * }</pre>
 */
public final class SingleLinkageTree {
    private final int n;
    private final int[] left;
    private final int[] right;
    private final double[] distance;
    private final int[] size;

    private SingleLinkageTree(int n, int[] left, int[] right, double[] distance, int[] size) {
        this.n = n;
        this.left = left;
        this.right = right;
        this.distance = distance;
        this.size = size;
    }

    /**
     * The dendrogram of {@code tree}.
     *
     * @throws InvalidInputException if an edge weight is negative, or an edge joins two points that
     *     earlier edges (in weight order) already connect, i.e. the edges are not a spanning tree
     */
    public static SingleLinkageTree of(SpanningTree tree) {
        int n = tree.points();
        int m = tree.edges();
        double[] w = tree.weightArray();
        for (int i = 0; i < m; i++) {
            if (w[i] < 0) {
                throw new InvalidInputException("spanning tree edge " + i + " (" + tree.from(i) + ", " + tree.to(i)
                        + ") has negative weight " + w[i] + "; mutual-reachability distances are >= 0");
            }
        }
        int[] order = StableWeightSort.order(w);
        // Union-find over the points (union by size, path halving: near-constant time per edge), each
        // set remembering the dendrogram node it currently forms. The node ids, hence the rows, are those
        // of label(), whose union-find runs over dendrogram nodes instead.
        int[] parent = new int[n];
        int[] setSize = new int[n];
        int[] node = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
            setSize[i] = 1;
            node[i] = i;
        }
        int[] l = new int[m], r = new int[m], s = new int[m];
        double[] d = new double[m];
        for (int k = 0; k < m; k++) {
            int e = order[k];
            int ra = SpanningTree.root(parent, tree.from(e));
            int rb = SpanningTree.root(parent, tree.to(e));
            if (ra == rb) {
                throw new InvalidInputException("spanning tree edge " + e + " (" + tree.from(e) + ", " + tree.to(e)
                        + ") joins points that lighter edges already connect: the edges are not a spanning tree");
            }
            l[k] = node[ra];
            r[k] = node[rb];
            d[k] = w[e];
            s[k] = setSize[ra] + setSize[rb];
            if (setSize[ra] < setSize[rb]) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            parent[rb] = ra;
            setSize[ra] = s[k];
            node[ra] = n + k;
        }
        return new SingleLinkageTree(n, l, r, d, s);
    }


    /** Number of points {@code n}. */
    public int points() {
        return n;
    }

    /** Number of merges, {@code max(n - 1, 0)}. */
    public int merges() {
        return left.length;
    }

    /** Left node of merge {@code i} (root of the edge's {@code from} end). */
    public int left(int i) {
        return left[i];
    }

    /** Right node of merge {@code i} (root of the edge's {@code to} end). */
    public int right(int i) {
        return right[i];
    }

    /** Distance (edge weight) of merge {@code i}. */
    public double distance(int i) {
        return distance[i];
    }

    /** Number of points under node {@code n + i}. */
    public int size(int i) {
        return size[i];
    }

    /** Number of points under any node: 1 for a point, else the size of its merge. */
    int nodeSize(int node) {
        return node < n ? 1 : size[node - n];
    }

    public int[] leftArray() {
        return left.clone();
    }

    public int[] rightArray() {
        return right.clone();
    }

    public double[] distanceArray() {
        return distance.clone();
    }

    public int[] sizeArray() {
        return size.clone();
    }

    /** The {@code (n - 1) x 4} matrix {@code [left, right, distance, size]}, row-major, as SciPy stores it. */
    public double[] toMatrix() {
        int m = left.length;
        double[] out = new double[4 * m];
        for (int i = 0; i < m; i++) {
            out[4 * i] = left[i];
            out[4 * i + 1] = right[i];
            out[4 * i + 2] = distance[i];
            out[4 * i + 3] = size[i];
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SingleLinkageTree t && t.n == n && Arrays.equals(t.left, left)
                && Arrays.equals(t.right, right) && Arrays.equals(t.distance, distance) && Arrays.equals(t.size, size);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(left) * 31 + Arrays.hashCode(right)) * 31 + Arrays.hashCode(distance)) * 31 + n;
    }

    @Override
    public String toString() {
        return "SingleLinkageTree[n=" + n + ", merges=" + left.length + "]";
    }
}
