package org.sylva.balltree;

import org.sylva.balltree.engine.CpuTreeEngine;
import org.sylva.balltree.engine.TreeEngine;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;
import org.sylva.parallel.Pools;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Builds Erwin's perfect binary ball trees, and Erwin's rotated-tree partitions, exactly and in parallel.
 *
 * <p>Per batch of {@code m} points in {@code 2^(L+1)} slots ({@link BatchLayout}): every node above the leaves (a
 * leaf is two slots) splits its {@code k} points, two as well as more (two points in four slots become two leaves
 * of one point), along the first dimension with the strictly largest spread {@code max - min} (float64 from the
 * float32 coordinates; all zero: dimension 0); the left child receives the {@code floor(k/2)} points that
 * come first by {@code (coordinate, input index)} (so on equal coordinates the smaller index goes
 * left; {@code -0.0} equals {@code 0.0}), the right child the rest. See {@link BallTree} for the
 * output layout and {@link BatchLayout} for batches. Each split finds the median in {@code O(m)}
 * (from a sample that brackets it, or by radix selection on order-preserving integer keys; then by
 * index where coordinates tie) and partitions in place, with the Vector API where the JVM has it
 * ({@code --add-modules jdk.incubator.vector}; the same trees without it, see {@link #vectorKernels(boolean)});
 * nodes of at most 32 points
 * finish their subtree with fixed sorting networks. No sort of a whole node, no allocation per node or
 * level, extra memory {@code (d + 2) / d} times the input. With several threads the calling thread
 * works as one of them on a small build; a large one (2^17 points and more) is handed to the pool's
 * workers as a whole, the calling thread waiting for it.
 *
 * <p>The result is a pure function of the input: identical for every thread count and every run.
 * A builder keeps the working memory of its last build for the next one of a similar size (builds
 * running concurrently on one builder each get their own); a built {@link BallTree} is immutable.
 *
 * <pre>{@code
 * PointSet pts = PointSet.of(n, 3, coords);
 * BallTree tree = new BallTreeBuilder().threads(2).build(pts, batchIds);   // batchIds: int[] or long[], one id per point (build(pts): one batch)
 * int[] perm = new BallTreeBuilder().partition(pts, batchIds, 4);
 * }</pre>
 */
public final class BallTreeBuilder {
    private int threads = Runtime.getRuntime().availableProcessors();
    private CancellationToken token = CancellationToken.NEVER;
    private ProgressListener listener = ProgressListener.NONE;
    private boolean vectorKernels = true;
    /** The engine builds run on: given ({@link #engine(TreeEngine)}) or the CPU engine of the kernel choice. */
    private volatile TreeEngine engine;
    private boolean engineGiven;

    /** A builder using all available processors, never cancelled, reporting no progress. */
    public BallTreeBuilder() { }

    /** Number of threads (1 = the calling thread only; at most {@link Pools#MAX_WORKERS}). */
    public BallTreeBuilder threads(int threads) {
        this.threads = Pools.checkThreads(threads);
        return this;
    }

    /**
     * Token checked between bounded chunks of work; a cancelled build throws {@code CancelledException}.
     * Interrupting the thread that calls {@code build} or {@code partition} stops it the same way. It serves
     * every build of this builder; threads that share one builder give each build its own token with
     * {@link #build(PointSet, BatchLayout, ProgressListener, CancellationToken)}.
     */
    public BallTreeBuilder cancellation(CancellationToken token) {
        this.token = token == null ? CancellationToken.NEVER : token;
        return this;
    }

    /**
     * Receives the number of points whose leaves (or cells) are final, for every build of this builder (a build's
     * own listener: {@link #build(PointSet, BatchLayout, ProgressListener, CancellationToken)}).
     */
    public BallTreeBuilder progress(ProgressListener listener) {
        this.listener = listener == null ? ProgressListener.NONE : listener;
        return this;
    }

    /**
     * Whether builds use the Vector API kernels where the JVM has them ({@code true}, the default) or the
     * scalar code only ({@code false}). The trees are identical either way; only the time differs. Turn
     * them off in a process that builds one tree or a few: the kernels run many thousands of small calls
     * per build, and until the JIT has compiled them (the first builds of a process) every Vector API
     * operation runs as slow, allocating Java code, so a cold process's first builds are slower with them
     * (figures in BENCHMARKS.md). Once warm, the kernels are faster. The
     * {@code sylva balltree} command, one build per process, runs without them; {@code sylva bench
     * balltree} with them.
     */
    public BallTreeBuilder vectorKernels(boolean use) {
        if (use != vectorKernels && !engineGiven) engine = null;
        this.vectorKernels = use;
        return this;
    }

    /** Worker threads of the builds (every available processor unless set). */
    public int threads() {
        return threads;
    }

    /** Whether builds use the Vector API kernels where the JVM has them (the trees are the same either way). */
    public boolean vectorKernels() {
        return vectorKernels;
    }

    /**
     * True iff builds with {@link #vectorKernels(boolean) vectorKernels(true)} use the Vector API for the
     * partition: {@link KernelProvider} found the module {@code jdk.incubator.vector}, 256-bit vectors and a
     * passing self-test, and the switch {@code -Dsylva.kernels} allows it (the first call loads the kernel
     * and runs its self-test). {@link KernelProvider#describe()} says which kernel runs and why.
     */
    public static boolean vectorKernelsAvailable() {
        return KernelProvider.get().vectorPartitionAvailable();
    }

    /** All points in one batch. */
    public BallTree build(PointSet points) {
        return build(points, BatchLayout.single(checked(points).size()));
    }

    /**
     * Batches from one id per point; see {@link BatchLayout#of(int, int[])}. A null array (a typed variable:
     * a literal {@code null} matches several overloads) means one batch, as {@link #build(PointSet)}.
     */
    public BallTree build(PointSet points, int[] batchIds) {
        return build(points, BatchLayout.of(checked(points).size(), batchIds));
    }

    /** As {@link #build(PointSet, int[])} for 64-bit batch ids. */
    public BallTree build(PointSet points, long[] batchIds) {
        return build(points, BatchLayout.of(checked(points).size(), batchIds));
    }

    /**
     * Builds the tree. Throws {@link InvalidInputException} for NaN or infinite coordinates (naming the
     * first offending row) or a layout for a different number of points. No points: an empty tree.
     */
    public BallTree build(PointSet points, BatchLayout layout) {
        return build(points, layout, listener, token);
    }

    /**
     * As {@link #build(PointSet, BatchLayout)}, reporting to this call's {@code progress} and stopped by this
     * call's {@code cancel} ({@code null}: none) instead of the builder's: threads that share one builder each
     * follow and cancel their own build.
     *
     * <pre>{@code
     * BallTree tree = shared.build(pts, layout, (stage, done, total) -> bar.set(done, total), requestToken);
     * }</pre>
     */
    public BallTree build(PointSet points, BatchLayout layout, ProgressListener progress, CancellationToken cancel) {
        checkLayout(checked(points), layout);
        TreeEngine e = engine();
        TreeEngine.TreeArrays r = e.buildTree(points, layout, execution(progress, cancel));
        if (engineGiven) checkTree(e, layout, r);
        return new BallTree(layout, r.treeIdx(), r.mask());
    }

    /** Erwin's partition of one batch; see {@link #partition(PointSet, BatchLayout, int)}. */
    public int[] partition(PointSet points, int targetLevel) {
        return partition(points, BatchLayout.single(checked(points).size()), targetLevel);
    }

    /** Erwin's partition with batches from ids (a null array: one batch, as {@link #partition(PointSet, int)}). */
    public int[] partition(PointSet points, int[] batchIds, int targetLevel) {
        return partition(points, BatchLayout.of(checked(points).size(), batchIds), targetLevel);
    }

    /** As {@link #partition(PointSet, int[], int)} for 64-bit batch ids. */
    public int[] partition(PointSet points, long[] batchIds, int targetLevel) {
        return partition(points, BatchLayout.of(checked(points).size(), batchIds), targetLevel);
    }

    /**
     * Erwin's rotated-tree partition: the same split rule as the tree, stopping at depth
     * {@code targetLevel} or at a node of at most one point, without padding. Returns a permutation of
     * the rows (global indices, {@code perm[j]} = row placed at position {@code j}); batches keep their
     * positions, cells follow each other in tree order, and inside a cell rows are in increasing order.
     */
    public int[] partition(PointSet points, BatchLayout layout, int targetLevel) {
        return partition(points, layout, targetLevel, listener, token);
    }

    /**
     * As {@link #partition(PointSet, BatchLayout, int)}, with this call's own progress listener and cancellation
     * token ({@code null}: none) instead of the builder's.
     */
    public int[] partition(PointSet points, BatchLayout layout, int targetLevel, ProgressListener progress,
                           CancellationToken cancel) {
        checkLayout(checked(points), layout);
        if (targetLevel < 0) throw new InvalidInputException("target level must be >= 0, got " + targetLevel);
        TreeEngine e = engine();
        int[] perm = e.partition(points, layout, targetLevel, execution(progress, cancel));
        if (engineGiven) checkPartition(e, layout, perm);
        return perm;
    }

    /**
     * Refuses a given engine's tree (a GPU's, a caller's) unless it has the layout's slots and each batch's real
     * slots hold each of its rows once, padding marked 0 and holding one of its rows: a wrong engine would otherwise
     * make a tree that fails, or answers wrongly, long after. O(n); the CPU engine's trees are not checked.
     */
    private static void checkTree(TreeEngine e, BatchLayout layout, TreeEngine.TreeArrays r) {
        int slots = layout.totalSlots();
        if (r == null || r.treeIdx() == null || r.mask() == null || r.treeIdx().length != slots
                || r.mask().length != slots) {
            throw wrongOutput(e, r == null || r.treeIdx() == null || r.mask() == null ? "no tree"
                    : "a tree of " + r.treeIdx().length + " indices and " + r.mask().length + " mask entries", slots
                    + " slots");
        }
        boolean[] seen = new boolean[layout.pointCount()];
        for (int b = 0; b < layout.batchCount(); b++) {
            int from = layout.pointStart(b), to = from + layout.batchSize(b);
            for (int s = layout.slotStart(b), end = s + layout.slotCount(b); s < end; s++) {
                int row = r.treeIdx()[s];
                byte m = r.mask()[s];
                if (row < from || row >= to || (m != 0 && m != 1) || m == 1 && seen[row]) {
                    throw wrongOutput(e, "slot " + s + " holding row " + row + " with mask " + m, "each row of batch "
                            + b + " (rows " + from + " to " + (to - 1) + ") once in its slots marked 1");
                }
                if (m == 1) seen[row] = true;
            }
        }
        for (int row = 0; row < seen.length; row++) {
            if (!seen[row]) throw wrongOutput(e, "a tree without row " + row, "every row in a slot marked 1");
        }
    }

    /** As {@link #checkTree} for a partition: a permutation of the rows that keeps each batch in its positions. */
    private static void checkPartition(TreeEngine e, BatchLayout layout, int[] perm) {
        int n = layout.pointCount();
        if (perm == null || perm.length != n) {
            throw wrongOutput(e, perm == null ? "no partition" : "a partition of " + perm.length + " rows", n + " rows");
        }
        boolean[] seen = new boolean[n];
        for (int b = 0; b < layout.batchCount(); b++) {
            int from = layout.pointStart(b), to = from + layout.batchSize(b);
            for (int j = from; j < to; j++) {
                int row = perm[j];
                if (row < from || row >= to || seen[row]) {
                    throw wrongOutput(e, "row " + row + " at position " + j, "each row of batch " + b + " (rows " + from
                            + " to " + (to - 1) + ") once in its positions");
                }
                seen[row] = true;
            }
        }
    }

    private static IllegalStateException wrongOutput(TreeEngine e, String got, String wanted) {
        return new IllegalStateException("the engine " + e.name() + " returned " + got + "; wanted " + wanted);
    }

    /**
     * Builds run on {@code engine} ({@code null}: the CPU engine of {@link #vectorKernels(boolean)}'s
     * choice, the default). Any engine must give byte-identical trees and partitions. A given engine's trees and
     * partitions are checked to hold each row once, in its batch (an {@code IllegalStateException} naming the engine
     * otherwise); that they are the CPU engine's is for its own tests to show.
     */
    public BallTreeBuilder engine(TreeEngine engine) {
        this.engineGiven = engine != null;
        this.engine = engine;
        return this;
    }

    /** The engine builds run on: the one given, else the CPU engine with this builder's kernel choice. */
    public TreeEngine engine() {
        TreeEngine e = engine;
        if (e == null) {
            e = new CpuTreeEngine(vectorKernels);
            engine = e;
        }
        return e;
    }

    /** This call's execution; a token cancelled already stops the call here, before any workspace is made. */
    private Execution execution(ProgressListener progress, CancellationToken cancel) {
        Execution ex = new Execution(threads, progress == null ? ProgressListener.NONE : progress,
                cancel == null ? CancellationToken.NEVER : cancel);
        ex.cancel().throwIfCancelled();
        return ex;
    }

    private static PointSet checked(PointSet points) {
        if (points == null) throw new InvalidInputException("points are missing (null)");
        return points;
    }

    private static void checkLayout(PointSet points, BatchLayout layout) {
        if (layout == null) throw new InvalidInputException("batch layout is missing (null)");
        if (layout.pointCount() != points.size()) {
            throw new InvalidInputException("batch layout covers " + layout.pointCount() + " points but there are "
                    + points.size());
        }
    }
}
