package org.sylva.hdbscan.predict;

import org.sylva.hdbscan.core.NearestLists;
import org.sylva.hdbscan.index.PointIndex;

/**
 * Exact k nearest fitted points of a point that is not one of them (a new point), over the partition of
 * a {@link PointIndex}: the index is walked nearest ball first, and a ball is skipped when its provable
 * lower bound ({@link PointIndex#lowerBoundFromCentre}) exceeds the current k-th distance. Distances are
 * {@code sqrt(sum_j (q_j - x_j)^2)} in float64, summed in dimension order, bitwise the distances of
 * scikit-learn's {@code KDTree} that the {@code hdbscan} package queries. The list is ordered by
 * (distance, fitted index) ascending: among equal distances the lower index comes first, and decides
 * which point enters at the k-th place (the package's order among equal distances is its tree's).
 *
 * <pre>{@code
 * NeighbourSearch s = new NeighbourSearch(index);
 * NeighbourSearch.Scratch w = s.scratch(k);
 * s.nearest(queries, i * d, w);          // w.dist[0 .. k), w.index[0 .. k), nearest first
 * }</pre>
 */
final class NeighbourSearch {
    private final PointIndex index;
    private final int d;
    private final int w;
    private final double[] blocks;
    private final double[] centres;

    NeighbourSearch(PointIndex index) {
        this.index = index;
        this.d = index.dimensions();
        this.w = index.blockWidth();
        this.blocks = index.blocks();
        this.centres = index.centres();
    }

    /**
     * One thread's list and traversal stack for lists of {@code k} entries, allocated once. The search fills
     * {@link #list} ({@link NearestLists}: a sorted insertion for short lists, a buffer with a selection for
     * long ones, so that a large {@code min_samples} costs no O(k) per candidate) and copies it to
     * {@link #dist} and {@link #index} at the end.
     */
    static final class Scratch {
        final int k;
        final double[] dist;
        final int[] index;
        final NearestLists list;
        final int[] stackNode;
        final double[] stackBound;

        Scratch(int k, int depth) {
            this.k = k;
            dist = new double[k];
            index = new int[k];
            list = new NearestLists(1, k);
            stackNode = new int[2 * depth + 4];
            stackBound = new double[2 * depth + 4];
        }
    }

    /** Scratch for lists of {@code k} entries ({@code 1 <= k <= size}). */
    Scratch scratch(int k) {
        if (k < 1 || k > index.size()) throw new IllegalArgumentException("k = " + k + " for " + index.size() + " points");
        return new Scratch(k, index.depth());
    }

    /** The {@code s.k} nearest fitted points of the point {@code q[off .. off + d)}, into {@code s}. */
    void nearest(double[] q, int off, Scratch s) {
        s.list.reset(1, 0);
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackBound[sp] = Double.NEGATIVE_INFINITY;
        sp++;
        int limit = 2 * index.nodes() + 2;
        for (int it = 0; it < limit && sp > 0; it++) {     // every node is pushed at most once
            sp--;
            int node = s.stackNode[sp];
            if (s.stackBound[sp] > s.list.kth(0)) continue;
            int leaf = index.leafOf(node);
            if (leaf >= 0) {
                scanLeaf(q, off, leaf, s);
                continue;
            }
            int l = index.left(node), r = index.right(node);
            double bl = bound(q, off, l), br = bound(q, off, r);
            double kth = s.list.kth(0);
            // The nearer child goes on top, so it is searched first and shrinks the k-th distance sooner.
            boolean leftNear = bl <= br;
            int far = leftNear ? r : l, near = leftNear ? l : r;
            double bFar = leftNear ? br : bl, bNear = leftNear ? bl : br;
            if (bFar <= kth) {
                s.stackNode[sp] = far;
                s.stackBound[sp++] = bFar;
            }
            if (bNear <= kth) {
                s.stackNode[sp] = near;
                s.stackBound[sp++] = bNear;
            }
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
        s.list.finish(0);
        s.list.copyList(0, s.dist, s.index);
    }

    /** A lower bound on the distance from the point to any fitted point under {@code node}. */
    private double bound(double[] q, int off, int node) {
        int c = node * d;
        double sq = 0.0;
        for (int j = 0; j < d; j++) {
            double t = q[off + j] - centres[c + j];
            sq += t * t;
        }
        return index.lowerBoundFromCentre(sq, node);
    }

    /**
     * Offers the points of {@code leaf}. Four points are summed side by side (each sum still in dimension
     * order, so bitwise the one-by-one value: the adds overlap instead of waiting on one another), and a
     * squared distance beyond the k-th distance (with {@link #SLACK} for the rounding of the square) is
     * dropped before its square root. Every 16 dimensions a group whose four partial sums are all beyond
     * already stops: sums of squares only grow, so none of the four could enter.
     */
    private void scanLeaf(double[] q, int off, int leaf, Scratch s) {
        int start = index.leafStart(leaf), count = index.leafCount(leaf);
        double thr = threshold(s);
        int i = 0;
        for (; i + 3 < count; i += 4) {
            int p0 = start + i;
            int b0 = base(p0), b1 = base(p0 + 1), b2 = base(p0 + 2), b3 = base(p0 + 3);
            double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            for (int j = 0; j < d; j++) {
                int jw = j * w;
                double x = q[off + j];
                double t0 = x - blocks[b0 + jw];
                double t1 = x - blocks[b1 + jw];
                double t2 = x - blocks[b2 + jw];
                double t3 = x - blocks[b3 + jw];
                s0 += t0 * t0;
                s1 += t1 * t1;
                s2 += t2 * t2;
                s3 += t3 * t3;
                if ((j & 15) == 15 && s0 > thr && s1 > thr && s2 > thr && s3 > thr) break;
            }
            if (s0 <= thr) thr = offer(s, s0, p0);
            if (s1 <= thr) thr = offer(s, s1, p0 + 1);
            if (s2 <= thr) thr = offer(s, s2, p0 + 2);
            if (s3 <= thr) thr = offer(s, s3, p0 + 3);
        }
        for (; i < count; i++) {
            int b = base(start + i);
            double sq = 0.0;
            for (int j = 0; j < d; j++) {
                double t = q[off + j] - blocks[b + j * w];
                sq += t * t;
            }
            if (sq <= thr) thr = offer(s, sq, start + i);
        }
    }

    /** Relative widening of the squared-distance filter; a square root moves a value by far less. */
    private static final double SLACK = 1e-13;

    private static double threshold(Scratch s) {
        double kth = s.list.kth(0);
        return kth * kth * (1 + SLACK);
    }

    private int base(int pos) {
        return (pos / w) * d * w + pos % w;
    }

    /** Offers the point at {@code pos} with squared distance {@code sq}; returns the new threshold. */
    private double offer(Scratch s, double sq, int pos) {
        s.list.insert(0, Math.sqrt(sq), index.original(pos));
        return threshold(s);
    }
}
