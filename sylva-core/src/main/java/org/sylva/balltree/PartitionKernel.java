package org.sylva.balltree;

/**
 * The inner loop of a split: moves the points of a node that come before the pivot to the node's front,
 * all columns together. The same kernel also serves the workspace's other per-point loops that the JIT
 * does not vectorise well on its own: the extremes of a small node ({@link #minMax}) and the copy of
 * three-dimensional rows into key columns ({@link #copyRows3}). {@link SplitWorkspace} partitions nodes
 * of at least {@link #minPoints()} points with {@link #best()}, and uses its own scalar loops below that
 * or where no vector kernel exists.
 *
 * <p>Chosen once, at start-up, the way {@code org.sylva.backend.Backends} chooses the distance backend:
 * the vector kernel ({@code VectorPartition}, Vector API) is loaded reflectively, and only when the
 * module {@code jdk.incubator.vector} is in the boot layer and the CPU has 256-bit integer vectors;
 * otherwise {@link #best()} is {@code null} and the scalar partition is used (the system property
 * {@code sylva.balltree.scalar=true} forces that, for comparisons). The order of the points
 * inside each side differs between the two, but nothing downstream depends on it: every later split is
 * a function of a node's set of points, and leaves are written in index order. Trees are byte-identical.
 *
 * <pre>{@code
 * PartitionKernel k = PartitionKernel.best();   // null: use the scalar partition
 * int mid = k.partition(cols, idx, s, e, cols[dim], pc, pi, ties, buffer);
 * }</pre>
 */
interface PartitionKernel {
    /**
     * Partitions {@code [s, e)} in place ({@code e - s >= minPoints()}): afterwards the points before the
     * pivot come first. "Before" is {@code x < pc}, or with {@code ties} {@code x < pc || (x == pc && idx < pi)}.
     * Every column of {@code cols} and {@code idx} moves with its point; {@code x} is one of {@code cols}.
     * {@code buffer} holds at least {@link #bufferInts(int)} ints. Returns the first position of the right side.
     */
    int partition(int[][] cols, int[] idx, int s, int e, int[] x, int pc, int pi, boolean ties, int[] buffer);

    /**
     * Counts the keys of {@code x[s..e)} below {@code a} and writes the positions {@code i} with
     * {@code a <= x[i] <= b}, in increasing order, to {@code cand[s..s+c)}; positions of
     * {@code cand[s..e)} past those may be overwritten. Returns {@code (below << 32) | c}.
     */
    long countAndGather(int[] x, int s, int e, int a, int b, int[] cand);

    /**
     * The smallest and the largest key of {@code x[s..e)} ({@code e > s}), packed as
     * {@code (max << 32) | (min & 0xffffffffL)}: the extremes behind a node's spread.
     */
    long minMax(int[] x, int s, int e);

    /**
     * {@link SplitWorkspace#copyRows} for three dimensions: rows {@code [from, to)} of the row-major
     * {@code coords} to the key columns {@code c0, c1, c2} ({@link OrderedBits}), and {@code idx[p] = p}.
     * Returns a value whose sign bit is set iff some copied coordinate is NaN or infinite.
     */
    int copyRows3(float[] coords, int from, int to, int[] c0, int[] c1, int[] c2, int[] idx);

    /** Smallest node this kernel accepts. */
    int minPoints();

    /** Ints of buffer needed for {@code columns} columns (coordinates and the index column). */
    int bufferInts(int columns);

    /** The vector kernel, or {@code null} where the Vector API or 256-bit vectors are missing. */
    static PartitionKernel best() {
        return Holder.BEST;
    }

    /** Loads the vector kernel once; any failure means "no vector kernel", never an error. */
    final class Holder {
        static final PartitionKernel BEST = load();

        private Holder() { }

        private static PartitionKernel load() {
            return (PartitionKernel) VectorKernels.load("org.sylva.balltree.VectorPartition");
        }
    }
}
