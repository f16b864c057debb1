package org.sylva.kernels;

/**
 * The per-point loops of a ball-tree split: the partition of a node around its pivot, all columns
 * together ({@link #partition}); the count-and-gather pass of the median selection
 * ({@link #countAndGather}); the extremes of a node ({@link #minMax}); and the copy of
 * three-dimensional rows into key columns ({@link #copyRows3}). The tree engine's workspace calls these
 * and nothing else hardware-specific.
 *
 * <p>Two implementations, chosen by {@link KernelProvider#partition(boolean)}: {@link ScalarPartitionKernel}
 * (plain Java, always available) and {@code VectorPartitionKernel} (Vector API, 256-bit integer
 * vectors). The order of the points inside each side of a partition differs between the two, but
 * nothing downstream depends on it: every later split is a function of a node's set of points, and
 * leaves are written in index order. Trees are byte-identical.
 *
 * <pre>{@code
 * PartitionKernel k = KernelProvider.get().partition(true);
 * int mid = k.partition(cols, idx, s, s + m / 2, e, cols[dim], pc, pi, ties, buffer);
 * }</pre>
 */
public interface PartitionKernel {
    /** A short name: {@code "scalar"} or {@code "vector"}. */
    String name();

    /**
     * Partitions {@code [s, e)} in place (at least two points; the vector kernel needs at least
     * {@link #minPoints()}): afterwards the {@code mid - s}
     * points before the pivot come first. "Before" is {@code x < pc}, or with {@code ties}
     * {@code x < pc || (x == pc && idx < pi)}. Every column of {@code cols} and {@code idx} moves with its
     * point; {@code x} is one of {@code cols}. {@code buffer} holds at least {@link #bufferInts(int)} ints.
     * Returns the first position of the right side, which is {@code mid} for a correct pivot.
     */
    int partition(int[][] cols, int[] idx, int s, int mid, int e, int[] x, int pc, int pi, boolean ties,
                  int[] buffer);

    /**
     * Counts the keys of {@code x[s..e)} below {@code a} and writes the positions {@code i} with
     * {@code a <= x[i] <= b}, in increasing order, to {@code cand[s..s+c)}; positions of
     * {@code cand[s..e)} past those may be overwritten. Returns {@code (below << 32) | c}.
     */
    long countAndGather(int[] x, int s, int e, int a, int b, int[] cand);

    /**
     * True when {@link #countAndGather} is cheap enough (one vector pass) that the median search should
     * bracket the median from a sample and gather the bracket's points, rather than store bucket numbers
     * and scan them again. A property of the implementation's speed, never of its results.
     */
    boolean gathersFast();

    /**
     * The smallest and the largest key of {@code x[s..e)} ({@code e > s}), packed as
     * {@code (max << 32) | (min & 0xffffffffL)}: the extremes behind a node's spread.
     */
    long minMax(int[] x, int s, int e);

    /**
     * Copies rows {@code [from, to)} of the row-major three-dimensional {@code coords} to the key columns
     * {@code c0, c1, c2} ({@link OrderedBits}), and sets {@code idx[p] = p}. Returns a value whose sign bit
     * is set iff some copied coordinate is NaN or infinite.
     */
    int copyRows3(float[] coords, int from, int to, int[] c0, int[] c1, int[] c2, int[] idx);

    /**
     * Smallest node the tree engine hands to this kernel; it partitions smaller nodes with
     * {@link ScalarPartitionKernel#blockPartition} itself. The vector kernel needs a few vectors of
     * points; the scalar twin says {@link Integer#MAX_VALUE}, since its partition is that same block
     * partition and the direct call saves a dispatch per node (measured: BENCHMARKS.md, "The reshape").
     */
    int minPoints();

    /** Ints of buffer needed for {@code columns} columns (coordinates and the index column). */
    int bufferInts(int columns);
}
