package org.sylva.balltree.engine;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.PartitionKernel;
import org.sylva.parallel.Execution;

/**
 * The CPU tree engine: splits every node with an {@code O(m)} median selection and an in-place
 * partition ({@link SplitWorkspace}), on every core ({@link TreeBuild}), with the ball tree's kernels
 * from {@link KernelProvider}: the vector ones where allowed and usable, else their scalar twins. The
 * trees are the same either way.
 *
 * <p>An engine keeps the working memory of its last build for the next one of a similar size (builds
 * running concurrently on one engine each get their own). Thread-safe.
 *
 * <pre>{@code
 * TreeEngine cpu = new CpuTreeEngine(true);   // false: scalar kernels only
 * int[] perm = cpu.partition(points, BatchLayout.single(n), 4, Execution.sequential());
 * }</pre>
 */
public final class CpuTreeEngine implements TreeEngine {
    private final boolean vectorKernels;
    private final PartitionKernel kernel;
    /** Working memory of the last build, reused by the next one of a similar size (taken, not shared). */
    private final AtomicReference<SplitWorkspace> spare = new AtomicReference<>();

    /** An engine that uses the vector kernels where usable ({@code vectorKernels}) or the scalar twins only. */
    public CpuTreeEngine(boolean vectorKernels) {
        this.vectorKernels = vectorKernels;
        this.kernel = KernelProvider.get().partition(vectorKernels);
    }

    @Override
    public String name() {
        return "cpu/" + kernel.name();
    }

    @Override
    public TreeArrays buildTree(PointSet points, BatchLayout layout, Execution execution) {
        SplitWorkspace ws = workspace(points);
        TreeBuild b = new TreeBuild(points, layout, true, 0, execution, ws);
        b.run(points);
        spare.set(ws);
        return new TreeArrays(b.treeIdx(), b.mask());
    }

    @Override
    public int[] partition(PointSet points, BatchLayout layout, int targetLevel, Execution execution) {
        SplitWorkspace ws = workspace(points);
        new TreeBuild(points, layout, false, targetLevel, execution, ws).run(points);
        int[] perm = Arrays.copyOf(ws.idx, points.size());
        spare.set(ws);
        return perm;
    }

    /** A tree built in the given workspace (tests: a workspace of a chosen kernel). */
    static TreeArrays buildTree(PointSet points, BatchLayout layout, Execution execution, SplitWorkspace ws) {
        TreeBuild b = new TreeBuild(points, layout, true, 0, execution, ws);
        b.run(points);
        return new TreeArrays(b.treeIdx(), b.mask());
    }

    /** A partition computed in the given workspace (tests). */
    static int[] partition(PointSet points, BatchLayout layout, int targetLevel, Execution execution,
                           SplitWorkspace ws) {
        new TreeBuild(points, layout, false, targetLevel, execution, ws).run(points);
        return Arrays.copyOf(ws.idx, points.size());
    }

    /** The last build's working memory if it fits this build, else a new one. */
    private SplitWorkspace workspace(PointSet points) {
        SplitWorkspace ws = spare.getAndSet(null);
        if (ws != null && ws.fits(points.size(), points.dimensions())) return ws;
        return new SplitWorkspace(points.size(), points.dimensions(), kernel, vectorKernels);
    }
}
