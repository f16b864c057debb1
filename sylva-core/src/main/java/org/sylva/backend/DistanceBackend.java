package org.sylva.backend;

/**
 * The distance work of the HDBSCAN stages, behind one small interface so that a vector (SIMD) or a
 * device backend slots in without touching the stages. A backend computes tiles of squared Euclidean
 * distances between a few query points and runs of consecutive positions of a {@link PointIndex}; the
 * stages decide what to do with them (nearest lists, cheapest foreign edges), in code shared by every
 * backend, so a decision can never depend on the backend.
 *
 * <p><b>Exactness contract.</b> Every squared distance is bitwise equal to the reference arithmetic:
 * {@code s = 0; for j = 0 .. d-1 in order: t = a_j - b_j; s = s + t * t} in float64, a multiply then an
 * add (no fused multiply-add). Implementations obtain speed by computing many pairs at once, never by
 * reordering or fusing this sum.
 *
 * <pre>{@code
 * DistanceBackend b = Backends.best();
 * PointIndex idx = PointIndex.build(points, b);
 * double[] tile = new double[b.tileLength(2, 1, idx)];
 * b.squaredDistances(idx, new int[] {0, 1}, 2, 0, 1, tile);   // 2 queries x W positions of block 0
 * }</pre>
 */
public interface DistanceBackend {
    /** A short name: {@code "scalar"} or {@code "simd"}. */
    String name();

    /**
     * Positions per interleaved block that this backend's kernel consumes; a {@link PointIndex} must be
     * built with the same width ({@link PointIndex#build(org.sylva.data.PointSet, DistanceBackend)} does).
     */
    int blockWidth();

    /** Query rows a tile may write: {@code nq} rounded up to the register block (the kernel may repeat the last query). */
    default int paddedQueries(int nq) {
        return (nq + 3) & ~3;
    }

    /** The length a tile buffer needs for {@code nq} queries against {@code blocks} blocks of {@code idx}. */
    default int tileLength(int nq, int blocks, PointIndex idx) {
        return paddedQueries(nq) * blocks * idx.blockWidth();
    }

    /**
     * Squared distances of the query positions {@code queries[0 .. nq-1]} to every position of the blocks
     * {@code blockFrom .. blockTo-1}: {@code out[q * stride + (pos - blockFrom * W)]} with
     * {@code stride = (blockTo - blockFrom) * W}. Padding positions get some value that callers must
     * ignore. Rows {@code nq .. paddedQueries(nq)-1} may be overwritten.
     */
    void squaredDistances(PointIndex idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out);

    /**
     * Squared distances from the centre of partition node {@code node} to every position of the blocks
     * {@code blockFrom .. blockTo-1}: {@code out[pos - blockFrom * W]}. Used only for lower bounds (with a
     * safety margin), so any float64 arithmetic would do; both backends use the reference order anyway.
     */
    void centreDistances(PointIndex idx, int node, int blockFrom, int blockTo, double[] out);
}
