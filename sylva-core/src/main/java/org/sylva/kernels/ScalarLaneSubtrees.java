package org.sylva.kernels;

/**
 * The scalar twin of {@link LaneSubtrees}: finishes the eight nodes one after another with
 * {@link SmallSubtree}, writing the same leaves as the vector implementation (the vector kernel's
 * self-test and the tests compare against it). It {@linkplain #accepts accepts} no build: without vector
 * lanes, gathering eight nodes of one shape first gains nothing, so the tree engine finishes each node
 * directly with {@link SmallSubtree} when this is the kernel in use (queueing them measured slower:
 * BENCHMARKS.md, "The reshape").
 *
 * <pre>{@code
 * LaneSubtrees lanes = new ScalarLaneSubtrees();   // or KernelProvider.get().newLanes(false)
 * }</pre>
 */
public final class ScalarLaneSubtrees implements LaneSubtrees {
    private final SmallSubtree small = new SmallSubtree();

    @Override
    public String name() {
        return "scalar";
    }

    /** False: the engine finishes nodes one by one instead (see the class comment); {@link #finish} still works. */
    @Override
    public boolean accepts(int n, int d) {
        return false;
    }

    @Override
    public void finish(int[][] cols, int[] idx, int[] starts, int m, int span, int[] slots, int[] treeIdx, byte[] mask) {
        LaneSubtrees.checkShape(m, span);
        int levels = Integer.numberOfTrailingZeros(span) - 1;
        for (int l = 0; l < LANES; l++) {
            int leaves = small.run(cols, idx, starts[l], m, levels);
            small.writeLeaves(leaves, slots[l], treeIdx, mask);
        }
    }
}
