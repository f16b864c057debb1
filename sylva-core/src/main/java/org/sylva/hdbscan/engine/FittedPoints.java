package org.sylva.hdbscan.engine;

/**
 * The points a fit clusters, as every engine receives them: {@code n} rows of {@code d} float64
 * coordinates, row-major, all finite (rows left out by the non-finite policy, or by a weight of 0, are
 * already gone). The array is shared, not copied: engines only read it.
 *
 * <p>With sample weights ({@code weights != null}), row {@code i} stands for {@code weights[i] >= 1}
 * identical points, numbered consecutively in row order (the points of {@code np.repeat(rows, weights,
 * axis=0)}); the engine's core distances and spanning tree are then over those {@link #points()} points.
 * Only engines whose {@link HdbscanEngine#supportsWeights()} is true accept weighted points.
 *
 * <pre>{@code
 * FittedPoints p = new FittedPoints(new double[] {0, 0, 1, 1}, 2, 2);
 * FittedPoints twice = new FittedPoints(new double[] {0, 0, 1, 1}, 2, 2, new int[] {2, 1});   // 3 points
 * }</pre>
 *
 * @param rows {@code n * d} coordinates, row-major
 * @param n number of rows
 * @param d coordinates per point
 * @param weights points per row, each at least 1; {@code null}: one point per row
 */
public record FittedPoints(double[] rows, int n, int d, int[] weights) {
    public FittedPoints {
        if (n < 0 || d < 1 || (long) n * d != rows.length) {
            throw new IllegalArgumentException("fitted points: " + rows.length + " values for n = " + n + ", d = " + d);
        }
        if (weights != null && weights.length != n) {
            throw new IllegalArgumentException("fitted points: " + weights.length + " weights for n = " + n);
        }
    }

    /** Unweighted rows: one point each. */
    public FittedPoints(double[] rows, int n, int d) {
        this(rows, n, d, null);
    }

    /** True when rows carry weights. */
    public boolean weighted() {
        return weights != null;
    }

    /** Number of points: {@code n}, or the weights summed. */
    public long points() {
        if (weights == null) return n;
        long s = 0;
        for (int w : weights) s += w;
        return s;
    }
}
