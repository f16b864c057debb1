package org.sylva.balltree.engine;

import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.LaneSubtrees;
import org.sylva.kernels.OrderedBits;
import org.sylva.kernels.PartitionKernel;
import org.sylva.kernels.ScalarPartitionKernel;
import org.sylva.kernels.SmallSubtree;

/**
 * The working copy of the points while a tree is built, and the one operation on it: splitting a node.
 *
 * <p>Coordinates are copied column by column as order-preserving ints ({@link OrderedBits}):
 * {@code cols[j][p]} is coordinate {@code j} of the point at working position {@code p}, next to
 * {@code idx[p]}, the point's global row. Integer columns let the JIT vectorise the minima and maxima
 * of large nodes; small nodes take theirs from the {@link PartitionKernel}, as does the copy of
 * three-dimensional rows. A node is a contiguous range {@code [s, e)} of working positions; {@link #split}
 * rearranges it in place so that {@code [s, s + floor(m/2))} holds the left child. Memory: the copy
 * ({@code 4 n d} bytes), {@code idx} and {@code cand} ({@code 4 n} bytes each), so {@code (d + 2) / d}
 * times the input, plus small per-thread buffers.
 *
 * <p>A split finds the median by {@code (coordinate, index)} and then partitions. With a kernel that
 * {@linkplain PartitionKernel#gathersFast() gathers fast} (the vector one), nodes of {@link #SAMPLED_MIN}
 * points or more bracket the median between two keys of a small sample and narrow down among the points
 * between them; others, or when the bracket misses, use radix selection on the keys (both in
 * {@link MedianSelection}). The partition is
 * the kernel's (nodes of at least {@link PartitionKernel#minPoints()} points) or the scalar block
 * partition ({@link ScalarPartitionKernel#blockPartition}). Either way the two sides hold the same
 * points, so the tree does not depend on which ran.
 *
 * <p>The split of one node is a pure function of the node's contents, touches only {@code [s, e)} of
 * every array (candidates included), and allocates nothing; so nodes can be split concurrently and the
 * result never depends on the thread count.
 *
 * <pre>{@code
 * SplitWorkspace w = new SplitWorkspace(n, d, KernelProvider.get().partition(true), true);
 * w.copyRows(points.coordinates(), 0, n);
 * w.split(0, n, SplitWorkspace.scratch());
 * }</pre>
 */
final class SplitWorkspace {
    /** Nodes up to this size select among all their points directly, without a histogram. */
    static final int SMALL = 12;
    /** Radix bits per round of the pivot selection (buckets per round: at most 2^RADIX_BITS). */
    static final int RADIX_BITS = 12;
    /** Largest node whose first-round bucket numbers are stored (vectorised) rather than recomputed. */
    static final int STORED_BUCKETS_MAX = 1 << 16;
    /** Nodes from this size on select from a sample when the kernel gathers fast. */
    static final int SAMPLED_MIN = 2048;
    /** Sample size of {@link MedianSelection#sampled}. */
    static final int SAMPLE = 128;
    /** Sample positions on each side of the estimated rank that bound the candidates (about 2.5 sigma). */
    static final int SAMPLE_MARGIN = 14;
    /**
     * Nodes below this size take their extremes from the kernel: the JIT's own vectorised loop spends
     * most of a small node in its set-up and scalar tail, and is as fast as the vector kernel from here on.
     */
    static final int VECTOR_EXTREMES_MAX = 2048;
    /** Candidate count below which the radix selection hands over to {@link KeySelect}. */
    static final int RADIX_FINISH = 64;

    /** Number of points the arrays can hold (a reused workspace may hold more than a build needs). */
    final int capacity;
    final int d;
    final int[][] cols;
    final int[] idx;
    /** Candidate positions of the selection; a node uses only its own range [s, e). */
    final int[] cand;

    /** Per-thread buffers, reused across nodes and builds (no allocation per node or level). */
    static final class Scratch {
        final int[] hist = new int[1 << RADIX_BITS];
        final int[] sample = new int[SAMPLE];
        /** Offsets of the scalar block partition. */
        final int[] offsets = new int[2 * ScalarPartitionKernel.BLOCK];
        int[] bounds = new int[0];
        /** Staging buffer of the vector partition. */
        private int[] buffer = new int[0];
        /**
         * The rank among the candidates: second result of {@link MedianSelection#radix} and
         * {@link MedianSelection#sampled}.
         */
        int rank;
        private SmallSubtree small;
        private LaneSubtrees vectorLanes;
        private LaneSubtrees scalarLanes;
        /** This thread's queue for the small batches of a task, while no task on this thread holds it. */
        private final LaneQueue batchQueue = new LaneQueue();
        /** This thread's queue for the nodes of one subtree: never held across a fork or a join. */
        private final LaneQueue subtreeQueue = new LaneQueue();

        SmallSubtree small() {
            if (small == null) small = new SmallSubtree();
            return small;
        }

        /** This thread's {@link LaneSubtrees}: vector ones where allowed and usable, else the scalar twin. */
        LaneSubtrees lanes(boolean allowVector) {
            if (allowVector) {
                if (vectorLanes == null) vectorLanes = KernelProvider.get().newLanes(true);
                return vectorLanes;
            }
            if (scalarLanes == null) scalarLanes = KernelProvider.get().newLanes(false);
            return scalarLanes;
        }

        /**
         * This thread's queue for the small batches of a task, or a new one while it is held: a task
         * holds it across the forks and joins of its large batches, and a thread waiting for a join may
         * run another task (of the same or another build) meanwhile, which needs a queue of its own.
         */
        LaneQueue takeBatchQueue() {
            if (batchQueue.taken) return new LaneQueue();
            batchQueue.taken = true;
            return batchQueue;
        }

        /** Gives back a queue from {@link #takeBatchQueue()}, forgetting anything still in it. */
        void releaseBatchQueue(LaneQueue q) {
            q.clearAll();
            if (q == batchQueue) q.taken = false;
        }

        /**
         * This thread's queue for the small nodes of one subtree, empty: the subtree is finished without
         * forking or joining, so no other use of it can start before it is given back (cleared).
         */
        LaneQueue subtreeQueue() {
            return subtreeQueue;
        }

        int[] buffer(int size) {
            if (buffer.length < size) buffer = new int[size];
            return buffer;
        }

        int[] bounds(int size) {
            if (bounds.length < size) bounds = new int[Math.max(size, 2 * bounds.length)];
            return bounds;
        }
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    static Scratch scratch() {
        return SCRATCH.get();
    }

    /**
     * True iff this workspace can serve a build of {@code n} points in {@code d} dimensions without
     * holding on to much more memory than that build needs.
     */
    boolean fits(int n, int d) {
        return this.d == d && capacity >= n && capacity <= Math.max(2L * n, 1 << 16);
    }

    /** The partition kernel of every split (vector or the scalar twin; never null). */
    final PartitionKernel kernel;
    /** Whether vector kernels were allowed for this workspace's builds (the lane subtrees follow it). */
    final boolean vectorKernels;

    /** A workspace whose splits use {@code kernel}; {@code vectorKernels} as the builder asked. */
    SplitWorkspace(int n, int d, PartitionKernel kernel, boolean vectorKernels) {
        this.kernel = java.util.Objects.requireNonNull(kernel, "kernel");
        this.vectorKernels = vectorKernels;
        this.capacity = n;
        this.d = d;
        this.cols = new int[d][n];
        this.idx = new int[n];
        this.cand = new int[n];
    }

    /**
     * Copies rows {@code [from, to)} of the row-major {@code coords} into the columns (as keys) and sets
     * {@code idx[p] = p}. Returns a value whose sign bit is set iff some copied coordinate is NaN or
     * infinite (an exponent of all ones), so the caller can check finiteness without a second pass.
     */
    int copyRows(float[] coords, int from, int to) {
        if (d == 3) return kernel.copyRows3(coords, from, to, cols[0], cols[1], cols[2], idx);
        // Raw bits first (a strided copy), then the key conversion and the finiteness check as a
        // separate pure-int loop per column, which the JIT vectorises.
        for (int j = 0; j < d; j++) {
            int[] cj = cols[j];
            for (int i = from; i < to; i++) cj[i] = Float.floatToRawIntBits(coords[i * d + j]);
        }
        int bad = 0;
        for (int j = 0; j < d; j++) bad |= OrderedBits.toKeys(cols[j], from, to);
        for (int i = from; i < to; i++) idx[i] = i;
        return bad;
    }

    /**
     * Splits node {@code [s, e)} ({@code e - s >= 2}): afterwards {@code [s, s + floor(m/2))} holds the
     * {@code floor(m/2)} points that come first by {@code (coordinate, index)} along the first dimension
     * with the strictly largest float64 spread, and {@code [s + floor(m/2), e)} the rest.
     */
    void split(int s, int e, Scratch sc) {
        int m = e - s;
        if (m == 2) {
            split2(s);
            return;
        }
        int k = m >>> 1;
        // 1. the split dimension: first strictly largest max - min, in float64 (exact for float32 inputs)
        int dim = 0;
        double best = -1.0;
        int lo = 0, hi = 0;
        boolean kernelExtremes = m < VECTOR_EXTREMES_MAX;
        for (int j = 0; j < d; j++) {
            int[] c = cols[j];
            int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE;
            if (kernelExtremes) {
                long mm = kernel.minMax(c, s, e);
                mn = (int) mm;
                mx = (int) (mm >>> 32);
            } else {
                for (int i = s; i < e; i++) {
                    int v = c[i];
                    mn = Math.min(mn, v);
                    mx = Math.max(mx, v);
                }
            }
            double spread = OrderedBits.spread(mn, mx);
            if (spread > best) {
                best = spread;
                dim = j;
                lo = mn;
                hi = mx;
            }
        }
        int[] x = cols[dim];
        // 2. the pivot: the point of rank k by (x, idx), found by radix selection on the keys
        //    (exact integer buckets of x - lo), then an exact selection inside the last bucket.
        int[] cand = this.cand;
        int c, r;
        if (m <= SMALL || lo == hi) {
            // All points identical (lo == hi) or very few: the index alone decides.
            for (int i = s; i < e; i++) cand[i] = i;
            c = m;
            r = k;
        } else {
            c = m >= SAMPLED_MIN && kernel.gathersFast() ? MedianSelection.sampled(this, x, s, e, k, lo, hi, sc) : -1;
            if (c < 0) c = MedianSelection.radix(this, x, s, e, k, lo, hi, sc);
            r = sc.rank;
        }
        boolean ties = false;
        if (c > RADIX_FINISH) {
            // Many candidates left means they share one coordinate: select among them by index.
            c = MedianSelection.narrowByIndex(this, s, c, r, sc);
            r = sc.rank;
            ties = true;
        }
        int p = KeySelect.select(cand, s, s + c, r, x, idx);
        int pc = x[p];
        int pi = idx[p];
        if (!ties) {
            // Unless narrowed by index, the points sharing the pivot's coordinate are all candidates.
            int same = 0;
            for (int t = s; t < s + c; t++) same += x[cand[t]] == pc ? 1 : 0;
            ties = same > 1;
        }
        // 3. move the points below the pivot to [s, s + k)
        partition(s, s + k, e, x, pc, pi, ties, sc);
    }

    private void split2(int s) {
        int dim = 0;
        double best = -1.0;
        for (int j = 0; j < d; j++) {
            int[] c = cols[j];
            int a = c[s], b = c[s + 1];
            double spread = OrderedBits.spread(Math.min(a, b), Math.max(a, b));
            if (spread > best) {
                best = spread;
                dim = j;
            }
        }
        if (KeySelect.less(cols[dim], idx, s + 1, s)) swapRecords(s, s + 1);
    }

    private void swapRecords(int a, int b) {
        for (int j = 0; j < d; j++) {
            int[] c = cols[j];
            int t = c[a];
            c[a] = c[b];
            c[b] = t;
        }
        int t = idx[a];
        idx[a] = idx[b];
        idx[b] = t;
    }

    /**
     * Moves the {@code mid - s} points of {@code [s, e)} before the pivot {@code (pc, pi)} to the front:
     * the kernel's partition for nodes it accepts, else the scalar block partition.
     */
    private void partition(int s, int mid, int e, int[] x, int pc, int pi, boolean ties, Scratch sc) {
        PartitionKernel k = kernel;
        if (e - s >= k.minPoints()) {
            int b = k.partition(cols, idx, s, mid, e, x, pc, pi, ties, sc.buffer(k.bufferInts(d + 1)));
            if (b != mid) {
                throw new IllegalStateException("partition: " + (b - s) + " points before the pivot, expected " + (mid - s));
            }
            return;
        }
        ScalarPartitionKernel.blockPartition(cols, idx, s, mid, e, x, pc, pi, ties, sc.offsets);
    }
}
