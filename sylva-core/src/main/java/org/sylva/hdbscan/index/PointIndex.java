package org.sylva.hdbscan.index;

import java.util.Arrays;
import java.util.Objects;

import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.kernels.BlockedPoints;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.parallel.Pools;
import org.sylva.progress.ProgressListener;
import org.sylva.progress.CancellationToken;

/**
 * The points of one fit, copied to float64 and laid out for the distance kernels, plus a binary
 * partition of them into small leaves with bounding balls that lets the HDBSCAN stages skip pairs
 * exactly.
 *
 * <p><b>Layout.</b> Points are stored by <em>position</em>, not by their original index: the leaves of
 * the partition occupy consecutive position ranges, each starting at a multiple of the block width
 * {@code W} and padded up to a multiple of it. Coordinates are column-interleaved per block of {@code W}
 * positions ({@code data[(pos / W) * d * W + j * W + pos % W]}), so a vector kernel loads coordinate
 * {@code j} of {@code W} consecutive positions with one load. Padding positions hold zeros and map to
 * original index {@code -1}; callers never read their distances.
 *
 * <p><b>Partition.</b> A node's points are ordered by their projection on the line through two far-apart
 * points (the usual ball-tree split) and cut near the middle, at a multiple of 16 (a multiple of the
 * kernels' {@code W} on x86) so that leaves fill whole blocks, until a node holds at most {@link #LEAF_SIZE} points. Every node has a centre (the
 * mean of its points) and a radius (the largest distance from the centre to one of its points);
 * {@link #lowerBound} and {@link #lowerBoundFromCentre} turn them into provable lower bounds on computed
 * distances. Nodes are numbered in pre-order (children after their parent, node 0 the root) and the
 * leaves of a subtree are consecutive, so each node covers one position range. The partition depends
 * only on the data, never on {@code W} or on the number of threads that builds it; {@link PointIndexBuilder}
 * computes it.
 *
 * <p>The index also keeps a float32 copy for the backends' pre-filter (see
 * {@link DistanceKernel#approximates()}): the coordinates themselves when every one is exactly a float32
 * value (always so for a {@link PointSet}), otherwise the points minus their mean, rounded, with the
 * rounding's bound ({@link #float32Rounding()}) folded into the pre-filter's.
 *
 * <pre>{@code
 * PointIndex idx = PointIndex.build(points, KernelProvider.get().bestDistance());
 * double s = idx.squaredDistance(idx.position(3), idx.position(7));   // ||x3 - x7||^2, reference order
 * }</pre>
 */
public final class PointIndex implements BlockedPoints {
    /**
     * Largest number of points in one leaf. Large leaves amortise the per-leaf work (bounds, tile set-up);
     * in tens of dimensions ball bounds cannot separate points inside a cluster anyway.
     */
    public static final int LEAF_SIZE = 64;

    /** Largest coordinate magnitude for the float32 copy: squares and sums of 61+ terms stay far from float32 overflow. */
    public static final double FLOAT32_LIMIT = DistanceKernel.FLOAT32_LIMIT;

    /**
     * Fewest points for which coordinates that are not float32 values get a rounded float32 copy. Below it
     * the search and the scan compute float64 distances directly: measured faster on sets of a few hundred
     * points (the pre-filter's passes cost more than they save), slower from about 2 000.
     */
    public static final int ROUNDED_COPY_MIN_POINTS = 1000;

    /** Relative safety margin of {@link #lowerBound}: far above the rounding error of any computed distance. */
    private static final double BOUND_MARGIN = 1e-9;
    /**
     * Absolute safety margin of the bounds ({@link #boundAbsolute(int)}): where squared distances fall below
     * the normal range (coordinates of about 1e-155 and smaller) each product loses up to half a subnormal step,
     * an absolute error no relative margin covers.
     */
    private final double boundAbsolute;

    private final int n;
    private final int d;
    private final int w;
    /** The block width the partition's cuts were placed by ({@link LeafOrder#cutWidth}). */
    private final int cutWidth;
    private final int positions;
    private final double[] data;
    private final float[] data32;
    private final double rounding32;
    /** The float32 copy's coordinate order and shift (null: exact), or null without a copy. */
    private final int[] order32;
    private final double[] shift32;
    private final int[] posToOrig;
    private final int[] origToPos;

    private final int nodes;
    private final int[] left;
    private final int[] right;
    private final int[] nodePosStart;
    private final int[] nodePosEnd;
    private final int[] nodeRealCount;
    private final double[] centre;
    private final double[] radius;
    private final int[] nodeLeaf;

    private final int leaves;
    private final int[] leafNode;
    private final int[] leafStart;
    private final int[] leafCount;
    private final int depth;
    /** Computes the node-to-node centre distances of the bounds (the backend the index was built for). */
    private final DistanceKernel bounds;

    /** Takes the arrays of a finished build, trimmed to the node and leaf counts. */
    PointIndex(PointIndexBuilder b) {
        this.n = b.n;
        this.d = b.d;
        this.boundAbsolute = boundAbsolute(b.d);
        this.w = b.w;
        this.cutWidth = b.cutWidth;
        this.positions = b.pos;
        this.data = b.data;
        this.data32 = b.data32;
        this.rounding32 = b.rounding32;
        this.order32 = b.order32;
        this.shift32 = b.shift32;
        this.posToOrig = b.posToOrig;
        this.origToPos = b.origToPos;
        this.nodes = b.nodeCount;
        this.left = Arrays.copyOf(b.left, nodes);
        this.right = Arrays.copyOf(b.right, nodes);
        this.nodePosStart = Arrays.copyOf(b.nodePosStart, nodes);
        this.nodePosEnd = Arrays.copyOf(b.nodePosEnd, nodes);
        this.nodeRealCount = Arrays.copyOf(b.nodeRealCount, nodes);
        this.centre = Arrays.copyOf(b.centre, nodes * d);
        this.radius = Arrays.copyOf(b.radius, nodes);
        this.nodeLeaf = Arrays.copyOf(b.nodeLeaf, nodes);
        this.leaves = b.leafCount;
        this.leafNode = Arrays.copyOf(b.leafNode, leaves);
        this.leafStart = Arrays.copyOf(b.leafStart, leaves);
        this.leafCount = Arrays.copyOf(b.leafSize, leaves);
        this.depth = b.maxDepth;
        this.bounds = b.bounds;
    }

    /** The same partition over reordered positions: node arrays shared (never written), point arrays given. */
    private PointIndex(PointIndex base, double[] data, float[] data32, int[] posToOrig, int[] origToPos) {
        this.n = base.n;
        this.d = base.d;
        this.boundAbsolute = base.boundAbsolute;
        this.w = base.w;
        this.cutWidth = base.cutWidth;
        this.positions = base.positions;
        this.data = data;
        this.data32 = data32;
        this.rounding32 = base.rounding32;
        this.order32 = base.order32;
        this.shift32 = base.shift32;
        this.posToOrig = posToOrig;
        this.origToPos = origToPos;
        this.nodes = base.nodes;
        this.left = base.left;
        this.right = base.right;
        this.nodePosStart = base.nodePosStart;
        this.nodePosEnd = base.nodePosEnd;
        this.nodeRealCount = base.nodeRealCount;
        this.centre = base.centre;
        this.radius = base.radius;
        this.nodeLeaf = base.nodeLeaf;
        this.leaves = base.leaves;
        this.leafNode = base.leafNode;
        this.leafStart = base.leafStart;
        this.leafCount = base.leafCount;
        this.depth = base.depth;
        this.bounds = base.bounds;
    }

    /**
     * This partition with the points of every leaf reordered by ascending {@code key} (indexed by original
     * point; ties by original index): the same nodes, balls, leaves and coordinates, each point at another
     * position of its own leaf. A stage that can rule out every point whose key exceeds a bound then
     * reads a prefix of each leaf (the spanning tree, with the core distances as keys). {@code this} is
     * left unchanged; the new index holds its own copy of the coordinates. Runs on {@code threads}
     * threads (the result does not depend on their number) and throws
     * {@link org.sylva.progress.CancelledException} when {@code cancel} is cancelled before it ends.
     *
     * <pre>{@code
     * PointIndex byCore = index.withLeavesOrderedBy(core.coreDistances(), 2, CancellationToken.NEVER);
     * }</pre>
     */
    public PointIndex withLeavesOrderedBy(double[] key, int threads, CancellationToken cancel) {
        if (key.length != n) throw new IllegalArgumentException(key.length + " keys for " + n + " points");
        double[] nd = new double[data.length];
        float[] nd32 = data32 == null ? null : new float[data32.length];
        int[] p2o = posToOrig.clone();
        int[] o2p = new int[origToPos.length];
        int[][] order = new int[threads][LEAF_SIZE];
        int units = (leaves + LEAVES_PER_UNIT - 1) / LEAVES_PER_UNIT;
        new ParallelWork(threads).run(units, "reorder", ProgressListener.NONE, cancel, (worker, unit) -> {
            int[] o = order[worker];
            int to = Math.min(leaves, (unit + 1) * LEAVES_PER_UNIT);
            for (int leaf = unit * LEAVES_PER_UNIT; leaf < to; leaf++) reorderLeaf(leaf, key, o, nd, nd32, p2o, o2p);
        });
        return new PointIndex(this, nd, nd32, p2o, o2p);
    }

    /** Leaves per unit of {@link #withLeavesOrderedBy}'s parallel work. */
    private static final int LEAVES_PER_UNIT = 32;

    /** Writes leaf {@code leaf}'s points into the new arrays by ascending (key, original index). */
    private void reorderLeaf(int leaf, double[] key, int[] order, double[] nd, float[] nd32, int[] p2o, int[] o2p) {
        int s = leafStart[leaf], c = leafCount[leaf];
        for (int i = 0; i < c; i++) {   // insertion sort of at most LEAF_SIZE originals
            int o = posToOrig[s + i];
            int j = i;
            for (; j > 0 && before(key, o, order[j - 1]); j--) order[j] = order[j - 1];
            order[j] = o;
        }
        for (int i = 0; i < c; i++) {
            int o = order[i], from = origToPos[o], to = s + i;
            p2o[to] = o;
            o2p[o] = to;
            int bf = (from / w) * d * w + from % w, bt = (to / w) * d * w + to % w;
            for (int j = 0; j < d; j++) nd[bt + j * w] = data[bf + j * w];
            if (nd32 != null) {
                for (int j = 0; j < d; j++) nd32[bt + j * w] = data32[bf + j * w];
            }
        }
    }

    private static boolean before(double[] key, int a, int b) {
        return key[a] < key[b] || (key[a] == key[b] && a < b);
    }

    /**
     * Indexes a point set for {@code backend} in float64, exactly: a float64 set's own values, a float32 set's
     * widened (every float32 value is a float64 value), as a fit reads them.
     */
    public static PointIndex build(PointSet points, DistanceKernel backend) {
        return build(points.coordinates64(), points.size(), points.dimensions(), backend);
    }

    /**
     * Indexes {@code n} points of {@code d} float64 coordinates, row-major in {@code rows} (not kept:
     * the index holds its own copy), with the block width of {@code backend}, on the calling thread and
     * to the end (nothing cancels it).
     */
    public static PointIndex build(double[] rows, int n, int d, DistanceKernel backend) {
        checkRows(rows, n, d);
        return new PointIndexBuilder(rows, n, d, backend.blockWidth()).boundsBy(backend).build();
    }

    /**
     * As {@link #build(double[], int, int, DistanceKernel)} on {@code threads} threads (the shared
     * {@link org.sylva.parallel.Pools}): the index is bitwise the same for any number of threads. Throws
     * {@link org.sylva.progress.CancelledException} when {@code cancel} is cancelled, or the calling thread
     * interrupted, before the build ends (checked between bounded parts of the work).
     */
    public static PointIndex build(double[] rows, int n, int d, DistanceKernel backend, int threads,
                                   CancellationToken cancel) {
        return build(rows, n, d, backend, threads, cancel, ROUNDED_COPY_MIN_POINTS);
    }

    /**
     * As {@link #build(double[], int, int, DistanceKernel, int, CancellationToken)}, making the rounded float32
     * copy of values that float32 cannot hold (see {@link #blocks32()}) only from {@code roundedCopyMinPoints}
     * points, and never below {@link #ROUNDED_COPY_MIN_POINTS}: a caller that knows the JIT has not compiled
     * the pre-filter's kernels yet may prefer the direct search for longer.
     */
    public static PointIndex build(double[] rows, int n, int d, DistanceKernel backend, int threads,
                                   CancellationToken cancel, int roundedCopyMinPoints) {
        Pools.checkThreads(threads);
        Objects.requireNonNull(cancel, "cancel");
        checkRows(rows, n, d);
        PointIndexBuilder b = new PointIndexBuilder(rows, n, d, backend.blockWidth(), threads, cancel).boundsBy(backend);
        b.roundedCopyMinPoints = Math.max(ROUNDED_COPY_MIN_POINTS, roundedCopyMinPoints);
        return b.build();
    }

    /**
     * As {@link #build(double[], int, int, DistanceKernel, int, CancellationToken)}, without the float32 copy
     * ({@link #hasFloat32()} false): for searches that compute every distance in float64, such as a saved
     * model's neighbour search for new points. The partition, the blocks and the bounds are the same; the
     * copy's conversion and its {@code n d} floats are saved.
     */
    public static PointIndex buildWithoutFloat32Copy(double[] rows, int n, int d, DistanceKernel backend, int threads,
                                                     CancellationToken cancel) {
        Pools.checkThreads(threads);
        Objects.requireNonNull(cancel, "cancel");
        checkRows(rows, n, d);
        PointIndexBuilder b = new PointIndexBuilder(rows, n, d, backend.blockWidth(), threads, cancel).boundsBy(backend);
        b.float32Copy = false;
        return b.build();
    }

    /**
     * This index's partition as a saved model keeps it: its leaves in order, each leaf's points ascending, and the
     * width its cuts were placed by. {@link #fromOrder} builds the same partition from it. The order within a leaf
     * is not the index's own ({@link #withLeavesOrderedBy} changes it): ascending, it is the same for every index of
     * the same partition.
     */
    public LeafOrder leafOrder() {
        int[] points = new int[n];
        int k = 0;
        for (int leaf = 0; leaf < leaves; leaf++) {
            int from = k;
            for (int i = 0; i < leafCount[leaf]; i++) points[k++] = posToOrig[leafStart[leaf] + i];
            Arrays.sort(points, from, k);
        }
        return new LeafOrder(cutWidth, points);
    }

    /**
     * Indexes {@code rows} as {@link #build(double[], int, int, DistanceKernel, int, CancellationToken)} does, with
     * the partition of {@code order} (from {@link #leafOrder()} of an index of the same points) instead of new
     * splits: the same nodes holding the same points, the leaves in the same order (blocks laid out in
     * {@code backend}'s width, whatever width the order was cut by); each node's centre and radius computed from
     * its points (a node's centre summed in leaf order, so its last bits may differ from the index the order came
     * from). {@code float32Copy}: whether to make the float32 copy, as {@link #build} does, or none, as
     * {@link #buildWithoutFloat32Copy} does. Any permutation gives a valid index: searches over it find the
     * same neighbours, at a speed that depends on how compact its nodes are.
     */
    public static PointIndex fromOrder(double[] rows, int n, int d, DistanceKernel backend, LeafOrder order,
                                       boolean float32Copy, int threads, CancellationToken cancel) {
        Pools.checkThreads(threads);
        Objects.requireNonNull(cancel, "cancel");
        checkRows(rows, n, d);
        PointIndexBuilder b = new PointIndexBuilder(rows, n, d, backend.blockWidth(), threads, cancel, order)
                .boundsBy(backend);
        b.float32Copy = float32Copy;
        return b.build();
    }

    /** Refuses a negative count, no dimensions, an array of the wrong length and non-finite values. */
    private static void checkRows(double[] rows, int n, int d) {
        if (n < 0) throw new InvalidInputException("number of points must be >= 0, got " + n);
        if (d < 1) throw new InvalidInputException("points must have at least one dimension (d = " + d + ")");
        if ((long) n * d != rows.length) {
            throw new InvalidInputException("coordinate array has " + rows.length + " values, expected n * d = "
                    + n + " * " + d + " = " + ((long) n * d));
        }
        for (int i = 0; i < rows.length; i++) {
            if (!Double.isFinite(rows[i])) {
                throw new InvalidInputException("point " + (i / d) + ", coordinate " + (i % d) + " is " + rows[i]
                        + " (NaN and infinite coordinates are not allowed)");
            }
        }
    }

    /** Number of points. */
    public int size() {
        return n;
    }

    public int dimensions() {
        return d;
    }

    /** The distance kernel this index was built for: it reads this index's block width. */
    public DistanceKernel kernel() {
        return bounds;
    }

    /**
     * Squared distance from a point that is not one of the index's, {@code q[off .. off + d)}, to the centre
     * of {@code node}, for {@link #lowerBoundFromCentre} (any summation order: the bound's margin covers it).
     */
    public double pointCentreSquaredDistance(double[] q, int off, int node) {
        return bounds.rowSquaredDistance(q, off, centre, node * d, d);
    }

    /** Block width {@code W}: positions per interleaved block. */
    public int blockWidth() {
        return w;
    }

    /** Number of positions including padding (a multiple of {@code W}). */
    public int positions() {
        return positions;
    }

    /** Original index of the point at position {@code pos}, or -1 for padding. */
    public int original(int pos) {
        return posToOrig[pos];
    }

    /** Position of original point {@code i}. */
    public int position(int i) {
        return origToPos[i];
    }

    /** The interleaved coordinate blocks (shared, read-only): see the class comment for the layout. */
    @Override
    public double[] blocks() {
        return data;
    }

    /**
     * The points as float32 in the same layout, or {@code null}, for the kernels' pre-filter with a proven
     * error bound ({@link DistanceKernel#approximateSquaredDistances}). Where every coordinate is exactly a
     * float32 value of magnitude at most {@value #FLOAT32_LIMIT} (always so for float32 input) the copy holds
     * the coordinates themselves, and its float32 differences are the exact-input differences. Otherwise it
     * holds each point minus the mean of all points, rounded ({@link #float32Rounding()} bounds how far), or is
     * absent: for fewer than 1 000 points (the direct search is faster there) and where a shifted value
     * exceeds that limit. Padding positions hold 0 in a rounded copy.
     */
    @Override
    public float[] blocks32() {
        return data32;
    }

    /**
     * The largest distance between a point minus the points' mean and its rounded float32 copy, or {@code 0}
     * when the copy is exact (or absent). Float64 inputs of decimals are rounded; the pre-filter's bound then
     * widens by it ({@link org.sylva.kernels.ApproximationBound}), which costs little because the shift makes
     * the rounding relative to the points' spread.
     */
    @Override
    public double float32Rounding() {
        return rounding32;
    }

    /**
     * Writes the float32 copy of a point that is not indexed, {@code q[off .. off + d)}, as {@link #blocks32()}
     * holds the indexed ones (the same coordinate order and shift, the same block layout), to position
     * {@code pos} of {@code out}: coordinate {@code j} of the copy at
     * {@code out[(pos / w) d w + pos % w + j w]}, {@code w} the block width. Returns how far the copy lies
     * from the shifted point, a bound of the kind {@link #float32Rounding()} is ({@code 0} when every
     * coordinate is a float32 value and the copy is exact), or {@code +inf} when a value exceeds the float32
     * limit (then the point cannot be pre-filtered). Requires {@link #hasFloat32()}.
     */
    public double float32Row(double[] q, int off, float[] out, int pos) {
        if (data32 == null) throw new IllegalStateException("the index has no float32 copy");
        return Float32Copy.row(q, off, d, w, order32, shift32, out, pos);
    }

    /** True when the float32 copy exists (see {@link #blocks32()}). */
    public boolean hasFloat32() {
        return data32 != null;
    }

    /** Node centres, {@code d} per node (shared, read-only). */
    @Override
    public double[] centres() {
        return centre;
    }

    /**
     * A lower bound on the computed distance from any point to any point under {@code node}, given the
     * point's squared distance {@code sq} to the node's centre (see {@link #lowerBound}).
     */
    public double lowerBoundFromCentre(double sq, int node) {
        double c = Math.sqrt(sq);
        double r = radius[node];
        return (c - r) - BOUND_MARGIN * (c + r) - boundAbsolute;
    }

    /**
     * The bounds' absolute margin in {@code d} dimensions: a squared distance computed from {@code d} products
     * (each rounded by at most half the subnormal step {@link Double#MIN_VALUE} below the normal range) is within
     * {@code (d + 2) MIN_VALUE} of its value without underflow, and since {@code |sqrt(a) - sqrt(b)| <=
     * sqrt(|a - b|)}, its square root is within {@code sqrt((d + 2) MIN_VALUE)}. A bound involves three such
     * distances (the centre's, the radius, the pair's): four times {@code sqrt((2 d + 4) MIN_VALUE)} covers them,
     * about {@code 1e-160} for 61 dimensions, nothing against any distance above that range.
     */
    static double boundAbsolute(int d) {
        return 4 * Math.sqrt((2.0 * d + 4) * Double.MIN_VALUE);
    }

    /** Coordinate {@code j} of the point at position {@code pos}. */
    public double coordinate(int pos, int j) {
        return data[(pos / w) * d * w + j * w + pos % w];
    }

    /** Squared distance of two positions, summed over the dimensions in order (the reference arithmetic). */
    public double squaredDistance(int posA, int posB) {
        int a = (posA / w) * d * w + posA % w;
        int b = (posB / w) * d * w + posB % w;
        double s = 0.0;
        for (int j = 0; j < d; j++) {
            double t = data[a + j * w] - data[b + j * w];
            s += t * t;
        }
        return s;
    }

    /**
     * Squared distance from the point {@code q[off .. off + d)}, which need not be indexed, to position
     * {@code pos}, summed over the dimensions in order (the reference arithmetic, bitwise the value
     * {@link DistanceKernel#pointSquaredDistancesWithin} computes in full).
     */
    public double squaredDistance(double[] q, int off, int pos) {
        int b = (pos / w) * d * w + pos % w;
        double s = 0.0;
        for (int j = 0; j < d; j++) {
            double t = q[off + j] - data[b + j * w];
            s += t * t;
        }
        return s;
    }

    /**
     * {@link #squaredDistance(double[], int, int)} of {@code count} pairs at once: the point at
     * {@code q[offs[i] ..]} and position {@code pos[i]}, into {@code out[i]}. Four pairs are summed side by
     * side, each in its own sequential order: the same bits, with the additions of four pairs overlapping
     * instead of waiting on one another.
     */
    public void squaredDistances(double[] q, int[] offs, int[] pos, int count, double[] out) {
        int dw = d * w;
        int i = 0;
        for (; i + 3 < count; i += 4) {
            int q0 = offs[i], q1 = offs[i + 1], q2 = offs[i + 2], q3 = offs[i + 3];
            int p0 = pos[i], p1 = pos[i + 1], p2 = pos[i + 2], p3 = pos[i + 3];
            int b0 = (p0 / w) * dw + p0 % w;
            int b1 = (p1 / w) * dw + p1 % w;
            int b2 = (p2 / w) * dw + p2 % w;
            int b3 = (p3 / w) * dw + p3 % w;
            double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            for (int j = 0, jw = 0; j < d; j++, jw += w) {
                double t0 = q[q0 + j] - data[b0 + jw];
                double t1 = q[q1 + j] - data[b1 + jw];
                double t2 = q[q2 + j] - data[b2 + jw];
                double t3 = q[q3 + j] - data[b3 + jw];
                s0 += t0 * t0;
                s1 += t1 * t1;
                s2 += t2 * t2;
                s3 += t3 * t3;
            }
            out[i] = s0;
            out[i + 1] = s1;
            out[i + 2] = s2;
            out[i + 3] = s3;
        }
        for (; i < count; i++) out[i] = squaredDistance(q, offs[i], pos[i]);
    }

    /**
     * Exact squared distances (the reference arithmetic, bitwise equal to {@link #squaredDistance}) from
     * position {@code q} to the positions {@code pos[from .. from+count-1]} into {@code out[0 .. count-1]}.
     * Four pairs are summed side by side, each in its own sequential order, so the adds overlap without
     * changing any result.
     */
    public void squaredDistances(int q, int[] pos, int from, int count, double[] out) {
        int qb = (q / w) * d * w + q % w;
        int i = 0;
        for (; i + 3 < count; i += 4) {
            int p0 = pos[from + i], p1 = pos[from + i + 1], p2 = pos[from + i + 2], p3 = pos[from + i + 3];
            int b0 = (p0 / w) * d * w + p0 % w;
            int b1 = (p1 / w) * d * w + p1 % w;
            int b2 = (p2 / w) * d * w + p2 % w;
            int b3 = (p3 / w) * d * w + p3 % w;
            double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            for (int j = 0; j < d; j++) {
                int jw = j * w;
                double x = data[qb + jw];
                double t0 = x - data[b0 + jw];
                double t1 = x - data[b1 + jw];
                double t2 = x - data[b2 + jw];
                double t3 = x - data[b3 + jw];
                s0 += t0 * t0;
                s1 += t1 * t1;
                s2 += t2 * t2;
                s3 += t3 * t3;
            }
            out[i] = s0;
            out[i + 1] = s1;
            out[i + 2] = s2;
            out[i + 3] = s3;
        }
        for (; i < count; i++) out[i] = squaredDistance(q, pos[from + i]);
    }

    /** Number of nodes of the partition (node 0 is the root when there are points). */
    public int nodes() {
        return nodes;
    }

    /** Left child of {@code node}, or -1 for a leaf. */
    public int left(int node) {
        return left[node];
    }

    /** Right child of {@code node}, or -1 for a leaf. */
    public int right(int node) {
        return right[node];
    }

    /** Leaf id of {@code node}, or -1 for an internal node. */
    public int leafOf(int node) {
        return nodeLeaf[node];
    }

    /** First position covered by {@code node}. */
    public int nodeStart(int node) {
        return nodePosStart[node];
    }

    /** End (exclusive) of the positions covered by {@code node}, padding included. */
    public int nodeEnd(int node) {
        return nodePosEnd[node];
    }

    /** Number of real points under {@code node}. */
    public int nodeSize(int node) {
        return nodeRealCount[node];
    }

    public double radius(int node) {
        return radius[node];
    }

    /** Depth of the deepest node (root = 0). */
    public int depth() {
        return depth;
    }

    public int leaves() {
        return leaves;
    }

    /** Node id of leaf {@code leaf}. */
    public int leafNode(int leaf) {
        return leafNode[leaf];
    }

    /** First position of leaf {@code leaf} (a multiple of {@code W}). */
    public int leafStart(int leaf) {
        return leafStart[leaf];
    }

    /** Number of real points of leaf {@code leaf}; they occupy positions {@code leafStart .. leafStart + count - 1}. */
    public int leafCount(int leaf) {
        return leafCount[leaf];
    }

    /**
     * Distance between the centres of two nodes. Only ever used inside bounds with a safety margin, so
     * its summation order does not matter: the index's backend computes it
     * ({@link DistanceKernel#rowSquaredDistance}, across the coordinates for the vector one).
     */
    public double centreDistance(int a, int b) {
        return Math.sqrt(bounds.rowSquaredDistance(centre, a * d, centre, b * d, d));
    }

    /** Squared distance from the centre of {@code node} to position {@code pos}, for bounds (any summation order). */
    public double centreSquaredDistance(int node, int pos) {
        int oc = node * d;
        int b = (pos / w) * d * w + pos % w;
        double s0 = 0.0, s1 = 0.0;
        int j = 0;
        for (; j + 1 < d; j += 2) {
            double t0 = centre[oc + j] - data[b + j * w];
            double t1 = centre[oc + j + 1] - data[b + (j + 1) * w];
            s0 += t0 * t0;
            s1 += t1 * t1;
        }
        if (j < d) {
            double t = centre[oc + j] - data[b + j * w];
            s0 += t * t;
        }
        return s0 + s1;
    }

    /**
     * A lower bound on the computed distance {@code sqrt(sum (a_j - b_j)^2)} of every pair with {@code a}
     * under node {@code na} and {@code b} under node {@code nb}: the triangle inequality on the bounding
     * balls, lowered by a relative margin ({@value #BOUND_MARGIN} of the magnitudes involved) that covers
     * every rounding error in the centres, radii and distances by orders of magnitude, and by an absolute one
     * for distances below the normal range ({@link #boundAbsolute(int)}). Never positive when the balls
     * overlap.
     */
    public double lowerBound(int na, int nb) {
        double c = centreDistance(na, nb);
        double r = radius[na] + radius[nb];
        return (c - r) - BOUND_MARGIN * (c + r) - boundAbsolute;
    }
}
