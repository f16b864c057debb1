package org.sylva.hdbscan.hierarchy;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;

/**
 * The condensed cluster tree: the single-linkage dendrogram with every split into a part smaller than
 * {@code minClusterSize} read as points falling out of the cluster. Rows are
 * {@code (parent, child, lambda, childSize)} with {@code lambda = 1 / distance} ({@code +inf} for
 * distance 0); a child below {@code n} is a point ({@code childSize} 1), from {@code n} on a cluster.
 * The root cluster is {@code n}; clusters are numbered {@code n + 1, n + 2, ...} in breadth-first order
 * of the dendrogram, left child first, and the rows come in exactly the order of the {@code hdbscan}
 * package's (and scikit-learn's) {@code condense_tree}: dendrogram nodes in breadth-first order; a
 * split into two big parts gives the two cluster rows (left, right); a small part gives one row per
 * point in breadth-first order of that part, left part before right part.
 *
 * <p>Differences from the Python code are in cost only: one breadth-first pass with array queues over
 * the dendrogram, each small part walked once, so condensing is O(n) time and memory and never
 * recurses. The tree is immutable and selection only reads it, so one condensed tree serves any number
 * of {@link ClusterSelector} runs (another method, epsilon, maximum size), and one
 * {@link SingleLinkageTree} any number of minimum cluster sizes.
 *
 * <pre>{@code
 * CondensedTree ct = CondensedTree.condense(SingleLinkageTree.of(mst.orientedFrom(0)), 20);   // a fit's numbering
 * Clustering eom = ClusterSelector.select(ct, SelectionParameters.defaults());
 * Clustering leaf = ClusterSelector.select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF).build());
 * }</pre>
 */
public final class CondensedTree {
    private final int n;
    private final int minClusterSize;
    private final int[] parent;
    private final int[] child;
    private final double[] lambda;
    private final int[] childSize;

    // Per cluster node k = id - n (derived once, read by selection and GLOSH).
    private final int clusters;
    private final int[] clusterParent;
    private final int[] clusterLeft;
    private final int[] clusterRight;
    private final double[] clusterBirth;
    private final int[] clusterSize;
    private final double[] directMaxLambda;
    private final double[] stability;
    // Per point: the row in which it falls out.
    private final int[] pointRow;

    private CondensedTree(int n, int minClusterSize, int[] parent, int[] child, double[] lambda, int[] childSize) {
        this.n = n;
        this.minClusterSize = minClusterSize;
        this.parent = parent;
        this.child = child;
        this.lambda = lambda;
        this.childSize = childSize;
        int rows = parent.length;
        int maxId = n - 1;
        for (int r = 0; r < rows; r++) maxId = Math.max(maxId, Math.max(parent[r], child[r]));
        this.clusters = rows == 0 ? 0 : maxId - n + 1;
        clusterParent = new int[clusters];
        clusterLeft = new int[clusters];
        clusterRight = new int[clusters];
        clusterBirth = new double[clusters];
        clusterSize = new int[clusters];
        directMaxLambda = new double[clusters];
        stability = new double[clusters];
        pointRow = new int[n];
        Arrays.fill(clusterParent, -1);
        Arrays.fill(clusterLeft, -1);
        Arrays.fill(clusterRight, -1);
        Arrays.fill(pointRow, -1);
        if (clusters > 0) clusterSize[0] = n; // the root holds every point; its birth lambda is 0
        for (int r = 0; r < rows; r++) {
            int p = parent[r] - n, c = child[r];
            directMaxLambda[p] = Math.max(directMaxLambda[p], lambda[r]);
            if (c < n) {
                pointRow[c] = r;
            } else {
                int k = c - n;
                clusterParent[k] = parent[r];
                clusterBirth[k] = lambda[r];
                clusterSize[k] = childSize[r];
                if (clusterLeft[p] < 0) clusterLeft[p] = c;
                else clusterRight[p] = c;
            }
        }
        // Excess of mass, summed row by row in row order exactly as compute_stability does.
        for (int r = 0; r < rows; r++) {
            int p = parent[r] - n;
            stability[p] += (lambda[r] - clusterBirth[p]) * childSize[r];
        }
    }

    /**
     * Condenses {@code slt} with the given minimum cluster size (a part is a cluster iff it has at least
     * {@code minClusterSize} points).
     *
     * @throws InvalidInputException if {@code minClusterSize < 2}
     */
    public static CondensedTree condense(SingleLinkageTree slt, int minClusterSize) {
        if (minClusterSize < 2) {
            throw new InvalidInputException("minClusterSize must be at least 2; got " + minClusterSize);
        }
        int n = slt.points();
        if (n < 2) return new CondensedTree(n, minClusterSize, new int[0], new int[0], new double[0], new int[0]);
        int root = 2 * n - 2;
        int nodes = 2 * n - 1;
        // Every point yields one row; each split into two big parts adds two cluster rows, and there are
        // at most n - 1 splits, so 3n bounds the row count; trimmed at the end.
        int cap = 3 * n;
        int[] rp = new int[cap], rc = new int[cap], rs = new int[cap];
        double[] rl = new double[cap];
        int rows = 0;
        int[] relabel = new int[nodes];
        boolean[] ignore = new boolean[nodes];
        int[] queue = new int[nodes];
        int[] sub = new int[nodes];
        relabel[root] = n;
        int nextLabel = n + 1;
        int head = 0, tail = 0;
        queue[tail++] = root;
        while (head < tail) { // each of the 2n - 1 nodes enters the queue at most once
            int node = queue[head++];
            if (node < n || ignore[node]) continue;
            int i = node - n;
            int left = slt.left(i), right = slt.right(i);
            queue[tail++] = left;
            queue[tail++] = right;
            double d = slt.distance(i);
            double lam = d > 0.0 ? 1.0 / d : Double.POSITIVE_INFINITY;
            int leftCount = slt.nodeSize(left), rightCount = slt.nodeSize(right);
            int label = relabel[node];
            boolean leftBig = leftCount >= minClusterSize, rightBig = rightCount >= minClusterSize;
            if (leftBig && rightBig) {
                relabel[left] = nextLabel++;
                rp[rows] = label; rc[rows] = relabel[left]; rl[rows] = lam; rs[rows] = leftCount; rows++;
                relabel[right] = nextLabel++;
                rp[rows] = label; rc[rows] = relabel[right]; rl[rows] = lam; rs[rows] = rightCount; rows++;
            } else {
                if (leftBig) relabel[left] = label;
                else rows = fallOut(slt, left, label, lam, ignore, sub, rp, rc, rl, rs, rows);
                if (rightBig) relabel[right] = label;
                else rows = fallOut(slt, right, label, lam, ignore, sub, rp, rc, rl, rs, rows);
            }
        }
        return new CondensedTree(n, minClusterSize, Arrays.copyOf(rp, rows), Arrays.copyOf(rc, rows),
                Arrays.copyOf(rl, rows), Arrays.copyOf(rs, rows));
    }

    /**
     * A condensed tree from its rows, as {@link #toMatrix()} or the {@code *Array()} accessors give them
     * (for a tree read back from a file, or computed elsewhere); the arrays are copied. The rows must
     * describe a condensed tree of {@code n} points, which is checked in O(rows) so that nothing later can
     * index outside the tree: every point is the child of exactly one row (childSize 1); the clusters are
     * {@code n} (the root, never a child) and {@code n + 1 ..}, each the child of exactly one row whose
     * parent has a smaller id; every cluster has no or two cluster children, and the two are born at the
     * same lambda (one split); lambdas are not NaN and not negative; sizes are at least 1.
     *
     * <pre>{@code
     * CondensedTree same = CondensedTree.of(ct.points(), ct.minClusterSize(), ct.parentArray(), ct.childArray(),
     *         ct.lambdaArray(), ct.childSizeArray());
     * }</pre>
     *
     * @throws InvalidInputException naming the first row that breaks a rule
     */
    public static CondensedTree of(int n, int minClusterSize, int[] parent, int[] child, double[] lambda,
            int[] childSize) {
        if (minClusterSize < 2) {
            throw new InvalidInputException("minClusterSize must be at least 2; got " + minClusterSize);
        }
        int rows = parent.length;
        if (n < 0 || child.length != rows || lambda.length != rows || childSize.length != rows) {
            throw new InvalidInputException("condensed tree of " + n + " points: row arrays of lengths " + rows
                    + ", " + child.length + ", " + lambda.length + ", " + childSize.length);
        }
        if (n < 2 ? rows != 0 : rows < n) {
            throw new InvalidInputException("condensed tree of " + n + " points has " + rows + " rows");
        }
        int clusters = 1;
        for (int r = 0; r < rows; r++) if (child[r] >= n) clusters++;
        if (rows == 0) clusters = 0;
        long end = (long) n + clusters;
        boolean[] seen = new boolean[(int) end];
        int[] clusterChildren = new int[clusters];
        double[] split = new double[clusters];
        for (int r = 0; r < rows; r++) {
            int p = parent[r], c = child[r];
            if (p < n || p >= end || c < 0 || c >= end || c == n) {
                throw badRow(r, parent, child, lambda, childSize, ": ids outside the tree (points 0.." + (n - 1)
                        + ", root " + n + ", clusters up to " + (end - 1) + ")");
            }
            if (seen[c]) throw badRow(r, parent, child, lambda, childSize, ": " + c + " is the child of a second row");
            seen[c] = true;
            if (Double.isNaN(lambda[r]) || lambda[r] < 0) throw badRow(r, parent, child, lambda, childSize, ": bad lambda");
            if (childSize[r] < 1 || (c < n && childSize[r] != 1)) {
                throw badRow(r, parent, child, lambda, childSize, ": bad size");
            }
            if (c >= n) {
                int k = p - n;
                if (c <= p) {
                    throw badRow(r, parent, child, lambda, childSize, ": a cluster's id must exceed its parent's");
                }
                if (clusterChildren[k] == 1 && Double.compare(split[k], lambda[r]) != 0) {
                    throw badRow(r, parent, child, lambda, childSize, ": the two children of cluster " + p
                            + " are born at " + split[k] + " and " + lambda[r]);
                }
                split[k] = lambda[r];
                clusterChildren[k]++;
            }
        }
        for (int x = 0; x < end; x++) {
            if (x != n && !seen[x]) {
                throw new InvalidInputException("condensed tree: " + (x < n ? "point " : "cluster ") + x
                        + " is the child of no row");
            }
        }
        for (int k = 0; k < clusters; k++) {
            if (clusterChildren[k] != 0 && clusterChildren[k] != 2) {
                throw new InvalidInputException("condensed tree: cluster " + (n + k) + " has " + clusterChildren[k]
                        + " cluster children (a split has two)");
            }
        }
        requireSizesAndOrder(n, minClusterSize, parent, child, lambda, childSize, clusters, clusterChildren, split);
        return new CondensedTree(n, minClusterSize, parent.clone(), child.clone(), lambda.clone(), childSize.clone());
    }

    /** The refusal of row {@code r}, named by its values (built only when a row is refused: a tree has n rows). */
    private static InvalidInputException badRow(int r, int[] parent, int[] child, double[] lambda, int[] childSize,
                                                String problem) {
        return new InvalidInputException("condensed tree row " + r + " (" + parent[r] + ", " + child[r] + ", "
                + lambda[r] + ", " + childSize[r] + ")" + problem);
    }

    /**
     * The rules of a condensation, checked in O(rows) once the ids are known to form a tree: each cluster's size is
     * the number of points under it and at least {@code minClusterSize} (so a tree has fewer than
     * {@code 2 n / minClusterSize} clusters), and lambdas grow downwards: a row is no earlier than its parent
     * cluster's birth, and a point leaves a cluster that splits no later than the split.
     */
    private static void requireSizesAndOrder(int n, int minClusterSize, int[] parent, int[] child, double[] lambda,
            int[] childSize, int clusters, int[] clusterChildren, double[] split) {
        int rows = parent.length;
        int[] rowOf = new int[clusters];
        double[] birth = new double[clusters];   // the root's is 0
        long[] under = new long[clusters];
        for (int r = 0; r < rows; r++) {
            if (child[r] >= n) {
                rowOf[child[r] - n] = r;
                birth[child[r] - n] = lambda[r];
            } else {
                under[parent[r] - n]++;
            }
        }
        for (int k = clusters - 1; k >= 1; k--) under[parent[rowOf[k]] - n] += under[k];   // a child's id exceeds its parent's
        for (int k = 1; k < clusters; k++) {
            int r = rowOf[k];
            if (childSize[r] != under[k] || under[k] < minClusterSize) {
                throw new InvalidInputException("condensed tree row " + r + ": cluster " + (n + k) + " has size "
                        + childSize[r] + " and " + under[k] + " points under it"
                        + (under[k] < minClusterSize ? ", fewer than min_cluster_size " + minClusterSize : ""));
            }
        }
        for (int r = 0; r < rows; r++) {
            int k = parent[r] - n;
            if (lambda[r] < birth[k]) {
                throw new InvalidInputException("condensed tree row " + r + ": lambda " + lambda[r] + " comes before "
                        + "the birth of its parent cluster " + parent[r] + " at " + birth[k]);
            }
            if (child[r] < n && clusterChildren[k] == 2 && lambda[r] > split[k]) {
                throw new InvalidInputException("condensed tree row " + r + ": point " + child[r] + " leaves cluster "
                        + parent[r] + " at lambda " + lambda[r] + ", after the cluster splits at " + split[k]);
            }
        }
    }

    /** Appends one row per point under {@code top}, in breadth-first order, and marks the part as done. */
    private static int fallOut(SingleLinkageTree slt, int top, int label, double lam, boolean[] ignore, int[] sub,
            int[] rp, int[] rc, double[] rl, int[] rs, int rows) {
        int n = slt.points();
        int head = 0, tail = 0;
        sub[tail++] = top;
        while (head < tail) { // bounded by the part's size: every node is queued once
            int x = sub[head++];
            ignore[x] = true;
            if (x < n) {
                rp[rows] = label; rc[rows] = x; rl[rows] = lam; rs[rows] = 1; rows++;
            } else {
                sub[tail++] = slt.left(x - n);
                sub[tail++] = slt.right(x - n);
            }
        }
        return rows;
    }

    /** Number of points {@code n}. */
    public int points() {
        return n;
    }

    /** The minimum cluster size this tree was condensed with. */
    public int minClusterSize() {
        return minClusterSize;
    }

    /** Id of the root cluster ({@code n}). */
    public int root() {
        return n;
    }

    /** Number of cluster nodes, root included (ids {@code n .. n + clusterCount() - 1}); 0 when {@code n < 2}. */
    public int clusterCount() {
        return clusters;
    }

    /** Number of rows. */
    public int rows() {
        return parent.length;
    }

    public int parent(int row) {
        return parent[row];
    }

    public int child(int row) {
        return child[row];
    }

    public double lambda(int row) {
        return lambda[row];
    }

    public int childSize(int row) {
        return childSize[row];
    }

    public int[] parentArray() {
        return parent.clone();
    }

    public int[] childArray() {
        return child.clone();
    }

    public double[] lambdaArray() {
        return lambda.clone();
    }

    public int[] childSizeArray() {
        return childSize.clone();
    }

    /** The {@code rows() x 4} matrix {@code [parent, child, lambda, childSize]}, row-major. */
    public double[] toMatrix() {
        int m = parent.length;
        double[] out = new double[4 * m];
        for (int r = 0; r < m; r++) {
            out[4 * r] = parent[r];
            out[4 * r + 1] = child[r];
            out[4 * r + 2] = lambda[r];
            out[4 * r + 3] = childSize[r];
        }
        return out;
    }

    /**
     * Excess-of-mass stability of every cluster node, indexed by {@code id - root()}:
     * {@code sum over the node's rows of (lambda - lambda_birth) * childSize} in float64, summed in row
     * order as {@code compute_stability} does (the root's birth lambda is 0).
     */
    public double[] stabilities() {
        return stability.clone();
    }

    // ---- package-private views for selection and GLOSH (no copies) ----

    double stabilityOf(int k) {
        return stability[k];
    }

    /** Parent cluster id of cluster index {@code k}, or -1 for the root. */
    int clusterParent(int k) {
        return clusterParent[k];
    }

    /** Left cluster child id of cluster index {@code k}, or -1 for a leaf. */
    int clusterLeft(int k) {
        return clusterLeft[k];
    }

    /** Right cluster child id of cluster index {@code k}, or -1 for a leaf. */
    int clusterRight(int k) {
        return clusterRight[k];
    }

    /** Lambda at which cluster index {@code k} is born (0 for the root). */
    double clusterBirth(int k) {
        return clusterBirth[k];
    }

    /** Size of cluster index {@code k} at its birth (its row's childSize; {@code n} for the root). */
    int clusterSize(int k) {
        return clusterSize[k];
    }

    /** Largest lambda among the rows whose parent is cluster index {@code k} (0 if none). */
    double directMaxLambda(int k) {
        return directMaxLambda[k];
    }

    /** Row in which point {@code p} falls out. */
    int pointRow(int p) {
        return pointRow[p];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CondensedTree t && t.n == n && t.minClusterSize == minClusterSize
                && Arrays.equals(t.parent, parent) && Arrays.equals(t.child, child)
                && Arrays.equals(t.lambda, lambda) && Arrays.equals(t.childSize, childSize);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(parent) * 31 + Arrays.hashCode(child)) * 31 + Arrays.hashCode(lambda)) * 31 + n;
    }

    @Override
    public String toString() {
        return "CondensedTree[n=" + n + ", minClusterSize=" + minClusterSize + ", rows=" + parent.length
                + ", clusters=" + clusters + "]";
    }
}
