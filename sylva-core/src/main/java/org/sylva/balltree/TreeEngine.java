package org.sylva.balltree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Drives the splits of every node of every batch, for a tree ({@link #buildTree}) or for Erwin's
 * partition ({@link #partition}).
 *
 * <p>Work is organised so that nothing depends on scheduling. Large nodes (above {@code cutoff} points)
 * are split one at a time and their two children are processed independently (in parallel when more
 * than one thread is used: see {@link #both} for how the threads share them); a node of at most
 * {@code cutoff} points is finished as a subtree, level by level: one pass over the subtree's nodes per
 * level, with the node boundaries kept in a preallocated array. A
 * subtree fits in the core's L2 cache, which is why the passes below the cutoff are cheap. Each split
 * depends only on the node's contents, and every leaf is written in index order, so the output is the
 * same for any thread count.
 *
 * <pre>{@code
 * TreeEngine.Result r = TreeEngine.buildTree(points, layout, 2, token, listener, null);
 * }</pre>
 */
final class TreeEngine {
    /** Largest subtree processed level by level in one task. */
    static final int CUTOFF = 16384;
    /** Bytes of working set a subtree may use: its points ({@code 4 (d + 2)} bytes each) stay in L2. */
    static final int SUBTREE_BYTES = 384 * 1024;
    /** Smallest subtree handed to a task of its own when several threads work. */
    static final int MIN_TASK = 1024;
    /** Builds of at least this many points are handed over to the pool as a whole. */
    static final int HANDOVER_MIN = 1 << 17;
    /** Rounds of {@link #awaitHelping} (a poll or a spin each, some 20-60 ns) before a waiting thread blocks. */
    static final int HELP_ROUNDS = 1 << 14;
    /** Rows per chunk of the parallel copy. */
    private static final int COPY_CHUNK = 1 << 13;

    private final SplitWorkspace ws;
    private final BatchLayout layout;
    private final boolean tree;
    private final int targetLevel;
    private final int[] treeIdx;
    private final byte[] mask;
    private final CancellationToken token;
    private final ProgressListener listener;
    private final AtomicLong done = new AtomicLong();
    private final ForkJoinPool pool;
    /** Whether the calling thread is one of the build's threads (else it waits for the pool). */
    private final boolean callerWorks;
    /** Work offered by the threads of a small build, for any of them to claim while it waits (see both()). */
    private final ConcurrentLinkedDeque<Offered> offers = new ConcurrentLinkedDeque<>();
    private final int cutoff;
    /** Number of points, the total of the progress reports. */
    private final int total;

    /** The tree's slot arrays, and the workspace for a later build to reuse. */
    record Result(int[] treeIdx, byte[] mask, SplitWorkspace workspace) { }

    private TreeEngine(PointSet points, BatchLayout layout, boolean tree, int targetLevel, int threads,
                       CancellationToken token, ProgressListener listener, SplitWorkspace reuse) {
        this.layout = layout;
        this.tree = tree;
        this.targetLevel = targetLevel;
        this.token = token;
        this.listener = listener;
        // Small builds: the calling thread works too and the pool supplies the other threads - 1
        // (see both()). Large builds: the caller hands the whole build to a pool of `threads` workers,
        // which then balance the work by stealing from each other to the end; the hand-over costs
        // tens of microseconds, nothing at that size.
        int n = points.size();
        this.callerWorks = n < HANDOVER_MIN;
        this.pool = threads <= 1 ? null : Pools.get(callerWorks ? threads - 1 : threads);
        this.total = n;
        int perCache = (int) Math.min(CUTOFF, SUBTREE_BYTES / (4L * (points.dimensions() + 2)));
        int fitsCache = Math.max(MIN_TASK, Integer.highestOneBit(perCache));
        // With several threads, also small enough for about four tasks per thread.
        this.cutoff = pool == null ? fitsCache
                : Math.max(MIN_TASK, Math.min(fitsCache, Integer.highestOneBit(Math.max(1, n / (4 * threads)))));
        this.ws = reuse != null && reuse.fits(n, points.dimensions()) ? reuse : new SplitWorkspace(n, points.dimensions());
        this.treeIdx = tree ? new int[layout.totalSlots()] : null;
        this.mask = tree ? new byte[layout.totalSlots()] : null;
    }

    /** Builds the tree; {@code reuse} (may be null) is a workspace left by an earlier build, used if it fits. */
    static Result buildTree(PointSet points, BatchLayout layout, int threads, CancellationToken token,
                            ProgressListener listener, SplitWorkspace reuse) {
        TreeEngine e = new TreeEngine(points, layout, true, 0, threads, token, listener, reuse);
        e.run(points);
        return new Result(e.treeIdx, e.mask, e.ws);
    }

    /** The partition's permutation (a fresh array); {@code reuse} as for {@link #buildTree}. */
    static int[] partition(PointSet points, BatchLayout layout, int targetLevel, int threads,
                           CancellationToken token, ProgressListener listener, SplitWorkspace reuse) {
        TreeEngine e = new TreeEngine(points, layout, false, targetLevel, threads, token, listener, reuse);
        e.run(points);
        return Arrays.copyOf(e.ws.idx, points.size());
    }

    private void run(PointSet points) {
        int n = points.size();
        if (n == 0) return;
        float[] coords = points.coordinates();
        List<int[]> groups = batchGroups();
        AtomicBoolean nonFinite = new AtomicBoolean();
        if (pool == null) {
            SplitWorkspace.Scratch sc = SplitWorkspace.scratch();
            for (int[] g : groups) {
                if (!copyGroup(coords, g, nonFinite)) break;
                runBatches(g[0], g[1], sc);
            }
        } else {
            Runnable build = () -> {
                if (groups.size() == 1) {
                    // One large batch: copy in parallel chunks, then split from the root with forked children.
                    if (copyParallel(coords)) {
                        token.throwIfCancelled();
                        runBatches(groups.get(0)[0], groups.get(0)[1], SplitWorkspace.scratch());
                    } else {
                        nonFinite.set(true);
                    }
                } else {
                    // Each task copies its own batches right before building them, so they are still in cache.
                    forEach(0, groups.size(), i -> {
                        int[] g = groups.get(i);
                        if (copyGroup(coords, g, nonFinite)) runBatches(g[0], g[1], SplitWorkspace.scratch());
                    });
                }
            };
            if (callerWorks) {
                build.run();
            } else {
                pool.invoke(ForkJoinTask.adapt(build));
            }
        }
        // Throws, naming the first row holding NaN or an infinity.
        if (nonFinite.get()) points.requireFinite();
    }

    /** Runs {@code body} for {@code [from, to)}, halving the range and forking one half each time. */
    private void forEach(int from, int to, IntConsumer body) {
        if (to - from == 1) {
            body.accept(from);
            return;
        }
        int mid = (from + to) >>> 1;
        both(new RangeTask(from, mid, body), new RangeTask(mid, to, body));
    }

    private final class RangeTask extends RecursiveAction {
        private final int from, to;
        private final IntConsumer body;

        RangeTask(int from, int to, IntConsumer body) {
            this.from = from;
            this.to = to;
            this.body = body;
        }

        @Override
        protected void compute() {
            forEach(from, to, body);
        }
    }

    /**
     * Runs {@code left} and {@code right}, in parallel where a thread is free. A large build runs
     * entirely in the pool: plain work stealing. A small build cannot afford handing the build over
     * and waking the caller at the end, so the calling thread works too, and every thread of the build
     * (the caller and the pool's {@code threads - 1} workers) splits work the same way: it offers
     * {@code right} (to the pool, which wakes a worker, and in the build's {@link #offers} queue, where
     * a waiting thread of the build finds it), runs {@code left}, and then runs {@code right} too unless
     * another thread has claimed it meanwhile; if one has, it helps with other offered work until that
     * thread is done ({@link #awaitHelping}). The queue matters because the caller is not a pool
     * worker: without it, a caller that finished first could only wait for a worker's last subtrees.
     * Either way the results are the same: every task writes only its own nodes.
     */
    private void both(RecursiveAction left, RecursiveAction right) {
        if (!callerWorks) {
            ForkJoinTask.invokeAll(left, right);
            return;
        }
        Offered offered = new Offered(right);
        offers.addLast(offered);
        pool.execute(offered);
        try {
            left.invoke();
        } catch (RuntimeException | Error e) {
            // Do not return while another thread may still write into the workspace.
            offered.claimOrAwait();
            throw e;
        }
        if (offered.claim()) {
            offered.runClaimed();
        } else {
            awaitHelping(offered);
        }
    }

    /**
     * Waits until {@code mine} (claimed by another thread) is done, running other offered tasks of this
     * build meanwhile, oldest (largest) first; rethrows its failure. Spins between attempts for a
     * bounded number of rounds, then blocks.
     */
    private void awaitHelping(Offered mine) {
        for (int round = 0; round < HELP_ROUNDS && !mine.isFinished(); round++) {
            Offered other = offers.pollFirst();
            if (other == null) {
                Thread.onSpinWait();
            } else if (other.claim()) {
                try {
                    other.runClaimed();
                } catch (RuntimeException | Error e) {
                    // Recorded in the task: its owner rethrows it.
                }
            }
        }
        mine.awaitFinished();
    }

    /**
     * A task offered to the build's other threads that whoever claims first runs: a pool worker, a
     * thread of the build that waits for its own offered task, or the offering thread itself. Its
     * completion is signalled by {@link #finished}, not by the fork/join status, since a thread outside
     * the pool may run it.
     */
    private static final class Offered extends RecursiveAction {
        private final RecursiveAction body;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final CountDownLatch finished = new CountDownLatch(1);
        private volatile Throwable failure;

        Offered(RecursiveAction body) {
            this.body = body;
        }

        boolean claim() {
            return taken.compareAndSet(false, true);
        }

        /** Runs the body after a successful {@link #claim()}; records and rethrows its failure. */
        void runClaimed() {
            try {
                body.invoke();
            } catch (RuntimeException | Error e) {
                failure = e;
                throw e;
            } finally {
                finished.countDown();
            }
        }

        boolean isFinished() {
            return finished.getCount() == 0;
        }

        /** Blocks until the thread that claimed it is done; rethrows its failure. */
        void awaitFinished() {
            boolean interrupted = false;
            for (int attempt = 0; attempt < Integer.MAX_VALUE; attempt++) {
                try {
                    finished.await();
                    break;
                } catch (InterruptedException e) {
                    // The build cannot stop while another thread writes into its workspace.
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            Throwable f = failure;
            if (f instanceof RuntimeException r) throw r;
            if (f instanceof Error e) throw e;
        }

        /** Claims it (so nobody will start it) or waits until the thread running it is done. */
        void claimOrAwait() {
            if (!claim()) {
                try {
                    awaitFinished();
                } catch (RuntimeException | Error ignored) {
                    // The caller is already failing with its own exception.
                }
            }
        }

        @Override
        protected void compute() {
            if (claim()) {
                try {
                    runClaimed();
                } catch (RuntimeException | Error e) {
                    // Recorded in the task: its owner rethrows it.
                }
            }
        }
    }

    /**
     * Copies the rows of batch group {@code g} into the workspace; false (and {@code nonFinite} set) if
     * one of them is NaN or infinite, or another group already found one.
     */
    private boolean copyGroup(float[] coords, int[] g, AtomicBoolean nonFinite) {
        if (nonFinite.get()) return false;
        token.throwIfCancelled();
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
        forEach(0, chunks, c -> flags[c] = ws.copyRows(coords, c * COPY_CHUNK, Math.min(n, (c + 1) * COPY_CHUNK)));
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
        boolean lanesPossible = tree && ws.kernel != null;
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
                if (deferred > 0) listener.progress("ball tree", done.addAndGet(deferred), total);
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
        token.throwIfCancelled();
        ws.split(s, s + m, sc);
        int k = m >>> 1;
        int rightSlot = slot + (1 << depth);
        if (pool != null) {
            both(new NodeTask(s, k, depth - 1, slot), new NodeTask(s + k, m - k, depth - 1, rightSlot));
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
            token.throwIfCancelled();
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
            finishDirect(bnd, count, slot);
        } else if (lanesFit(rest, sc)) {
            finishInLanes(bnd, count, slot, 2 << (depth - level), shared, sc);
        } else {
            SmallSubtree small = sc.small();
            // Each of the count nodes owns 2^(depth - level + 1) slots.
            int span = 2 << (depth - level);
            for (int t = 0; t < count; t++) {
                int a = bnd[t], size = bnd[t + 1] - a;
                int leaves = small.run(ws, a, size, Math.min(rest, ceilLog2(size)));
                if (tree) {
                    writeSmallLeaves(small, leaves, slot + t * span);
                } else {
                    writeSmallCells(small, leaves, a);
                }
            }
        }
        if (shared == null) listener.progress(tree ? "ball tree" : "partition", done.addAndGet(m), total);
    }

    /**
     * Whether the small nodes left after the level loop, with {@code rest} levels above their leaves,
     * go to {@link LaneSubtrees}: tree mode, a workspace with the vector kernel (a workspace without it
     * stands for "scalar code only", which the tests compare against), and subtrees of 4 to 32 slots.
     * Inside a large batch these are nodes of 16 to 32 points in 32 slots (a node reached by the level
     * loop had a parent of more than 32 points); a batch of at most 32 points is a single such node of
     * any size, which fills lanes together with the nodes of other small batches ({@link LaneQueue}).
     */
    private boolean lanesFit(int rest, SplitWorkspace.Scratch sc) {
        if (!tree || ws.kernel == null || rest < 1 || rest > 4) return false;
        LaneSubtrees lanes = sc.lanes();
        return lanes != null && lanes.accepts(total, ws.d);
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
        LaneSubtrees lanes = sc.lanes();
        for (int t = 0; t < count; t++) {
            int a = bnd[t], size = bnd[t + 1] - a;
            int full = q.add(size, span, a, slot + t * span);
            if (full >= 0) {
                lanes.finish(ws, q.starts(full), size, span, q.slots(full), treeIdx, mask);
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
                int leaves = small.run(ws, starts[i], size, rest);
                writeSmallLeaves(small, leaves, slots[i]);
            }
            q.clear(k);
        }
    }

    /** Leaves (tree) or cells (partition) read straight from the workspace. */
    private void finishDirect(int[] bnd, int count, int slot) {
        int[] idx = ws.idx;
        if (tree) {
            for (int t = 0; t < count; t++) {
                int a = bnd[t];
                writeLeaf(slot + 2 * t, idx[a], bnd[t + 1] - a == 2 ? idx[a + 1] : -1);
            }
        } else {
            for (int t = 0; t < count; t++) {
                if (bnd[t + 1] - bnd[t] > 1) Arrays.sort(idx, bnd[t], bnd[t + 1]);
            }
        }
    }

    private void writeSmallLeaves(SmallSubtree small, int leaves, int slot) {
        // In tree mode the small routine runs to the leaf level: every final node has 1 or 2 points.
        for (int t = 0; t < leaves; t++) {
            int a = small.bound(t), size = small.bound(t + 1) - a;
            writeLeaf(slot + 2 * t, small.row(a), size == 2 ? small.row(a + 1) : -1);
        }
    }

    /** A leaf of one point ({@code q < 0}: {@code [p, p]}, mask {@code [1, 0]}) or two (smaller row first). */
    private void writeLeaf(int o, int p, int q) {
        if (q >= 0) {
            treeIdx[o] = Math.min(p, q);
            treeIdx[o + 1] = Math.max(p, q);
            mask[o] = 1;
            mask[o + 1] = 1;
        } else {
            treeIdx[o] = p;
            treeIdx[o + 1] = p;
            mask[o] = 1;
        }
    }

    /** Partition cells of a small node, each in increasing row order, written back from position s. */
    private void writeSmallCells(SmallSubtree small, int cells, int s) {
        int[] idx = ws.idx;
        for (int t = 0; t < cells; t++) {
            int a = small.bound(t), b = small.bound(t + 1);
            for (int i = a; i < b; i++) {
                int v = small.row(i);
                int j = s + i - 1;
                while (j >= s + a && idx[j] > v) {
                    idx[j + 1] = idx[j];
                    j--;
                }
                idx[j + 1] = v;
            }
        }
    }
}
