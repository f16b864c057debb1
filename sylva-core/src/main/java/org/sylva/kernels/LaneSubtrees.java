package org.sylva.kernels;

import java.lang.reflect.Constructor;

/**
 * Finishes {@link #LANES} small subtrees of the same size at once, down to their leaves. Near the leaves
 * a tree has very many nodes of a few points each (512 nodes of 32 points in a 16 384-point batch); all
 * nodes of one depth of a batch hold {@code q} or {@code q + 1} points, so eight nodes of equal size
 * always have the same shape of subtree: the same child sizes at every level, and the same comparator
 * networks. The vector implementation ({@code VectorLaneSubtrees}) runs them side by side in the lanes of
 * a vector, which costs about as much as running one; the scalar twin ({@link ScalarLaneSubtrees})
 * finishes them one after another with {@link SmallSubtree}.
 *
 * <p>Both are the same function of each node's points (tests check it node by node and tree by tree),
 * so which one ran never shows in a tree. Each instance holds its own buffers: one per thread, from
 * {@link KernelProvider#newLanes(boolean)}.
 *
 * <pre>{@code
 * LaneSubtrees lanes = KernelProvider.get().newLanes(true);
 * if (lanes.accepts(n, d)) lanes.finish(cols, idx, starts, m, span, slots, treeIdx, mask);
 * }</pre>
 */
public interface LaneSubtrees {
    /** Nodes finished per call. */
    int LANES = 8;
    /** Largest node accepted (its subtree owns 32 slots). */
    int MAX = 32;
    /** Smallest node accepted (two points in four slots: one split above the leaves). */
    int MIN = 2;

    /** A short name: {@code "scalar"} or {@code "vector"}. */
    String name();

    /** True iff nodes of a build of {@code n} points in {@code d} dimensions can be finished here. */
    boolean accepts(int n, int d);

    /**
     * Finishes the {@link #LANES} nodes of {@code m} points at working positions
     * {@code [starts[l], starts[l] + m)} of the key columns {@code cols} (one per dimension, see
     * {@link OrderedBits}) and the row column {@code idx}: node {@code l}'s subtree owns the {@code span}
     * slots from {@code slots[l]} of {@code treeIdx} and {@code mask} ({@code span} a power of two from 4
     * to {@link #MAX}, {@code span / 2 <= m <= span}: a node at a given depth of a batch holds at least half
     * and at most all of its slots), written exactly as the tree rule says (leaves of two points in index
     * order, one-point leaves {@code [p, p]} with mask {@code [1, 0]}). The columns are only read.
     */
    void finish(int[][] cols, int[] idx, int[] starts, int m, int span, int[] slots, int[] treeIdx, byte[] mask);

    /** Checks {@code span / 2 <= m <= span} with {@code span} a power of two in {@code [4, MAX]}. */
    static void checkShape(int m, int span) {
        if (span < 4 || span > MAX || Integer.bitCount(span) != 1 || m < span / 2 || m > span) {
            throw new IllegalArgumentException("lane subtrees need span/2 <= m <= span, span a power of two in [4, 32]: m "
                    + m + ", span " + span);
        }
    }
}
