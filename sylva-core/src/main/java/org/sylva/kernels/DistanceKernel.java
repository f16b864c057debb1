package org.sylva.kernels;

/**
 * The distance work of the HDBSCAN stages, behind one small interface so that a vector (SIMD) or a
 * device backend slots in without touching the stages. A backend computes tiles of squared Euclidean
 * distances between a few query points and runs of consecutive positions of a {@link BlockedPoints} view (the HDBSCAN index); the
 * stages decide what to do with them (nearest lists, cheapest foreign edges), in code shared by every
 * backend, so a decision can never depend on the backend.
 *
 * <p><b>Exactness contract.</b> Every squared distance is bitwise equal to the reference arithmetic:
 * {@code s = 0; for j = 0 .. d-1 in order: t = a_j - b_j; s = s + t * t} in float64, a multiply then an
 * add (no fused multiply-add). Implementations obtain speed by computing many pairs at once, never by
 * reordering or fusing this sum.
 *
 * <pre>{@code
 * DistanceKernel b = KernelProvider.get().bestDistance();
 * BlockedPoints idx = PointIndex.build(points, b);
 * double[] tile = new double[b.tileLength(2, 1, idx)];
 * b.squaredDistances(idx, new int[] {0, 1}, 2, 0, 1, tile);   // 2 queries x W positions of block 0
 * }</pre>
 */
public interface DistanceKernel {
    /** A short name: {@code "scalar"} or {@code "simd"}. */
    String name();

    /**
     * Positions per interleaved block that this backend's kernel consumes; the
     * {@link BlockedPoints} it reads must use the same width (the HDBSCAN index is built with it).
     */
    int blockWidth();

    /**
     * True when this kernel can read a {@link BlockedPoints} of block width {@code width}: the vector
     * kernel only its own width, the scalar kernel any (it loops over the width it is given), so one index
     * can serve stages that run different kernels.
     */
    default boolean readsBlockWidth(int width) {
        return width == blockWidth();
    }

    /** Query rows a tile may write: {@code nq} rounded up to the register block (the kernel may repeat the last query). */
    default int paddedQueries(int nq) {
        return (nq + 3) & ~3;
    }

    /** The length a tile buffer needs for {@code nq} queries against {@code blocks} blocks of {@code idx}. */
    default int tileLength(int nq, int blocks, BlockedPoints idx) {
        return paddedQueries(nq) * blocks * idx.blockWidth();
    }

    /**
     * Squared distances of the query positions {@code queries[0 .. nq-1]} to every position of the blocks
     * {@code blockFrom .. blockTo-1}: {@code out[q * stride + (pos - blockFrom * W)]} with
     * {@code stride = (blockTo - blockFrom) * W}. Padding positions get some value that callers must
     * ignore. Rows {@code nq .. paddedQueries(nq)-1} may be overwritten.
     */
    void squaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out);

    /**
     * As {@link #squaredDistances}, for a caller that compares each value of row {@code r} with the row's
     * {@code rowLimits[r]} only and skips the values above it: every value at most {@code rowLimits[r]} is
     * exactly the one {@link #squaredDistances} writes; a value above it may instead be any value still above
     * it. A kernel may therefore stop summing a group of pairs once all their partial sums exceed the limit:
     * the terms are non-negative and each addition rounds monotonically, so a partial sum never exceeds the
     * full one. The default computes every value in full.
     */
    default void squaredDistancesWithin(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                        double[] rowLimits, double[] out) {
        squaredDistances(idx, queries, nq, blockFrom, blockTo, out);
    }

    /**
     * As {@link #squaredDistancesWithin}, for tiles of at most 64 columns ({@code (blockTo - blockFrom) W <= 64},
     * one leaf of the index), also writing which values of each row are within its limit: bit {@code c} of
     * {@code selected[r]} is set exactly when {@code out[r * stride + c] <= rowLimits[r]} (those values are the
     * exact ones; a padding position's bit may be set too, callers mask it). {@code rowLimits} and
     * {@code selected} hold {@code paddedQueries(nq)} rows. The vector kernel compares its sums while they are
     * still in registers, which spares its callers a pass over each row; the default computes the tile, then
     * compares value by value.
     */
    default void squaredDistancesSelected(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                          double[] rowLimits, double[] out, long[] selected) {
        int stride = (blockTo - blockFrom) * idx.blockWidth();
        if (stride > Long.SIZE) throw new IllegalArgumentException("more than 64 columns in a selected tile");
        squaredDistancesWithin(idx, queries, nq, blockFrom, blockTo, rowLimits, out);
        for (int r = 0; r < nq; r++) {
            double limit = rowLimits[r];
            long bits = 0;
            for (int c = 0, o = r * stride; c < stride; c++, o++) {
                if (out[o] <= limit) bits |= 1L << c;
            }
            selected[r] = bits;
        }
    }

    /**
     * Squared distances from a point that is not one of the view's, {@code q[off .. off + d)} (a new point
     * searched against a fitted index), to every position of the blocks {@code blockFrom .. blockTo-1}:
     * {@code out[pos - blockFrom * W]}. As in {@link #squaredDistancesWithin}, every value at most
     * {@code limit} is exactly the reference value ({@code t = q_j - x_j} summed in coordinate order); a value
     * above it may instead be any value still above it, so a kernel may stop summing a block once all its
     * partial sums exceed the limit. Padding positions get some value that callers must ignore.
     */
    void pointSquaredDistancesWithin(double[] q, int off, BlockedPoints idx, int blockFrom, int blockTo, double limit,
                                     double[] out);

    /**
     * Squared distances from the centre of partition node {@code node} to every position of the blocks
     * {@code blockFrom .. blockTo-1}: {@code out[pos - blockFrom * W]}. Used only for lower bounds (with a
     * safety margin), so any float64 arithmetic would do; both backends use the reference order anyway.
     */
    void centreDistances(BlockedPoints idx, int node, int blockFrom, int blockTo, double[] out);

    /**
     * The squared distance between {@code d} float64 values of {@code x} from {@code ox} and of {@code y}
     * from {@code oy} (two rows, such as two node centres), in any summation order: for bounds that carry a
     * safety margin, never for a decision. The default is {@link #rowSquaredDistanceScalar}; a vector
     * backend sums across the coordinates.
     */
    default double rowSquaredDistance(double[] x, int ox, double[] y, int oy, int d) {
        return rowSquaredDistanceScalar(x, ox, y, oy, d);
    }

    /** {@link #rowSquaredDistance} in four interleaved partial sums: the scalar form, for any backend. */
    static double rowSquaredDistanceScalar(double[] x, int ox, double[] y, int oy, int d) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            double t0 = x[ox + j] - y[oy + j];
            double t1 = x[ox + j + 1] - y[oy + j + 1];
            double t2 = x[ox + j + 2] - y[oy + j + 2];
            double t3 = x[ox + j + 3] - y[oy + j + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        for (; j < d; j++) {
            double t = x[ox + j] - y[oy + j];
            s0 += t * t;
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * True when {@link #approximateSquaredDistances} is implemented: a cheap float32 pre-filter whose error
     * is bounded by {@link #approximationError}. The stages then compute the exact value only for pairs
     * the bound cannot rule out, so results stay exactly those of the float64 reference.
     */
    default boolean approximates() {
        return false;
    }

    /**
     * True when {@link #approximateSquaredDistances} sums the squares of per-coordinate float32 differences
     * (in any order, fused or not), so that on an {@link IntegerGrid} every approximation is exact. A kernel
     * that expands {@code |x|^2 + |y|^2 - 2 x.y} must say false.
     */
    default boolean approximatesByDifferences() {
        return false;
    }

    /**
     * The relative error bound {@code eps} of approximate squared distances in {@code d} dimensions: for
     * every pair, with {@code s} the reference float64 value and {@code a} the approximation,
     * {@code a <= s * (1 + eps) + APPROXIMATION_ABSOLUTE} and {@code s <= a * (1 + eps) + APPROXIMATION_ABSOLUTE}.
     *
     * <p>Why it holds (inputs exactly float32, {@code |x| <=} {@link #FLOAT32_LIMIT}, unit roundoff
     * {@code u = 2^-24}): each float32 difference is {@code (a_j - b_j)(1 + d1)}, its square adds at most
     * two roundings and each of the {@code d} additions one, so {@code a} lies within
     * {@code (1 +- u)^(2d + 2)} of the exact real sum (all terms are non-negative, so there is no
     * cancellation); the float64 reference lies within {@code (1 +- 2^-53)^d} of it; underflow adds at most
     * {@code d * 2^-149} in absolute terms. {@code 1.01 (2d + 4) u} covers both relative factors.
     */
    static double approximationError(int d) {
        return 1.01 * (2.0 * d + 4.0) * 0x1p-24;
    }

    /** Largest coordinate magnitude for which the float32 copy and its pre-filter are kept. */
    double FLOAT32_LIMIT = 1e15;

    /** Absolute slack of the approximation bound (float32 underflow). */
    double APPROXIMATION_ABSOLUTE = 1e-36;

    /**
     * Float32 approximations of {@link #squaredDistances}, same shape, within {@link #approximationError}.
     * Requires {@link BlockedPoints#hasFloat32()}; unsupported unless {@link #approximates()}.
     */
    default void approximateSquaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                             float[] out) {
        throw new UnsupportedOperationException(name() + " has no approximate distances");
    }

    /**
     * As {@link #approximateSquaredDistances}, for a caller that reads a value only to compare it with two
     * limits: its row's {@code rowLimits[r]} ({@code r < nq}) and its column's {@code colLimits[c]} ({@code c}
     * a column of the tile, {@code c < (blockTo - blockFrom) * blockWidth()}; {@code -inf} for a side that
     * reads nothing). Every value at most {@code max(rowLimits[r], colLimits[c])} is exactly the one
     * {@link #approximateSquaredDistances} writes; a value above it may instead be any float32 value still
     * above it. A kernel may therefore stop summing a group of pairs once all their partial sums exceed their
     * limits: the terms are non-negative and each addition rounds monotonically, so a partial sum never
     * exceeds the full one, and nothing a caller keeps changes.
     *
     * <p>It also writes {@code rowBlocks[r]} for every row {@code r < nq}: bit {@code i} is clear only if
     * every value of row {@code r} in block {@code blockFrom + i} is above
     * {@code max(rowLimits[r], colLimits[c])} for its column {@code c}, as in a block that stopped early. A
     * caller that compares with limits at most these may skip those blocks
     * ({@link #select(float[], int, int, double, long, int[])}): they hold nothing it keeps. Tiles of at most
     * 64 blocks only. The default computes every value in full and sets every bit.
     */
    default void approximateSquaredDistancesWithin(BlockedPoints idx, int[] queries, int nq, int blockFrom,
                                                   int blockTo, float[] rowLimits, float[] colLimits, float[] out,
                                                   long[] rowBlocks) {
        if (blockTo - blockFrom > Long.SIZE) throw new IllegalArgumentException("more than 64 blocks in a tile");
        approximateSquaredDistances(idx, queries, nq, blockFrom, blockTo, out);
        java.util.Arrays.fill(rowBlocks, 0, nq, -1L);
    }

    /**
     * As {@link #approximateSquaredDistances}, with rows that are not the index's points (new points against
     * fitted ones): their float32 copies lie in {@code rows}, blocks laid out as the index's own copy
     * ({@link BlockedPoints#blocks32()}: the same coordinate order, shift and block width), and row
     * {@code r < nq} of the tile is the point at position {@code positions[r]} of those blocks. The error
     * bound widens by both copies' rounding ({@link ApproximationBound}). Unsupported unless
     * {@link #approximates()}.
     */
    default void approximateRowSquaredDistances(float[] rows, int[] positions, int nq, BlockedPoints idx,
                                                int blockFrom, int blockTo, float[] out) {
        throw new UnsupportedOperationException(name() + " has no approximate distances");
    }

    /**
     * {@link #approximateRowSquaredDistances} for a caller that compares each value with its row's limit
     * ({@code rowLimits[r] >= 0}; columns have none), under the contract of
     * {@link #approximateSquaredDistancesWithin}: a value within its limit is exact, one above may be a
     * partial sum, and {@code rowBlocks} marks the blocks summed in full.
     */
    default void approximateRowSquaredDistancesWithin(float[] rows, int[] positions, int nq, BlockedPoints idx,
                                                      int blockFrom, int blockTo, float[] rowLimits, float[] out,
                                                      long[] rowBlocks) {
        throw new UnsupportedOperationException(name() + " has no approximate distances");
    }

    /**
     * The column side of a tile of {@code rows} rows, row {@code r} at {@code values[from + r stride]}: writes
     * to {@code out} the offsets {@code c} in {@code [0, count)}, ascending, of the columns where some row holds
     * {@code values[from + r stride + c] <= limits[c]}, and returns how many. Bit {@code i} of
     * {@code rowBlocks[r]} covers offsets {@code i W .. i W + W - 1} of row {@code r}; the caller guarantees (as
     * {@link #approximateSquaredDistancesWithin} does) that a clear block holds only values above
     * {@code limits}, so a block set in no row is not read, and one set in some row may be read in all.
     * The vector form takes, per block, the minimum over the rows and compares it once: few columns of a tile
     * hold a value within their limits.
     */
    default int selectColumns(float[] values, int from, int stride, int rows, long[] rowBlocks, float[] limits,
                              int count, int[] out) {
        int w = blockWidth();
        int n = 0;
        for (int c = 0; c < count; c++) {
            long bit = 1L << (c / w);
            for (int r = 0; r < rows; r++) {
                if ((rowBlocks[r] & bit) != 0 && values[from + r * stride + c] <= limits[c]) {
                    out[n++] = c;
                    break;
                }
            }
        }
        return n;
    }

    /**
     * Writes to {@code out} the offsets {@code c} in {@code [0, count)}, ascending, of the values
     * {@code values[from + c] <= limit}, and returns how many; it may also list a few values slightly above
     * {@code limit} (vector compares in float32 round the limit up), never miss one, so callers re-check.
     * {@code from} is a multiple of {@link #blockWidth()} and {@code values} holds whole blocks from there.
     */
    default int select(float[] values, int from, int count, double limit, int[] out) {
        int n = 0;
        for (int c = 0; c < count; c++) {
            if (values[from + c] <= limit) out[n++] = c;
        }
        return n;
    }

    /**
     * As {@link #select(float[], int, int, double, int[])}, reading only the blocks whose bit is set in
     * {@code blocks} (bit {@code i}: offsets {@code i W .. i W + W - 1}): the caller knows that the other blocks
     * hold no value within the limit ({@link #approximateSquaredDistancesWithin}'s {@code rowBlocks}), so the
     * result is the same.
     */
    default int select(float[] values, int from, int count, double limit, long blocks, int[] out) {
        return select(values, from, count, limit, out);
    }
}
