package org.sylva.balltree.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.kernels.LaneSubtrees;
import org.sylva.kernels.SmallSubtree;
import org.sylva.parallel.Execution;
import org.sylva.parallel.SplitScheduler;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * One build (a tree, or Erwin's partition) of {@link CpuTreeEngine}: drives the splits of every node of
 * every batch.
 *
 * <p>Work is organised so that nothing depends on scheduling. Large nodes (above {@code cutoff} points)
 * are split one at a time and their two children are processed independently (in parallel when more
 * than one thread is used, shared by a {@link SplitScheduler}); a node of at most {@code cutoff} points
 * is finished as a subtree, level by level: one pass over the subtree's nodes per level, with the node
 * boundaries kept in a preallocated array. A subtree fits in the core's L2 cache, which is why the
 * passes below the cutoff are cheap. Nodes of at most 32 points are finished by the lane-subtree
 * kernel, eight of one shape at a time ({@link LaneQueue}), or one by one ({@link SmallSubtree}); the
 * leaves are written by {@link LeafWriter}. Each split depends only on the node's contents, and every
 * leaf is written in index order, so the output is the same for any thread count and any kernel.
 *
 * <pre>{@code
 * TreeBuild b = new TreeBuild(points, layout, true, 0, execution, workspace);
 * b.run(points);    // then b.treeIdx(), b.mask()
 * }</pre>
 */
final class TreeBuild {
    /** Largest subtree processed level by level in one task. */
    static final int CUTOFF = 16384;
    /** Bytes of working set a subtree may use: its points ({@code 4 (d + 2)} bytes each) stay in L2. */
    static final int SUBTREE_BYTES = 384 * 1024;
    /** Smallest subtree handed to a task of its own when several threads work. */
    static final int MIN_TASK = 1024;
    /** Builds of at least this many points are handed over to the pool as a whole. */
    static final int HANDOVER_MIN = 1 << 17;
    /** Rows per chunk of the parallel copy. */
    private static final int COPY_CHUNK = 1 << 13;

    private final SplitWorkspace ws;
    private final BatchLayout layout;
    private final boolean tree;
    private final int targetLevel;
    private final LeafWriter leaves;
    private final CancellationToken token;
    /** The thread that started the build: its interrupt stops the build as the token does. */
    private final Thread caller = Thread.currentThread();
    private final ProgressListener listener;
    private final AtomicLong done = new AtomicLong();
    private final SplitScheduler scheduler;
    private final int cutoff;
    /** Number of points, the total of the progress reports. */
    private final int total;

    /**
     * A build of {@code points} in {@code layout}: a tree ({@code tree}) or a partition to
     * {@code targetLevel}, in the workspace {@code ws} (which must fit the points).
     */
    TreeBuild(PointSet points, BatchLayout layout, boolean tree, int targetLevel, Execution execution,
              SplitWorkspace ws) {
        this.layout = layout;
        this.tree = tree;
        this.targetLevel = targetLevel;
        this.token = execution.cancel();
        this.listener = execution.progress();
        int threads = execution.threads();
        // Small builds: the calling thread works too; large ones are handed to the pool as a whole.
        int n = points.size();
        this.scheduler = new SplitScheduler(threads, n < HANDOVER_MIN);
        this.total = n;
        int perCache = (int) Math.min(CUTOFF, SUBTREE_BYTES / (4L * (points.dimensions() + 2)));
        int fitsCache = Math.max(MIN_TASK, Integer.highestOneBit(perCache));
        // With several threads, also small enough for about four tasks per thread.
        this.cutoff = !scheduler.parallel() ? fitsCache
                : Math.max(MIN_TASK, Math.min(fitsCache, Integer.highestOneBit(Math.max(1, n / (4 * threads)))));
        if (!ws.fits(n, points.dimensions())) throw new IllegalArgumentException("workspace does not fit the build");
        this.ws = ws;
        this.leaves = tree ? LeafWriter.forTree(layout.totalSlots()).rows(ws.idx) : LeafWriter.forPartition(ws.idx);
    }

    /** The tree's slots (tree builds). */
    int[] treeIdx() {
        return leaves.treeIdx();
    }

    /** The tree's mask (tree builds). */
    byte[] mask() {
        return leaves.mask();
    }

    /** Builds every batch; throws {@code InvalidInputException} naming the first non-finite row. */
    void run(PointSet points) {
        int n = points.size();
        if (n == 0) return;
        // the stage starts now (its clock, rate and ETA), not at the first leaf, which comes after the top splits
        listener.progress(stage(), 0, total);
        float[] coords = points.coordinates();
        List<int[]> groups = batchGroups();
        AtomicBoolean nonFinite = new AtomicBoolean();
        if (!scheduler.parallel()) {
            SplitWorkspace.Scratch sc = SplitWorkspace.scratch();
            for (int[] g : groups) {
                if (!copyGroup(coords, g, nonFinite)) break;
                runBatches(g[0], g[1], sc);
            }
        } else {
            scheduler.run(() -> {
                if (groups.size() == 1) {
                    // One large batch: copy in parallel chunks, then split from the root with forked children.
                    if (copyParallel(coords)) {
                        checkCancelled();
                        runBatches(groups.get(0)[0], groups.get(0)[1], SplitWorkspace.scratch());
                    } else {
                        nonFinite.set(true);
                    }
                } else {
                    // Each task copies its own batches right before building them, so they are still in cache.
                    scheduler.forEach(0, groups.size(), i -> {
                        int[] g = groups.get(i);
                        if (copyGroup(coords, g, nonFinite)) runBatches(g[0], g[1], SplitWorkspace.scratch());
                    });
                }
            });
        }
        // Throws, naming the first row holding NaN or an infinity (or, for float64 points, a value that overflows
        // float32: such a set is finite in float64, its float32 coordinates, which were built from, are not).
        if (nonFinite.get()) points.requireFiniteFloat32("the ball tree");
    }

    /** Throws {@link CancelledException} once the token is cancelled or the calling thread interrupted. */
    private void checkCancelled() {
        if (token.isCancelled() || caller.isInterrupted() || scheduler.callerInterrupted()) {
            throw new CancelledException();
        }
    }

    /**
     * Copies the rows of batch group {@code g} into the workspace; false (and {@code nonFinite} set) if
     * one of them is NaN or infinite, or another group already found one.
     */
    private boolean copyGroup(float[] coords, int[] g, AtomicBoolean nonFinite) {
        if (nonFinite.get()) return false;
        checkCancelled();
        int from = layout.pointStart(g[0]);
        int to = g[1] < layout.batchCount() ? layout.pointStart(g[1]) : layout.pointCount();
        if (ws.copyRows(coords, from, to) < 0) {
            nonFinite.set(true);
            return false;
        }
        return true;
    }

    /** Consecutive batches grouped into tasks of at least {@code cutoff} points (a large batch alone). */
    private List<int[]> batchGroups() {
        List<int[]> groups = new ArrayList<>();
        int batches = layout.batchCount();
        int start = 0, points = 0;
        for (int b = 0; b < batches; b++) {
            points += layout.batchSize(b);
            if (points >= cutoff || b == batches - 1) {
                groups.add(new int[] {start, b + 1});
                start = b + 1;
                points = 0;
            }
        }
        return groups;
    }

    /** Copies all rows in parallel chunks of fixed size; false if one of them is NaN or infinite. */
    private boolean copyParallel(float[] coords) {
        int n = total;
        int chunks = (n + COPY_CHUNK - 1) / COPY_CHUNK;
        int[] flags = new int[chunks];
        scheduler.forEach(0, chunks, c -> flags[c] = ws.copyRows(coords, c * COPY_CHUNK, Math.min(n, (c + 1) * COPY_CHUNK)));
        int bad = 0;
        for (int f : flags) bad |= f;
        return bad >= 0;
    }

    /**
     * Builds batches {@code [from, to)}. Batches small enough to be one subtree share one lane queue, so
     * that small nodes of different batches fill the lanes together (see {@link LaneQueue}); what is left
     * in it is finished at the end. Their progress is reported then, when their leaves are final.
     */
    private void runBatches(int from, int to, SplitWorkspace.Scratch sc) {
        boolean lanesPossible = tree && sc.lanes(ws.vectorKernels).accepts(total, ws.d);
        LaneQueue shared = null;
        try {
            long deferred = 0;
            for (int b = from; b < to; b++) {
                int m = layout.batchSize(b);
                int depth = tree ? layout.levels(b) : Math.min(targetLevel, ceilLog2(m));
                int s = layout.pointStart(b), slot = tree ? layout.slotStart(b) : 0;
                if (lanesPossible && (m <= cutoff || depth == 0)) {
                    if (shared == null) shared = sc.takeBatchQueue();
                    subtree(s, m, depth, slot, sc, shared);
                    deferred += m;
                } else {
                    node(s, m, depth, slot, sc);
                }
            }
            if (shared != null) {
                finishQueued(shared, sc);
                if (deferred > 0) listener.progress(stage(), done.addAndGet(deferred), total);
            }
        } finally {
            if (shared != null) sc.releaseBatchQueue(shared);
        }
    }

    static int ceilLog2(int m) {
        return m <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(m - 1);
    }

    /**
     * Node of {@code m} points at working positions {@code [s, s + m)} with {@code depth} levels of
     * splits below it; its tree occupies {@code 2^(depth+1)} slots from {@code slot}. Recursion happens
     * only above the cutoff, so its depth is at most {@code log2(n / cutoff)}.
     */
    private void node(int s, int m, int depth, int slot, SplitWorkspace.Scratch sc) {
        if (m <= cutoff || depth == 0) {
            subtree(s, m, depth, slot, sc, null);
            return;
        }
        checkCancelled();
        ws.split(s, s + m, sc);
        int k = m >>> 1;
        int rightSlot = slot + (1 << depth);
        if (scheduler.parallel()) {
            scheduler.both(new NodeTask(s, k, depth - 1, slot), new NodeTask(s + k, m - k, depth - 1, rightSlot));
        } else {
            node(s, k, depth - 1, slot, sc);
            node(s + k, m - k, depth - 1, rightSlot, sc);
        }
    }

    private final class NodeTask extends RecursiveAction {
        private final int s, m, depth, slot;

        NodeTask(int s, int m, int depth, int slot) {
            this.s = s;
            this.m = m;
            this.depth = depth;
            this.slot = slot;
        }

        @Override
        protected void compute() {
            node(s, m, depth, slot, SplitWorkspace.scratch());
        }
    }

    /**
     * Finishes a node level by level: one pass over its descendants per level, then its leaves. With a
     * {@code shared} lane queue, nodes left waiting for lanes stay in it for the caller to finish (and
     * the caller reports the progress); without, this call uses a queue of its own and finishes them.
     */
    private void subtree(int s, int m, int depth, int slot, SplitWorkspace.Scratch sc, LaneQueue shared) {
        // Below ceil(log2 m) levels every node holds at most one point: deeper levels change nothing.
        int levels = Math.min(depth, ceilLog2(m));
        int[] bnd = sc.bounds((1 << levels) + 1);
        bnd[0] = s;
        bnd[1] = s + m;
        int count = 1;
        int level = 0;
        for (; level < levels; level++) {
            // Nodes of one level differ in size by at most one; the largest holds ceil(m / 2^level).
            if (((m - 1) >> level) + 1 <= SmallSubtree.MAX) break;
            checkCancelled();
            for (int t = 0; t < count; t++) {
                int a = bnd[t], b = bnd[t + 1];
                if (b - a >= 2) ws.split(a, b, sc);
            }
            // In place, from the right: new[2t] = old[t], new[2t+1] = old[t] + floor(size/2).
            bnd[2 * count] = bnd[count];
            for (int t = count - 1; t >= 0; t--) {
                int a = bnd[t], b = bnd[t + 1];
                bnd[2 * t + 1] = a + ((b - a) >>> 1);
                bnd[2 * t] = a;
            }
            count *= 2;
        }
        int rest = levels - level;
        if (rest == 0) {
            leaves.direct(bnd, count, slot);
        } else if (lanesFit(rest, sc)) {
            finishInLanes(bnd, count, slot, 2 << (depth - level), shared, sc);
        } else {
            SmallSubtree small = sc.small();
            // Each of the count nodes owns 2^(depth - level + 1) slots.
            int span = 2 << (depth - level);
            for (int t = 0; t < count; t++) {
                int a = bnd[t], size = bnd[t + 1] - a;
                int parts = small.run(ws.cols, ws.idx, a, size, Math.min(rest, ceilLog2(size)));
                if (tree) {
                    leaves.smallLeaves(small, parts, slot + t * span);
                } else {
                    leaves.smallCells(small, parts, a);
                }
            }
        }
        if (shared == null) listener.progress(stage(), done.addAndGet(m), total);
    }

    /** The progress stage: {@code "ball tree"} or {@code "partition"}. */
    private String stage() {
        return tree ? "ball tree" : "partition";
    }

    /**
     * Whether the small nodes left after the level loop, with {@code rest} levels above their leaves,
     * go to {@link LaneSubtrees}: tree mode, subtrees of 4 to 32 slots, and a build the kernel accepts.
     * Inside a large batch these are nodes of 16 to 32 points in 32 slots (a node reached by the level
     * loop had a parent of more than 32 points); a batch of at most 32 points is a single such node of
     * any size, which fills lanes together with the nodes of other small batches ({@link LaneQueue}).
     */
    private boolean lanesFit(int rest, SplitWorkspace.Scratch sc) {
        if (!tree || rest < 1 || rest > 4) return false;
        return sc.lanes(ws.vectorKernels).accepts(total, ws.d);
    }

    /**
     * Finishes the {@code count} nodes between {@code bnd[0..count]} (each owning {@code span} slots from
     * {@code slot + t * span}) in {@link LaneSubtrees}: through the {@code shared} queue, which its
     * holder finishes later, or else through a queue of this call's own, finished before returning.
     */
    private void finishInLanes(int[] bnd, int count, int slot, int span, LaneQueue shared, SplitWorkspace.Scratch sc) {
        if (shared != null) {
            queueForLanes(bnd, count, slot, span, shared, sc);
            return;
        }
        LaneQueue q = sc.subtreeQueue();
        try {
            queueForLanes(bnd, count, slot, span, q, sc);
            finishQueued(q, sc);
        } finally {
            q.clearAll(); // after a failure: nothing of this build may be finished later
        }
    }

    /**
     * Queues the {@code count} nodes between {@code bnd[0..count]} (each owning {@code span} slots from
     * {@code slot + t * span}) for {@link LaneSubtrees}, finishing every eight of one size at once. Nodes
     * of one level hold {@code q} or {@code q + 1} points, each with {@code span / 2 <= size <= span}.
     */
    private void queueForLanes(int[] bnd, int count, int slot, int span, LaneQueue q, SplitWorkspace.Scratch sc) {
        LaneSubtrees lanes = sc.lanes(ws.vectorKernels);
        for (int t = 0; t < count; t++) {
            int a = bnd[t], size = bnd[t + 1] - a;
            int full = q.add(size, span, a, slot + t * span);
            if (full >= 0) {
                lanes.finish(ws.cols, ws.idx, q.starts(full), size, span, q.slots(full), leaves.treeIdx(), leaves.mask());
                q.clear(full);
            }
        }
    }

    /**
     * Finishes the nodes left in {@code q} (fewer than eight of each shape) one at a time; their leaves
     * are the same as in lanes. A node owning {@code span} slots has {@code log2(span) - 1} levels of
     * splits above its leaves.
     */
    private void finishQueued(LaneQueue q, SplitWorkspace.Scratch sc) {
        SmallSubtree small = null;
        for (int k = 0; k < LaneQueue.KEYS; k++) {
            int c = q.count(k);
            if (c == 0) continue;
            if (small == null) small = sc.small();
            int size = LaneQueue.size(k), rest = Integer.numberOfTrailingZeros(LaneQueue.span(k)) - 1;
            int[] starts = q.starts(k), slots = q.slots(k);
            for (int i = 0; i < c; i++) {
                int parts = small.run(ws.cols, ws.idx, starts[i], size, rest);
                leaves.smallLeaves(small, parts, slots[i]);
            }
            q.clear(k);
        }
    }
}
