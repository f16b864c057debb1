package org.sylva.hdbscan.engine;

/**
 * The points a fit clusters, as every engine receives them: {@code n} rows of {@code d} float64
 * coordinates, row-major, all finite (rows left out by the non-finite policy are already gone). The
 * array is shared, not copied: engines only read it.
 *
 * <pre>{@code
 * FittedPoints p = new FittedPoints(new double[] {0, 0, 1, 1}, 2, 2);
 * }</pre>
 *
 * @param rows {@code n * d} coordinates, row-major
 * @param n number of points
 * @param d coordinates per point
 */
public record FittedPoints(double[] rows, int n, int d) {
    public FittedPoints {
        if (n < 0 || d < 1 || (long) n * d != rows.length) {
            throw new IllegalArgumentException("fitted points: " + rows.length + " values for n = " + n + ", d = " + d);
        }
    }
}
