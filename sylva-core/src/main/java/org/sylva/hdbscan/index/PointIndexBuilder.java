package org.sylva.hdbscan.index;

import java.util.Arrays;
import java.util.concurrent.RecursiveAction;

import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.ScalarDistanceKernel;
import org.sylva.numeric.DoubleOrder;
import org.sylva.parallel.SplitScheduler;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Builds a {@link PointIndex}: the partition of the points into leaves of at most
 * {@link PointIndex#LEAF_SIZE} (projection on the line through two far-apart points, cut near the middle
 * at a multiple of {@link #CUT_WIDTH}), each node's centre and radius, the positions of the points with
 * each leaf padded to whole blocks, and the interleaved float64 and float32 coordinate blocks (the
 * float32 ones exact, or for other values the points minus their mean, rounded). It lives apart from the
 * index because its working arrays (a segment-ordered copy of the rows,
 * projections, the cut's keys) are needed only while building; the index keeps the finished arrays,
 * trimmed. One builder builds one index.
 *
 * <p><b>Three phases.</b> Where a node is cut depends only on how many points it holds (and the cut width),
 * never on the coordinates, so the <em>shape</em> of the partition (the node numbering in
 * pre-order with the left child first, each node's segment of the working arrays, the leaves'
 * positions, padded to the block width {@code W}) is laid out first, sequentially, from {@code n} alone. A
 * partition given as a {@link LeafOrder} has that shape too: its points are gathered into their segments once, and
 * each node's centre and radius computed from them, with no split. The
 * <em>partition</em> then computes every node's centre and radius and reorders its segment (projection,
 * cut, stable partition) into its children's segments. A node depends only on its parent and the two
 * children own disjoint segments, so after a node is split its children are processed independently,
 * in parallel where a thread is free ({@link SplitScheduler}, as the ball tree's build); a node of at
 * most {@code n / (8 threads)} points (64 to 16 384) is finished as a whole subtree by one thread, its
 * nodes in id order. Last,
 * the <em>fill</em> writes positions and coordinate blocks by groups of leaves. Every node's arithmetic
 * is the sequential one, in the same order, and every task writes only its own segment, nodes and
 * positions, so the index is bitwise the same for any number of threads. Cancellation (the token, or
 * an interrupt of the calling thread) is checked before every large node, subtree and leaf group.
 *
 * <pre>{@code
 * PointIndex idx = new PointIndexBuilder(rows, n, d, backend.blockWidth(), 2, token).build();   // rows checked
 * }</pre>
 */
final class PointIndexBuilder {
    /**
     * Smallest build ({@code n * d} values) that uses more than one thread: below it, handing tasks to a
     * second thread costs about what it saves (measured: even at 2 000 x 61, ahead from 8 000 x 61).
     */
    static final long PARALLEL_MIN_VALUES = 1 << 18;
    /** Largest subtree (points) finished as one task: bounds the work between two cancellation checks. */
    static final int MAX_SUBTREE = 1 << 14;
    /** Subtrees per thread aimed for when several threads work (the split tasks balance by stealing). */
    static final int SUBTREES_PER_THREAD = 8;
    /** Builds of at least this many points are handed over to the pool as a whole (see {@link SplitScheduler}). */
    static final int HANDOVER_MIN = 1 << 17;
    /** Leaves per task of the fill. */
    static final int FILL_LEAVES = 16;
    /**
     * The width a new partition's cuts are placed by, whatever width its blocks are laid out in: a multiple of the
     * kernels' block widths on x86 (8 or 16), so that leaves fill whole blocks there (a wider vector kernel pads them),
     * and one width for all, so that the partition of a set of points is the same whichever kernel builds it (a saved
     * model stores it, {@link LeafOrder}).
     */
    static final int CUT_WIDTH = 16;

    final int n, d, w;
    /**
     * The block width the cuts are placed by ({@link #leftSize}): {@link #CUT_WIDTH} for a new partition, an order's
     * own for one rebuilt from it ({@link LeafOrder}); either may differ from the width the blocks are laid out in.
     */
    final int cutWidth;
    /** The points in leaf order for a partition rebuilt from it (no splits), else null. */
    final int[] givenOrder;
    final double[] rows;
    /** The build's token, or null for a build that is never cancelled. */
    final CancellationToken cancel;
    /** The thread that builds (it constructs the builder): its interrupt stops the build as the token does. */
    final Thread caller = Thread.currentThread();
    final SplitScheduler scheduler;
    /** Nodes of at most this many points are finished as one subtree task. */
    final int subtreeLimit;
    double[] data;
    float[] data32;
    /** How far the float32 copy is from the points (see {@link PointIndex#float32Rounding}). */
    double rounding32;
    /** The copy's coordinate order and shift (null: an exact copy), for points converted later ({@link PointIndex#float32Row}). */
    int[] order32;
    double[] shift32;
    /** Fewest points given a rounded float32 copy ({@link PointIndex#ROUNDED_COPY_MIN_POINTS}; tests lower it). */
    int roundedCopyMinPoints = PointIndex.ROUNDED_COPY_MIN_POINTS;
    /** False for an index no pre-filter reads ({@link PointIndex#buildWithoutFloat32Copy}): no copy at all. */
    boolean float32Copy = true;
    int[] posToOrig;
    int[] origToPos;
    int pos;
    /** The kernel whose {@link DistanceKernel#rowSquaredDistance} the index's node bounds use (see {@link #boundsBy}). */
    DistanceKernel bounds = SCALAR;
    private static final DistanceKernel SCALAR = new ScalarDistanceKernel();

    int nodeCount;
    int[] left, right, nodePosStart, nodePosEnd, nodeRealCount, nodeLeaf;
    /** First index of each node's segment of the working arrays; its end is {@code nodeFrom + nodeRealCount}. */
    int[] nodeFrom;
    /** One past the last node of each node's subtree (pre-order: the subtree is {@code node .. subtreeEnd - 1}). */
    int[] subtreeEnd;
    double[] centre, radius;
    int leafCount;
    int[] leafNode, leafStart, leafSize;
    int maxDepth;

    final int[] idx;
    final int[] tmp;
    final double[] proj;
    /** The projections' keys for the selection of the cut ({@link ProjectionCut}). */
    final long[] cutKeys;
    /**
     * The rows in segment order, so every pass streams: a node at depth {@code k} reads its rows from
     * {@link #rowsAt}{@code (k)} (the input for the root, then these two in turn) and writes its children's
     * into the other one, so no pass copies a segment back.
     */
    final double[] evenRows;
    final double[] oddRows;
    /** Depth of each node (the root 0): which buffer holds its rows. */
    int[] nodeDepth;

    /** A sequential builder that runs to the end (no cancellation checks: neither a token nor interrupts). */
    PointIndexBuilder(double[] rows, int n, int d, int w) {
        this(rows, n, d, w, 1, null);
    }

    /**
     * A builder whose tasks run on {@code threads >= 1} threads and stop when {@code cancel} is cancelled
     * or the building thread is interrupted ({@code cancel == null}: never).
     */
    PointIndexBuilder(double[] rows, int n, int d, int w, int threads, CancellationToken cancel) {
        this(rows, n, d, w, threads, cancel, PARALLEL_MIN_VALUES);
    }

    /** As above; builds of fewer than {@code parallelMin} values run on one thread (tests pass 0). */
    PointIndexBuilder(double[] rows, int n, int d, int w, int threads, CancellationToken cancel, long parallelMin) {
        this(rows, n, d, w, threads, cancel, parallelMin, null);
    }

    /**
     * A builder of the partition {@code order} describes (its shape placed by the order's cut width), blocks laid
     * out in width {@code w}: the same nodes and points as the index the order came from, without the splits.
     */
    PointIndexBuilder(double[] rows, int n, int d, int w, int threads, CancellationToken cancel, LeafOrder order) {
        this(rows, n, d, w, threads, cancel, PARALLEL_MIN_VALUES, order);
    }

    private PointIndexBuilder(double[] rows, int n, int d, int w, int threads, CancellationToken cancel,
            long parallelMin, LeafOrder order) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        if (order != null && order.size() != n) {
            throw new IllegalArgumentException("an order of " + order.size() + " points for " + n);
        }
        if ((long) n * d < parallelMin) threads = 1;
        this.rows = rows;
        this.n = n;
        this.d = d;
        this.w = w;
        this.cutWidth = order == null ? CUT_WIDTH : order.cutWidth();
        // checked again, and copied: the record's array is the caller's, which may have changed it since
        this.givenOrder = order == null ? null : new LeafOrder(order.cutWidth(), order.points().clone()).points();
        this.cancel = cancel;
        this.scheduler = new SplitScheduler(threads, n < HANDOVER_MIN);
        this.subtreeLimit = Math.max(PointIndex.LEAF_SIZE, Math.min(MAX_SUBTREE, n / (SUBTREES_PER_THREAD * threads)));
        int maxNodes = Math.max(1, 4 * (n / (PointIndex.LEAF_SIZE / 2) + 1));
        left = new int[maxNodes];
        right = new int[maxNodes];
        nodePosStart = new int[maxNodes];
        nodePosEnd = new int[maxNodes];
        nodeRealCount = new int[maxNodes];
        nodeLeaf = new int[maxNodes];
        nodeFrom = new int[maxNodes];
        nodeDepth = new int[maxNodes];
        subtreeEnd = new int[maxNodes];
        centre = new double[maxNodes * d];
        radius = new double[maxNodes];
        leafNode = new int[maxNodes];
        leafStart = new int[maxNodes];
        leafSize = new int[maxNodes];
        evenRows = new double[rows.length];
        if (givenOrder != null) {
            // the rows gathered once into leaf order, where every node's segment already is: nothing is split
            idx = givenOrder;
            for (int i = 0; i < n; i++) System.arraycopy(rows, idx[i] * d, evenRows, i * d, d);
            tmp = null;
            proj = null;
            cutKeys = null;
            oddRows = null;
            return;
        }
        idx = new int[n];
        for (int i = 0; i < n; i++) idx[i] = i;
        tmp = new int[n];
        proj = new double[n];
        cutKeys = new long[n];
        oddRows = new double[rows.length];
    }

    /**
     * The index will compute its node-to-node bounds ({@link PointIndex#lowerBound}) with {@code kernel}'s
     * {@link DistanceKernel#rowSquaredDistance}: the stages' own backend, so that a run on the scalar
     * kernels never waits for vector code to compile. The scalar kernel by default.
     */
    PointIndexBuilder boundsBy(DistanceKernel kernel) {
        this.bounds = kernel;
        return this;
    }

    /** Builds the index (call once). */
    PointIndex build() {
        checkCancelled();
        shape();
        posToOrig = new int[pos];
        origToPos = new int[n];
        data = new double[Math.max(pos / w, 0) * d * w];
        if (!scheduler.parallel()) {
            buildAll();
        } else {
            scheduler.run(this::buildAll);
        }
        // A task that saw the cancellation stopped early: nothing half-built is returned.
        checkCancelled();
        return new PointIndex(this);
    }

    /** The partition, the fill and the float32 copy: the whole job, on the scheduler's threads. */
    private void buildAll() {
        if (n > 0) node(0, new double[2 * d]);
        boolean[] exact = new boolean[(leafCount + FILL_LEAVES - 1) / FILL_LEAVES];
        scheduler.forEach(0, exact.length, g -> exact[g] = fillLeaves(g));
        boolean allExact = true;
        for (boolean e : exact) allExact &= e;
        if (!float32Copy || (!allExact && n < roundedCopyMinPoints)) return;
        int[] order = Float32Copy.order(rows, n, d);
        // A rounded copy holds the points minus their mean (node 0's centre): distances are the same, and the
        // rounding is then relative to the points' spread rather than to their distance from the origin.
        double[] shift = null;
        if (!allExact) {
            shift = new double[d];
            if (n > 0) for (int j = 0; j < d; j++) shift[j] = centre[order[j]];
        }
        Float32Copy copy = Float32Copy.of(data, posToOrig, d, w, order, shift, scheduler, this::checkCancelled);
        if (copy == null) return;   // no copy: the search computes float64 distances directly
        data32 = copy.blocks();
        rounding32 = copy.rounding();
        order32 = order;
        shift32 = shift;
    }

    /**
     * Nodes above this many points also look at the token between their passes over the rows (on a large
     * input, a node's passes alone are long enough for a Ctrl-C to wait on them; SignalLatencyTest, issue 24).
     */
    static final int LARGE_NODE = 1 << 16;

    /** Throws {@link CancelledException} once the token is cancelled or the building thread interrupted. */
    private void checkCancelled() {
        if (cancel == null) return;
        if (cancel.isCancelled() || caller.isInterrupted() || scheduler.callerInterrupted()) {
            throw new CancelledException();
        }
    }

    /** Points in the left child of a node of {@code m > LEAF_SIZE} points, cut by width {@code w}. */
    static int leftSize(int m, int w) {
        // Near the middle at a multiple of the cut width so that leaves fill whole blocks (only the nodes on the
        // right edge can be ragged); the depth stays logarithmic even with duplicate points.
        int l = (m / 2 + w / 2) / w * w;
        if (l < 1 || l >= m) l = m / 2;
        return l;
    }

    /**
     * Lays out the partition from the sizes alone: node ids in pre-order with the left child first (an
     * explicit stack of (from, to, parent, side, depth); the depth is logarithmic), each node's segment,
     * the leaves and their padded positions, every node's position range and subtree end.
     */
    private void shape() {
        if (n == 0) return;
        int stackCap = 4 * 64 + 16;
        int[] sFrom = new int[stackCap], sTo = new int[stackCap], sParent = new int[stackCap];
        int[] sSide = new int[stackCap], sDepth = new int[stackCap];
        int sp = 0;
        sFrom[sp] = 0; sTo[sp] = n; sParent[sp] = -1; sSide[sp] = 0; sDepth[sp] = 0; sp++;
        int maxIter = 4 * n + 4;
        for (int it = 0; it < maxIter && sp > 0; it++) {
            sp--;
            int from = sFrom[sp], to = sTo[sp], parent = sParent[sp], side = sSide[sp], dep = sDepth[sp];
            int node = nodeCount++;
            maxDepth = Math.max(maxDepth, dep);
            if (parent >= 0) {
                if (side == 0) left[parent] = node; else right[parent] = node;
            }
            left[node] = -1;
            right[node] = -1;
            nodeLeaf[node] = -1;
            nodeRealCount[node] = to - from;
            nodeFrom[node] = from;
            nodeDepth[node] = dep;
            if (to - from <= PointIndex.LEAF_SIZE) {
                int leaf = leafCount++;
                nodeLeaf[node] = leaf;
                leafNode[leaf] = node;
                leafStart[leaf] = pos;
                leafSize[leaf] = to - from;
                pos = (pos + (to - from) + w - 1) / w * w;
                nodePosStart[node] = leafStart[leaf];
                nodePosEnd[node] = pos;
            } else {
                int mid = from + leftSize(to - from, cutWidth);
                if (sp + 2 > stackCap) throw new IllegalStateException("partition deeper than expected");
                sFrom[sp] = mid; sTo[sp] = to; sParent[sp] = node; sSide[sp] = 1; sDepth[sp] = dep + 1; sp++;
                sFrom[sp] = from; sTo[sp] = mid; sParent[sp] = node; sSide[sp] = 0; sDepth[sp] = dep + 1; sp++;
            }
        }
        if (sp != 0) throw new IllegalStateException("partition did not finish");
        // Position ranges and subtree ends of internal nodes, bottom-up (children have larger ids).
        for (int node = nodeCount - 1; node >= 0; node--) {
            if (left[node] >= 0) {
                nodePosStart[node] = nodePosStart[left[node]];
                nodePosEnd[node] = nodePosEnd[right[node]];
                subtreeEnd[node] = subtreeEnd[right[node]];
            } else {
                subtreeEnd[node] = node + 1;
            }
        }
    }

    /**
     * Node {@code node} and its subtree: a node above the subtree limit is split, then its children are
     * processed independently (in parallel where a thread is free); a smaller one is finished as a whole
     * subtree, its nodes in id order (parents first). {@code scratch} is this task's {@code 2 d} doubles.
     */
    private void node(int node, double[] scratch) {
        checkCancelled();
        if (nodeRealCount[node] <= subtreeLimit || left[node] < 0) {
            int end = subtreeEnd[node];
            for (int k = node; k < end; k++) partitionNode(k, scratch);
            return;
        }
        partitionNode(node, scratch);
        if (scheduler.parallel()) {
            scheduler.both(new NodeTask(left[node]), new NodeTask(right[node]));
        } else {
            node(left[node], scratch);
            node(right[node], scratch);
        }
    }

    /** The subtree of one node, as a task of its own (with its own scratch). */
    private final class NodeTask extends RecursiveAction {
        private final int node;

        NodeTask(int node) {
            this.node = node;
        }

        @Override
        protected void compute() {
            node(node, new double[2 * d]);
        }
    }

    /** One node: its centre and radius, then (internal nodes) the reordering of its segment. */
    private void partitionNode(int node, double[] scratch) {
        int from = nodeFrom[node], to = from + nodeRealCount[node];
        if (givenOrder != null) {
            // the segment is in place: the root sums the input rows as a new build does, any other node its segment
            if (node != 0) sumSegment(node, evenRows, from, to);
            centreAndRadius(node, node == 0 ? rows : evenRows, from, to);
            if (to - from > LARGE_NODE) checkCancelled();
            return;
        }
        double[] src = rowsAt(nodeDepth[node]);
        int farthest = centreAndRadius(node, src, from, to);
        if (to - from > LARGE_NODE) checkCancelled();   // one pass over the root's rows can take a second
        if (left[node] >= 0) {
            split(node, src, rowsAt(nodeDepth[node] + 1), from, to, nodeFrom[right[node]], farthest, scratch);
        }
    }

    /** The segment-ordered rows of the nodes at depth {@code depth} (all of them for a partition given in order). */
    private double[] rowsAt(int depth) {
        if (givenOrder != null) return evenRows;
        return depth == 0 ? rows : (depth & 1) == 1 ? oddRows : evenRows;
    }

    /** Sums the rows of segment {@code [from, to)} of {@code work} into node {@code node}'s centre, in segment order. */
    private void sumSegment(int node, double[] work, int from, int to) {
        int oc = node * d;
        Arrays.fill(centre, oc, oc + d, 0.0);
        for (int i = from; i < to; i++) {
            int o = i * d;
            for (int j = 0; j < d; j++) centre[oc + j] += work[o + j];
        }
    }

    /**
     * Positions, original indices and float64 blocks of leaves {@code FILL_LEAVES * group ..} (the
     * working copy is in final segment order, so each leaf copies one contiguous run of rows); returns
     * whether every value copied is exactly a float32 value within the float32 limit.
     */
    private boolean fillLeaves(int group) {
        checkCancelled();
        boolean exact = true;
        int end = Math.min(leafCount, (group + 1) * FILL_LEAVES);
        for (int leaf = group * FILL_LEAVES; leaf < end; leaf++) {
            int node = leafNode[leaf];
            int from = nodeFrom[node], size = leafSize[leaf], start = leafStart[leaf];
            double[] work = rowsAt(nodeDepth[node]);
            for (int k = 0; k < size; k++) {
                int p = start + k;
                int o = idx[from + k];
                posToOrig[p] = o;
                origToPos[o] = p;
                int base = (p / w) * d * w + p % w;
                int src = (from + k) * d;
                for (int j = 0; j < d; j++) {
                    double v = work[src + j];
                    data[base + j * w] = v;
                    if ((double) (float) v != v || Math.abs(v) > PointIndex.FLOAT32_LIMIT) exact = false;
                }
            }
            Arrays.fill(posToOrig, start + size, nodePosEnd[node], -1);
        }
        return exact;
    }

    /**
     * Centre = mean of the points; radius = largest distance from the centre to one of them. Reads the
     * segment-ordered rows {@code work}, so it streams. The root sums its rows here; every other node finds
     * them summed, in its segment's order, by its parent's {@link #split}. Returns the farthest point (the
     * first of equals), for the split.
     */
    private int centreAndRadius(int node, double[] work, int from, int to) {
        int oc = node * d;
        if (node == 0) {
            for (int j = 0; j < d; j++) centre[oc + j] = 0.0;
            for (int i = from; i < to; i++) {
                int o = i * d;
                for (int j = 0; j < d; j++) centre[oc + j] += work[o + j];
            }
        }
        double inv = 1.0 / (to - from);
        for (int j = 0; j < d; j++) centre[oc + j] *= inv;
        double r2 = -1.0;
        int farthest = from;
        for (int i = from; i < to; i++) {
            double s = sqRows(work, i * d, centre, oc, d);
            if (s > r2) {
                r2 = s;
                farthest = i;
            }
        }
        // Any summation order is within 1e-15 of the exact radius; the bounds' margin covers it.
        radius[node] = Math.sqrt(r2);
        return farthest;
    }

    /**
     * Squared distance between {@code d} coordinates of {@code x} from {@code ox} and of {@code y} from
     * {@code oy}: splits, radii and centre distances need no particular order, but the build uses the
     * scalar form whatever the backend, so that the partition is the same for every backend.
     */
    static double sqRows(double[] x, int ox, double[] y, int oy, int d) {
        return DistanceKernel.rowSquaredDistanceScalar(x, ox, y, oy, d);
    }

    /**
     * Reorders segment {@code [from, to)} of internal node {@code node} (indices, and rows from {@code work}
     * into {@code out}) so that its first {@code mid - from} points lie on one side of the projection on the
     * line through two far-apart points: {@code a} (the point farthest from the centre) and the point
     * farthest from it. Sums each child's rows into its centre as they land, in the child's segment order
     * (the order the child's own pass would add them in). {@code scratch} holds {@code a}'s row and the
     * direction.
     */
    private void split(int node, double[] work, double[] out, int from, int to, int mid, int a, double[] scratch) {
        int m = to - from;
        System.arraycopy(work, a * d, scratch, 0, d);
        int b = a;
        double best = -1;
        for (int i = from; i < to; i++) {
            double s = sqRows(work, i * d, scratch, 0, d);
            if (s > best) {
                best = s;
                b = i;
            }
        }
        if (m > LARGE_NODE) checkCancelled();
        int ob = b * d;
        // scratch[0 .. d-1] = a's row, scratch[d .. 2d-1] = the direction from a to b.
        for (int j = 0; j < d; j++) scratch[d + j] = work[ob + j] - scratch[j];
        for (int i = from; i < to; i++) {
            int o = i * d;
            double s0 = 0.0, s1 = 0.0;
            int j = 0;
            for (; j + 1 < d; j += 2) {
                s0 += (work[o + j] - scratch[j]) * scratch[d + j];
                s1 += (work[o + j + 1] - scratch[j + 1]) * scratch[d + j + 1];
            }
            if (j < d) s0 += (work[o + j] - scratch[j]) * scratch[d + j];
            double p = s0 + s1;
            proj[i] = p;
            cutKeys[i] = DoubleOrder.key(p);
        }
        if (m > LARGE_NODE) checkCancelled();
        // The value a sort of the projections would put at mid - 1, bit for bit.
        double cut = ProjectionCut.select(cutKeys, from, to, mid - 1 - from);
        if (m > LARGE_NODE) checkCancelled();
        // Overflowing coordinates can make projections NaN, which the sort order puts last. With a NaN cut,
        // "below" means a number and "equal" a NaN, so the left part still gets exactly mid - from
        // points and the task never writes outside its segment.
        boolean nanCut = cut != cut;
        // Stable partition: strictly below the cut first, then equal ones in segment order until
        // the left part is full, the rest to the right; rows move with their indices.
        int below = 0;
        for (int i = from; i < to; i++) {
            double p = proj[i];
            if (nanCut ? p == p : p < cut) below++;
        }
        int equalLeft = (mid - from) - below;
        int l = from, r = mid;
        int leftSum = left[node] * d, rightSum = right[node] * d;
        Arrays.fill(centre, leftSum, leftSum + d, 0.0);
        Arrays.fill(centre, rightSum, rightSum + d, 0.0);
        for (int i = from; i < to; i++) {
            double p = proj[i];
            int dst, sum;
            if (nanCut ? p == p : p < cut) {
                dst = l++;
                sum = leftSum;
            } else if ((nanCut ? p != p : p == cut) && equalLeft > 0) {
                dst = l++;
                sum = leftSum;
                equalLeft--;
            } else {
                dst = r++;
                sum = rightSum;
            }
            tmp[dst] = idx[i];
            int od = dst * d;
            System.arraycopy(work, i * d, out, od, d);
            for (int j = 0; j < d; j++) centre[sum + j] += out[od + j];
        }
        if (l != mid || r != to) {
            throw new IllegalStateException("split of " + m + " points at " + (mid - from) + " failed");
        }
        System.arraycopy(tmp, from, idx, from, m);
    }
}
