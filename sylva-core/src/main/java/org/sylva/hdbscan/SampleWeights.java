package org.sylva.hdbscan;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.engine.DuplicatePoints;

/**
 * Per-row sample weights for {@link Hdbscan#fit(org.sylva.data.PointSet, SampleWeights)}: a row of weight
 * {@code w} counts as {@code w} identical points, for core distances and for cluster sizes alike (what
 * fast_hdbscan's {@code sample_weights} mean), and a row of weight 0 does not take part. The fit is then,
 * bitwise, the fit of the rows repeated ({@code np.repeat(X, w, axis=0)}), computed without repeating
 * them. Weights are therefore whole numbers: a fraction of a point has no such meaning, and a weight
 * that is not a whole number is refused rather than rounded. Immutable.
 *
 * <pre>{@code
 * SampleWeights w = SampleWeights.of(1, 3, 1, 0, 2);        // or SampleWeights.of(new double[] {1.0, 3.0, ...})
 * HdbscanResult r = Hdbscan.builder().minClusterSize(3).build().fit(points, w);   // 5 rows
 * // = the fit of the 7 rows 0, 1, 1, 1, 2, 4, 4 (min_samples = min_cluster_size = 3)
 * }</pre>
 */
public final class SampleWeights {
    /** Most points the weights may sum to. */
    public static final long MAX_TOTAL = DuplicatePoints.MAX_POINTS;

    private final int[] weights;
    private final long total;

    private SampleWeights(int[] weights, long total) {
        this.weights = weights;
        this.total = total;
    }

    /**
     * Weights given as integers (copied).
     *
     * @throws InvalidInputException for a negative weight, or weights summing to more than {@link #MAX_TOTAL}
     */
    public static SampleWeights of(int... weights) {
        long total = 0;
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] < 0) throw bad(i, Integer.toString(weights[i]), "weights are whole numbers >= 0");
            total += weights[i];
        }
        return checked(weights.clone(), total);
    }

    /**
     * Weights given as floating-point numbers, each of which must be a whole number (1.0, 2.0, ...).
     *
     * @throws InvalidInputException for NaN, an infinity, a negative or fractional weight, or weights
     *     summing to more than {@link #MAX_TOTAL}
     */
    public static SampleWeights of(double[] weights) {
        int[] w = new int[weights.length];
        long total = 0;
        for (int i = 0; i < weights.length; i++) {
            double v = weights[i];
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw bad(i, Double.toString(v), "weights are whole numbers >= 0");
            }
            if (v != Math.rint(v)) {
                throw bad(i, Double.toString(v), "a row of weight w counts as w identical rows, so weights are whole "
                        + "numbers (a fraction of a point has no such meaning)");
            }
            // past the limit the rest are still checked, and the refusal states their exact sum
            if (total > MAX_TOTAL || v > MAX_TOTAL) {
                total = MAX_TOTAL + 1;
                continue;
            }
            w[i] = (int) v;
            total += w[i];
        }
        if (total > MAX_TOTAL) {
            java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
            for (double v : weights) sum = sum.add(new java.math.BigDecimal(v));   // whole numbers: exact
            throw tooMany(sum.toBigInteger().toString());
        }
        return new SampleWeights(w, total);
    }

    private static SampleWeights checked(int[] w, long total) {
        if (total > MAX_TOTAL) throw tooMany(Long.toString(total));
        return new SampleWeights(w, total);
    }

    private static InvalidInputException bad(int row, String value, String why) {
        return InvalidInputException.forParameter("sample_weight", "sample weight of row " + row + " is " + value
                + ": " + why);
    }

    private static InvalidInputException tooMany(String total) {
        return InvalidInputException.forParameter("sample_weight", "the sample weights sum to " + total
                + " points; at most " + MAX_TOTAL + " are supported");
    }

    /** Number of rows weighted. */
    public int size() {
        return weights.length;
    }

    /** The weight of row {@code i}. */
    public int weight(int i) {
        return weights[i];
    }

    /** The weights summed: the number of points a fit clusters. */
    public long total() {
        return total;
    }

    /** The weights (a fresh array). */
    public int[] toArray() {
        return weights.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SampleWeights s && Arrays.equals(weights, s.weights);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return "SampleWeights[rows=" + weights.length + ", total=" + total + "]";
    }
}
