package org.sylva.hdbscan.predict;

import java.util.Arrays;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.kernels.BlockedPoints;
import org.sylva.kernels.DistanceKernel;

/**
 * The exemplar points of each selected cluster, as the {@code hdbscan} package's
 * {@code PredictionData} chooses them ({@code exemplars_}): the leaf clusters below the selected cluster
 * in depth-first order, children in condensed-tree row order, and for each leaf its points that fall out
 * at the leaf's largest lambda, in row order. Soft clustering measures a point's distance to a cluster as
 * the distance to its nearest exemplar ({@link #minDistance}); the exemplars' coordinates are kept
 * interleaved in blocks as the distance kernels read them ({@link BlockedPoints}), each cluster from a
 * block of its own, so that the scan runs on a kernel's lanes. After a weighted fit only the first exemplar
 * copy of each row is kept: a smallest distance does not change when a point is repeated.
 *
 * <pre>{@code
 * DistanceKernel k = KernelProvider.get().bestDistance();
 * Exemplars e = Exemplars.of(condensed, tree, rows, d, k.blockWidth(), null, null);
 * int[] first = e.points(0);                          // fitted indices of cluster 0's exemplars
 * double dmin = e.minDistance(0, queries, i * d, new double[e.tileLength()], k);
 * }</pre>
 */
final class Exemplars {
    /** Blocks per kernel call: between calls the limit drops to the nearest exemplar found so far. */
    private static final int CHUNK_BLOCKS = 4;
    /**
     * Exemplars below which a cluster is scanned one by one: a kernel sums whole blocks, so one or two
     * exemplars would cost a block's worth of padding lanes (16 on the vector width, the scalar kernel
     * summing each of them).
     */
    static final int FEW = 4;

    /** Cluster {@code l}'s exemplars are entries {@code offsets[l] .. offsets[l + 1]}. */
    private final int[] offsets;
    private final int[] points;
    /** Cluster {@code l}'s exemplars fill blocks {@code blockStart[l] .. blockStart[l + 1]} of {@link #view}. */
    private final int[] blockStart;
    private final Blocked view;
    /** For a fit with a metric other than Euclidean: its distances, and the fitted row of each exemplar; else null. */
    private final PairDistances metric;
    private final int[] rows;

    private Exemplars(int[] offsets, int[] points, int[] blockStart, Blocked view, PairDistances metric, int[] rows) {
        this.offsets = offsets;
        this.points = points;
        this.blockStart = blockStart;
        this.view = view;
        this.metric = metric;
        this.rows = rows;
    }

    /** The exemplars' coordinates in the kernels' block layout (no float32 copy, no partition). */
    private record Blocked(int dimensions, int blockWidth, double[] blocks) implements BlockedPoints {
        @Override
        public float[] blocks32() {
            return null;
        }

        @Override
        public double[] centres() {
            return new double[0];
        }
    }

    /**
     * The exemplars of {@code t}'s selected clusters; {@code rows} holds the fitted rows, {@code d} per row,
     * each the coordinates of one point, or of its {@code copies} after a weighted fit (null otherwise);
     * blocks of {@code width} points (a width the kernels of {@link #minDistance} read). {@code metric}: the
     * fit's distances when its metric is not Euclidean (the distances to exemplars are then its), else null.
     */
    static Exemplars of(CondensedTree tree, ClusterTree t, double[] rows, int d, int width, PointCopies copies,
            PairDistances metric) {
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
        // after a weighted fit: the last label that took each row, so that a row's later copies are skipped
        int[] takenFor = copies == null ? null : new int[copies.rows()];
        if (takenFor != null) Arrays.fill(takenFor, -1);
        for (int l = 0; l < labels; l++) {
            int sp = 0;
            stack[sp++] = t.selected(l);
            for (int it = 0; it < nc && sp > 0; it++) {    // each cluster of the subtree is popped once
                int k = stack[--sp];
                if (first[k] < 0) {
                    for (int i = start[k]; i < start[k + 1]; i++) {
                        if (takenFor != null) {
                            int row = copies.rowOf(bucket[i]);
                            if (takenFor[row] == l) continue;
                            takenFor[row] = l;
                        }
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
        if (metric != null) {
            int[] exemplarRows = new int[size];
            for (int e = 0; e < size; e++) exemplarRows[e] = copies == null ? points[e] : copies.rowOf(points[e]);
            return new Exemplars(offsets, points, new int[labels + 1], new Blocked(d, width, new double[0]), metric,
                    exemplarRows);
        }
        int w = width;
        int[] blockStart = new int[labels + 1];
        for (int l = 0; l < labels; l++) blockStart[l + 1] = blockStart[l] + (offsets[l + 1] - offsets[l] + w - 1) / w;
        double[] blocks = new double[blockStart[labels] * d * w];   // padding lanes hold 0, never read
        for (int l = 0; l < labels; l++) {
            for (int e = offsets[l]; e < offsets[l + 1]; e++) {
                int lane = e - offsets[l];
                int base = (blockStart[l] + lane / w) * d * w + lane % w;
                int row = copies == null ? points[e] : copies.rowOf(points[e]);
                for (int j = 0; j < d; j++) blocks[base + j * w] = rows[row * d + j];
            }
        }
        return new Exemplars(offsets, points, blockStart, new Blocked(d, w, blocks), null, null);
    }

    /** Length of the {@code tile} that {@link #minDistance} takes. */
    int tileLength() {
        return CHUNK_BLOCKS * view.blockWidth();
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
     * ({@code Double.MAX_VALUE} for a cluster without exemplars, or only infinitely far ones, as the package
     * starts from it), on {@code kernel} (one that reads this block width); {@code tile} ({@link #tileLength()}
     * doubles) is scratch. The smallest squared distance
     * is found first: a kernel value at most the limit (the smallest so far) is the exact sum, one above it
     * cannot be the smallest, and the square root of the smallest sum is the smallest of the square roots
     * (the square root is monotone), so the result is bitwise the one-by-one scan's.
     */
    double minDistance(int l, double[] q, int off, double[] tile, DistanceKernel kernel) {
        if (metric != null) return metricMinDistance(l, q, off);
        int count = offsets[l + 1] - offsets[l];
        int w = view.blockWidth();
        double best = count < FEW ? fewNearest(l, count, q, off) : Double.POSITIVE_INFINITY;
        for (int b = blockStart[l]; count >= FEW && b < blockStart[l + 1]; b += CHUNK_BLOCKS) {
            int to = Math.min(blockStart[l + 1], b + CHUNK_BLOCKS);
            kernel.pointSquaredDistancesWithin(q, off, view, b, to, best, tile);
            int real = Math.min((to - b) * w, count - (b - blockStart[l]) * w);
            for (int i = 0; i < real; i++) {
                if (tile[i] < best) best = tile[i];
            }
        }
        double dist = Math.sqrt(best);
        return dist < Double.MAX_VALUE ? dist : Double.MAX_VALUE;
    }

    /**
     * The smallest distance under the fit's metric from the point {@code q[off .. off + d)} (prepared by
     * {@link PairDistances#queries}) to an exemplar of cluster {@code l}, {@code Double.MAX_VALUE} for none.
     */
    private double metricMinDistance(int l, double[] q, int off) {
        double best = Double.MAX_VALUE;
        for (int e = offsets[l]; e < offsets[l + 1]; e++) best = Math.min(best, metric.toRow(q, off, rows[e]));
        return best;
    }

    /**
     * The smallest squared distance to the {@code count < FEW} exemplars of cluster {@code l}, one by one in
     * the reference order (a kernel would sum a whole block of mostly padding lanes).
     */
    private double fewNearest(int l, int count, double[] q, int off) {
        int d = view.dimensions(), w = view.blockWidth();
        double[] blocks = view.blocks();
        double best = Double.POSITIVE_INFINITY;
        for (int e = 0; e < count; e++) {
            int base = blockStart[l] * d * w + e;
            double sq = 0.0;
            for (int j = 0; j < d; j++) {
                double t = q[off + j] - blocks[base + j * w];
                sq += t * t;
            }
            if (sq < best) best = sq;
        }
        return best;
    }
}
