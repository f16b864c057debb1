package org.sylva.balltree;

import java.lang.reflect.Constructor;

/**
 * Finishes {@link #LANES} small subtrees of the same size at once, one per vector lane, down to their
 * leaves. Near the leaves a tree has very many nodes of a few points each (512 nodes of 32 points in a
 * 16 384-point batch); {@link SmallSubtree} handles them one at a time and spends most of its time on
 * per-node overhead. All nodes of one depth of a batch hold {@code q} or {@code q + 1} points, so eight
 * nodes of equal size always have the same shape of subtree: the same child sizes at every level, and
 * the same comparator networks. Running them side by side in the lanes of a vector costs about as much
 * as running one.
 *
 * <p>The result is the same function of each node's points as {@link SmallSubtree}'s (tests check it
 * node by node and tree by tree), so whether a node is finished here or there never shows in a tree.
 * Only the vector implementation ({@code VectorLaneSubtrees}, Vector API) exists; it is loaded
 * reflectively, like {@link PartitionKernel#best()}, and {@link #create()} returns {@code null} where
 * the Vector API or 256-bit vectors are missing or {@code sylva.balltree.scalar=true} is set. Each
 * instance holds its own buffers: one per thread.
 *
 * <pre>{@code
 * LaneSubtrees lanes = LaneSubtrees.create();          // null: finish nodes one by one
 * if (lanes != null && lanes.accepts(n, d)) lanes.finish(ws, starts, m, span, slots, treeIdx, mask);
 * }</pre>
 */
interface LaneSubtrees {
    /** Nodes finished per call. */
    int LANES = 8;
    /** Largest node accepted (its subtree owns 32 slots). */
    int MAX = 32;
    /** Smallest node accepted (two points in four slots: one split above the leaves). */
    int MIN = 2;

    /** True iff nodes of a build of {@code n} points in {@code d} dimensions can be finished here. */
    boolean accepts(int n, int d);

    /**
     * Finishes the {@link #LANES} nodes of {@code m} points at working positions
     * {@code [starts[l], starts[l] + m)} of {@code ws}: node {@code l}'s subtree owns the {@code span}
     * slots from {@code slots[l]} of {@code treeIdx} and {@code mask} ({@code span} a power of two from 4
     * to {@link #MAX}, {@code span / 2 <= m <= span}: a node at a given depth of a batch holds at least half
     * and at most all of its slots), written exactly as the tree rule says (leaves of two points in index
     * order, one-point leaves {@code [p, p]} with mask {@code [1, 0]}). The workspace is only read.
     */
    void finish(SplitWorkspace ws, int[] starts, int m, int span, int[] slots, int[] treeIdx, byte[] mask);

    /** A new instance (its own buffers), or {@code null} where no vector implementation is available. */
    static LaneSubtrees create() {
        Constructor<?> c = Holder.CONSTRUCTOR;
        if (c == null) return null;
        try {
            return (LaneSubtrees) c.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Finds the vector implementation once and checks that it runs; any failure means "none". */
    final class Holder {
        static final Constructor<?> CONSTRUCTOR = load();

        private Holder() { }

        private static Constructor<?> load() {
            // The first instance has run the class's self-test; later ones (one per thread) are plain.
            Object first = VectorKernels.load("org.sylva.balltree.VectorLaneSubtrees");
            try {
                return first == null ? null : first.getClass().getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
    }
}
