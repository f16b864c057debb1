package org.sylva.hdbscan.predict;

import java.util.Arrays;
import org.sylva.hdbscan.hierarchy.CondensedTree;

/**
 * The exemplar points of each selected cluster, as the {@code hdbscan} package's
 * {@code PredictionData} chooses them ({@code exemplars_}): the leaf clusters below the selected cluster
 * in depth-first order, children in condensed-tree row order, and for each leaf its points that fall out
 * at the leaf's largest lambda, in row order. Soft clustering measures a point's distance to a cluster as
 * the distance to its nearest exemplar ({@link #minDistance}); the exemplars' coordinates are kept
 * together, one cluster after the other, for that scan.
 *
 * <pre>{@code
 * Exemplars e = Exemplars.of(condensed, tree, rows, d);
 * int[] first = e.points(0);                          // fitted indices of cluster 0's exemplars
 * double dmin = e.minDistance(0, queries, i * d);
 * }</pre>
 */
final class Exemplars {
    private final int d;
    /** Cluster {@code l}'s exemplars are entries {@code offsets[l] .. offsets[l + 1]}. */
    private final int[] offsets;
    private final int[] points;
    private final double[] coords;

    private Exemplars(int d, int[] offsets, int[] points, double[] coords) {
        this.d = d;
        this.offsets = offsets;
        this.points = points;
        this.coords = coords;
    }

    /** The exemplars of {@code t}'s selected clusters; {@code rows} holds the fitted points, {@code d} per row. */
    static Exemplars of(CondensedTree tree, ClusterTree t, double[] rows, int d) {
        int n = t.points(), nc = t.clusters(), rowsCount = tree.rows();
        int[] first = new int[nc], second = new int[nc];
        Arrays.fill(first, -1);
        Arrays.fill(second, -1);
        // Bucket each leaf's points at its largest lambda by leaf, keeping row order (a counting sort).
        int[] start = new int[nc + 1];
        for (int r = 0; r < rowsCount; r++) {
            int p = tree.parent(r) - n, c = tree.child(r);
            if (c >= n) {
                if (first[p] < 0) first[p] = c - n;
                else second[p] = c - n;
            } else if (tree.lambda(r) == t.directMax(p)) {
                start[p + 1]++;
            }
        }
        for (int k = 0; k < nc; k++) start[k + 1] += start[k];
        int[] bucket = new int[start[nc]];
        int[] fill = Arrays.copyOf(start, nc);
        for (int r = 0; r < rowsCount; r++) {
            int p = tree.parent(r) - n, c = tree.child(r);
            if (c < n && tree.lambda(r) == t.directMax(p)) bucket[fill[p]++] = c;
        }
        int labels = t.labels();
        int[] offsets = new int[labels + 1];
        int[] out = new int[Math.max(1, bucket.length)];
        int size = 0;
        int[] stack = new int[Math.max(1, nc)];
        for (int l = 0; l < labels; l++) {
            int sp = 0;
            stack[sp++] = t.selected(l);
            for (int it = 0; it < nc && sp > 0; it++) {    // each cluster of the subtree is popped once
                int k = stack[--sp];
                if (first[k] < 0) {
                    for (int i = start[k]; i < start[k + 1]; i++) {
                        if (size == out.length) out = Arrays.copyOf(out, 2 * out.length);
                        out[size++] = bucket[i];
                    }
                } else {
                    stack[sp++] = second[k];   // pushed first, popped after the whole first subtree
                    stack[sp++] = first[k];
                }
            }
            offsets[l + 1] = size;
        }
        int[] points = Arrays.copyOf(out, size);
        double[] coords = new double[size * d];
        for (int i = 0; i < size; i++) System.arraycopy(rows, points[i] * d, coords, i * d, d);
        return new Exemplars(d, offsets, points, coords);
    }

    /** Number of clusters. */
    int clusters() {
        return offsets.length - 1;
    }

    /** Fitted indices of cluster {@code l}'s exemplars, in the package's order (a copy). */
    int[] points(int l) {
        return Arrays.copyOfRange(points, offsets[l], offsets[l + 1]);
    }

    /**
     * The smallest distance from the point {@code q[off .. off + d)} to an exemplar of cluster {@code l}
     * ({@code Double.MAX_VALUE} for a cluster without exemplars, as the package starts from it).
     */
    double minDistance(int l, double[] q, int off) {
        double best = Double.MAX_VALUE;
        for (int e = offsets[l]; e < offsets[l + 1]; e++) {
            int b = e * d;
            double sq = 0.0;
            for (int j = 0; j < d; j++) {
                double t = q[off + j] - coords[b + j];
                sq += t * t;
            }
            double dist = Math.sqrt(sq);
            if (dist < best) best = dist;
        }
        return best;
    }
}
