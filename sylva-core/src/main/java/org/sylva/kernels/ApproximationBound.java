package org.sylva.kernels;

/**
 * How far a float32 pre-filter value {@code a} of a pair can be from the pair's reference float64 squared
 * distance {@code s}: {@code a <= s * factor + absolute} and {@code s <= a * factor + absolute}. The stages
 * widen their thresholds by it, so a pair the pre-filter rules out is provably beyond the threshold.
 *
 * <p>Two sources of error. The kernel's float32 arithmetic is relative ({@link DistanceKernel#approximationError}
 * {@code eps}, on coordinates that are exactly the copy's). When the float32 copy is itself rounded (float64
 * coordinates that are not float32 values), every point of the copy lies within {@code r} (the copy's
 * {@link BlockedPoints#float32Rounding}) of the point it stands for, in Euclidean norm, so by the triangle
 * inequality a pair's distance in the copy is within {@code delta = 2 r} of its true distance. Squared,
 * {@code (sqrt(s) + delta)^2 <= s (1 + eps) + delta^2 (1 + 1 / eps)} (from {@code 2 sqrt(s) delta <= eps s +
 * delta^2 / eps}), so both directions hold with {@code factor = (1 + eps)^2} and
 * {@code absolute = 2 abs0 + (1 + eps) (1 + 1 / eps) delta^2}, widened by a relative {@code 1e-9} for the
 * rounding of these few operations ({@code abs0} is {@link DistanceKernel#APPROXIMATION_ABSOLUTE}, the
 * float32 underflow). With an exact copy ({@code r = 0}) the bound is the kernel's own:
 * {@code factor = 1 + eps}, {@code absolute = abs0}.
 *
 * <pre>{@code
 * ApproximationBound b = ApproximationBound.of(idx.dimensions(), idx.float32Rounding());
 * boolean beyond = tile32[c] > thr * b.factor() + b.absolute();   // then the exact value exceeds thr
 * }</pre>
 *
 * @param factor   the relative factor, at least 1
 * @param absolute the absolute slack, in squared-distance units
 */
public record ApproximationBound(double factor, double absolute) {
    /** Relative widening of the rounded copy's terms: far above the rounding of computing them. */
    private static final double MARGIN = 1e-9;

    /** The bound of approximations in {@code d} dimensions from a float32 copy within {@code rounding} of the points. */
    public static ApproximationBound of(int d, double rounding) {
        return new ApproximationBound(factor(d, rounding), absolute(d, rounding));
    }

    /** {@link #factor()} of {@link #of}{@code (d, rounding)}, for callers that keep it per point without a record. */
    public static double factor(int d, double rounding) {
        check(rounding);
        double eps = DistanceKernel.approximationError(d);
        return rounding == 0 ? 1 + eps : (1 + eps) * (1 + eps) * (1 + MARGIN);
    }

    /** {@link #absolute()} of {@link #of}{@code (d, rounding)}. */
    public static double absolute(int d, double rounding) {
        check(rounding);
        if (rounding == 0) return DistanceKernel.APPROXIMATION_ABSOLUTE;
        double eps = DistanceKernel.approximationError(d);
        double delta = 2 * rounding;
        return (2 * DistanceKernel.APPROXIMATION_ABSOLUTE + (1 + eps) * (1 + 1 / eps) * delta * delta) * (1 + MARGIN);
    }

    /**
     * The smallest float32 value not below {@code x} ({@code +inf} stays): a float32 limit that every
     * approximation at most {@code x} passes, for the pre-filters that compare float32 values with it.
     */
    public static float roundUp(double x) {
        float f = (float) x;
        return f < x ? Math.nextUp(f) : f;
    }

    private static void check(double rounding) {
        if (!(rounding >= 0) || Double.isInfinite(rounding)) {
            throw new IllegalArgumentException("rounding " + rounding);
        }
    }
}
