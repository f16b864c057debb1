package org.sylva.hdbscan.predict;

import java.util.Arrays;
import org.sylva.hdbscan.hierarchy.CondensedTree;

/**
 * The cluster nodes of a condensed tree and its selected clusters, arranged for the questions
 * prediction asks: where a point falls out and at which lambda, a cluster's parent and birth lambda,
 * the largest lambda among its own rows ({@link #directMax}, the {@code hdbscan} package's
 * {@code max_lambdas} / {@code leaf_max_lambdas}) and in its whole subtree ({@link #subtreeMax}), the
 * label a cluster belongs to ({@link #label}: that of its selected ancestor-or-self, the package's
 * {@code cluster_map}), and the package's {@code merge_height} ({@link #mergeHeight}). Clusters are
 * indexed {@code id - n} (0 = root); labels rank the selected clusters by ascending id, as the fit does.
 *
 * <p>{@code merge_height} climbs from both clusters, always moving the larger id to its parent, and
 * returns the birth lambda of the last cluster moved when both sides moved, else the point's lambda.
 * Both sides move exactly when neither cluster is an ancestor of the other, and the last cluster moved
 * is then a child of their lowest common ancestor, whose two children are born at the same lambda (one
 * split; {@link CondensedTree#of} checks it). So the answer is that split's lambda, found here through
 * the lowest common ancestor by binary lifting in O(log depth) instead of O(depth) steps.
 *
 * <pre>{@code
 * ClusterTree t = new ClusterTree(condensed, clustering.selectedNodes());
 * double h = t.mergeHeight(t.pointCluster(17), t.pointLambda(17), t.selected(0));
 * }</pre>
 */
final class ClusterTree {
    private final int n;
    private final int clusters;
    private final int[] parent;
    private final double[] birth;
    private final double[] splitLambda;
    private final double[] directMax;
    private final double[] subtreeMax;
    private final int[] label;
    private final int[] selected;
    private final int[] pointCluster;
    private final double[] pointLambda;
    private final int[] depth;
    /** {@code up[j][k]}: the {@code 2^j}-th ancestor of cluster k (the root above the root). */
    private final int[][] up;

    /**
     * The least lambda at which a point falling out of the root belongs to it, when the root is the selected
     * cluster (single-cluster mode): {@code 1 / epsilon}, or the largest lambda among the root's own rows
     * without an epsilon, as the fit labels such points ({@code ClusterSelector}); +inf when the root is not
     * selected.
     */
    private final double rootLambda;

    ClusterTree(CondensedTree tree, int[] selectedNodes) {
        this(tree, selectedNodes, 0.0);
    }

    /** As above, for a fit whose {@code cluster_selection_epsilon} was {@code epsilon}. */
    ClusterTree(CondensedTree tree, int[] selectedNodes, double epsilon) {
        n = tree.points();
        clusters = tree.clusterCount();
        parent = new int[clusters];
        birth = new double[clusters];
        splitLambda = new double[clusters];
        directMax = new double[clusters];
        pointCluster = new int[n];
        pointLambda = new double[n];
        Arrays.fill(parent, -1);
        int rows = tree.rows();
        for (int r = 0; r < rows; r++) {
            int p = tree.parent(r) - n, c = tree.child(r);
            double lam = tree.lambda(r);
            directMax[p] = Math.max(directMax[p], lam);
            if (c < n) {
                pointCluster[c] = p;
                pointLambda[c] = lam;
            } else {
                parent[c - n] = p;
                birth[c - n] = lam;
                splitLambda[p] = lam;
            }
        }
        // Children have larger ids than their parents: descending, every subtree is complete when read.
        subtreeMax = directMax.clone();
        for (int k = clusters - 1; k > 0; k--) subtreeMax[parent[k]] = Math.max(subtreeMax[parent[k]], subtreeMax[k]);
        selected = new int[selectedNodes.length];
        label = new int[clusters];
        Arrays.fill(label, -1);
        for (int l = 0; l < selectedNodes.length; l++) {
            selected[l] = selectedNodes[l] - n;
            label[selected[l]] = l;
        }
        rootLambda = label[0] < 0 ? Double.POSITIVE_INFINITY : epsilon != 0.0 ? 1.0 / epsilon : directMax[0];
        // Ascending ids visit parents first, so a cluster inherits its parent's label unless selected itself.
        depth = new int[clusters];
        int maxDepth = 0;
        for (int k = 1; k < clusters; k++) {
            if (label[k] < 0) label[k] = label[parent[k]];
            depth[k] = depth[parent[k]] + 1;
            maxDepth = Math.max(maxDepth, depth[k]);
        }
        int levels = 1;
        while ((1 << levels) <= maxDepth) levels++;
        up = new int[levels][clusters];
        for (int k = 0; k < clusters; k++) up[0][k] = k == 0 ? 0 : parent[k];
        for (int j = 1; j < levels; j++) {
            for (int k = 0; k < clusters; k++) up[j][k] = up[j - 1][up[j - 1][k]];
        }
    }

    /** Number of points. */
    int points() {
        return n;
    }

    /** Number of cluster nodes, root included. */
    int clusters() {
        return clusters;
    }

    /** Number of selected clusters (labels). */
    int labels() {
        return selected.length;
    }

    /** Cluster index of label {@code l}. */
    int selected(int l) {
        return selected[l];
    }

    /** True when the root splits at least once (the package's {@code cluster_tree} is not empty). */
    boolean splits() {
        return clusters > 1;
    }

    /** Parent of cluster {@code k}, -1 for the root. */
    int parent(int k) {
        return parent[k];
    }

    /** Lambda at which cluster {@code k} is born (0 for the root). */
    double birth(int k) {
        return birth[k];
    }

    double directMax(int k) {
        return directMax[k];
    }

    double subtreeMax(int k) {
        return subtreeMax[k];
    }

    /** Label of the selected cluster at or above {@code k}, or -1. */
    int label(int k) {
        return label[k];
    }

    /**
     * The label of a point that falls out of cluster {@code k} at {@code lambda}: {@link #label}, except that
     * when that is the root's, selected as the single cluster, a point falling out of it below
     * {@link #rootLambda} is noise, as in the fit.
     */
    int label(int k, double lambda) {
        int l = label[k];
        return l >= 0 && selected[l] == 0 && !(lambda >= rootLambda) ? -1 : l;
    }

    /** The cluster point {@code p} falls out of. */
    int pointCluster(int p) {
        return pointCluster[p];
    }

    /** The lambda at which point {@code p} falls out. */
    double pointLambda(int p) {
        return pointLambda[p];
    }

    /** Depth of cluster {@code k} (root 0). */
    int depth(int k) {
        return depth[k];
    }

    /**
     * The package's {@code merge_height(c, lambda, [k])}: {@code lambda} when one of the clusters is an
     * ancestor of (or equal to) the other, else the lambda at which their lowest common ancestor splits.
     */
    double mergeHeight(int c, double lambda, int k) {
        int a = c, b = k;
        if (depth[a] < depth[b]) {
            int t = a;
            a = b;
            b = t;
        }
        int diff = depth[a] - depth[b];
        for (int j = 0; diff != 0; j++, diff >>>= 1) {   // at most up.length steps
            if ((diff & 1) != 0) a = up[j][a];
        }
        if (a == b) return lambda;                        // b is an ancestor of (or equal to) the deeper one
        for (int j = up.length - 1; j >= 0; j--) {
            if (up[j][a] != up[j][b]) {
                a = up[j][a];
                b = up[j][b];
            }
        }
        return splitLambda[up[0][a]];
    }
}
