package org.sylva.kernels;

/**
 * Whether a point set's float32 approximate squared distances are exact (for a kernel that
 * {@link DistanceKernel#approximatesByDifferences}): every coordinate an integer,
 * and the sum over the dimensions of each coordinate's squared range at most {@code 2^24}. Then every
 * difference of two coordinates is an integer of magnitude at most its range (exact in float32, the
 * inputs being exact float32 values), each square and every partial sum is an integer not above
 * {@code 2^24}, so every float32 operation of {@link DistanceKernel#approximateSquaredDistances} (any
 * summation order, fused or not) is exact, and the approximation equals the float64 reference value.
 * Count data, pixels (0–255 up to 258 dimensions) and binary vectors qualify.
 *
 * <p>Why it matters: with exact approximations two pairs tie in the pre-filter exactly when they tie in
 * the exact distance, so the neighbour search can order its approximate lists by the exact tie order and
 * keep only {@code k} entries, instead of overflowing with ties and redoing the list directly.
 *
 * <pre>{@code
 * boolean exact = IntegerGrid.exactApproximations(index, index.positions(), index::original);
 * }</pre>
 */
public final class IntegerGrid {
    /** The largest sum of squared ranges for which every partial sum stays exact in float32. */
    static final double LIMIT = 0x1p24;

    private IntegerGrid() {
    }

    /** Which positions of a blocked set hold real points (padding does not count). */
    @FunctionalInterface
    public interface RealPositions {
        /** A negative value for padding, anything else for a real point. */
        int original(int position);
    }

    /**
     * True when the float32 copy of {@code pts} exists unrounded and its approximate squared distances equal the
     * float64 reference values for every pair of the {@code positions} positions that {@code real} marks.
     */
    public static boolean exactApproximations(BlockedPoints pts, int positions, RealPositions real) {
        if (!pts.hasFloat32() || pts.float32Rounding() != 0) return false;
        int d = pts.dimensions(), w = pts.blockWidth();
        double[] data = pts.blocks();
        double[] lo = new double[d], hi = new double[d];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int p = 0; p < positions; p++) {   // in layout order: one pass over the blocks
            if (real.original(p) < 0) continue;
            int at = (p / w) * d * w + p % w;
            for (int j = 0; j < d; j++) {
                double x = data[at + j * w];
                if (x != Math.rint(x)) return false;
                if (x < lo[j]) lo[j] = x;
                if (x > hi[j]) hi[j] = x;
            }
        }
        double sum = 0.0;
        for (int j = 0; j < d; j++) {
            if (lo[j] > hi[j]) continue;   // no real point
            double r = hi[j] - lo[j];
            sum += r * r;
        }
        return sum <= LIMIT;
    }
}
