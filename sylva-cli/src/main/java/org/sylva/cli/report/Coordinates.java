package org.sylva.cli.report;

/**
 * Row-major coordinates as a drawing reads them, one value at a time as a double: a float32 input's values, or a
 * float64 input's exactly. A float64 input is drawn from its own values, since rounding them to float32 first
 * turns finite values beyond float32's range into infinities, merges points that differ only beyond float32's
 * precision (coordinates with a large offset), and flushes tiny values to zero.
 *
 * <pre>{@code
 * Coordinates c = Coordinates.of(new double[] {1e9 + 0.25, 2});
 * double x = c.at(0);   // 1.00000000025E9, not rounded to float32
 * }</pre>
 */
@FunctionalInterface
interface Coordinates {
    /** The value at {@code index} ({@code row * d + column}). */
    double at(int index);

    /** A float32 array's values. */
    static Coordinates of(float[] values) {
        return i -> values[i];
    }

    /** A float64 array's values. */
    static Coordinates of(double[] values) {
        return i -> values[i];
    }
}
