package org.sylva.hdbscan.quality;

import java.util.Arrays;
import org.sylva.numeric.NumpySum;
import org.sylva.progress.CancellationToken;

/**
 * One cluster's part of DBCV as the {@code hdbscan} package's {@code validity} module computes it
 * (0.8.43): the all-points core distance of each member, the minimum spanning tree of the members'
 * all-points mutual reachability, its internal nodes and its density sparseness. Members are taken in
 * ascending row order, which matters: mutual-reachability ties are common and every tie is broken by
 * that order as the package breaks it.
 *
 * <ul>
 *   <li>{@code apcd_i = (sum_{j: D_ij != 0} D_ij^-d / (m - 1))^(-1/d)} (d coordinates, m members; the
 *       row summed as NumPy sums; all 0 when every sum is 0);</li>
 *   <li>{@code MR_ij = max(D_ij, apcd_i, apcd_j)};</li>
 *   <li>the tree: the package's dense Prim ({@code mst_linkage_core}) from member 0, the remaining
 *       members kept in ascending order, each step taking the first smallest distance; each edge after
 *       the first is then re-attached to the smallest member already in the tree whose MR distance to the
 *       new member is {@code isclose} (rtol 1e-5, atol 1e-8) to the edge's weight, as the package does;</li>
 *   <li>internal nodes: members of degree above 1 (member 0 alone when none is); internal edges: both ends
 *       internal (all edges when none is); density sparseness: their largest weight.</li>
 * </ul>
 * Distances are the fit's metric's ({@link RowDistance}; the package's default is Euclidean). Costs O(m^2 d)
 * time, O(m) memory.
 *
 * <pre>{@code
 * InternalTree t = InternalTree.of(RowDistance.of(points, Metric.euclidean()), points.dimensions(), membersOfCluster,
 *         CancellationToken.NEVER);
 * double dsc = t.sparseness();
 * }</pre>
 */
final class InternalTree {
    private final int[] rows;
    private final double[] core;
    private final int[] internal;
    private final double sparseness;

    private InternalTree(int[] rows, double[] core, int[] internal, double sparseness) {
        this.rows = rows;
        this.core = core;
        this.internal = internal;
        this.sparseness = sparseness;
    }

    /**
     * The tree of the cluster whose members (rows measured by {@code distance}, ascending, at least two) are
     * {@code rows}; {@code d} is the exponent of the all-points core distances (the package's {@code d}, by
     * default the number of features). {@code cancel} is looked at once per member in each O(m^2) pass.
     */
    static InternalTree of(RowDistance distance, int d, int[] rows, CancellationToken cancel) {
        int m = rows.length;
        double[] core = coreDistances(distance, d, rows, cancel);
        // Prim as mst_linkage_core: remaining members ascending, distances to the tree, first argmin.
        int[] remaining = new int[m - 1];
        double[] dist = new double[m - 1];
        for (int i = 0; i < m - 1; i++) remaining[i] = i + 1;
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        int[] added = new int[m];
        double[] weight = new double[m - 1];
        int left = m - 1, current = 0;
        for (int step = 0; step < m - 1; step++) {
            cancel.throwIfCancelled();
            int best = 0;
            for (int i = 0; i < left; i++) {
                double r = mr(distance, rows, core, current, remaining[i]);
                if (!(dist[i] < r)) dist[i] = r;   // np.where(left < right, left, right)
                if (dist[i] < dist[best]) best = i;
            }
            int next = remaining[best];
            weight[step] = dist[best];
            added[step + 1] = next;
            // Remove best, keeping order (the package filters the label array).
            System.arraycopy(remaining, best + 1, remaining, best, left - best - 1);
            System.arraycopy(dist, best + 1, dist, best, left - best - 1);
            left--;
            current = next;
        }
        // Re-attach: edge 0 starts at member 0; edge s at the smallest member already in the tree whose MR
        // distance to the new member is close to the weight.
        int[] from = new int[m - 1];
        boolean[] inTree = new boolean[m];
        inTree[0] = true;
        inTree[added[1]] = true;
        for (int s = 1; s < m - 1; s++) {
            cancel.throwIfCancelled();
            int to = added[s + 1];
            from[s] = -1;
            for (int c = 0; c < m && from[s] < 0; c++) {
                if (inTree[c] && c != to && isClose(mr(distance, rows, core, to, c), weight[s])) from[s] = c;
            }
            if (from[s] < 0) throw new IllegalStateException("no tree member at the edge weight: cannot happen");
            inTree[to] = true;
        }
        int[] degree = new int[m];
        for (int s = 0; s < m - 1; s++) {
            degree[from[s]]++;
            degree[added[s + 1]]++;
        }
        int count = 0;
        for (int v = 0; v < m; v++) if (degree[v] > 1) count++;
        int[] internal = new int[Math.max(1, count)];   // none: member 0 alone, as the package
        for (int v = 0, i = 0; v < m; v++) if (degree[v] > 1) internal[i++] = v;
        double dsc = Double.NEGATIVE_INFINITY, all = Double.NEGATIVE_INFINITY;
        boolean anyInternal = false;
        for (int s = 0; s < m - 1; s++) {
            all = Math.max(all, weight[s]);
            if (degree[from[s]] > 1 && degree[added[s + 1]] > 1) {
                anyInternal = true;
                dsc = Math.max(dsc, weight[s]);
            }
        }
        return new InternalTree(rows, core, internal, anyInternal ? dsc : all);
    }

    /** All-points core distances of the members, in member order. */
    private static double[] coreDistances(RowDistance dist, int d, int[] rows, CancellationToken cancel) {
        int m = rows.length;
        double[] sums = new double[m], row = new double[m];
        for (int i = 0; i < m; i++) {
            cancel.throwIfCancelled();
            for (int j = 0; j < m; j++) {
                double dij = dist.between(rows[i], rows[j]);
                if (dij != 0) {
                    double inv = 1.0 / dij;
                    row[j] = d == 2 ? inv * inv : Math.pow(inv, d);   // NumPy squares for ** 2
                } else {
                    row[j] = 0;
                }
            }
            sums[i] = NumpySum.of(row, 0, m) / (m - 1);
        }
        if (NumpySum.of(sums, 0, m) == 0) return new double[m];
        double exponent = -1.0 / d;
        for (int i = 0; i < m; i++) sums[i] = Math.pow(sums[i], exponent);
        return sums;
    }

    private static double mr(RowDistance dist, int[] rows, double[] core, int a, int b) {
        double dab = dist.between(rows[a], rows[b]);
        return Math.max(dab, Math.max(core[a], core[b]));
    }

    /** {@code numpy.isclose(a, b)}: |a - b| <= 1e-8 + 1e-5 |b|. */
    private static boolean isClose(double a, double b) {
        // NumPy's isclose: equal infinities are close (the formula gives NaN for them)
        return a == b || Math.abs(a - b) <= 1e-8 + 1e-5 * Math.abs(b);
    }

    int[] rows() {
        return rows;
    }

    /** All-points core distance of member {@code i}. */
    double core(int i) {
        return core[i];
    }

    /** Member indices of the internal nodes, ascending. */
    int[] internal() {
        return internal;
    }

    /** Density sparseness: the largest internal edge weight. */
    double sparseness() {
        return sparseness;
    }
}
