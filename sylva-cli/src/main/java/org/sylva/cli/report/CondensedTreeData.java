package org.sylva.cli.report;

import org.sylva.data.InvalidInputException;

/**
 * The rows of an HDBSCAN condensed tree, as plain arrays, in the layout of the Python package's
 * {@code condensed_tree_.to_numpy()}: row {@code r} says that {@code child[r]} leaves (a point) or
 * splits off (a cluster) from cluster {@code parent[r]} at density {@code lambda[r]} (1 / distance,
 * {@code +inf} for exact duplicates), carrying {@code childSize[r]} points. Node ids below {@code n}
 * are points, ids from {@code n} on are clusters, the root is {@code n}, cluster ids run without gaps,
 * and every cluster's id is larger than its parent's (breadth-first numbering).
 *
 * <p>The record takes ownership of the arrays (no copies, so a 500 000-point tree costs nothing
 * extra); callers must not modify them afterwards. The constructor checks the shape and the tree
 * invariants the report relies on and throws {@link InvalidInputException} naming the first bad row.
 *
 * <pre>{@code
 * // 4 points; root 4 splits into clusters 5 = {0, 1} and 6 = {2, 3} at lambda 0.5
 * CondensedTreeData t = new CondensedTreeData(4,
 *         new int[] {4, 4, 5, 5, 6, 6}, new int[] {5, 6, 0, 1, 2, 3},
 *         new double[] {0.5, 0.5, 2.0, 2.0, 3.0, 3.0}, new int[] {2, 2, 1, 1, 1, 1});
 * }</pre>
 *
 * @param n         number of points the tree was built on (the root's id)
 * @param parent    parent cluster id of each row
 * @param child     child id of each row (point if {@code < n}, cluster otherwise)
 * @param lambda    density at which the child leaves the parent; {@code >= 0}, may be {@code +inf}
 * @param childSize number of points in the child (1 for a point)
 */
public record CondensedTreeData(int n, int[] parent, int[] child, double[] lambda, int[] childSize) {

    /** Validates shapes and invariants; see the class comment. */
    public CondensedTreeData {
        if (n < 0) throw new InvalidInputException("condensed tree: n must be >= 0, got " + n);
        if (parent == null || child == null || lambda == null || childSize == null) {
            throw new InvalidInputException("condensed tree: parent, child, lambda and childSize must not be null");
        }
        int m = parent.length;
        if (child.length != m || lambda.length != m || childSize.length != m) {
            throw new InvalidInputException("condensed tree: column lengths differ (parent " + m + ", child "
                    + child.length + ", lambda " + lambda.length + ", childSize " + childSize.length + ")");
        }
        validateRows(n, parent, child, lambda, childSize);
    }

    /** An empty tree on {@code n} points (every point noise, e.g. fewer points than the minimum cluster size). */
    public static CondensedTreeData empty(int n) {
        return new CondensedTreeData(n, new int[0], new int[0], new double[0], new int[0]);
    }

    /** Number of rows. */
    public int rows() {
        return parent.length;
    }

    /** Number of cluster nodes (root included), i.e. {@code 1 + largest cluster id - n}; 0 for an empty tree. */
    public int clusterCount() {
        int maxId = n - 1;
        for (int r = 0; r < parent.length; r++) {
            maxId = Math.max(maxId, parent[r]);
            if (child[r] >= n) maxId = Math.max(maxId, child[r]);
        }
        return maxId - n + 1;
    }

    private static void validateRows(int n, int[] parent, int[] child, double[] lambda, int[] childSize) {
        int m = parent.length;
        if (m == 0) return;
        long maxId = (long) n + m; // a tree with m rows cannot have a cluster id beyond n + m
        boolean[] pointSeen = new boolean[n];
        boolean rootSeen = false;
        for (int r = 0; r < m; r++) {
            int p = parent[r], c = child[r];
            if (p < n || p > maxId) {
                throw new InvalidInputException("condensed tree row " + r + ": parent " + p
                        + " is not a cluster id (cluster ids are " + n + " .. " + maxId + ")");
            }
            if (p == n) rootSeen = true;
            if (c < 0 || c > maxId) {
                throw new InvalidInputException("condensed tree row " + r + ": child " + c + " is out of range 0 .. " + maxId);
            }
            if (Double.isNaN(lambda[r]) || lambda[r] < 0) {
                throw new InvalidInputException("condensed tree row " + r + ": lambda " + lambda[r]
                        + " must be >= 0 (+inf allowed for duplicates)");
            }
            if (c < n) {
                if (childSize[r] != 1) {
                    throw new InvalidInputException("condensed tree row " + r + ": point " + c
                            + " has childSize " + childSize[r] + ", expected 1");
                }
                if (pointSeen[c]) {
                    throw new InvalidInputException("condensed tree row " + r + ": point " + c + " appears twice");
                }
                pointSeen[c] = true;
            } else {
                if (c <= p) {
                    throw new InvalidInputException("condensed tree row " + r + ": cluster " + c
                            + " must have a larger id than its parent " + p);
                }
                if (childSize[r] < 1) {
                    throw new InvalidInputException("condensed tree row " + r + ": cluster " + c
                            + " has childSize " + childSize[r] + ", expected >= 1");
                }
            }
        }
        if (!rootSeen) {
            throw new InvalidInputException("condensed tree: no row has the root " + n + " as parent");
        }
        // cluster ids are contiguous from the root, and every non-root cluster is the child of exactly one row
        int top = n;
        for (int r = 0; r < m; r++) top = Math.max(top, Math.max(parent[r], child[r]));
        int clusters = top - n + 1;
        byte[] asChild = new byte[clusters];
        for (int r = 0; r < m; r++) {
            if (child[r] >= n) {
                int c = child[r] - n;
                if (asChild[c] != 0) {
                    throw new InvalidInputException("condensed tree row " + r + ": cluster " + child[r]
                            + " has two parents");
                }
                asChild[c] = 1;
            }
        }
        for (int r = 0; r < m; r++) {
            int p = parent[r];
            if (p != n && asChild[p - n] == 0) {
                throw new InvalidInputException("condensed tree row " + r + ": cluster " + p
                        + " has children but is not the child of any row");
            }
        }
        for (int c = 1; c < clusters; c++) {
            if (asChild[c] == 0) {
                throw new InvalidInputException("condensed tree: cluster id " + (n + c)
                        + " appears in no row (cluster ids must run without gaps from the root " + n + ")");
            }
        }
    }
}
