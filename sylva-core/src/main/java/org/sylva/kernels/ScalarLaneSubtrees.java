package org.sylva.kernels;

/**
 * The scalar twin of {@link LaneSubtrees}: finishes the eight nodes one after another with
 * {@link SmallSubtree}, writing the same leaves as the vector implementation. Accepts every build.
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

    @Override
    public boolean accepts(int n, int d) {
        return d >= 1;
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
