package org.sylva.hdbscan.predict;


import org.sylva.hdbscan.core.NearestLists;
import org.sylva.hdbscan.engine.StageKernels;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.ApproximationBound;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.MetricKernel;

/**
 * Exact k nearest fitted points of a point that is not one of them (a new point), over the partition of
 * a {@link PointIndex}: the index is walked nearest ball first, and a ball is skipped when its provable
 * lower bound ({@link PointIndex#lowerBoundFromCentre}) exceeds the current k-th distance; a leaf's
 * distances come from the index's kernel (vector or scalar, the same bits). Distances are
 * {@code sqrt(sum_j (q_j - x_j)^2)} in float64, summed in dimension order, bitwise the distances of
 * scikit-learn's {@code KDTree} that the {@code hdbscan} package queries. The list is ordered by
 * (distance, fitted index) ascending: among equal distances the lower index comes first, and decides
 * which point enters at the k-th place (the package's order among equal distances is its tree's).
 *
 * <p>After a weighted fit ({@link #scratch(int[], int)}) each fitted point is a row standing for its
 * weight in points, and the list holds the nearest rows up to the first whose weights, summed in list order,
 * reach the points asked for: the k-th distance that prunes the search is that row's, not the k-th row's.
 *
 * <pre>{@code
 * NeighbourSearch s = new NeighbourSearch(index);
 * NeighbourSearch.Scratch w = s.scratch(k);
 * s.nearest(queries, i * d, w);          // w.dist[0 .. k), w.index[0 .. k), nearest first
 * }</pre>
 */
final class NeighbourSearch implements FittedNeighbours {
    private final PointIndex index;
    private final DistanceKernel kernel;
    private final int w;
    /** Positions of the largest leaf's blocks: the length of a scratch's tile. */
    private final int tileLength;
    /**
     * True when a group's leaf scans are pre-filtered in float32 ({@link #scanLeafFiltered}): the kernel
     * approximates and the index has its float32 copy.
     */
    private final boolean filtered;
    /**
     * True when the filtered scans take the kernel's stopping tile
     * ({@link DistanceKernel#approximateRowSquaredDistancesWithin}) rather than the plain one: in a long-lived
     * JVM from {@link #STOPPING_MIN_DIMENSIONS} dimensions (see there).
     */
    private final boolean stopping;

    /**
     * Dimensions from which a long-lived JVM's filtered scans stop blocks of pairs above their limits. Measured
     * (BENCHMARKS.md, "New points through the float32 pre-filter"): on 784 image pixels the stopping tile was
     * 1.1–1.3x faster warm; on 61-sample clips no faster than the plain one, whose pairs within a leaf the
     * group admits are too near to stop after 16 or 32 coordinates; in a fresh JVM, where the stopping tile is
     * a second large vector method for the JIT to compile, it cost a prediction about half a second.
     */
    static final int STOPPING_MIN_DIMENSIONS = 128;

    NeighbourSearch(PointIndex index) {
        this(index, index.dimensions() >= STOPPING_MIN_DIMENSIONS && StageKernels.longLived());
    }

    /** A search whose filtered scans take the stopping tile or not, as {@code stopping} says (tests take both). */
    NeighbourSearch(PointIndex index, boolean stopping) {
        this.index = index;
        this.kernel = index.kernel();
        this.w = index.blockWidth();
        int most = 0;
        for (int leaf = 0; leaf < index.leaves(); leaf++) most = Math.max(most, index.leafCount(leaf));
        this.tileLength = Math.max(w, (most + w - 1) / w * w);
        this.filtered = kernel.approximates() && index.hasFloat32();
        this.stopping = stopping;
    }

    /** True when groups of new points are searched with the float32 pre-filter (see {@link #scanLeafFiltered}). */
    boolean filtered() {
        return filtered;
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
        /** A group search's bounds, {@link #GROUP} per stack entry, and one node's children's, one per point. */
        final double[] groupBounds;
        final double[] childLeft = new double[GROUP], childRight = new double[GROUP];
        /** A leaf's squared distances, or a metric scan's distances of one tile. */
        final double[] tile;
        /** Where a metric scan's kernel reads its query rows. */
        final int[] query = new int[MetricKernel.MAX_QUERIES];
        /** After a weighted fit: the weight of each fitted row, and the points the rows found must stand for; else null, 0. */
        final int[] weights;
        final int points;
        /** Entries of {@link #dist} and {@link #index} after a search: {@code k}, or fewer after a weighted one. */
        int found;
        /** A weighted search's k-th distance: the distance of the row whose weight reaches {@link #points}. */
        double weightedKth;
        /**
         * A filtered group's working space (the group's first scratch holds it, made on first use): the group's
         * float32 copies in blocks, the bound's factor and absolute slack per point ({@code NaN}: the point
         * has no copy and is scanned in float64), the tile's rows (the points' positions), their limits, the
         * tile and its blocks summed in full.
         */
        float[] rows32;
        final double[] pointFactor = new double[GROUP], pointAbsolute = new double[GROUP];
        final int[] rowPoints = new int[GROUP];
        final float[] rowLimits = new float[GROUP];
        final long[] rowBlocks = new long[GROUP];
        float[] tile32;
        /** The pairs a filtered tile could not rule out: the point's offset and scratch, the position, the distance. */
        int[] pairOff, pairPoint, pairPos;
        double[] pairSq;
        /** One row's columns within its limit ({@link DistanceKernel#select}). */
        int[] selected;

        Scratch(int k, int depth, int tileLength, int[] weights, int points) {
            this.k = k;
            this.weights = weights;
            this.points = points;
            dist = new double[k];
            index = new int[k];
            list = weights == null ? new NearestLists(1, k) : null;
            stackNode = new int[2 * depth + 4];
            stackBound = new double[2 * depth + 4];
            groupBounds = new double[(2 * depth + 4) * GROUP];
            tile = new double[tileLength];
        }

        /** The distance a candidate must not exceed to enter. */
        double kth() {
            return list != null ? list.kth(0) : weightedKth;
        }

        /** Empties the list before a search. */
        void begin() {
            if (list != null) {
                list.reset(1, 0);
            } else {
                found = 0;
                weightedKth = Double.POSITIVE_INFINITY;
            }
        }

        /** Offers fitted point {@code idx} at distance {@code d}. */
        void offer(double d, int idx) {
            if (list != null) list.insert(0, d, idx);
            else insertWeighted(d, idx);
        }

        /** Ends a search: the list in {@link #dist} and {@link #index}, {@link #found} entries. */
        void end() {
            if (list != null) {
                list.finish(0);
                list.copyList(0, dist, index);
                found = k;
            }
        }

        /**
         * Enters row {@code row} at {@code d} into a weighted list, kept in (distance, index) order and cut after
         * the first row whose weights, summed in that order, reach {@link #points} (the rows after it can hold no
         * point of the first {@code points}).
         */
        void insertWeighted(double d, int row) {
            int c = found;
            int at = c;
            for (int it = 0; it < c && at > 0 && (dist[at - 1] > d || dist[at - 1] == d && index[at - 1] > row); it++) at--;
            if (at == k) return;
            for (int j = Math.min(c, k - 1); j > at; j--) {
                dist[j] = dist[j - 1];
                index[j] = index[j - 1];
            }
            dist[at] = d;
            index[at] = row;
            c = Math.min(c + 1, k);
            long sum = 0;
            int j = 0;
            for (; j < c; j++) {
                sum += weights[index[j]];
                if (sum >= points) break;
            }
            found = j < c ? j + 1 : c;
            // fewer points than asked for so far (or every row found): anything may still enter
            weightedKth = j < c ? dist[j] : Double.POSITIVE_INFINITY;
        }
    }

    /** The partition it walks. */
    PointIndex index() {
        return index;
    }

    /** The kernel of the leaf scans: the one the index was built for. */
    DistanceKernel kernel() {
        return kernel;
    }

    /** Scratch for lists of {@code k} entries ({@code 1 <= k <= size}). */
    @Override
    public Scratch scratch(int k) {
        if (k < 1 || k > index.size()) throw new IllegalArgumentException("k = " + k + " for " + index.size() + " points");
        return new Scratch(k, index.depth(), tileLength, null, 0);
    }

    /**
     * Scratch for the rows of a weighted fit ({@code weights}: one per fitted row, each at least 1) that stand
     * for the {@code points} nearest points: at most {@code k = min(rows, points)} rows.
     */
    @Override
    public Scratch scratch(int[] weights, int points) {
        int k = Math.min(index.size(), points);
        if (k < 1 || weights.length != index.size()) {
            throw new IllegalArgumentException(points + " points from " + weights.length + " weights for " + index.size()
                    + " rows");
        }
        return new Scratch(k, index.depth(), tileLength, weights, points);
    }

    /** The {@code s.k} nearest fitted points of the point {@code q[off .. off + d)}, into {@code s}. */
    @Override
    public void nearest(double[] q, int off, Scratch s) {
        s.begin();
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackBound[sp] = Double.NEGATIVE_INFINITY;
        sp++;
        int limit = 2 * index.nodes() + 2;
        for (int it = 0; it < limit && sp > 0; it++) {     // every node is pushed at most once
            sp--;
            int node = s.stackNode[sp];
            if (s.stackBound[sp] > s.kth()) continue;
            int leaf = index.leafOf(node);
            if (leaf >= 0) {
                scanLeaf(q, off, leaf, s);
                continue;
            }
            int l = index.left(node), r = index.right(node);
            double bl = bound(q, off, l), br = bound(q, off, r);
            double kth = s.kth();
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
        s.end();
    }

    /** Most points {@link #nearest(double[], int[], int, Scratch[])} searches together. */
    static final int GROUP = 8;

    /**
     * Dimensions above which new points are searched in groups ({@link #groupSize}). In few dimensions a point
     * reads few leaves, which stay in the cache anyway, and the group's bookkeeping costs more than it saves
     * (BENCHMARKS.md, "Searching new points in groups").
     */
    static final int GROUP_MIN_DIMENSIONS = 16;

    /**
     * Longest lists searched in groups: a group holds {@link #GROUP} lists per thread, and with lists of thousands
     * of entries (a large {@code min_samples}) the list, not the reading of leaves, is what a point costs
     * (BENCHMARKS.md, "Searching new points in groups": the same time with lists of 2 000).
     */
    static final int GROUP_MAX_LIST = 2048;

    /**
     * How many new points of {@code d} coordinates to search together for lists of {@code k} entries:
     * {@link #GROUP} above 16 dimensions for lists of at most {@link #GROUP_MAX_LIST}, else 1.
     */
    static int groupSize(int d, int k) {
        return d > GROUP_MIN_DIMENSIONS && k <= GROUP_MAX_LIST ? GROUP : 1;
    }

    /**
     * The nearest fitted points of {@code g <= GROUP} points at once, in one traversal: a node is entered while
     * its bound admits at least one of them, and a leaf is scanned for each point its bound admits, one point
     * after the other, while the leaf's coordinates are still in the cache. Points that lie near one another
     * (consecutive in {@link NewPoints#searchOrder}) read much the same leaves, so the fitted coordinates come
     * from memory about once per group instead of once per point. Each point's list is exactly what
     * {@link #nearest(double[], int, Scratch)} finds: a node is skipped for a point only when its lower bound
     * exceeds that point's k-th distance, and a list in (distance, index) order does not depend on the order
     * in which its candidates come. The group's stack lives in the first point's scratch.
     */
    @Override
    public void nearest(double[] q, int[] offs, int g, Scratch[] s) {
        if (g == 1) {
            nearest(q, offs[0], s[0]);
            return;
        }
        if (g > GROUP) throw new IllegalArgumentException(g + " points in a group of at most " + GROUP);
        Scratch first = s[0];
        int[] stackNode = first.stackNode;
        double[] bounds = first.groupBounds;
        double[] childL = first.childLeft, childR = first.childRight;
        for (int i = 0; i < g; i++) s[i].begin();
        if (filtered) copyGroup(q, offs, g, first);
        int sp = 0;
        stackNode[sp] = 0;
        java.util.Arrays.fill(bounds, 0, g, Double.NEGATIVE_INFINITY);
        sp++;
        int limit = 2 * index.nodes() + 2;
        for (int it = 0; it < limit && sp > 0; it++) {     // every node is pushed at most once
            sp--;
            int node = stackNode[sp];
            int at = sp * GROUP;
            int leaf = index.leafOf(node);
            if (leaf >= 0) {
                if (filtered) {
                    scanLeafFiltered(q, offs, g, leaf, bounds, at, s);
                } else {
                    for (int i = 0; i < g; i++) {
                        if (bounds[at + i] <= s[i].kth()) scanLeaf(q, offs[i], leaf, s[i]);
                    }
                }
                continue;
            }
            int l = index.left(node), r = index.right(node);
            boolean anyL = false, anyR = false;
            double sumL = 0, sumR = 0;
            for (int i = 0; i < g; i++) {
                double kth = s[i].kth();
                if (bounds[at + i] > kth) {          // the node is beyond this point's k-th distance
                    childL[i] = Double.POSITIVE_INFINITY;
                    childR[i] = Double.POSITIVE_INFINITY;
                    continue;
                }
                double bl = bound(q, offs[i], l), br = bound(q, offs[i], r);
                childL[i] = bl;
                childR[i] = br;
                anyL |= bl <= kth;
                anyR |= br <= kth;
                sumL += bl;
                sumR += br;
            }
            // The child nearer the group goes on top, so it is searched first and shrinks the k-th distances sooner.
            boolean leftNear = sumL <= sumR;
            int far = leftNear ? r : l, near = leftNear ? l : r;
            if (leftNear ? anyR : anyL) {
                stackNode[sp] = far;
                System.arraycopy(leftNear ? childR : childL, 0, bounds, sp * GROUP, g);
                sp++;
            }
            if (leftNear ? anyL : anyR) {
                stackNode[sp] = near;
                System.arraycopy(leftNear ? childL : childR, 0, bounds, sp * GROUP, g);
                sp++;
            }
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
        for (int i = 0; i < g; i++) s[i].end();
    }

    /**
     * The leaf that the point {@code q[off .. off + d)} reaches by descending from the root to the child
     * whose centre is nearer (ties: the left one). Points of one leaf search much the same leaves, so
     * searching them one after the other finds those leaves still in the cache.
     */
    int homeLeaf(double[] q, int off) {
        int node = 0;
        for (int level = 0; level <= index.depth() && index.leafOf(node) < 0; level++) {
            int l = index.left(node), r = index.right(node);
            node = index.pointCentreSquaredDistance(q, off, l) <= index.pointCentreSquaredDistance(q, off, r) ? l : r;
        }
        return index.leafOf(node);
    }

    /** A lower bound on the distance from the point to any fitted point under {@code node}. */
    private double bound(double[] q, int off, int node) {
        return index.lowerBoundFromCentre(index.pointCentreSquaredDistance(q, off, node), node);
    }

    /**
     * Offers the points of {@code leaf}, whose squared distances the index's kernel computes for the leaf's
     * blocks at once ({@link DistanceKernel#pointSquaredDistancesWithin}, exact up to the threshold: the
     * vector kernel sums a block's positions side by side, each in dimension order, so bitwise the
     * one-by-one value). A squared distance beyond the k-th distance (with {@link #SLACK} for the rounding
     * of the square) is dropped before its square root; the threshold shrinks as points enter.
     */
    private void scanLeaf(double[] q, int off, int leaf, Scratch s) {
        int start = index.leafStart(leaf), count = index.leafCount(leaf);
        double thr = threshold(s);
        int from = start / w;     // a leaf starts at a block's first position
        kernel.pointSquaredDistancesWithin(q, off, index, from, (start + count + w - 1) / w, thr, s.tile);
        double[] tile = s.tile;
        for (int i = 0; i < count; i++) {
            if (tile[i] <= thr) thr = offer(s, tile[i], start + i);
        }
    }

    /**
     * The float32 copies of a group's points in {@code first}'s blocks of rows (position {@code i}: point
     * {@code i}), and the pre-filter's bound per point, widened by the larger of the two copies' roundings.
     */
    private void copyGroup(double[] q, int[] offs, int g, Scratch first) {
        int d = index.dimensions();
        if (first.rows32 == null) {
            first.rows32 = new float[(GROUP + w - 1) / w * d * w];
            first.tile32 = new float[kernel.paddedQueries(GROUP) * tileLength];
            first.pairOff = new int[GROUP * tileLength];
            first.pairPoint = new int[GROUP * tileLength];
            first.pairPos = new int[GROUP * tileLength];
            first.pairSq = new double[GROUP * tileLength];
            first.selected = new int[tileLength];
        }
        for (int i = 0; i < g; i++) {
            double r = index.float32Row(q, offs[i], first.rows32, i);
            if (Double.isInfinite(r)) {
                first.pointFactor[i] = Double.NaN;
                continue;
            }
            double rounding = Math.max(r, index.float32Rounding());
            first.pointFactor[i] = ApproximationBound.factor(d, rounding);
            first.pointAbsolute[i] = ApproximationBound.absolute(d, rounding);
        }
    }

    /**
     * A leaf scanned for the points of a group its bound admits, at once: the kernel's float32 tile of those
     * points against the leaf's ({@link DistanceKernel#approximateRowSquaredDistances}, or in many dimensions
     * the tile that stops blocks of pairs above every row's limit, {@link #stopping}); each row's columns
     * within its limit ({@link DistanceKernel#select}); then the float64 distance, in the reference order, of
     * each pair so selected, four pairs side by side
     * ({@link PointIndex#squaredDistances(double[], int[], int[], int, double[])}). A point's limit is its
     * threshold at the tile's start widened by the proven bound ({@link ApproximationBound}), so every pair
     * that {@link #scanLeaf} would offer passes, and is offered in the same order at the same distance: the
     * lists are bitwise {@link #scanLeaf}'s. A point without a float32 copy (a value beyond its limit) is
     * scanned by {@link #scanLeaf}.
     */
    private void scanLeafFiltered(double[] q, int[] offs, int g, int leaf, double[] bounds, int at, Scratch[] s) {
        Scratch first = s[0];
        int[] rowPoints = first.rowPoints;
        float[] limits = first.rowLimits;
        int rows = 0;
        for (int i = 0; i < g; i++) {
            if (bounds[at + i] > s[i].kth()) continue;
            if (Double.isNaN(first.pointFactor[i])) {
                scanLeaf(q, offs[i], leaf, s[i]);
                continue;
            }
            rowPoints[rows] = i;
            limits[rows++] = ApproximationBound.roundUp(threshold(s[i]) * first.pointFactor[i]
                    + first.pointAbsolute[i]);
        }
        if (rows == 0) return;
        int start = index.leafStart(leaf), count = index.leafCount(leaf);
        int from = start / w, to = (start + count + w - 1) / w;     // a leaf starts at a block's first position
        float[] tile = first.tile32;
        if (stopping) {
            kernel.approximateRowSquaredDistancesWithin(first.rows32, rowPoints, rows, index, from, to, limits, tile,
                    first.rowBlocks);
        } else {
            kernel.approximateRowSquaredDistances(first.rows32, rowPoints, rows, index, from, to, tile);
        }
        int stride = (to - from) * w;
        int[] pairOff = first.pairOff, pairPoint = first.pairPoint, pairPos = first.pairPos, selected = first.selected;
        int pairs = 0;
        for (int r = 0; r < rows; r++) {
            int i = rowPoints[r];
            int found = kernel.select(tile, r * stride, count, limits[r], selected);
            for (int t = 0; t < found; t++) {
                pairOff[pairs] = offs[i];
                pairPoint[pairs] = i;
                pairPos[pairs++] = start + selected[t];
            }
        }
        double[] sq = first.pairSq;
        index.squaredDistances(q, pairOff, pairPos, pairs, sq);
        for (int p = 0; p < pairs; p++) {
            Scratch si = s[pairPoint[p]];
            if (sq[p] <= threshold(si)) offer(si, sq[p], pairPos[p]);
        }
    }

    /** Relative widening of the squared-distance filter; a square root moves a value by far less. */
    private static final double SLACK = 1e-13;

    private static double threshold(Scratch s) {
        double kth = s.kth();
        return kth * kth * (1 + SLACK);
    }

    /** Offers the point at {@code pos} with squared distance {@code sq}; returns the new threshold. */
    private double offer(Scratch s, double sq, int pos) {
        s.offer(Math.sqrt(sq), index.original(pos));
        return threshold(s);
    }
}
