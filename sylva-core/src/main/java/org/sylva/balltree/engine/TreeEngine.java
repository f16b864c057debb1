package org.sylva.balltree.engine;

import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.parallel.Execution;

/**
 * The stage-level seam of the ball tree: an engine builds Erwin's perfect binary ball trees, or Erwin's
 * rotated-tree partitions, for every batch of a point set. {@link CpuTreeEngine} is the CPU engine; a
 * GPU or distributed engine implements the same two calls and must give byte-identical arrays. Input
 * checks (null, layout size, target level) are the caller's ({@code BallTreeBuilder}); an engine throws
 * {@code InvalidInputException} for NaN or infinite coordinates, naming the first offending row.
 *
 * <pre>{@code
 * TreeEngine engine = new CpuTreeEngine(true);
 * TreeArrays t = engine.buildTree(points, BatchLayout.single(n), Execution.sequential());
 * }</pre>
 */
public interface TreeEngine {
    /** A short name for logs and benchmarks, for example {@code "cpu/vector"}. */
    String name();

    /** The tree's slot arrays for every batch of {@code layout} (see {@code BallTree} for the layout). */
    TreeArrays buildTree(PointSet points, BatchLayout layout, Execution execution);

    /**
     * Erwin's partition: the same split rule as the tree, stopping at depth {@code targetLevel} or at a
     * node of at most one point; a permutation of the rows (global indices), cells in tree order, rows
     * in increasing order inside a cell.
     */
    int[] partition(PointSet points, BatchLayout layout, int targetLevel, Execution execution);

    /**
     * The slot arrays of a built tree: {@code treeIdx[slot]} the global row in that slot,
     * {@code mask[slot]} 1 for a real point and 0 for padding. Owned by the caller.
     */
    record TreeArrays(int[] treeIdx, byte[] mask) { }
}
