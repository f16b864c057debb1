package org.sylva.hdbscan.hierarchy;

import java.util.Arrays;
import java.util.Objects;

/**
 * Selects flat clusters from a {@link CondensedTree}: excess of mass or leaves, with
 * {@code cluster_selection_epsilon}, {@code max_cluster_size} and {@code allow_single_cluster}, then
 * labels, membership probabilities and per-cluster persistence. Selection only reads the condensed
 * tree, so re-selecting with other parameters costs O(n) and recomputes nothing upstream.
 *
 * <p><b>What is reproduced.</b> The semantics are scikit-learn's ({@code sklearn/cluster/_hdbscan/_tree.pyx},
 * >= 1.3), which for every parameter the {@code hdbscan} package (0.8.43) also has are the same
 * decisions:
 * <ul>
 *   <li><b>EOM</b>: cluster nodes are visited from the highest id down (a topological order: children
 *       have larger ids); a node is kept unless the sum of its children's (already updated)
 *       stabilities is strictly larger than its own, or (with a maximum size) its size at birth
 *       exceeds {@code maxClusterSize}; a node not kept takes that sum as its stability. A kept node
 *       discards every kept node below it. The root takes part only with
 *       {@code allowSingleCluster}; its "size" for the maximum-size test is then the sum of its
 *       child clusters' sizes (0 without any), as scikit-learn computes it.
 *       <b>Float64 throughout</b>, as scikit-learn: the {@code hdbscan} package holds the children's
 *       sum in a C {@code float} (float32) and stores that rounded value back, so the two can differ
 *       when a decision's relative margin is below about 1e-7 (and in the stored stability of a node
 *       not kept, which shows in the persistence of a cluster that epsilon later selects).</li>
 *   <li><b>LEAF</b>: the leaves of the cluster tree; none (all noise) when the root never splits, also
 *       with {@code allowSingleCluster}. {@code maxClusterSize} is ignored.</li>
 *   <li><b>Epsilon</b> (when not 0 and the root splits): each candidate (EOM's selection or the
 *       leaves) born at a distance {@code 1/lambda} below epsilon is replaced by its nearest ancestor
 *       born above epsilon; the walk stops below the root at the root's child (or, with
 *       {@code allowSingleCluster}, at the root). EOM's selection {@code {root}} is left as it is.
 *       Computed with a memo per node, O(number of clusters), with the same result as the Python
 *       {@code epsilon_search} (whose "processed" list only skips leaves that would reach the same
 *       ancestor).</li>
 *   <li><b>Labels</b>: a point takes the label of its nearest selected ancestor cluster. A point whose
 *       only ancestor-cluster is the root is noise unless the root is the one and only selected
 *       cluster and {@code allowSingleCluster} holds; then it is labelled iff its lambda is at least
 *       {@code 1/epsilon} (epsilon not 0) or else the largest lambda among the root's rows.
 *       Where scikit-learn would raise a {@code KeyError} (single-cluster mode, exactly one selected
 *       cluster that is not the root, which only {@code maxClusterSize} can cause), such points are
 *       noise, as in the {@code hdbscan} package.</li>
 *   <li><b>Probabilities</b>: {@code min(lambda_p, lambda_max(C)) / lambda_max(C)} with
 *       {@code lambda_max(C)} the largest lambda among the selected cluster's <em>direct</em> rows; 1.0
 *       where that is 0 or {@code lambda_p} is infinite; 0 for noise.</li>
 *   <li><b>Persistence</b> (the {@code hdbscan} package's {@code cluster_persistence_}; scikit-learn has
 *       none): {@code stability(C) / (points labelled C * largest lambda in the whole tree)}, with the
 *       stability after the EOM updates; 1.0 when that largest lambda is infinite (duplicate points) or
 *       0, or no point carries the label.</li>
 * </ul>
 * Cluster labels are ranks of the selected node ids. Fewer than two points: all noise, no clusters.
 *
 * <pre>{@code
 * Clustering c = ClusterSelector.select(condensed,
 *         SelectionParameters.builder().method(SelectionMethod.EOM).clusterSelectionEpsilon(0.3).build());
 * }</pre>
 */
public final class ClusterSelector {
    private ClusterSelector() {
    }

    /** Selects clusters from {@code tree} with {@code params}. */
    public static Clustering select(CondensedTree tree, SelectionParameters params) {
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(params, "params");
        int n = tree.points();
        int nc = tree.clusterCount();
        if (nc == 0) {
            int[] labels = new int[n];
            Arrays.fill(labels, -1);
            return new Clustering(labels, new double[n], new double[0], new int[0]);
        }
        double[] stability = tree.stabilities();
        return label(tree, params, selected(tree, params, stability), stability);
    }

    /**
     * The clusters {@link #select} selects, as its {@link Clustering#selectedNodes()} lists them, without labelling
     * the points: for a caller that needs the clusters alone (a saved model selects them again on every load).
     *
     * <pre>{@code
     * int[] nodes = ClusterSelector.selectedNodes(condensed, SelectionParameters.defaults());
     * }</pre>
     */
    public static int[] selectedNodes(CondensedTree tree, SelectionParameters params) {
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(params, "params");
        int n = tree.points();
        int nc = tree.clusterCount();
        if (nc == 0) return new int[0];
        boolean[] selected = selected(tree, params, tree.stabilities());
        int count = 0;
        for (boolean s : selected) if (s) count++;
        int[] nodes = new int[count];
        for (int k = 0, j = 0; k < nc; k++) if (selected[k]) nodes[j++] = k + n;
        return nodes;
    }

    /** Which clusters {@code params} select ({@code stability} is overwritten by excess of mass). */
    private static boolean[] selected(CondensedTree tree, SelectionParameters params, double[] stability) {
        return params.method() == SelectionMethod.EOM ? excessOfMass(tree, params, stability) : leaves(tree, params);
    }

    private static boolean[] excessOfMass(CondensedTree t, SelectionParameters p, double[] stability) {
        int n = t.points();
        int nc = t.clusterCount();
        long maxSize = p.maxClusterSize() <= 0 ? (long) n + 1 : p.maxClusterSize();
        boolean allow = p.allowSingleCluster();
        boolean[] keep = new boolean[nc];
        int lowest = allow ? 0 : 1;
        for (int k = nc - 1; k >= lowest; k--) {
            int a = t.clusterLeft(k), b = t.clusterRight(k);
            double subtree = 0.0;
            long size = k == 0 ? 0 : t.clusterSize(k);
            if (a >= 0) {
                subtree = stability[a - n] + stability[b - n];
                if (k == 0) size = (long) t.clusterSize(a - n) + t.clusterSize(b - n);
            }
            if (subtree > stability[k] || size > maxSize) {
                stability[k] = subtree;
            } else {
                keep[k] = true;
            }
        }
        // A kept node discards everything kept below it: selected = kept and no kept strict ancestor.
        // Parents have smaller ids, so one ascending pass settles it.
        boolean[] shadowed = new boolean[nc];
        boolean[] selected = new boolean[nc];
        for (int k = 0; k < nc; k++) {
            if (k > 0) {
                int q = t.clusterParent(k) - n;
                shadowed[k] = shadowed[q] || keep[q];
            }
            selected[k] = keep[k] && !shadowed[k];
        }
        if (p.clusterSelectionEpsilon() != 0.0 && t.clusterLeft(0) >= 0) {
            boolean onlyRoot = selected[0]; // a selected root shadows everything else
            if (!onlyRoot) selected = epsilonSearch(t, selected, p.clusterSelectionEpsilon(), allow);
        }
        return selected;
    }

    private static boolean[] leaves(CondensedTree t, SelectionParameters p) {
        int nc = t.clusterCount();
        boolean[] leaf = new boolean[nc];
        if (t.clusterLeft(0) < 0) return leaf; // no split: no leaves, nothing selected
        for (int k = 1; k < nc; k++) leaf[k] = t.clusterLeft(k) < 0;
        if (p.clusterSelectionEpsilon() != 0.0) {
            return epsilonSearch(t, leaf, p.clusterSelectionEpsilon(), p.allowSingleCluster());
        }
        return leaf;
    }

    /** scikit-learn's epsilon_search / traverse_upwards over the candidate set, memoised per node. */
    private static boolean[] epsilonSearch(CondensedTree t, boolean[] candidates, double epsilon, boolean allow) {
        int n = t.points();
        int nc = t.clusterCount();
        boolean[] out = new boolean[nc];
        int[] memo = new int[nc]; // cluster index + 1 of traverse_upwards(node), 0 = not yet known
        int[] path = new int[nc];
        for (int k = 1; k < nc; k++) {
            if (!candidates[k]) continue;
            double eps = 1.0 / t.clusterBirth(k);
            if (eps < epsilon) out[traverseUpwards(t, k, epsilon, allow, memo, path, n)] = true;
            else out[k] = true;
        }
        return out;
    }

    /**
     * From cluster index {@code start}: the first strict ancestor born at a distance above epsilon; if
     * the walk reaches a child of the root first, that child (or the root when single clusters are
     * allowed).
     */
    private static int traverseUpwards(CondensedTree t, int start, double epsilon, boolean allow, int[] memo,
            int[] path, int n) {
        int len = 0;
        int x = start;
        int result = -1;
        // Each step moves one level up a tree of clusterCount() nodes, so the walk ends within that many.
        for (int step = 0; step < memo.length && result < 0; step++) {
            if (memo[x] != 0) {
                result = memo[x] - 1;
            } else {
                path[len++] = x;
                int parent = t.clusterParent(x) - n;
                if (parent == 0) result = allow ? 0 : x;
                else if (1.0 / t.clusterBirth(parent) > epsilon) result = parent;
                else x = parent;
            }
        }
        for (int i = 0; i < len; i++) memo[path[i]] = result + 1;
        return result;
    }

    private static Clustering label(CondensedTree t, SelectionParameters p, boolean[] selected, double[] stability) {
        int n = t.points();
        int nc = t.clusterCount();
        int count = 0;
        int[] rank = new int[nc];
        for (int k = 0; k < nc; k++) rank[k] = selected[k] ? count++ : -1;
        int[] nodes = new int[count];
        for (int k = 0; k < nc; k++) if (selected[k]) nodes[rank[k]] = k + n;
        // owner[k]: the cluster whose union-find component k joins in do_labelling (itself if selected).
        int[] owner = new int[nc];
        for (int k = 1; k < nc; k++) owner[k] = selected[k] ? k : owner[t.clusterParent(k) - n];
        boolean singleRoot = count == 1 && p.allowSingleCluster() && selected[0];
        double threshold = p.clusterSelectionEpsilon() != 0.0 ? 1.0 / p.clusterSelectionEpsilon()
                : t.directMaxLambda(0);
        int[] labels = new int[n];
        double[] prob = new double[n];
        int[] members = new int[count];
        for (int x = 0; x < n; x++) {
            int r = t.pointRow(x);
            double lam = t.lambda(r);
            int o = owner[t.parent(r) - n];
            int l = -1;
            if (o != 0) l = rank[o];
            else if (singleRoot && lam >= threshold) l = rank[0];
            labels[x] = l;
            if (l < 0) continue;
            members[l]++;
            double maxLam = t.directMaxLambda(nodes[l] - n);
            prob[x] = maxLam == 0.0 || Double.isInfinite(lam) ? 1.0 : Math.min(lam, maxLam) / maxLam;
        }
        double maxLambda = 0.0;
        for (int r = 0; r < t.rows(); r++) maxLambda = Math.max(maxLambda, t.lambda(r));
        double[] persistence = new double[count];
        for (int j = 0; j < count; j++) {
            persistence[j] = Double.isInfinite(maxLambda) || maxLambda == 0.0 || members[j] == 0 ? 1.0
                    : stability[nodes[j] - n] / (members[j] * maxLambda);
        }
        return new Clustering(labels, prob, persistence, nodes);
    }
}
