package org.sylva.hdbscan.hierarchy;

import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * A flat DBSCAN* clustering cut from the hierarchy at one distance, as the {@code hdbscan} package's
 * {@code dbscan_clustering(cut_distance, min_cluster_size)} (and scikit-learn's) computes it: the points
 * joined by spanning-tree edges of weight strictly below {@code cut} form the components; components of
 * fewer than {@code minClusterSize} points are noise (-1). The partition depends only on the tree's
 * weights (every exact spanning tree gives the same components), so it has no tie freedom. Clusters are
 * numbered by their smallest point, ascending (the package numbers them by an internal union-find root:
 * the same partition, other numbers).
 *
 * <pre>{@code
 * int[] labels = DbscanCut.labels(result.spanningTree(), 0.5, 5);
 * }</pre>
 */
public final class DbscanCut {
    private DbscanCut() {
    }

    /**
     * The label of each point of {@code tree}: -1 noise, clusters {@code 0 ..} by smallest point.
     *
     * @throws InvalidInputException when {@code cut} is NaN, {@code minClusterSize} is below 1 or {@code tree} is no
     *     spanning tree ({@link SpanningTree#requireTree})
     */
    public static int[] labels(SpanningTree tree, double cut, int minClusterSize) {
        tree.requireTree();
        if (Double.isNaN(cut)) throw InvalidInputException.forParameter("cut_distance", "cut_distance is NaN");
        if (minClusterSize < 1) {
            throw InvalidInputException.forParameter("min_cluster_size", "min_cluster_size must be at least 1; got "
                    + minClusterSize);
        }
        int n = tree.points();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int e = 0; e < tree.edges(); e++) {
            if (tree.weight(e) < cut) {
                int a = SpanningTree.root(parent, tree.from(e)), b = SpanningTree.root(parent, tree.to(e));
                // The smaller index becomes the root: a component's root is its smallest point.
                if (a < b) parent[b] = a;
                else if (b < a) parent[a] = b;
            }
        }
        int[] size = new int[n];
        int[] root = new int[n];
        for (int i = 0; i < n; i++) {
            root[i] = SpanningTree.root(parent, i);
            size[root[i]]++;
        }
        int[] label = new int[n];
        int next = 0;
        for (int i = 0; i < n; i++) {   // roots come in ascending order, each before its other points
            if (root[i] == i) label[i] = size[i] >= minClusterSize ? next++ : -1;
            else label[i] = label[root[i]];
        }
        return label;
    }
}
